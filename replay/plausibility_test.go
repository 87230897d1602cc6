package replay

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// TestSpawnCounterAgainstPlain: the counter working on the empty cells'
// bits counts what a walk over the cells one by one counts, the same
// float additions in the same order, on boards of every size.
func TestSpawnCounterAgainstPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, size := range [][2]int{{4, 4}, {3, 3}, {2, 5}, {8, 8}, {5, 7}} {
		p := &engine.Profile{Name: "t", Rows: size[0], Cols: size[1], Spawn: []engine.SpawnWeight{{Value: 2, Weight: 9}, {Value: 4, Weight: 1}}}
		pc := NewSpawnCounter(p)
		cells := size[0] * size[1]
		values := map[uint64]int{}
		observed, expected := make([]float64, cells), make([]float64, cells)
		var rankSum float64
		for range 3000 {
			b, _ := engine.NewBoard(size[0], size[1])
			for c := range cells {
				if rng.IntN(2) == 0 {
					b.Set(c/size[1], c%size[1], 1<<(1+rng.IntN(11)))
				}
			}
			var empties []int
			for c := range cells {
				if b.At(c/size[1], c%size[1]) == 0 {
					empties = append(empties, c)
				}
			}
			if len(empties) == 0 {
				continue
			}
			at := empties[rng.IntN(len(empties))]
			s := engine.Spawn{Row: at / size[1], Col: at % size[1], Value: uint64(2 << rng.IntN(2))}
			b.Set(s.Row, s.Col, s.Value)
			pc.Count(b, s)
			// The plain count: the cells empty before the spawn, one by one.
			values[s.Value]++
			for i, c := range empties {
				expected[c] += 1 / float64(len(empties))
				if c == at && len(empties) > 1 {
					rankSum += float64(i)/float64(len(empties)-1) - 0.5
				}
			}
			observed[at]++
		}
		got := pc.Result()
		for v, n := range values {
			if got.Values[v] != n {
				t.Errorf("%dx%d: %d spawns of %d, plainly %d", size[0], size[1], got.Values[v], v, n)
			}
		}
		for c := range cells {
			if pc.observed[c] != observed[c] || pc.expected[c] != expected[c] {
				t.Errorf("%dx%d cell %d: observed %g expected %g, plainly %g and %g", size[0], size[1], c, pc.observed[c], pc.expected[c], observed[c], expected[c])
			}
		}
		// The counter multiplies by 1/(k-1) where the plain count divides:
		// the sums agree to rounding, and one rank counted wrong moves the
		// sum by at least 1/63.
		if math.Abs(pc.rankSum-rankSum) > 1e-9 {
			t.Errorf("%dx%d: rank sum %g, plainly %g", size[0], size[1], pc.rankSum, rankSum)
		}
	}
}
