package conformance

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/safetext"
)

// FoundCase is a divergence shrunk to a case of the pack's format.
type FoundCase struct {
	ID    string
	YAML  []byte // the case file
	Case  *Case  // YAML, parsed back
	Moves int    // moves (and checks) of the case
	Tiles int    // tiles on its start board; 0 for a seeded start
	// Result is the case run against the implementation with the normal
	// runner: a failure of the divergence's kind, unless the divergence
	// did not reproduce (Reproduced false).
	Result     CaseResult
	Reproduced bool
	Runs       int    // case runs the shrinking made
	File       string // where WriteCases wrote it
}

// writeCase runs the candidate against the implementation, writes it as a
// case file with that result, parses it back and runs it against the
// engine (it must pass).
func (x *explorer) writeCase(d *ExploreDivergence, rep *Exploration, c candidate, s *shrinker, reproduced bool) (*FoundCase, error) {
	steps, err := c.build(x.p)
	if err != nil {
		return nil, fmt.Errorf("exploration: the shrunk case of game %d does not play on the engine: %v", d.Game, err)
	}
	where := fmt.Sprintf("game %d move %d", d.Game, d.Move)
	if d.Move == 0 {
		where = fmt.Sprintf("game %d, its start", d.Game)
	}
	by, prefix, game := "explore", exploredSource, "an explored game"
	if x.observed {
		by, prefix, game = "observe", observedSource, "an observed game"
	}
	// The implementation's name, version and messages are shown as
	// safetext shows them (\x1b): a YAML document holds no control
	// character, and a case file is read on a terminal.
	name, version := safetext.Terminal(rep.Impl.Name), safetext.Terminal(rep.Impl.Version)
	source := fmt.Sprintf("%s%s (%s %s), seed %d, shrunk from %s", prefix,
		safetext.Terminal(cmp.Or(rep.ImplArg, rep.Impl.Name)), name, version, rep.Seed, where)
	if !reproduced {
		source = strings.Replace(source, "shrunk from", "not shrunk (it did not reproduce alone), from", 1)
	}
	found := &Case{Start: c.caseStart(), Steps: steps}
	// The id names the profile and the kind, and a hash of the case (its
	// start and steps as written), so that cases found in other runs do
	// not collide.
	h := fnv.New32a()
	h.Write(encodeCases("", []string{x.p.Name}, []*Case{found}))
	found.ID = fmt.Sprintf("%s-%s-%s-%08x", by, x.p.Name, d.Result.Status, h.Sum32())
	fc := &FoundCase{ID: found.ID, Moves: len(steps), Runs: s.runs, Reproduced: reproduced}
	if b := found.Start.Board; b != nil {
		fc.Tiles = b.Cells() - b.Empty()
	}
	// Run it against the implementation, once, for its result, which the
	// description and the comment give.
	runCase(x.impl, found, x.p, &fc.Result)
	res := fc.Result
	fc.Reproduced = reproduced && res.Status == s.kind
	found.Description = fmt.Sprintf("%s %s disagrees with the rules here: %s at step %d: %s", name, version, res.Status, res.Step, safetext.Terminal(firstLine(res.Reason)))
	if !res.Status.Failed() {
		found.Description = fmt.Sprintf("%s %s diverged from the rules in %s (%s: %s), but not when this case runs alone", name, version, game, d.Result.Status, safetext.Terminal(firstLine(d.Result.Reason)))
	}
	fc.YAML = append(comment(res, by), encodeCases(source, []string{x.p.Name}, []*Case{found})...)
	file := exploreArea + "/" + found.ID + ".yaml"
	cases, err := parseCases(file, fc.YAML)
	if err != nil || len(cases) != 1 {
		return nil, fmt.Errorf("exploration: the case written for game %d does not read back: %v\n%s", d.Game, err, fc.YAML)
	}
	fc.Case = cases[0]
	var onEngine CaseResult
	runCase(&Builtin{Profiles: []*engine.Profile{x.p}}, fc.Case, x.p, &onEngine)
	if onEngine.Status != Pass {
		return nil, fmt.Errorf("exploration: the case written for game %d fails against the engine: %s at step %d: %s", d.Game, onEngine.Status, onEngine.Step, onEngine.Reason)
	}
	return fc, nil
}

// comment is the head of a found case's file: how to add it to the pack,
// and what the implementation did.
func comment(got CaseResult, by string) []byte {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# Found by tileproof conform --%s. To add it to the pack, copy it to an\n", by)
	sb.WriteString("# area folder of cases/ (and give it a better id and description).\n")
	if got.Status.Failed() {
		fmt.Fprintf(&sb, "#\n# Against the implementation: %s at step %d\n#   %s\n", got.Status, got.Step, safetext.TerminalLines(got.explain("#   ")))
	}
	return []byte(sb.String())
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// Kinds returns the number of divergences of each kind.
func (r *Exploration) Kinds() map[Status]int {
	m := map[Status]int{}
	for _, d := range r.Divergences {
		m[d.Result.Status]++
	}
	return m
}

// WriteCases writes the shrunk cases into dir, a case pack: each as
// dir/explore/ID.yaml, and dir/pack.yaml when dir has none, so that
// `tileproof cases lint dir` runs them. It sets each FoundCase's File and
// returns the files written.
func (r *Exploration) WriteCases(dir string) ([]string, error) {
	var files []string
	for i := range r.Divergences {
		fc := r.Divergences[i].Found
		if fc == nil {
			continue
		}
		if len(files) == 0 {
			if err := os.MkdirAll(filepath.Join(dir, exploreArea), 0o777); err != nil {
				return files, err
			}
			pack := filepath.Join(dir, "pack.yaml")
			if _, err := os.Stat(pack); errors.Is(err, os.ErrNotExist) {
				data := fmt.Sprintf("# Cases found by tileproof conform --explore; lint them with tileproof cases lint %s.\nname: explored\nversion: 0.0.0\ncontract: %d\n", dir, contract)
				if err := os.WriteFile(pack, []byte(data), 0o666); err != nil {
					return files, err
				}
			}
		}
		file := filepath.Join(dir, exploreArea, fc.ID+".yaml")
		if err := os.WriteFile(file, fc.YAML, 0o666); err != nil {
			return files, err
		}
		fc.File = file
		files = append(files, file)
	}
	return files, nil
}
