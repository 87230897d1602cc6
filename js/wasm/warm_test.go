package main

import (
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// TestWarmGames: warm's games, three of every built-in profile, are valid,
// so that warming builds what a real replay needs (a game the verifier
// refused would stop before its moves), and warm leaves no output.
func TestWarmGames(t *testing.T) {
	k := newKit() // registers the generators, as the module's start does
	games := warmGames()
	if want := 3 * len(engine.BuiltinNames()); len(games) != want {
		t.Fatalf("%d games; want %d", len(games), want)
	}
	v := replay.NewVerifier()
	for _, g := range games {
		if vd := v.VerifyFile("warm", g); !vd.Valid || vd.Moves == 0 {
			t.Errorf("%s: %+v", g, vd)
		}
	}
	k.warm()
	if len(k.out) != 0 {
		t.Errorf("warm left %q", k.out)
	}
}
