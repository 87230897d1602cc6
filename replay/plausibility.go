package replay

import (
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

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

// appendJSON writes pl as encoding/json writes it (the values' keys in
// the order of their text, numbers in its form), without its reflection,
// which cost a short game's verdict more than its replay; a p-value that
// is not a number (which encoding/json refuses) is null.
func (pl *Plausibility) appendJSON(b []byte) []byte {
	b = append(b, `{"spawns":`...)
	b = strconv.AppendInt(b, int64(pl.Spawns), 10)
	b = append(b, `,"values":`...)
	if pl.Values == nil {
		b = append(b, "null"...)
	} else {
		keys := slices.Collect(maps.Keys(pl.Values))
		slices.SortFunc(keys, func(a, b uint64) int {
			return strings.Compare(strconv.FormatUint(a, 10), strconv.FormatUint(b, 10))
		})
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(strconv.AppendUint(append(b, '"'), k, 10), '"', ':')
			b = strconv.AppendInt(b, int64(pl.Values[k]), 10)
		}
		b = append(b, '}')
	}
	b = appendJSONFloat(append(b, `,"valueP":`...), pl.ValueP)
	b = appendJSONFloat(append(b, `,"rankP":`...), pl.RankP)
	b = appendJSONFloat(append(b, `,"cellP":`...), pl.CellP)
	return append(b, '}')
}

// appendJSONFloat writes f as encoding/json does: the shortest decimal
// that reads back as f, in exponent form below 1e-6 or from 1e21 (with
// no leading zero in a negative exponent); null for NaN and the
// infinities.
func appendJSONFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-09 to e-9
		b = b[:n-1]
	}
	return b
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
//
// It counts in whole numbers, by the number of cells open to a spawn,
// and leaves the divisions to [SpawnCounter.Result]: a spawn costs a few
// additions, where each cell's chance added one by one cost a division's
// worth a cell.
type SpawnCounter struct {
	p        *engine.Profile
	values   [engine.MaxExp + 1]int // spawns by tile exponent
	spawns   int
	observed [engine.MaxSide * engine.MaxSide]int // spawns by cell
	// byOpen[k] counts the spawns that had k cells open.
	byOpen   []openCount
	expected []float64 // each cell's chances summed, from the counts flushed
	cellsOut []float64 // room for the spawns by cell, as the cell test takes them
}

// openCount is what SpawnCounter keeps of the spawns that had k cells
// open: how many, the sum of their ranks among the open cells
// (row-major), and how often each cell was among them, in 4-bit counters
// 16 cells a word, which flush adds to expected (times 1/k) before they
// overflow.
type openCount struct {
	spawns, ranks int
	pending       int // spawns counted in packed since it was flushed
	packed        [(engine.MaxSide*engine.MaxSide + 15) / 16]uint64
}

// NewSpawnCounter returns a counter of spawns of profile p's games.
func NewSpawnCounter(p *engine.Profile) *SpawnCounter {
	pc := new(SpawnCounter)
	pc.reset(p)
	return pc
}

// reset makes pc a counter of profile p's games with nothing counted,
// in the room it has.
func (pc *SpawnCounter) reset(p *engine.Profile) {
	cells := p.Rows * p.Cols
	byOpen, expected, out := pc.byOpen, pc.expected, pc.cellsOut
	if cap(byOpen) < cells+1 {
		byOpen, expected, out = make([]openCount, cells+1), make([]float64, cells), make([]float64, cells)
	} else {
		byOpen, expected, out = byOpen[:cells+1], expected[:cells], out[:cells]
		clear(byOpen)
		clear(expected)
	}
	*pc = SpawnCounter{p: p, byOpen: byOpen, expected: expected, cellsOut: out}
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
	pc.observed[at]++
	k := bits.OnesCount64(open)
	oc := &pc.byOpen[k]
	oc.spawns++
	oc.ranks += bits.OnesCount64(open & (1<<at - 1))
	for w := 0; w < len(oc.packed) && open>>(16*w) != 0; w++ {
		oc.packed[w] += spreadNibbles(uint16(open >> (16 * w)))
	}
	if oc.pending++; oc.pending == 15 {
		pc.flush(k)
	}
}

// flush adds the packed counters of the spawns that had k cells open to
// expected, each opening a chance of 1/k, and clears them.
func (pc *SpawnCounter) flush(k int) {
	oc := &pc.byOpen[k]
	chance := 1 / float64(k)
	for w, x := range oc.packed {
		for c := 16 * w; x != 0; c, x = c+1, x>>4 {
			if n := x & 15; n != 0 {
				pc.expected[c] += float64(n) * chance
			}
		}
		oc.packed[w] = 0
	}
	oc.pending = 0
}

// spreadNibbles moves bit i of x to bit 4i.
func spreadNibbles(x uint16) uint64 {
	v := uint64(x)
	v = (v | v<<24) & 0x000000FF000000FF
	v = (v | v<<12) & 0x000F000F000F000F
	v = (v | v<<6) & 0x0303030303030303
	v = (v | v<<3) & 0x1111111111111111
	return v
}

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
	if rankSum, rankVar := pc.ranks(); rankVar > 0 {
		pl.RankP = 2 * stats.NormalSF(math.Abs(rankSum)/math.Sqrt(rankVar))
	}
	observed, expected := pc.cells()
	stat, cells := stats.ChiSquare(observed, expected)
	pl.CellP = stats.ChiSquareSF(stat, cells-1)
	pl.ValueP, pl.RankP, pl.CellP = roundP(pl.ValueP), roundP(pl.RankP), roundP(pl.CellP)
	return pl
}

// roundP rounds a p-value to 10 significant digits. math.Exp and
// math.Log are assembly on amd64 and pure Go in WebAssembly (and arm64
// fuses multiply-adds), so the last of 17 digits differ between
// machines; a verdict reads the same on each (the kit's differential
// test holds the WebAssembly build to the command's, byte for byte).
func roundP(p float64) float64 {
	if p == 0 || math.IsNaN(p) || math.IsInf(p, 0) {
		return p
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(p, 'g', 10, 64), 64)
	if err != nil {
		return p
	}
	return r
}

// ranks returns the rank test's sum, over the spawns that had more than
// one cell open, of each rank scaled to [0, 1] less 1/2, and its variance
// under a uniform choice: (k+1)/(12(k-1)) a spawn with k open.
func (pc *SpawnCounter) ranks() (sum, variance float64) {
	for k := 2; k < len(pc.byOpen); k++ {
		if oc := &pc.byOpen[k]; oc.spawns > 0 {
			e, n := float64(k), float64(oc.spawns)
			sum += float64(oc.ranks)/(e-1) - n/2
			variance += n * (e + 1) / (12 * (e - 1))
		}
	}
	return sum, variance
}

// cells returns the spawns in each cell and the sum of each cell's
// chances, what the cell test compares, in pc's room.
func (pc *SpawnCounter) cells() (observed, expected []float64) {
	for k := range pc.byOpen {
		if pc.byOpen[k].pending > 0 {
			pc.flush(k)
		}
	}
	for c := range pc.cellsOut {
		pc.cellsOut[c] = float64(pc.observed[c])
	}
	return pc.cellsOut, pc.expected
}
