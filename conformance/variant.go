package conformance

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tileproof/tileproof/engine"
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

// maxProfileFile is the longest profile file the runner reads.
const maxProfileFile = 1 << 20

// readProfileFile reads a profile file the user named, its path relative
// to the directory the runner runs in; what says whose file it is. Only a
// regular file of at most MaxProfileFile bytes is read: a device, a FIFO
// or a directory is refused before it is opened.
func readProfileFile(path, what string) (*engine.Profile, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %q is not a regular file (%s)", what, path, fi.Mode().Type())
	}
	if fi.Size() > maxProfileFile {
		return nil, fmt.Errorf("%s: %q is %d bytes; a profile file is at most %d", what, path, fi.Size(), maxProfileFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer f.Close()
	if ofi, err := f.Stat(); err != nil || !ofi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %q is not a regular file", what, path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxProfileFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if len(data) > maxProfileFile {
		return nil, fmt.Errorf("%s: %q is longer than %d bytes", what, path, maxProfileFile)
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
// another size, an action v lacks, a forced spawn v never makes, or
// expectations that depend on a spawn the case does not force (the case
// is derived twice, on two generators, and must come out the same).
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
		case !sameSteps(first.Steps, d.Steps):
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
	s := &Session{Impl: b, Profile: v}
	var res CaseResult
	ok := false
	if st := c.Start; st.Board != nil {
		ok = s.Load(LoadState{Setup: st.Setup, Board: *st.Board, Score: st.Score, Moves: st.Moves, Won: st.Won, KeepPlaying: st.KeepPlaying}, &res)
	} else {
		ok = s.New(*st.Seed, st.Setup, &res)
	}
	if !ok {
		return nil, fmt.Sprintf("profile %s cannot start it: %s", v.Name, res.Reason)
	}
	d := *c
	d.Steps = make([]CaseStep, len(c.Steps))
	for i, step := range c.Steps {
		out, ok := s.Play(step, i+1, &res)
		if !ok {
			return nil, fmt.Sprintf("step %d does not play under profile %s: %s", i+1, v.Name, res.Reason)
		}
		step.Expect = engineExpect(step.Expect, out, s.State, b)
		d.Steps[i] = step
	}
	return &d, ""
}

// engineExpect returns the expectations e names, with the values the
// engine gave: its outcome out of the step and its state st after.
func engineExpect(e Expect, out Outcome, st ImplState, b *Builtin) Expect {
	var x Expect
	if out.Refusal != nil {
		x.Error = out.Refusal.Code
		if e.Error == "" && expectsState(e) {
			x = stateExpect(e, st, b)
			x.Error = out.Refusal.Code
		}
		return x
	}
	x = stateExpect(e, st, b)
	mr := out.Move
	slid := st.Board
	if mr != nil {
		slid = mr.Slid()
	}
	if e.Board != nil {
		x.Board = &slid
	}
	if e.Row != nil && e.Row.Index < slid.Rows() {
		cells := make([]*uint64, slid.Cols())
		for col := range cells {
			if v := slid.At(e.Row.Index, col); v != 0 {
				cells[col] = &v
			}
		}
		x.Row = &RowExpect{Index: e.Row.Index, Cells: cells}
	}
	if e.Cell != nil && e.Cell.Row < slid.Rows() && e.Cell.Col < slid.Cols() {
		x.Cell = &CellExpect{Row: e.Cell.Row, Col: e.Cell.Col, Value: slid.At(e.Cell.Row, e.Cell.Col)}
	}
	if mr != nil {
		changed, gained, spawned := mr.Changed, mr.Gained, mr.Spawn != nil
		if e.Changed != nil {
			x.Changed = &changed
		}
		if e.Gained != nil {
			x.Gained = &gained
		}
		if e.Spawned != nil {
			x.Spawned = &spawned
		}
	}
	return x
}

// expectsState reports whether e checks the state after the step.
func expectsState(e Expect) bool {
	return e.After != nil || e.Score != nil || e.Moves != nil || e.MaxTile != nil || e.Won != nil || e.Over != nil || e.Result != nil || e.Legal != nil
}

// stateExpect returns e's expectations of the state, with the values of
// state st (legal moves from the engine b).
func stateExpect(e Expect, st ImplState, b *Builtin) Expect {
	var x Expect
	if e.After != nil {
		after := st.Board
		x.After = &after
	}
	if e.Score != nil {
		x.Score = &st.Score
	}
	if e.Moves != nil {
		x.Moves = &st.Moves
	}
	if e.MaxTile != nil {
		m := st.Board.MaxTile()
		x.MaxTile = &m
	}
	if e.Won != nil {
		x.Won = &st.Won
	}
	if e.Over != nil {
		x.Over = &st.Over
	}
	if e.Result != nil {
		var r engine.Result
		r.UnmarshalText([]byte(st.Result))
		x.Result = &r
	}
	if e.Legal != nil {
		legal, _ := b.Legal()
		if legal == nil {
			legal = []engine.Direction{}
		}
		x.Legal = &legal
	}
	return x
}

// sameSteps reports whether two derivations of a case expect the same.
func sameSteps(a, b []CaseStep) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if string(EncodeCases("", nil, []*Case{{Steps: a[i : i+1]}})) != string(EncodeCases("", nil, []*Case{{Steps: b[i : i+1]}})) {
			return false
		}
	}
	return true
}
