package conformance

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// TestBoardDivergenceBoards runs a broken implementation (merge priority
// reversed) on the merge-priority cases: a board divergence carries the
// step's start board, the rules' board and the implementation's, as text
// grids equal to what the case and the engine say, in the JSON report and
// side by side in the text report.
func TestBoardDivergenceBoards(t *testing.T) {
	impl := adapter(t, "--mutant", "merge-priority-reversed")
	defer impl.Close()
	pack := loadRepoPack(t)
	rep, err := Run(pack, impl, Options{Run: regexp.MustCompile(`^core/priority-three-equal-left$`), Profiles: []string{"classic"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 {
		t.Fatalf("%d results", len(rep.Results))
	}
	res := rep.Results[0]
	var c *Case
	for _, pc := range pack.Cases {
		if pc.Name() == res.Case {
			c = pc
		}
	}
	if res.Status != BoardDiverged || res.Step != 1 {
		t.Fatalf("status %s at step %d", res.Status, res.Step)
	}
	if res.Start != c.Start.Board.String() {
		t.Errorf("start\n%s\nwant the case's start\n%s", res.Start, c.Start.Board)
	}
	want := c.Steps[0].Expect.Board
	if res.Want != want.String() {
		t.Errorf("want\n%s\nis not the case's expected board\n%s", res.Want, want)
	}
	// The implementation merged the far pair first: 2 2 2 -> 2 4.
	got, err := engine.ParseBoard(res.Got)
	if err != nil {
		t.Fatal(err)
	}
	if got.At(0, 0) != 2 || got.At(0, 1) != 4 || got.At(0, 2) != 0 {
		t.Errorf("got\n%s", res.Got)
	}

	var text bytes.Buffer
	rep.WriteText(&text, false)
	for _, line := range []string{
		"      before step 1   the rules give   the implementation\n",
		"      2 2 2 .         4 2 . .          2 4 . .             <\n",
		"      . . . .         . . . .          . . . .\n",
	} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("the text report lacks %q:\n%s", line, text.String())
		}
	}

	// The boards survive the JSON report.
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	back, err := ReadReport(&js)
	if err != nil {
		t.Fatal(err)
	}
	if b := back.Results[0]; b.Start != res.Start || b.Want != res.Want || b.Got != res.Got {
		t.Errorf("read back %+v", b)
	}
}

// TestOldReportReads checks that a report written before the boards were
// added (the checked-in baseline of the original 2048) still reads and
// compares.
func TestOldReportReads(t *testing.T) {
	f, err := os.Open("adapters/original-2048.report.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	base, err := ReadReport(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(base.Results) < 100 {
		t.Fatalf("%d results", len(base.Results))
	}
	regressions, _ := base.Compare(base)
	if len(regressions) != 0 {
		t.Errorf("a report against itself: %v", regressions)
	}
}
