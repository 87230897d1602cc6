package conformance

import (
	"fmt"
	"strings"

	"github.com/tileproof/tileproof/engine"
)

// Lint runs every case of a pack against the built-in engine, twice with
// different spawn generators, and returns a line for each case that fails
// (the case or the engine is wrong) or whose outcome depends on the random
// spawn (an expectation the case cannot make without forcing the spawn).
func Lint(pack *Pack) []string {
	var problems []string
	first, err1 := Run(pack, &Builtin{Seed: "lint-a"}, Options{})
	second, err2 := Run(pack, &Builtin{Seed: "lint-b"}, Options{})
	if err1 != nil || err2 != nil {
		return []string{fmt.Sprint("running the pack: ", err1, err2)}
	}
	for i, res := range first.Results {
		other := second.Results[i]
		switch {
		case res.Status.Failed():
			msg := fmt.Sprintf("%s:%d: %s [%s]: %s at step %d: %s", res.File, res.Line, res.Case, res.Profile, res.Status, res.Step, res.Reason)
			if res.Diff != "" {
				msg += "\n" + indent(strings.TrimRight(res.Diff, "\n"), "    ")
			}
			problems = append(problems, msg)
		case other.Status != res.Status:
			problems = append(problems, fmt.Sprintf("%s:%d: %s [%s]: the outcome depends on the random spawn (%s, then %s: %s); force the spawn", res.File, res.Line, res.Case, res.Profile, res.Status, other.Status, other.Reason))
		case res.Status == Skip:
			problems = append(problems, fmt.Sprintf("%s:%d: %s [%s]: skipped by the engine: %s", res.File, res.Line, res.Case, res.Profile, res.Reason))
		}
	}
	for _, c := range pack.Cases {
		for _, p := range c.Profiles {
			if p != "all" && !isProfile(p) {
				problems = append(problems, fmt.Sprintf("%s:%d: %s: no built-in profile %q", c.File, c.Line, c.Name(), p))
			}
		}
	}
	return problems
}

func isProfile(name string) bool {
	_, err := engine.BuiltinProfile(name)
	return err == nil
}

// ProfileYAML writes a profile in the YAML form engine.ParseProfile reads.
func ProfileYAML(p *engine.Profile) []byte {
	var sb strings.Builder
	q := func(s string) string { return yamlString(s) }
	fmt.Fprintf(&sb, "name: %s\nversion: %d\ntitle: %s\nsource: %s\ndescription: %s\n", p.Name, p.Version, q(p.Title), q(p.Source), q(p.Description))
	fmt.Fprintf(&sb, "rows: %d\ncols: %d\nstartTiles: %d\nspawn: {", p.Rows, p.Cols, p.StartTiles)
	for i, w := range p.Spawn {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%d: %d", w.Value, w.Weight)
	}
	fmt.Fprintf(&sb, "}\nwin: {tile: %d, when: %s, then: %s}\n", p.Win.Tile, p.Win.When, p.Win.Then)
	if len(p.Targets) > 0 {
		fmt.Fprintf(&sb, "targets: %v\n", strings.ReplaceAll(fmt.Sprint(p.Targets), " ", ", "))
	}
	fmt.Fprintf(&sb, "openEnded: %v\nillegalMove: %s\nmoveLimit: %d\nundo: %v\nendRun: %v\n", p.OpenEnded, p.Illegal, p.MoveLimit, p.Undo, p.EndRun)
	return []byte(sb.String())
}
