package htmlview

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
)

func mustParse(t *testing.T, s string) *engine.Board {
	t.Helper()
	b, err := engine.ParseBoard(s)
	if err != nil {
		t.Fatal(err)
	}
	return &b
}

// TestRulesBoardEveryStep holds the page to the rules' board beside the
// implementation's at a failing step on which no whole board diverged:
// the board before moved by the rules with the implementation's spawn
// (or the forced one), the board before where the rules refuse the step
// or it moves nothing, a property check's move as a case's step, and none
// where it cannot be told (an undo, a property without a move).
func TestRulesBoardEveryStep(t *testing.T) {
	before := mustParse(t, "2 2 . .\n. . . .\n. . . .\n. . . 4")
	got := mustParse(t, "4 . . .\n. 2 . .\n. . . .\n4 . . .")
	step := func(action, spawn string) *conformance.CaseInfo {
		return &conformance.CaseInfo{Steps: []conformance.StepInfo{{Action: "up"}, {Action: action, Spawn: spawn}}}
	}
	for _, c := range []struct {
		name string
		res  conformance.CaseResult
		want string // the rules' board, "" for none
	}{
		{"score", conformance.CaseResult{Case: "core/a", Area: "core", Status: conformance.ScoreDiverged, Step: 2, Reason: "move left: the score is 8, want 4", Start: before, Got: got, Info: step("left", "")},
			"4 . . .\n. 2 . .\n. . . .\n4 . . ."},
		{"forced", conformance.CaseResult{Case: "core/b", Area: "core", Status: conformance.SpawnWrong, Step: 2, Reason: "spawn", Start: before, Got: got, Info: step("left", "4 at row 2, column 2")},
			"4 . . .\n. . . .\n. . 4 .\n4 . . ."},
		{"refused", conformance.CaseResult{Case: "core/c", Area: "core", Status: conformance.IllegalHandled, Step: 2, Reason: "move left: the rules refuse it (overflow); the implementation accepted it", Start: before, Got: got, Info: step("left", "")},
			"2 2 . .\n. . . .\n. . . .\n. . . 4"},
		{"property", conformance.CaseResult{Case: "properties/metamorphic", Area: conformance.PropertiesArea, Status: conformance.ScoreDiverged, Reason: "moving left on the board loaded gained 8 points; the tiles the merges made add up to 4", Start: before, Got: got},
			"4 . . .\n. 2 . .\n. . . .\n4 . . ."},
		{"property that changes nothing", conformance.CaseResult{Case: "properties/no-spawn-after-noop", Area: conformance.PropertiesArea, Status: conformance.LegalityDiffer, Reason: "move right changes nothing on the board loaded, but the implementation reports changed true, 1 moves", Start: mustParse(t, ". . . 2\n. . . .\n. . . .\n. . . ."), Got: got},
			". . . 2\n. . . .\n. . . .\n. . . ."},
		{"property without a move", conformance.CaseResult{Case: "properties/start", Area: conformance.PropertiesArea, Status: conformance.SpawnWrong, Reason: "a new game starts with 3 tiles", Got: got}, ""},
		{"undo", conformance.CaseResult{Case: "core/d", Area: "core", Status: conformance.ScoreDiverged, Step: 2, Reason: "undo: the score is 8, want 4", Start: before, Got: got, Info: step("undo", "")}, ""},
	} {
		b, _, ok := rulesBoard(c.res)
		if ok != (c.want != "") || ok && b != *mustParse(t, c.want) {
			t.Errorf("%s: the rules' board %v (%v), want %q", c.name, b, ok, c.want)
			continue
		}
		var page bytes.Buffer
		rep := &conformance.Report{Impl: conformance.Hello{Name: "x", Profiles: []string{"classic"}}, Results: []conformance.CaseResult{c.res}}
		rep.Results[0].Profile = "classic"
		if err := Conformance(&page, rep); err != nil {
			t.Fatal(err)
		}
		if has := strings.Contains(page.String(), `<figure class="want">`); has != ok {
			t.Errorf("%s: the page draws the rules' board: %v, want %v", c.name, has, ok)
		}
	}
}
