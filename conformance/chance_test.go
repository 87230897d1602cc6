package conformance

import (
	"math"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// TestStartCollision: the chance that two starts agree, against a count
// of every start of a small profile: 2x2, two tiles, weights 9:1.
func TestStartCollision(t *testing.T) {
	p := &engine.Profile{Rows: 2, Cols: 2, StartTiles: 2, Spawn: []engine.SpawnWeight{{Value: 2, Weight: 9}, {Value: 4, Weight: 1}}}
	// 6 pairs of cells, equally likely; each tile 2 (0.9) or 4 (0.1).
	want := 0.0
	for range 6 {
		for _, a := range []float64{0.9, 0.1} {
			for _, b := range []float64{0.9, 0.1} {
				q := a * b / 6
				want += q * q
			}
		}
	}
	if got := startCollision(p); math.Abs(got-want) > 1e-12 {
		t.Errorf("startCollision = %g, want %g", got, want)
	}
}
