package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// altered is the engine with each move's result changed by alter before
// it is answered: a broken implementation, wrong in one known way.
type altered struct {
	*Builtin
	alter func(dir engine.Direction, mr *MoveResult)
}

func (a altered) Move(dir engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	mr, err := a.Builtin.Move(dir, spawn)
	if err == nil {
		a.alter(dir, &mr)
	}
	return mr, err
}

// doubleScore scores every merge twice (the reference adapter's
// score-both-tiles): its boards are the rules', its points not.
func doubleScore(_ engine.Direction, mr *MoveResult) { mr.Gained *= 2 }

// upMirrored leaves the board after a move up mirrored left to right (its
// spawn too): a board the rules do not give, with the rules' points.
func upMirrored(dir engine.Direction, mr *MoveResult) {
	if dir == engine.Up && mr.Changed {
		mr.State.Board = mirrorBoard(mr.State.Board, true)
		if sp := mr.Spawn; sp != nil {
			s := *sp
			s.Col = mr.State.Board.Cols() - 1 - s.Col
			mr.Spawn = &s
		}
	}
}

// refusesUp is the engine refusing every move up.
type refusesUp struct{ *Builtin }

func (r refusesUp) Move(dir engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	if dir == engine.Up {
		return MoveResult{}, &RuleError{Code: "illegal-move", Message: "no moving up here"}
	}
	return r.Builtin.Move(dir, spawn)
}

