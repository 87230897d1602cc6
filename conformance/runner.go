package conformance

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/boardfmt"
)

// ProtocolVersion is the exec protocol version this runner speaks.
const ProtocolVersion = 1

// Status is the outcome of one case under one profile.
type Status string

// The statuses. Pass and Skip are not failures; the rest are.
const (
	Pass           Status = "pass"
	Skip           Status = "skip"
	BoardDiverged  Status = "board-diverged"
	ScoreDiverged  Status = "score-diverged"
	FlagsDiffer    Status = "flags-differ"
	LegalityDiffer Status = "legality-differs"
	IllegalHandled Status = "illegal-move-handling-differs"
	SpawnWrong     Status = "spawn-wrong"
	Crash          Status = "crash"
	Timeout        Status = "timeout"
	ProtocolError  Status = "protocol-error"
)

// Failed reports whether the status is a failure (an empty status, not
// yet decided, is not).
func (s Status) Failed() bool { return s != Pass && s != Skip && s != "" }

// Result is one case's outcome under one profile.
type Result struct {
	Case    string `json:"case"` // AREA/ID
	Area    string `json:"area"`
	Profile string `json:"profile"`
	Status  Status `json:"status"`
	Reason  string `json:"reason,omitempty"` // why it was skipped, or what went wrong
	Step    int    `json:"step,omitempty"`   // the 1-based step that failed
	Diff    string `json:"diff,omitempty"`   // go-cmp: - the rules, + the implementation
	// Start, Want and Got are filled when a whole board diverged: the
	// board the failing step started from (empty when unknown), the board
	// the rules give and the one the implementation produced, as text
	// grids (engine.Board.String). Reports written before these fields
	// existed read back with them empty.
	Start string `json:"start,omitempty"`
	Want  string `json:"want,omitempty"`
	Got   string `json:"got,omitempty"`
	File  string `json:"file,omitempty"`
	Line  int    `json:"line,omitempty"`
	// Expected is the known-deviation reason of an expected failure (it
	// does not fail the run), or of a case that was expected to fail and
	// passed (an unexpected pass).
	Expected string `json:"expected,omitempty"`
}

// Key identifies a result across runs: CASE@PROFILE.
func (r Result) Key() string { return r.Case + "@" + r.Profile }

// Options select and shape a run.
type Options struct {
	Profiles []string       // the profiles to run; nil: every profile the implementation declares
	Run      *regexp.Regexp // run only the cases whose AREA/ID matches; nil: all
	// Expectations are known deviations: CASE or CASE@PROFILE to the
	// reason the implementation fails it.
	Expectations map[string]string
	// Properties runs the property checks and the exhaustive line check
	// after the cases.
	Properties bool
}

// Report is the outcome of a run.
type Report struct {
	Impl        Hello         `json:"impl"`
	Pack        string        `json:"pack"`
	PackVersion string        `json:"packVersion"`
	Contract    int           `json:"contract"`
	Results     []Result      `json:"results"`
	Duration    time.Duration `json:"durationNs"`
}

// Failures returns the failed results that were not expected, and the
// expected failures that passed.
func (r *Report) Failures() (unexpected, unexpectedPasses []Result) {
	for _, res := range r.Results {
		switch {
		case res.Status.Failed() && res.Expected == "":
			unexpected = append(unexpected, res)
		case res.Status == Pass && res.Expected != "":
			unexpectedPasses = append(unexpectedPasses, res)
		}
	}
	return unexpected, unexpectedPasses
}

// helloOf asks the implementation what it is and checks it speaks this
// runner's protocol.
func helloOf(impl Impl) (Hello, error) {
	hello, err := impl.Hello()
	if err != nil {
		return hello, fmt.Errorf("hello: %w", err)
	}
	if hello.Protocol != 0 && hello.Protocol != ProtocolVersion {
		return hello, fmt.Errorf("the implementation speaks protocol %d; this runner speaks %d", hello.Protocol, ProtocolVersion)
	}
	return hello, nil
}

