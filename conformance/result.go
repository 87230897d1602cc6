package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/boardfmt"
	"github.com/tileproof/tileproof/internal/safetext"
)

// Status is the outcome of one case under one profile.
type Status string

// The statuses. Pass, Skip and NotRun are not failures; the rest are.
const (
	Pass Status = "pass"
	Skip Status = "skip"
	// NotRun is a check a run cut short did not reach, or did not finish:
	// its deadline passed or it was interrupted (docs/conformance.md,
	// "Deadline and interrupts"). It is no failure of the implementation,
	// and never a pass: a run with one fails its gate.
	NotRun         Status = "not-run"
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
// yet decided, is not; nor is NotRun).
func (s Status) Failed() bool { return s != Pass && s != Skip && s != NotRun && s != "" }

// CaseResult is one case's outcome under one profile.
type CaseResult struct {
	Case    string // AREA/ID
	Area    string
	Profile string
	Status  Status
	Reason  string // why it was skipped, or what went wrong: the first mismatch's words
	Step    int    // the 1-based step that failed
	// Mismatches are every expectation the failing step missed, in the
	// order the runner compares them (the board first); the first is the
	// status's.
	Mismatches []StepMismatch
	// Start and Got are the board the failing step started from (for a
	// property check, the board it loaded) and the board the
	// implementation produced (each nil when unknown); Want, the board
	// the rules give, is set only when a whole board diverged. A
	// property's Reason names its boards ("moving up on the board
	// loaded") but does not hold them: the boards are these fields.
	Start, Want, Got *engine.Board
	File             string
	Line             int
	// Unreachable is the case's reason that no game reaches its state
	// (Case.Unreachable), "" for a reachable one: its result is reported
	// apart, and a failure on it does not fail the run by itself.
	Unreachable string
	// NotApplicable marks a skip ([Skip]) of a case the profile's own
	// rules rule out: it needs a board of another size than the
	// profile's, or keep playing, undo or End run where the profile has
	// none, and the implementation does not declare it; or of a property
	// check the suite has only for 4x4 boards, under a profile of another
	// size (Reason says which, "not applicable: ..."). It is shown where skips are, but
	// counted apart from them ([AreaSummary].NotApplicable): it is no
	// gap in what was checked, and does not fail a run under --strict.
	NotApplicable bool
	// Expected is the known-deviation reason of an expected failure (it
	// does not fail the run), or of a case that was expected to fail and
	// passed (an unexpected pass).
	Expected string
	// Info is the case's description, source, steps and YAML, on a
	// failing case's result ([Report.Describe]); nil on others.
	Info *CaseInfo
	// LegalUncompared is set when a step of the case stated legal moves
	// that went uncompared, the implementation not listing them (it
	// answers legal with unsupported-op, which the protocol allows): the
	// reports say so ([Report.LegalUncompared]).
	LegalUncompared bool
}

// StepMismatch is one expectation of a step that the implementation missed.
type StepMismatch struct {
	Field  string `json:"field"`  // board, after, row, cell, spawn, changed, gained, spawned, score, maxTile, moves, won, over, result, legal, before
	Status Status `json:"status"` // the kind of failure it is
	Want   string `json:"want"`   // what the rules give
	Got    string `json:"got"`    // what the implementation did
	Text   string `json:"text"`   // the mismatch in words
}

// The report areas of the checks that are not cases of the pack.
const (
	PropertiesArea = "properties" // the property checks
	ObserveArea    = "observe"    // the checks of observed games
)

// StartTitle captions the board a failure started from: "before step N",
// or for a property check, which has no steps, "the board loaded".
func (r CaseResult) StartTitle() string {
	if r.Area == PropertiesArea {
		return "the board loaded"
	}
	return fmt.Sprintf("before step %d", max(r.Step, 1))
}

// Key identifies a result across runs: CASE@PROFILE.
func (r CaseResult) Key() string { return r.Case + "@" + r.Profile }

// Diff returns the row-by-row difference of a board divergence's boards (- the rules,
// + the implementation); "" for other failures.
func (r CaseResult) Diff() string {
	if r.Want == nil || r.Got == nil {
		return ""
	}
	return boardfmt.Diff(*r.Want, *r.Got)
}

// summary returns a failure in words: its reason, then the step's other
// mismatches, each line after the first indented by indent. A board the
// failure started from with no board of the implementation's to draw it
// beside (a property check's board loaded, when the implementation
// refused the move) follows, as a grid: the text report draws boards
// only beside the implementation's.
func (r CaseResult) summary(indent string) string {
	var sb strings.Builder
	sb.WriteString(r.Reason)
	for _, m := range r.Mismatches[min(1, len(r.Mismatches)):] {
		sb.WriteString("\nalso " + m.Text)
	}
	if r.Start != nil && r.Got == nil {
		sb.WriteString("\nthe board loaded:\n" + r.Start.String())
	}
	return strings.ReplaceAll(sb.String(), "\n", "\n"+indent)
}

// explain returns the failure in words (its reason, then the step's
// other mismatches) and then the diff of the boards, when a board
// diverged.
func (r CaseResult) explain(indent string) string {
	s := r.summary(indent)
	if d := strings.TrimRight(r.Diff(), "\n"); d != "" {
		s += "\n" + indent + "diff (-rules +implementation):\n" + indent + "  " + strings.ReplaceAll(d, "\n", "\n"+indent+"  ")
	}
	return s
}

// resultJSON is a result's JSON form: boards as text grids, and the diff.
type resultJSON struct {
	Case       string         `json:"case"`
	Area       string         `json:"area"`
	Profile    string         `json:"profile"`
	Status     Status         `json:"status"`
	Reason     string         `json:"reason,omitempty"`
	Step       int            `json:"step,omitempty"`
	Mismatches []StepMismatch `json:"mismatches,omitempty"`
	Diff       string         `json:"diff,omitempty"`
	Start      string         `json:"start,omitempty"`
	Want       string         `json:"want,omitempty"`
	Got        string         `json:"got,omitempty"`
	File       string         `json:"file,omitempty"`
	Line       int            `json:"line,omitempty"`
	Expected   string         `json:"expected,omitempty"`
	// Added after the fields above: an older report has none of them.
	Unreachable     string `json:"unreachable,omitempty"`
	NotApplicable   bool   `json:"notApplicable,omitempty"`
	LegalUncompared bool   `json:"legalUncompared,omitempty"`
	*CaseInfo
}

// MarshalJSON writes the result with its boards as text grids.
func (r CaseResult) MarshalJSON() ([]byte, error) {
	grid := func(b *engine.Board) string {
		if b == nil {
			return ""
		}
		return b.String()
	}
	return json.Marshal(resultJSON{r.Case, r.Area, r.Profile, r.Status, r.Reason, r.Step, r.Mismatches, r.Diff(),
		grid(r.Start), grid(r.Want), grid(r.Got), r.File, r.Line, r.Expected, r.Unreachable, r.NotApplicable, r.LegalUncompared, r.Info})
}

// UnmarshalJSON reads a result MarshalJSON wrote (or an older report's,
// without boards or mismatches). A board that does not read is left out.
func (r *CaseResult) UnmarshalJSON(data []byte) error {
	var j resultJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	board := func(s string) *engine.Board {
		if s == "" {
			return nil
		}
		b, err := engine.ParseBoard(s)
		if err != nil {
			return nil
		}
		return &b
	}
	*r = CaseResult{Case: j.Case, Area: j.Area, Profile: j.Profile, Status: j.Status, Reason: j.Reason, Step: j.Step,
		Mismatches: j.Mismatches, Start: board(j.Start), Want: board(j.Want), Got: board(j.Got), File: j.File, Line: j.Line, Expected: j.Expected,
		Unreachable: j.Unreachable, NotApplicable: j.NotApplicable, LegalUncompared: j.LegalUncompared, Info: j.CaseInfo}
	return nil
}

// maxMessage bounds what a result keeps of an implementation's message
// (a refusal's, a failed call's): its first maxMessage bytes, then a note
// of how many were cut (docs/security.md). A message may be 65,536
// four-byte characters, and a run keeps one in every failing result.
const maxMessage = 4 << 10

// implMessage returns an implementation's message as a result keeps it:
// whole up to maxMessage bytes, else its first maxMessage bytes (whole
// characters), copied, and "... (N bytes cut)".
func implMessage(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	kept := safetext.Cut(s, maxMessage)
	return fmt.Sprintf("%s (%d bytes cut)", kept, len(s)-len(kept)+len("..."))
}

// fail records a failure at step (1-based) with no mismatch of its own.
func (res *CaseResult) fail(status Status, step int, format string, args ...any) {
	res.Status, res.Step, res.Reason = status, step, fmt.Sprintf(format, args...)
}

// failBoards records a failure at step where a whole board diverged:
// start (nil when unknown) is the board the step started from, want the
// board the rules give, got the implementation's.
func (res *CaseResult) failBoards(status Status, step int, start *engine.Board, want, got engine.Board, format string, args ...any) {
	res.fail(status, step, format, args...)
	res.Want, res.Got, res.Start = &want, &got, copyBoard(start)
}

// failOn records a property check's failure: start is the board it
// loaded and got the implementation's board after its move (or its new
// game), each nil when there is none; the words name the boards, which
// they do not hold.
func (res *CaseResult) failOn(status Status, start, got *engine.Board, format string, args ...any) {
	res.fail(status, 0, format, args...)
	res.Start, res.Want, res.Got = copyBoard(start), nil, copyBoard(got)
}

func copyBoard(b *engine.Board) *engine.Board {
	if b == nil {
		return nil
	}
	c := *b
	return &c
}

// stepBoards records the boards of a step that failed on a field other
// than a whole board: the one it started from and the implementation's
// after it.
func (res *CaseResult) stepBoards(before, got engine.Board) {
	res.Start, res.Got = &before, &got
}

// driverFailure records a driver error as the case's result; it returns
// false for other errors.
func (res *CaseResult) driverFailure(err error, step int, what string) bool {
	var de *DriverError
	if errors.As(err, &de) && de.Status == NotRun {
		res.Status, res.Reason = NotRun, implMessage(de.Msg) // the run's end, not the step's
		return true
	}
	if errors.As(err, &de) {
		res.fail(de.Status, step, "%s: %s", what, implMessage(de.Msg))
		return true
	}
	return false
}

// callFailed records a call to the implementation that failed other than
// by a rule's refusal: a driver error (crash, timeout, protocol error) as
// its status, any other error as a protocol error.
func (res *CaseResult) callFailed(err error, step int, what string) {
	if !res.driverFailure(err, step, what) {
		res.fail(ProtocolError, step, "%s: %s", what, implMessage(err.Error()))
	}
}
