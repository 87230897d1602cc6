package replay

import (
	"encoding/json"
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
		var rankSum, rankVar float64
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
				if k := float64(len(empties)); c == at && k > 1 {
					rankSum += float64(i)/(k-1) - 0.5
					rankVar += (k + 1) / (12 * (k - 1))
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
		// The counter sums each cell's chances by the number of open
		// cells, the plain count spawn by spawn: they agree to rounding,
		// and one opening counted wrong moves a sum by at least 1/64.
		gotObserved, gotExpected := pc.cells()
		for c := range cells {
			if gotObserved[c] != observed[c] || math.Abs(gotExpected[c]-expected[c]) > 1e-9 {
				t.Errorf("%dx%d cell %d: observed %g expected %g, plainly %g and %g", size[0], size[1], c, gotObserved[c], gotExpected[c], observed[c], expected[c])
			}
		}
		if gotRankSum, gotRankVar := pc.ranks(); math.Abs(gotRankSum-rankSum) > 1e-9 || math.Abs(gotRankVar-rankVar) > 1e-9 {
			t.Errorf("%dx%d: rank sum %g and variance %g, plainly %g and %g", size[0], size[1], gotRankSum, gotRankVar, rankSum, rankVar)
		}
	}
}

// TestSpawnCounterEveryCellOpen counts spawns with every cell open, on
// every board size's cells up to the largest, far past the 15 counts a
// packed counter holds: each cell's chances must sum to spawns/k exactly
// (a counter that overflowed into its neighbour would be off by 16).
func TestSpawnCounterEveryCellOpen(t *testing.T) {
	for _, size := range [][2]int{{2, 2}, {4, 4}, {5, 4}, {8, 8}} {
		p := &engine.Profile{Name: "t", Rows: size[0], Cols: size[1], Spawn: []engine.SpawnWeight{{Value: 2, Weight: 9}, {Value: 4, Weight: 1}}}
		pc := NewSpawnCounter(p)
		k := size[0] * size[1]
		open := uint64(1)<<k - 1
		if k == 64 {
			open = ^uint64(0)
		}
		const spawns = 1000
		for i := range spawns {
			c := i % k
			pc.CountOpen(open, engine.Spawn{Row: c / size[1], Col: c % size[1], Value: 2})
		}
		_, expected := pc.cells()
		for c, e := range expected {
			if want := float64(spawns) / float64(k); math.Abs(e-want) > 1e-9 {
				t.Fatalf("%dx%d: cell %d's chances sum to %g, not %g", size[0], size[1], c, e, want)
			}
		}
	}
}

// TestPlausibilityJSON holds the verdict's hand-written plausibility to
// encoding/json's text of the same struct, for p-values across the
// ranges where the number's form changes and values of many tiles.
func TestPlausibilityJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	ps := []float64{0, 1, 0.5, 1e-6, 9.99e-7, 1e-7, 1.5e-300, 5e-324, 1e20, 1e21, 0.001, 0.00042, 1 - 1e-16}
	for range 200 {
		ps = append(ps, math.Pow(10, -rng.Float64()*320), rng.Float64())
	}
	for i, p := range ps {
		pl := &Plausibility{Spawns: rng.IntN(100000), ValueP: p, RankP: ps[(i+1)%len(ps)], CellP: ps[(i+7)%len(ps)]}
		if i%5 != 0 {
			pl.Values = map[uint64]int{}
			for range rng.IntN(6) {
				pl.Values[1<<(1+rng.IntN(52))] = rng.IntN(1000)
			}
		}
		want, err := json.Marshal(pl)
		if err != nil {
			t.Fatal(err)
		}
		if got := pl.appendJSON(nil); string(got) != string(want) {
			t.Fatalf("appendJSON = %s\nencoding/json: %s", got, want)
		}
	}
	if got := (&Plausibility{ValueP: math.NaN(), RankP: math.Inf(1), CellP: 1}).appendJSON(nil); string(got) != `{"spawns":0,"values":null,"valueP":null,"rankP":null,"cellP":1}` {
		t.Errorf("not a number: %s", got)
	}
}