// Run runs a pack against an implementation.
func Run(pack *Pack, impl Impl, opts Options) (*Report, error) {
	start := time.Now()
	hello, err := helloOf(impl)
	if err != nil {
		return nil, err
	}
	rep := &Report{Impl: hello, Pack: pack.Name, PackVersion: pack.Version, Contract: pack.Contract}
	profiles := hello.Profiles
	if opts.Profiles != nil {
		profiles = nil
		for _, p := range opts.Profiles {
			if !slices.Contains(hello.Profiles, p) {
				return nil, fmt.Errorf("the implementation does not declare profile %q (it declares %s)", p, strings.Join(hello.Profiles, ", "))
			}
			profiles = append(profiles, p)
		}
	}
	for _, c := range pack.Cases {
		if opts.Run != nil && !opts.Run.MatchString(c.Name()) {
			continue
		}
		for _, p := range profiles {
			if !c.AppliesTo(p) {
				continue
			}
			res := Result{Case: c.Name(), Area: c.Area, Profile: p, File: c.File, Line: c.Line}
			if reason := missingReason(hello, c.Needs); reason != "" {
				res.Status, res.Reason = Skip, reason
			} else {
				runCase(impl, c, p, &res)
			}
			rep.add(res, opts.Expectations)
		}
	}
	if opts.Properties {
		for _, p := range profiles {
			for _, res := range runProperties(impl, hello, p, opts.Run) {
				rep.add(res, opts.Expectations)
			}
		}
	}
	rep.Duration = time.Since(start)
	return rep, nil
}

func (r *Report) add(res Result, expectations map[string]string) {
	if why, ok := expectations[res.Key()]; ok {
		res.Expected = why
	} else if why, ok := expectations[res.Case]; ok {
		res.Expected = why
	}
	r.Results = append(r.Results, res)
}

// missingFeatures returns the features of needs that h does not declare.
func missingFeatures(h Hello, needs []string) []string {
	var missing []string
	for _, f := range needs {
		if !h.Has(f) {
			missing = append(missing, f)
		}
	}
	return missing
}

// missingReason returns why a check that needs these features is skipped
// for an implementation that declares h ("needs load-state, seed-tp1"),
// or "" when it declares them all.
func missingReason(h Hello, needs []string) string {
	if missing := missingFeatures(h, needs); len(missing) > 0 {
		return "needs " + strings.Join(missing, ", ")
	}
	return ""
}

// fail records a failure at step (1-based).
func (res *Result) fail(status Status, step int, diff, format string, args ...any) {
	res.Status, res.Step, res.Diff, res.Reason = status, step, diff, fmt.Sprintf(format, args...)
}

// failBoards records a failure at step where a whole board diverged:
// start (nil when unknown) is the board the step started from, want the
// board the rules give, got the implementation's.
func (res *Result) failBoards(status Status, step int, start *engine.Board, want, got engine.Board, format string, args ...any) {
	res.fail(status, step, boardfmt.Diff(want, got), format, args...)
	res.Start, res.Want, res.Got = "", want.String(), got.String()
	if start != nil {
		res.Start = start.String()
	}
}

// driverFailure records a driver error as the case's result; it returns
// false for other errors.
func (res *Result) driverFailure(err error, step int, what string) bool {
	var de *DriverError
	if errors.As(err, &de) {
		res.fail(de.Status, step, "", "%s: %s", what, de.Msg)
		return true
	}
	return false
}

// callFailed records a call to the implementation that failed other than
// by a rule's refusal: a driver error (crash, timeout, protocol error) as
// its status, any other error as a protocol error.
func (res *Result) callFailed(err error, step int, what string) {
	if !res.driverFailure(err, step, what) {
		res.fail(ProtocolError, step, "", "%s: %v", what, err)
	}
}

func runCase(impl Impl, c *Case, profile string, res *Result) {
	var st State
	var err error
	if c.Start.Board != nil {
		s := c.Start
		st, err = impl.Load(profile, LoadState{Setup: s.Setup, Board: *s.Board, Score: s.Score, Moves: s.Moves, Won: s.Won, KeepPlaying: s.KeepPlaying})
	} else {
		st, err = impl.New(profile, *c.Start.Seed, c.Start.Setup)
	}
	if err != nil {
		res.callFailed(err, 0, "the start state")
		return
	}
	p, _ := engine.BuiltinProfile(profile)
	for i, step := range c.Steps {
		if !runStep(impl, p, step, i+1, &st, res) {
			return
		}
	}
	res.Status = Pass
}

