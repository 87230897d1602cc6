package conformance

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// TestOldReportReads reads reports written by earlier versions (the
// checked-in baseline of the original 2048, and one with a board
// divergence as reports had them before results carried mismatches) and
// checks every result against the file's own JSON, read independently:
// the case, the status and the boards survive. It then checks that
// Compare finds a regression and a fix made in a copy.
func TestOldReportReads(t *testing.T) {
	for _, file := range []string{"adapters/original-2048.report.json", "testdata/report-before-mismatches.json"} {
		t.Run(file, func(t *testing.T) { checkOldReport(t, file) })
	}
}

func checkOldReport(t *testing.T, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(file)
	defer f.Close()
	base, err := ReadReport(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(base.Results) == 0 || len(base.Results) != len(raw.Results) {
		t.Fatalf("%d results read, %d in the file", len(base.Results), len(raw.Results))
	}
	boards, withBoards := 0, 0
	for i, res := range base.Results {
		r := raw.Results[i]
		if res.Case != r["case"] || string(res.Status) != r["status"] || res.Profile != r["profile"] {
			t.Errorf("result %d: read %s [%s] %s, the file has %v [%v] %v", i, res.Case, res.Profile, res.Status, r["case"], r["profile"], r["status"])
		}
		for name, b := range map[string]*string{"start": grid(res.Start), "want": grid(res.Want), "got": grid(res.Got)} {
			if want, _ := r[name].(string); (b == nil) != (want == "") || b != nil && *b != want {
				t.Errorf("result %d (%s): %s read as %v, the file has %q", i, res.Case, name, b, want)
			}
		}
		if res.Got != nil {
			boards++
		}
		if _, ok := r["got"]; ok {
			withBoards++
		}
	}
	if boards != withBoards {
		t.Errorf("%d results read with boards; the file has %d", boards, withBoards)
	}
	changed := &Report{Results: append([]CaseResult(nil), base.Results...)}
	pass, fail := -1, -1
	for i, res := range changed.Results {
		switch {
		case res.Status == Pass && pass < 0:
			pass = i
		case res.Status.Failed() && res.Unreachable == "" && fail < 0: // an unreachable state does not gate
			fail = i
		}
	}
	changed.Results[pass].Status = BoardDiverged
	wantFixes := 0
	if fail >= 0 {
		changed.Results[fail].Status, wantFixes = Pass, 1
	}
	regressions, fixes, _ := changed.compare(base)
	if len(regressions) != 1 || regressions[0].Key != base.Results[pass].Key() || len(fixes) != wantFixes {
		t.Errorf("regressions %v, fixes %v; want %s and %d fixes", regressions, fixes, base.Results[pass].Key(), wantFixes)
	}
}

func grid(b *engine.Board) *string {
	if b == nil {
		return nil
	}
	s := b.String()
	return &s
}

// scoreOff reports one point too many after each move.
func scoreOff(_ engine.Direction, mr *MoveResult) { mr.State.Score++ }

// TestStepBoards: a step that fails on a field other than a board still
// carries the board it started from and the implementation's after it,
// without a rules board, and the text report draws the two.
func TestStepBoards(t *testing.T) {
	rep, err := Run(t.Context(), loadRepoPack(t), altered{&Builtin{}, scoreOff}, Options{Profiles: []string{"classic"}, Run: regexp.MustCompile(`^core/merge-pair-once-2222-left$`)})
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Results[0]
	if res.Status != ScoreDiverged || res.Start == nil || res.Got == nil || res.Want != nil {
		t.Fatalf("%s: start %v, got %v, want %v", res.Status, res.Start, res.Got, res.Want)
	}
	start, _ := engine.ParseBoard("2 2 2 2\n. . . .\n. . . .\n. . . .")
	if *res.Start != start || res.Got.At(0, 0) != 4 || res.Got.At(0, 1) != 4 || res.Got.Cells()-res.Got.Empty() != 3 {
		t.Errorf("the boards are\n%v\nand\n%v; want the start 2 2 2 2 and 4 4 with a spawn", res.Start, res.Got)
	}
	var text strings.Builder
	rep.WriteText(&text, false)
	if !strings.Contains(text.String(), "before step 1   the implementation") || strings.Contains(text.String(), "the rules give") {
		t.Errorf("the text report does not draw the two boards:\n%s", text.String())
	}
}
