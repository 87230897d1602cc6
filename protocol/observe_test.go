package protocol

import (
	"slices"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// TestObserve: the observation of a game is its board, score, moves,
// highest tile, won and over flags and result as the game has them, at
// every step of a hallabois-4x4 game (a win that plays on) won at 32 and
// played to its end, so that it passes through won and not over, and
// through over.
func TestObserve(t *testing.T) {
	p, _ := engine.BuiltinProfile("hallabois-4x4")
	p = p.Clone()
	p.Win.Tile = 32
	g, err := engine.NewGame(p, "observe")
	if err != nil {
		t.Fatal(err)
	}
	wonPlaying := false
	for i := 0; ; i++ {
		o := Observe(g)
		res, _ := g.Result().MarshalText()
		if !slices.EqualFunc(o.Board, g.Board().Values(), slices.Equal) || o.Score != g.Score() || o.Moves != g.Moves() ||
			o.MaxTile != g.MaxTile() || o.Won != g.Won() || o.Over != g.Over() || o.Result != string(res) {
			t.Fatalf("step %d: %+v, the game: %v score %d moves %d max %d won %v over %v %s",
				i, o, g.Board(), g.Score(), g.Moves(), g.MaxTile(), g.Won(), g.Over(), res)
		}
		wonPlaying = wonPlaying || (o.Won && !o.Over)
		if g.Over() {
			break
		}
		legal := g.LegalMoves()
		if _, err := g.Move(legal[i%len(legal)]); err != nil {
			t.Fatal(err)
		}
	}
	if !wonPlaying || Observe(g).Result == "playing" {
		t.Errorf("the game was not won and played on (%v), or did not end (%s)", wonPlaying, Observe(g).Result)
	}
}