// runStep runs one step of a case (or of an explored game) against the
// implementation from state st, updating st, and reports whether it
// passed; a failure is recorded in res.
func runStep(impl Impl, p *engine.Profile, step Step, n int, st *State, res *Result) bool {
	var mr *MoveResult
	var refusal *RuleError
	what := stepName(step)
	before := st.Board
	switch {
	case step.Move != nil:
		r, err := impl.Move(*step.Move, step.Spawn)
		switch {
		case err == nil:
			mr = &r
		case !errors.As(err, &refusal):
			res.callFailed(err, n, what)
			return false
		}
	case step.Action != "":
		s, err := impl.Do(step.Action)
		switch {
		case err == nil:
			*st = s
		case !errors.As(err, &refusal):
			res.callFailed(err, n, what)
			return false
		}
	}
	e := step.Expect
	switch {
	case e.Error == "" && refusal == nil:
	case refusal == nil:
		res.fail(IllegalHandled, n, "", "%s: the rules refuse it (%s); the implementation accepted it", what, e.Error)
		return false
	case e.Error == "":
		res.fail(IllegalHandled, n, "", "%s: the rules accept it; the implementation refused it: %s", what, refusal)
		return false
	case refusal.Code != e.Error:
		res.fail(IllegalHandled, n, "", "%s: the rules refuse it as %s; the implementation as %s (%s)", what, e.Error, refusal.Code, refusal.Message)
		return false
	}
	slid := st.Board
	if mr != nil {
		if !checkSpawn(p, st.Board, *step.Move, step.Spawn, mr, res, n) {
			return false
		}
		*st, slid = mr.State, mr.Slid()
	}
	return checkExpect(impl, e, mr, before, slid, *st, res, n, what)
}

func stepName(st Step) string {
	switch {
	case st.Move != nil:
		return "move " + st.Move.String()
	case st.Action != "":
		return st.Action
	}
	return "check"
}

// checkSpawn checks the tile a move reports spawning, as every move gets
// checked: one tile after a move that changed the board, none after one
// that did not, in a cell the slide left empty, of a value the profile
// spawns, where a forced spawn said.
func checkSpawn(p *engine.Profile, before engine.Board, d engine.Direction, forced *engine.Spawn, mr *MoveResult, res *Result, n int) bool {
	sp, board := mr.Spawn, mr.State.Board
	switch {
	case !mr.Changed && sp != nil:
		res.fail(SpawnWrong, n, "", "move %s changed nothing but a %d spawned at row %d, column %d", d, sp.Value, sp.Row, sp.Col)
	case mr.Changed && sp == nil:
		res.fail(SpawnWrong, n, "", "move %s changed the board but reported no spawn", d)
	case sp == nil:
		if board != before {
			res.failBoards(BoardDiverged, n, &before, before, board, "move %s changed nothing, yet the board changed", d)
		}
	case sp.Row < 0 || sp.Row >= board.Rows() || sp.Col < 0 || sp.Col >= board.Cols():
		res.fail(SpawnWrong, n, "", "the spawn at row %d, column %d is off the board", sp.Row, sp.Col)
	case board.At(sp.Row, sp.Col) != sp.Value:
		res.fail(SpawnWrong, n, "", "the spawn is reported as %d at row %d, column %d, but the board holds %d there", sp.Value, sp.Row, sp.Col, board.At(sp.Row, sp.Col))
	case p != nil && !p.SpawnValue(sp.Value):
		res.fail(SpawnWrong, n, "", "a %d spawned; profile %s spawns only %s", sp.Value, p.Name, p.SpawnValues())
	case forced != nil && *forced != *sp:
		res.fail(SpawnWrong, n, "", "the spawn was forced to %d at row %d, column %d; it is %d at row %d, column %d", forced.Value, forced.Row, forced.Col, sp.Value, sp.Row, sp.Col)
	}
	// (A spawn in a cell the slide did not leave empty shows as a board
	// divergence: the board minus the spawn is not the slide.)
	return !res.Status.Failed()
}

