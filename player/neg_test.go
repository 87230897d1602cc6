package player

import (
	"os"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

func TestNeg(t *testing.T) {
	if os.Getenv("NEG") == "" {
		t.Skip()
	}
	r := builtinRules(t, "tile-merge")
	p := NewExpectimax(ExpectimaxOptions{})
	for _, seed := range []string{"strength-1", "strength-3"} {
		g := newGame(t, r, seed)
		minV := 1e18
		var minB engine.Board
		for !g.Over() {
			b := g.Board()
			gr := readGrid(&b)
			if v := getDefaultEvaluator().score(&gr); v < minV {
				minV, minB = v, b
			}
			g.Move(p.Choose(g))
		}
		t.Logf("%s: min %.0f on\n%v\nfinal\n%v", seed, minV, minB, g.Board())
	}
}
