package hallabois

import (
	"os"
	"strings"
	"testing"
)

func readV1(t *testing.T, file string) *V1 {
	t.Helper()
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ParseV1(file, data)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func hasFinding(r Validation, at int, kind string) bool {
	for _, f := range r.Findings {
		if f.At == at && f.Kind == kind {
			return true
		}
	}
	return false
}

// TestV1BreakBoardUnchecked: the peer plays on from the cleared board,
// whatever board the entry after a break records; the validator says so.
func TestV1BreakBoardUnchecked(t *testing.T) {
	rec := readV1(t, "v1-4x4-break.txt")
	after := rec.Entries[124].Board // entry 125 starts from the cleared board
	for i, v := range after.Cells {
		if v == 0 {
			after.Cells[i] = 2 // not the cleared board, still fewer tiles
			break
		}
	}
	res := ValidateV1(rec)
	if !res.Valid || res.Breaks != 1 || !hasFinding(res, 125, "break-board") {
		t.Errorf("valid %v (%v), %d breaks, findings %v; want valid, 1 break, a break-board finding at 125", res.Valid, res.Problem, res.Breaks, res.Findings)
	}
}

// TestV1BreakRefused: a board with fewer tiles is a break only with the
// score for it, and only three times.
func TestV1BreakRefused(t *testing.T) {
	rec := readV1(t, "v1-3x3.txt")
	rec.Entries[3].Board.Cells[1] = 0 // entry 4 loses its 2: fewer tiles, 4 points
	res := ValidateV1(rec)
	if res.Valid || res.Problem.At != 4 || res.Problem.Kind != "board" || !strings.Contains(res.Problem.Msg, "a break costs 1000 and the score is 12") {
		t.Errorf("valid %v, problem %v", res.Valid, res.Problem)
	}
	// A fourth break: the greedy player breaks whenever the board is
	// full with 1000 points; the fourth time the entry after it records
	// the cleared board all the same.
	steps, final := playGame(4, 4, 4, &ClassicV1, 2000, func(b Grid, score uint64, breaks int) bool {
		return score >= 1000 && b.Empty() == 0
	})
	if steps[len(steps)-1].dir != Break {
		t.Fatal("the player did not try a fourth break")
	}
	rec = toV1(4, 4, steps, ClassicV1.clearBelow(final))
	res = ValidateV1(rec)
	if res.Valid || res.Problem.Kind != "board" || res.Problem.At != len(rec.Entries) || res.Breaks != 3 || !strings.Contains(res.Problem.Msg, "the 3 breaks are used") {
		t.Errorf("valid %v, problem %v, %d breaks", res.Valid, res.Problem, res.Breaks)
	}
}

// TestV1BreakDirection: the direction "b" is no break in the first format;
// the peer's move procedure plays it as a move left.
func TestV1BreakDirection(t *testing.T) {
	rec, err := ParseV1("f", []byte("2x2S0.2.0.2+1,0.2;b:2.2.2.0+;f"))
	if err != nil {
		t.Fatal(err)
	}
	res := ValidateV1(rec)
	if !res.Valid || res.Moves != 1 || !hasFinding(res, 1, "break-move") {
		t.Errorf("valid %v (%v), %d moves, findings %v", res.Valid, res.Problem, res.Moves, res.Findings)
	}
}

// TestV1EndOwnBoard: after an end marker the next board needs only the
// same sum, and the peer plays on from its own board, not the recorded one.
func TestV1EndOwnBoard(t *testing.T) {
	// Entry 1 ends; entry 2 records the 2 at the right, but the peer
	// keeps it at the left, where a move left changes nothing, so entry
	// 3 must record the 2 at the left with the spawn.
	ok, err := ParseV1("f", []byte("2x2S2.0.0.0+;f:0.2.0.0+1,1.2;3:2.0.0.2+;f"))
	if err != nil {
		t.Fatal(err)
	}
	res := ValidateV1(ok)
	if !res.Valid || !hasFinding(res, 1, "end") || !hasFinding(res, 2, "unchanged") {
		t.Errorf("valid %v (%v), findings %v", res.Valid, res.Problem, res.Findings)
	}
	bad, _ := ParseV1("f", []byte("2x2S2.0.0.0+;f:0.2.0.0+1,1.2;3:0.2.0.2+;f"))
	if res := ValidateV1(bad); res.Valid || res.Problem.At != 3 {
		t.Errorf("the recorded board of entry 2 followed: valid %v, problem %v", res.Valid, res.Problem)
	}
}

// TestV1LastMove: the last entry's move scores without anything to check
// it against.
func TestV1LastMove(t *testing.T) {
	rec, _ := ParseV1("f", []byte("2x2S2.2.4.4;3"))
	res := ValidateV1(rec)
	if !res.Valid || res.Score != 12 || res.Moves != 1 || !hasFinding(res, 1, "last-move") || res.Margin != 12 {
		t.Errorf("valid %v, score %d, %d moves, margin %d, findings %v", res.Valid, res.Score, res.Moves, res.Margin, res.Findings)
	}
}

func TestBreakCosts(t *testing.T) {
	for _, c := range []struct {
		r    *Ruleset
		w, h int
		want uint64
	}{
		{&ClassicV1, 3, 3, 1000}, {&ClassicV1, 6, 6, 1000},
		{&ClassicV2, 2, 2, 100}, {&ClassicV2, 3, 2, 250}, {&ClassicV2, 3, 3, 500}, {&ClassicV2, 4, 3, 750},
		{&ClassicV2, 4, 4, 1000}, {&ClassicV2, 5, 4, 1250}, {&ClassicV2, 5, 5, 1500}, {&ClassicV2, 6, 5, 1750},
		{&ClassicV2, 6, 6, 2000}, {&ClassicV2, 2, 6, 2500},
	} {
		if got := c.r.Cost(c.w, c.h); got != c.want {
			t.Errorf("%s on %dx%d: %d; want %d", c.r.Name, c.w, c.h, got, c.want)
		}
	}
}

func TestParseDispatch(t *testing.T) {
	r, err := Parse("f", []byte("::2:2:2:2:IT4sEQ"))
	if err != nil || r.Format() != FormatV2 || r.V2 == nil {
		t.Errorf("a second-format text: %v, %v", r, err)
	}
	r, err = Parse("f", []byte("2x2S2.0.0.2+;f"))
	if err != nil || r.Format() != FormatV1 || r.V1 == nil {
		t.Errorf("a first-format text: %v, %v", r, err)
	}
	if r, err := Parse("f", []byte(":")); err == nil || r != nil {
		t.Error("\":\" read")
	}
}

// TestBreakEmpty: a break that finds no tile below 16 clears nothing and
// costs its price all the same, in both formats.
func TestBreakEmpty(t *testing.T) {
	// Second format: the greedy 4x4 game of seed 4 breaks once it has
	// 2000 points, and at once again, on the board the first break left
	// with no tile below 16.
	again := true
	steps, _ := playGame(4, 4, 4, &ClassicV2, 400, func(b Grid, score uint64, breaks int) bool {
		if breaks == 1 && again {
			again = false
			return true
		}
		return breaks == 0 && score >= 2000 && b.Empty() <= 2
	})
	res := ValidateV2(toV2(4, 4, 4, steps))
	if !res.Valid || res.Breaks != 2 || res.BreakAt[1] != res.BreakAt[0]+1 || !hasFinding(res, res.BreakAt[1], "break-empty") || hasFinding(res, res.BreakAt[0], "break-empty") {
		t.Fatalf("valid %v (%v), breaks at %v, findings %v", res.Valid, res.Problem, res.BreakAt, res.Findings)
	}

	// First format: the same game recorded up to the move after its first
	// break, that move recorded with no spawn, so that its board has no
	// tile below 16; the next entry records that board less a tile, which
	// the peer takes for a second break.
	steps, final := playGame(4, 4, 4, &ClassicV1, 400, func(b Grid, score uint64, breaks int) bool {
		return breaks == 0 && score >= 2000 && b.Empty() <= 2
	})
	rec := toV1(4, 4, steps, final)
	k := ValidateV1(rec).BreakAt[0] // entry k+1 starts from the cleared board
	e := &rec.Entries[k]
	e.Spawn = nil
	next, _, _, _ := e.Board.Move(e.Dir)
	for i, v := range next.Cells {
		if v != 0 {
			next.Cells[i] = 0 // fewer tiles
			break
		}
	}
	rec.Entries = append(rec.Entries[:k+1], V1Entry{Board: next, Dir: End})
	res = ValidateV1(rec)
	if !res.Valid || res.Breaks != 2 || !hasFinding(res, k+1, "break-empty") || !hasFinding(res, k+1, "no-spawn") {
		t.Errorf("valid %v (%v), breaks at %v, findings %v", res.Valid, res.Problem, res.BreakAt, res.Findings)
	}
}

// TestMalformed: recordings built in code with what the readers refuse
// get a problem, not a panic.
func TestMalformed(t *testing.T) {
	for _, rec := range []*V1{
		{W: 9, H: 9, Entries: []V1Entry{{Board: NewBoard(9, 9)}}},
		{W: 2, H: 2, Entries: []V1Entry{{Board: NewBoard(3, 3)}}},
		{W: 2, H: 2, Entries: []V1Entry{{Board: NewBoard(2, 2), Spawn: &RecordedSpawn{2, 0, 2}}, {Board: NewBoard(2, 2)}}},
	} {
		if res := ValidateV1(rec); res.Valid || res.Problem.Kind != "malformed" {
			t.Errorf("%dx%d: valid %v, %v", rec.W, rec.H, res.Valid, res.Problem)
		}
	}
	if res := ValidateV2(&V2{W: 1 << 20, H: 1 << 20}); res.Valid || res.Problem.Kind != "malformed" {
		t.Errorf("a huge board: valid %v, %v", res.Valid, res.Problem)
	}
}