// checkExpect compares one step's expectations; the board comparisons
// first, since a wrong board explains the rest.
func checkExpect(impl Impl, e Expect, mr *MoveResult, before, slid engine.Board, st State, res *Result, n int, what string) bool {
	if e.Board != nil && *e.Board != slid {
		res.failBoards(BoardDiverged, n, &before, *e.Board, slid, "%s: the board after the slide differs", what)
		return false
	}
	if e.After != nil && *e.After != st.Board {
		res.failBoards(BoardDiverged, n, &before, *e.After, st.Board, "%s: the board after the step differs", what)
		return false
	}
	if r := e.Row; r != nil {
		got := make([]*uint64, slid.Cols())
		want := make([]uint64, len(r.Cells))
		match := r.Index < slid.Rows() && len(r.Cells) == slid.Cols()
		for c := range got {
			v := slid.At(min(r.Index, slid.Rows()-1), c)
			got[c] = &v
		}
		for c, v := range r.Cells {
			if v != nil {
				want[c] = *v
			}
			match = match && c < len(got) && want[c] == *got[c]
		}
		if !match {
			res.fail(BoardDiverged, n, "", "%s: row %d after the slide is %v, want %v", what, r.Index, derefAll(got), want)
			return false
		}
	}
	if c := e.Cell; c != nil {
		if c.Row >= slid.Rows() || c.Col >= slid.Cols() || slid.At(c.Row, c.Col) != c.Value {
			res.fail(BoardDiverged, n, "", "%s: cell (%d, %d) after the slide is not %d\n%s", what, c.Row, c.Col, c.Value, slid)
			return false
		}
	}
	if mr != nil {
		if e.Changed != nil && *e.Changed != mr.Changed {
			res.fail(LegalityDiffer, n, "", "%s: changed is %v, want %v", what, mr.Changed, *e.Changed)
			return false
		}
		if e.Gained != nil && *e.Gained != mr.Gained {
			res.fail(ScoreDiverged, n, "", "%s: gained %d points, want %d", what, mr.Gained, *e.Gained)
			return false
		}
		if e.Spawned != nil && *e.Spawned != (mr.Spawn != nil) {
			res.fail(SpawnWrong, n, "", "%s: spawned is %v, want %v", what, mr.Spawn != nil, *e.Spawned)
			return false
		}
	}
	if e.Score != nil && *e.Score != st.Score {
		res.fail(ScoreDiverged, n, "", "%s: the score is %d, want %d", what, st.Score, *e.Score)
		return false
	}
	if e.MaxTile != nil && *e.MaxTile != st.Board.MaxTile() {
		res.fail(ScoreDiverged, n, "", "%s: the largest tile is %d, want %d", what, st.Board.MaxTile(), *e.MaxTile)
		return false
	}
	if e.Moves != nil && *e.Moves != st.Moves {
		res.fail(LegalityDiffer, n, "", "%s: %d counted moves, want %d", what, st.Moves, *e.Moves)
		return false
	}
	if e.Won != nil && *e.Won != st.Won {
		res.fail(FlagsDiffer, n, "", "%s: won is %v, want %v", what, st.Won, *e.Won)
		return false
	}
	if e.Over != nil && *e.Over != st.Over {
		res.fail(FlagsDiffer, n, "", "%s: over is %v, want %v", what, st.Over, *e.Over)
		return false
	}
	if e.Result != nil && st.Result != "" {
		want, _ := e.Result.MarshalText()
		if string(want) != st.Result {
			res.fail(FlagsDiffer, n, "", "%s: the result is %s, want %s", what, st.Result, want)
			return false
		}
	}
	if e.Legal != nil {
		got, err := impl.Legal()
		if err != nil {
			res.callFailed(err, n, "legal")
			return false
		}
		if !sameDirections(got, *e.Legal) {
			res.fail(LegalityDiffer, n, "", "%s: the legal moves are %v, want %v", what, got, *e.Legal)
			return false
		}
	}
	return true
}

func derefAll(p []*uint64) []uint64 {
	out := make([]uint64, len(p))
	for i, v := range p {
		out[i] = *v
	}
	return out
}

func sameDirections(a, b []engine.Direction) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
