package replay

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/boardfmt"
	"github.com/tileproof/tileproof/internal/stats"
)

// WarnBelow is the p-value under which a plausibility test warns. Each
// test on an honest game warns with this probability.
const WarnBelow = 0.001

// Plausibility is how likely the spawns of a spawn-recorded replay are
// under its profile's distribution. It never makes a replay invalid: an
// implementation with its own generator may be honest and unlucky, and
// the figures say how unlucky.
type Plausibility struct {
	Spawns int            `json:"spawns"` // start tiles included
	Values map[uint64]int `json:"values"` // how many of each tile spawned
	// ValueP is the p-value of the spawned values against the profile's
	// weights: an exact two-sided binomial test when the profile spawns
	// two values, Pearson's chi-square otherwise.
	ValueP float64 `json:"valueP"`
	// RankP tests the spawns' positions: each spawn's rank among the empty
	// cells (row-major) should be uniform; a z-test of their mean.
	RankP float64 `json:"rankP"`
	// CellP tests them cell by cell: the spawns in each cell against the
	// chances the cell had (Pearson's chi-square).
	CellP float64 `json:"cellP"`
}

// warnings words the tests that warn, the values' against weights, the
// profile's.
func (pl *Plausibility) warnings(weights []engine.SpawnWeight) []string {
	var w []string
	if pl.ValueP < WarnBelow {
		w = append(w, fmt.Sprintf("the spawned values (%s) are unlikely under the profile's weights (%s) (p %s)", boardfmt.Counts(pl.Values), boardfmt.Weights(weights), pValue(pl.ValueP)))
	}
	if pl.RankP < WarnBelow {
		w = append(w, fmt.Sprintf("the spawns favour early or late empty cells (rank test p %s)", pValue(pl.RankP)))
	}
	if pl.CellP < WarnBelow {
		w = append(w, fmt.Sprintf("the spawns favour some cells (cell test p %s)", pValue(pl.CellP)))
	}
	return w
}

// pValue writes a p-value for a message: "= 0.00042", or "< 1e-300" for
// one too small for a float64 to hold (0 from the computation means that,
// never that the spawns are impossible).
func pValue(p float64) string {
	if p < 1e-300 {
		return "< 1e-300"
	}
	return fmt.Sprintf("= %.2g", p)
}

// SpawnCounter collects what the plausibility tests need, spawn by
// spawn, for one game or pooled over many (as conformance's observation
// of an implementation's own games does).
type SpawnCounter struct {
	p        *engine.Profile
	values   [engine.MaxExp + 1]int // spawns by tile exponent
	spawns   int
	rankSum  float64 // sum of (rank/(E-1) - 1/2)
	rankVar  float64
	observed []float64 // spawns per cell
	expected []float64 // the sum of each cell's chances
}

// NewSpawnCounter returns a counter of spawns of profile p's games.
func NewSpawnCounter(p *engine.Profile) *SpawnCounter {
	return &SpawnCounter{p: p, observed: make([]float64, p.Rows*p.Cols), expected: make([]float64, p.Rows*p.Cols)}
}

// count counts one spawned tile of value v (a tile: a power of two from
// 2 to 2^52, as the engine has checked).
func (pc *SpawnCounter) count(v uint64) {
	if e := bits.TrailingZeros64(v); e <= engine.MaxExp {
		pc.values[e]++
	}
	pc.spawns++
}

// Start counts a game's start tiles: their values.
func (pc *SpawnCounter) Start(start engine.Board) {
	for r := range start.Rows() {
		for c := range start.Cols() {
			if v := start.At(r, c); v != 0 {
				pc.count(v)
			}
		}
	}
}

// Count counts the spawn s of a counted move whose board, spawn
// included, is after: the cells that were empty for it are after's empty
// cells and s's own.
func (pc *SpawnCounter) Count(after engine.Board, s engine.Spawn) {
	pc.CountOpen(after.EmptyMask()|1<<(s.Row*after.Cols()+s.Col), s)
}

// CountOpen counts the spawn s of a counted move that could have taken
// the cells of open, bit row*cols+col for each ([engine.Game.PlayRecorded]
// gives them), s's own cell among them.
func (pc *SpawnCounter) CountOpen(open uint64, s engine.Spawn) {
	pc.count(s.Value)
	at := s.Row*pc.p.Cols + s.Col
	empty := bits.OnesCount64(open)
	rank := bits.OnesCount64(open & (1<<at - 1))
	t := &openTerms[empty]
	for m := open; m != 0; m &= m - 1 {
		pc.expected[bits.TrailingZeros64(m)] += t.chance
	}
	pc.observed[at]++
	if empty > 1 {
		pc.rankSum += float64(rank)*t.rankScale - 0.5
		pc.rankVar += t.rankVar
	}
}

// openTerms are CountOpen's figures for a spawn with k cells open, by k,
// so that a move costs no division: each cell's chance 1/k, the scale
// 1/(k-1) of a rank to [0, 1], and the variance (k+1)/(12(k-1)) of the
// scaled rank of a uniform choice.
var openTerms = func() (t [engine.MaxSide*engine.MaxSide + 1]struct{ chance, rankScale, rankVar float64 }) {
	for k := 1; k < len(t); k++ {
		e := float64(k)
		t[k].chance = 1 / e
		if k > 1 {
			t[k].rankScale, t[k].rankVar = 1/(e-1), (e+1)/(12*(e-1))
		}
	}
	return t
}()

// Result returns the tests' p-values over what was counted.
func (pc *SpawnCounter) Result() *Plausibility {
	values := map[uint64]int{}
	for e, n := range pc.values {
		if n > 0 {
			values[1<<e] = n
		}
	}
	pl := &Plausibility{Spawns: pc.spawns, Values: values, ValueP: 1, RankP: 1, CellP: 1}
	var total float64
	for _, w := range pc.p.Spawn {
		total += float64(w.Weight)
	}
	if len(pc.p.Spawn) == 2 {
		hi := pc.p.Spawn[1]
		pl.ValueP = stats.BinomialTwoSided(pc.spawns, values[hi.Value], float64(hi.Weight)/total)
	} else if len(pc.p.Spawn) > 2 {
		obs, exp := make([]float64, len(pc.p.Spawn)), make([]float64, len(pc.p.Spawn))
		for i, w := range pc.p.Spawn {
			obs[i] = float64(values[w.Value])
			exp[i] = float64(pc.spawns) * float64(w.Weight) / total
		}
		stat, cells := stats.ChiSquare(obs, exp)
		pl.ValueP = stats.ChiSquareSF(stat, cells-1)
	}
	if pc.rankVar > 0 {
		pl.RankP = 2 * stats.NormalSF(math.Abs(pc.rankSum)/math.Sqrt(pc.rankVar))
	}
	stat, cells := stats.ChiSquare(pc.observed, pc.expected)
	pl.CellP = stats.ChiSquareSF(stat, cells-1)
	return pl
}
