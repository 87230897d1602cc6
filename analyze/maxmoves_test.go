package analyze

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/replay"
)

// TestMaxMovesTileBand: with a bound on the moves analysed, the game is
// placed in the band of the largest tile those moves reached, as its
// figures are theirs, not in the band of the whole game's. A game to
// 4096 cut at 300 moves (512 by then) is placed against a reference of
// games up to 1024 and is insufficient against one of 2048 and above.
// Before, both read the game's 4096: the first said insufficient, the
// second placed the 300 moves among games of 2048 and more; and a
// reference built from the cut game recorded 4096.
func TestMaxMovesTileBand(t *testing.T) {
	data, err := os.ReadFile("../replays/valid/tile-merge-4096.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.Decode("tile-merge-4096.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	only := func(small bool) *Reference {
		ref := *mustBuiltin(t)
		ref.Games = slices.DeleteFunc(slices.Clone(ref.Games), func(g ReferenceGame) bool { return (g.MaxTile <= 1024) != small })
		return &ref
	}
	small, big := only(true), only(false)
	if len(small.modelled()) == 0 || len(big.modelled()) == 0 {
		t.Fatal("the built-in reference has no modelled game in a band")
	}
	v := replay.NewVerifier()
	analyse := func(maxMoves int, ref *Reference) *GameReport {
		t.Helper()
		rep, err := Analyze(context.Background(), v, "g", r, Options{MaxMoves: maxMoves, Reference: ref})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}

	cut := analyse(300, small)
	if cut.MaxTile != 4096 || cut.AnalysedMaxTile < 256 || cut.AnalysedMaxTile > 1024 || cut.Analysed != 300 {
		t.Fatalf("cut at 300 moves: largest tile %d, analysed %d to largest tile %d", cut.MaxTile, cut.Analysed, cut.AnalysedMaxTile)
	}
	if cut.Band == Insufficient {
		t.Errorf("cut at 300 moves, against games up to 1024: %s, %q", cut.Band, cut.Reasons)
	}
	cut = analyse(300, big)
	if want := "whose largest tile is up to 1024"; cut.Band != Insufficient || !strings.Contains(strings.Join(cut.Reasons, "; "), want) {
		t.Errorf("cut at 300 moves, against games of 2048 and above: %s, %q; want insufficient, %q", cut.Band, cut.Reasons, want)
	}
	// The whole game is 4096's.
	whole := analyse(0, big)
	if whole.AnalysedMaxTile != 4096 || whole.Band == Insufficient {
		t.Errorf("the whole game against games of 2048 and above: largest tile %d, %s, %q", whole.AnalysedMaxTile, whole.Band, whole.Reasons)
	}
	// A reference built from the cut game: its band is the moves'.
	ref := BuildReference("cut", "test", []*GameReport{cut}, mustBuiltin(t))
	if len(ref.Games) != 1 || ref.Games[0].MaxTile != cut.AnalysedMaxTile {
		t.Errorf("a reference of the game cut at 300 moves: %+v, want largest tile %d", ref.Games, cut.AnalysedMaxTile)
	}
}
