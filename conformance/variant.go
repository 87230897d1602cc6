package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay/batchfiles"
)

// A variant is a profile that is not built in: an implementation's own
// rules, given as a profile file. It gets the whole suite: every case of
// the pack whose start and steps it can play, with the expectations the
// engine gives under the variant's rules (a case's own expectations hold
// for the profiles it names, and lint holds them there), and the property
// checks.

// isProfileFile reports whether a declared profile names a file: a path
// (it holds a "/") or a name ending in .yaml or .yml.
func isProfileFile(declared string) bool {
	return strings.Contains(declared, "/") || strings.HasSuffix(declared, ".yaml") || strings.HasSuffix(declared, ".yml")
}

// readProfileFile reads a profile file the user named, its path relative
// to the directory the runner runs in; what says whose file it is. It is
// read as the command reads one (batchfiles.ReadRegular): only a regular
// file of at most engine.MaxProfileFile bytes; a device, a FIFO or a
// directory is refused without being read or waited on.
func readProfileFile(path, what string) (*engine.Profile, error) {
	data, err := batchfiles.ReadRegular(path, engine.MaxProfileFile)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return engine.ParseProfile(path, data)
}

// namedFile is a profile file the run was asked for by its path.
type namedFile struct {
	path    string
	info    os.FileInfo
	profile *engine.Profile
}

// sameFile reports whether a path an implementation declares is the
// file f the user named: the same path once cleaned, or the same file.
// The declared path is at most looked up (os.Stat), never opened.
func (f namedFile) sameFile(declared string) bool {
	if filepath.Clean(declared) == filepath.Clean(f.path) {
		return true
	}
	fi, err := os.Stat(declared)
	return err == nil && os.SameFile(fi, f.info)
}

func isBuiltin(name string) bool { return slices.Contains(engine.BuiltinNames(), name) }

// derive returns case c as it runs under variant v, its expectations the
// engine's under v's rules, or why it cannot run there: a board of
// another size, an action v lacks, a start kept playing where v's win
// ends the run, a forced spawn v never makes, a setup v does not offer,
// or expectations that depend on a spawn the case does not force (the
// case is derived twice, on two generators, and must come out the same).
// None is a gap the implementation leaves: the runner reports such a
// case not applicable.
func derive(c *Case, v *engine.Profile) (*Case, string) {
	if b := c.Start.Board; b != nil && (b.Rows() != v.Rows || b.Cols() != v.Cols) {
		return nil, fmt.Sprintf("its start board is %dx%d; profile %s plays on %dx%d", b.Rows(), b.Cols(), v.Name, v.Rows, v.Cols)
	}
	for _, st := range c.Steps {
		switch {
		case st.Action == "undo" && !v.Undo, st.Action == "end-run" && !v.EndRun, st.Action == "keep-playing" && v.Win.Then != engine.Ask:
			return nil, fmt.Sprintf("profile %s has no %s", v.Name, st.Action)
		case st.Spawn != nil && !v.SpawnValue(st.Spawn.Value):
			return nil, fmt.Sprintf("it forces a spawn of %d; profile %s spawns %s", st.Spawn.Value, v.Name, v.SpawnValues())
		}
	}
	if c.Start.KeepPlaying && v.Win.Then == engine.Stop {
		// No game of v reaches it: v's win ends the run, with no keep
		// playing to choose. The engine ends it (protocol rule 7), and the
		// case's steps were written for a game played on.
		return nil, fmt.Sprintf("it starts from a win kept playing; profile %s's win ends the run (win.then stop)", v.Name)
	}
	if c.Start.Setup != nil {
		if _, err := v.WithSetup(*c.Start.Setup); err != nil {
			return nil, err.Error()
		}
	}
	var first *Case
	for _, seed := range []string{"derive-a", "derive-b"} {
		d, reason := deriveOnce(c, v, seed)
		switch {
		case d == nil:
			return nil, reason
		case first == nil:
			first = d
		case !reflect.DeepEqual(first.Steps, d.Steps):
			return nil, fmt.Sprintf("under profile %s its expectations depend on a spawn it does not force", v.Name)
		}
	}
	return first, ""
}

// deriveOnce plays case c on the engine under v, the spawns it does not
// force drawn from seed, and returns it with the engine's expectations in
// place of its own: the same fields, the engine's values.
func deriveOnce(c *Case, v *engine.Profile, seed string) (*Case, string) {
	b := &Builtin{Seed: seed, Profiles: []*engine.Profile{v}}
	s := &session{impl: b, profile: v}
	var res CaseResult
	if !s.start(c.Start, &res) {
		return nil, fmt.Sprintf("profile %s cannot start it: %s", v.Name, res.Reason)
	}
	d := *c
	d.Steps = make([]CaseStep, len(c.Steps))
	for i, step := range c.Steps {
		out, ok := s.play(step, i+1, &res)
		if !ok {
			return nil, fmt.Sprintf("step %d does not play under profile %s: %s", i+1, v.Name, res.Reason)
		}
		step.Expect = engineExpect(step.Expect, out, b.game)
		d.Steps[i] = step
	}
	return &d, ""
}

// engineExpect returns the expectations e names, with the values the
// engine gave: its outcome out of the step and its game g after. A
// refused step expects the refusal, and the state after it only when e
// expects no refusal; a row or a cell off the board is not expected.
func engineExpect(e Expect, out outcome, g *engine.Game) Expect {
	if out.Refusal != nil && e.Error != "" {
		return Expect{Error: out.Refusal.Code}
	}
	var x Expect
	expectState(&x, g)
	maxTile := g.Board().MaxTile()
	x.MaxTile = &maxTile
	if out.Refusal != nil {
		x.Error = out.Refusal.Code
	} else {
		slid := g.Board()
		if mr := out.Move; mr != nil {
			slid = mr.slid()
			spawned := mr.Spawn != nil
			x.Changed, x.Gained, x.Spawned = &mr.Changed, &mr.Gained, &spawned
		}
		x.Board = &slid
		if r := e.Row; r != nil && r.Index < slid.Rows() {
			x.Row = &RowExpect{Index: r.Index, Cells: make([]*uint64, slid.Cols())}
			for col := range x.Row.Cells {
				if v := slid.At(r.Index, col); v != 0 {
					x.Row.Cells[col] = &v
				}
			}
		}
		if c := e.Cell; c != nil && c.Row < slid.Rows() && c.Col < slid.Cols() {
			x.Cell = &CellExpect{Row: c.Row, Col: c.Col, Value: slid.At(c.Row, c.Col)}
		}
	}
	// Only the fields e names (Error is the engine's either way).
	xv, ev := reflect.ValueOf(&x).Elem(), reflect.ValueOf(e)
	for i := range ev.NumField() {
		if ev.Field(i).Kind() == reflect.Pointer && ev.Field(i).IsNil() {
			xv.Field(i).SetZero()
		}
	}
	return x
}
