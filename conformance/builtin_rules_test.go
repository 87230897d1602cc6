package conformance

import (
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// TestBuiltinLoadRulesKept: the rules Load compiles once a profile,
// setup and board size play each load by its own: a setup's target, a
// board of another size, and a profile of Profiles replaced under its
// name, each in turn and again from the kept rules.
func TestBuiltinLoadRulesKept(t *testing.T) {
	classic, err := engine.BuiltinProfile("classic")
	if err != nil {
		t.Fatal(err)
	}
	p := classic.Clone()
	p.Name, p.Win.Tile, p.Targets = "tiny", 64, []uint64{64, 128}
	b := &Builtin{Profiles: []*engine.Profile{p}}
	four, _ := engine.ParseBoard("32 32 . .\n. . . .\n. . . .\n. . . .")
	three, _ := engine.ParseBoard("32 32 .\n. . .\n. . .")
	won := func(board engine.Board, setup *engine.Setup) bool {
		t.Helper()
		if _, err := b.Load("tiny", LoadState{Board: board, Setup: setup}); err != nil {
			t.Fatal(err)
		}
		mr, err := b.Move(engine.Left, nil)
		if err != nil {
			t.Fatal(err)
		}
		if mr.State.Board.Rows() != board.Rows() || mr.State.Board.Cols() != board.Cols() {
			t.Fatalf("a %dx%d board played as %dx%d", board.Rows(), board.Cols(), mr.State.Board.Rows(), mr.State.Board.Cols())
		}
		return mr.State.Won
	}
	for round := range 2 {
		if !won(four, nil) {
			t.Errorf("round %d: 4x4, win at 64: a 64 made, not won", round)
		}
		if won(four, &engine.Setup{Target: 128}) {
			t.Errorf("round %d: 4x4, target 128: won at 64", round)
		}
		if !won(three, nil) {
			t.Errorf("round %d: 3x3, win at 64: a 64 made, not won", round)
		}
	}
	q := p.Clone()
	q.Win.Tile, q.Targets = 128, nil
	b.Profiles[0] = q
	if won(four, nil) {
		t.Errorf("the profile replaced by one winning at 128: won at 64")
	}
}