func runProperty(t *testing.T, impl Impl, name string) CaseResult {
	t.Helper()
	rep, err := Run(t.Context(), loadRepoPack(t), impl, Options{Properties: true, Profiles: []string{"classic"}, Run: regexp.MustCompile(`^properties/` + name + `$`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 {
		t.Fatalf("%d results of properties/%s", len(rep.Results), name)
	}
	return rep.Results[0]
}

var gridLineRE = regexp.MustCompile(`(?m)^\s*(\.|\d+)(\s+(\.|\d+))+\s*$`)

// TestPropertyBoards: a property check's failure carries its boards as
// the result's fields, its words name them and hold none; the points
// gained are said only where they differ; the text report still shows
// every board.
func TestPropertyBoards(t *testing.T) {
	for _, tc := range []struct {
		impl       Impl
		name       string
		status     Status
		reason     string // the whole reason, or a prefix ending in "..."
		want, got  bool   // the rules' board and the implementation's carried
		textBoards int    // boards the text report draws
	}{
		{altered{&Builtin{}, doubleScore}, "exhaustive-lines", ScoreDiverged, "moving up on the board loaded gained 8 points; the rules give 4", false, true, 2},
		{altered{&Builtin{}, upMirrored}, "exhaustive-lines", BoardDiverged, "moving up on the board loaded slides another board than the rules'", true, true, 3},
		{refusesUp{&Builtin{}}, "exhaustive-lines", IllegalHandled, "moving up on the board loaded changes the board, but the implementation refused it", false, false, 1},
		{altered{&Builtin{}, doubleScore}, "metamorphic", ScoreDiverged, "moving up on the board loaded gained ...", false, true, 2},
	} {
		res := runProperty(t, tc.impl, tc.name)
		what := fmt.Sprintf("%s of %T", tc.name, tc.impl)
		if res.Status != tc.status {
			t.Errorf("%s: %s: %s, want %s", what, res.Status, res.Reason, tc.status)
			continue
		}
		if p, ok := strings.CutSuffix(tc.reason, "..."); ok && !strings.HasPrefix(res.Reason, p) || !ok && res.Reason != tc.reason {
			t.Errorf("%s: the reason %q, want %q", what, res.Reason, tc.reason)
		}
		if strings.Contains(res.Reason, "\n") || gridLineRE.MatchString(res.Reason) {
			t.Errorf("%s: a board in the words: %q", what, res.Reason)
		}
		if res.Start == nil || (res.Want != nil) != tc.want || (res.Got != nil) != tc.got {
			t.Errorf("%s: the boards start %v, want %v, got %v", what, res.Start != nil, res.Want != nil, res.Got != nil)
			continue
		}
		if want, _ := res.Start.Slide(engine.Up); !want.Changed {
			t.Errorf("%s: moving up does not change the board loaded:\n%s", what, res.Start)
		}
		// The text report: the board loaded drawn once (in the reason's
		// lines or beside the others), four rows of boards in all.
		rep := Report{Results: []CaseResult{res}}
		var b bytes.Buffer
		rep.WriteText(&b, false)
		var rows []string
		for _, line := range strings.Split(b.String(), "\n") {
			if boardRowRE.MatchString(line) {
				rows = append(rows, strings.TrimSpace(line))
			}
		}
		if strings.Contains(b.String(), "(:0)") {
			t.Errorf("%s: a place of no file in the text report:\n%s", what, b.String())
		}
		if tc.textBoards > 1 && !regexp.MustCompile(`(?m)^ *the board loaded  +the `).MatchString(b.String()) {
			t.Errorf("%s: a property's board captioned as a case's step:\n%s", what, b.String())
		}
		first := strings.TrimSpace(strings.Split(res.Start.String(), "\n")[0])
		if len(rows) != 4 || !strings.HasPrefix(rows[0], first) {
			t.Errorf("%s: the text report's boards:\n%s", what, b.String())
			continue
		}
		if n := len(strings.Fields(rows[0])); tc.textBoards*4 != n && tc.textBoards*4+1 != n { // "<" after a row that differs
			t.Errorf("%s: %d cells a row in the text report, want %d boards:\n%s", what, n, tc.textBoards, b.String())
		}
	}
}

// boardRowRE is a line of the text report drawing boards: cells (and a
// "<" after a row that differs).
var boardRowRE = regexp.MustCompile(`^\s*(\.|\d+)(\s+(\.|\d+|<))+\s*$`)

// TestPropertyInfo holds every property check to a description and a
// source cited as a case's must be (checkSource), and a failing
// property's result to carrying them after Describe, as a case's does.
func TestPropertyInfo(t *testing.T) {
	for _, p := range properties {
		info := propertyInfo(p.name)
		if info == nil || info.Description == "" {
			t.Errorf("property %s: no description", p.name)
			continue
		}
		if err := checkSource(info.Source); err != nil {
			t.Errorf("property %s: source %q: %v", p.name, info.Source, err)
		}
	}
	if propertyInfo("no-such-property") != nil {
		t.Error("a name that is no property has info")
	}
	rep := &Report{Results: []CaseResult{
		{Case: "properties/exhaustive-lines", Area: PropertiesArea, Status: BoardDiverged},
		{Case: "properties/metamorphic", Area: PropertiesArea, Status: Pass},
	}}
	rep.Describe(&Pack{})
	if got, want := rep.Results[0].Info, propertyInfo("exhaustive-lines"); got == nil || got.Description != want.Description || got.Source != want.Source {
		t.Errorf("a failing property's info: %+v", got)
	}
	if rep.Results[1].Info != nil {
		t.Errorf("a passing property carries info: %+v", rep.Results[1].Info)
	}
	j, err := json.Marshal(rep.Results[0])
	if err != nil || !strings.Contains(string(j), `"description":"every line of 4 cells`) || !strings.Contains(string(j), `"source":"tileproof, docs/profiles.md`) {
		t.Errorf("the JSON report of a failing property: %s, %v", j, err)
	}
}

// TestSameSeedSameGameSays: same-seed-same-game says what differs from
// tp1's game where it first does: a wrong slide is not blamed on the
// generator, a wrong spawn is named with tp1's, and a game said to be
// over while tp1's plays on is caught at that move.
func TestSameSeedSameGameSays(t *testing.T) {
	otherSpawnAt5 := func(_ engine.Direction, mr *MoveResult) {
		if sp := mr.Spawn; sp != nil && mr.State.Moves == 5 {
			s := *sp
			s.Value = 6 - s.Value // 2 for 4, 4 for 2
			mr.State.Board.Set(s.Row, s.Col, s.Value)
			mr.Spawn = &s
		}
	}
	for _, tc := range []struct {
		impl   Impl
		status Status
		reason *regexp.Regexp
	}{
		{altered{&Builtin{}, upMirrored}, BoardDiverged, regexp.MustCompile(`^seed "tileproof-property", move \d+ \(up\): the board after the slide is not the rules' \(a slide or a merge: not tp1's spawn\)$`)},
		{altered{&Builtin{}, otherSpawnAt5}, BoardDiverged, regexp.MustCompile(`^seed "tileproof-property", move 5 \(\w+\): the spawn is (2|4) at row \d, column \d; tp1's is (2|4) at row \d, column \d$`)},
		{overAt30{&Builtin{}}, FlagsDiffer, regexp.MustCompile(`^seed "tileproof-property", after 30 moves: the implementation says the game is over; tp1's game plays on$`)},
	} {
		res := runProperty(t, tc.impl, "same-seed-same-game")
		if res.Status != tc.status || !tc.reason.MatchString(res.Reason) {
			t.Errorf("%T: %s: %s, want %s matching %s", tc.impl, res.Status, res.Reason, tc.status, tc.reason)
		}
		if tc.status == BoardDiverged && (res.Start == nil || res.Want == nil || res.Got == nil) {
			t.Errorf("%T: the boards: start %v, want %v, got %v", tc.impl, res.Start != nil, res.Want != nil, res.Got != nil)
		}
	}
	if res := runProperty(t, &Builtin{}, "same-seed-same-game"); res.Status != Pass {
		t.Errorf("the engine: %s: %s", res.Status, res.Reason)
	}
}
