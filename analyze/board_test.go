package analyze

import (
	"math/rand/v2"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// TestSlideMatchesEngine compares the bitboard's moves with the engine's
// on random boards.
func TestSlideMatchesEngine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		eb, _ := engine.NewBoard(4, 4)
		for r := range 4 {
			for c := range 4 {
				if rng.IntN(3) > 0 {
					if err := eb.Set(r, c, 1<<(1+rng.IntN(14))); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		b, ok := toBitboard(eb)
		if !ok {
			t.Fatal("a 4x4 board with small tiles not converted")
		}
		for _, d := range engine.Directions {
			s, err := eb.Slide(d)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := b.slide(d)
			want, wok := toBitboard(s.Board)
			if !ok || !wok || got != want {
				t.Fatalf("%v of\n%v\ngives %x, the engine %x (%v)", d, eb, uint64(got), uint64(want), s.Board)
			}
		}
	}
}

func TestSlideRefusesOverflow(t *testing.T) {
	eb, err := engine.ParseBoard("32768 32768 . .\n. . . .\n. . . .\n. . . .")
	if err != nil {
		t.Fatal(err)
	}
	b, ok := toBitboard(eb)
	if !ok {
		t.Fatal("not converted")
	}
	if _, ok := b.slide(engine.Left); ok {
		t.Error("a merge to 65536 accepted")
	}
	if _, ok := b.slide(engine.Down); !ok {
		t.Error("a move without the merge refused")
	}
}
