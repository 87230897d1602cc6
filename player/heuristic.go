package player

import (
	"math"
	"sync"

	"github.com/tileproof/tileproof/engine"
)

// weights are the weights of the heuristic evaluation of a board: a sum over
// its lines, every row and every column, of a score of the line alone
// (lineScore). A line scores:
//
//   - a bonus for each empty cell: room to move is what keeps a game alive;
//   - a bonus for each merge available along the line (a pair of equal
//     tiles with only empty cells between them, each tile counted once);
//   - a penalty for breaking monotonicity: the tiles of a good line rise
//     steadily toward one end. The penalty is the smaller of the line's
//     total rise toward either end, measured on e^4 for a tile 2^e (0 for an
//     empty cell), so that disorder among big tiles costs far more than
//     among small ones;
//   - a penalty on the size of the tiles, e^3.5 for each tile 2^e, which
//     makes the search prefer merging tiles to keeping them apart.
//
// Rows and columns that are all monotone toward the same sides put the
// biggest tile in a corner with the smaller ones in a chain behind it, the
// usual way to play 2048 well. These terms are the ones 2048 expectimax
// programs commonly use, and the weights are those published for the
// best-known of them (nneonneo's 2048-ai, tuned there by optimisation),
// checked here on 4x4 tile-merge games rather than tuned again.
//
// loss is the value of losing (no move left), per line of the board, below
// the evaluation of the position the search starts from (see Choose).
type weights struct {
	loss, empty, merge, mono, monoPow, sum, sumPow float64
}

var defaultWeights = weights{
	loss:    200000,
	empty:   270,
	merge:   700,
	mono:    47,
	monoPow: 4,
	sum:     11,
	sumPow:  3.5,
}

// evaluator scores boards with a set of weights. Lines of 2 to 4 cells whose
// tiles are all below 2^16 are looked up in a table of every such line;
// other lines are scored directly.
type evaluator struct {
	w        weights
	monoPow  [engine.MaxExp + 1]float64
	sumPow   [engine.MaxExp + 1]float64
	tables   [5][]float64 // tables[n]: every line of n cells, exponents 0..15, 4 bits a cell
	tableSet [5]sync.Once
}

var (
	defaultEvalOnce sync.Once
	defaultEval     *evaluator
)

func getDefaultEvaluator() *evaluator {
	defaultEvalOnce.Do(func() {
		w := defaultWeights
		defaultEval = &evaluator{w: w}
		for e := 1; e < len(defaultEval.monoPow); e++ {
			defaultEval.monoPow[e] = halfPow(float64(e), w.monoPow)
			defaultEval.sumPow[e] = halfPow(float64(e), w.sumPow)
		}
	})
	return defaultEval
}

// halfPow returns x^y for a y that is a whole number or a half, from
// products of x, exact for the exponents of a board's tiles, and the
// square root, which IEEE 754 rounds correctly: the same value on every
// platform, so that the heuristic's table, and the hash package analyze
// pins it by, are too. (math.Pow(10, 3.5) is one ulp apart on 386 and
// amd64, whose Exp and Log differ.) Any other y takes math.Pow.
func halfPow(x, y float64) float64 {
	whole, frac := math.Modf(y)
	if y < 0 || whole > 64 || frac != 0 && frac != 0.5 {
		return math.Pow(x, y)
	}
	p := 1.0
	for range int(whole) {
		p *= x
	}
	if frac != 0 {
		p *= math.Sqrt(x)
	}
	return p
}

// lineScore scores one line of exponents (0 for an empty cell).
func (ev *evaluator) lineScore(line []uint8) float64 {
	w := &ev.w
	empty, merges := 0, 0
	var prev uint8 // the previous tile, skipping empty cells
	var rise, fall, size float64
	for i, e := range line {
		switch {
		case e == 0:
			empty++
		case e == prev:
			merges++
			prev = 0 // a tile merges once
		default:
			prev = e
		}
		size += ev.sumPow[e]
		if i > 0 {
			a, b := ev.monoPow[line[i-1]], ev.monoPow[e]
			if a > b {
				fall += a - b
			} else {
				rise += b - a
			}
		}
	}
	// Each product converted, so that no platform fuses it with the sum
	// into one rounding (arm64 would: the Go spec allows it).
	return float64(w.empty*float64(empty)) + float64(w.merge*float64(merges)) -
		float64(w.mono*math.Min(rise, fall)) - float64(w.sum*size)
}

// table returns the table of every line of n cells (2 <= n <= 4) with
// exponents below 16, indexed by the exponents 4 bits a cell, the first
// cell in the low bits.
func (ev *evaluator) table(n int) []float64 {
	ev.tableSet[n].Do(func() {
		t := make([]float64, 1<<(4*n))
		line := make([]uint8, n)
		for k := range t {
			for i := range line {
				line[i] = uint8(k >> (4 * i) & 15)
			}
			t[k] = ev.lineScore(line)
		}
		ev.tables[n] = t
	})
	return ev.tables[n]
}

// grid is a board's exponents in row-major order, read once for the
// evaluation and the chance nodes.
type grid struct {
	rows, cols int
	cells      [engine.MaxSide * engine.MaxSide]uint8
	maxExp     uint8
}

func readGrid(b *engine.Board) grid {
	g := grid{rows: b.Rows(), cols: b.Cols()}
	for r := range g.rows {
		for c := range g.cols {
			e := uint8(b.Exp(r, c))
			g.cells[r*g.cols+c] = e
			g.maxExp = max(g.maxExp, e)
		}
	}
	return g
}

// score evaluates a board: the sum of the scores of its rows and columns.
func (ev *evaluator) score(g *grid) float64 {
	rows, cols := g.rows, g.cols
	var total float64
	if g.maxExp < 16 && rows <= 4 && cols <= 4 {
		rt, ct := ev.table(cols), ev.table(rows)
		for r := range rows {
			k := 0
			for c := range cols {
				k |= int(g.cells[r*cols+c]) << (4 * c)
			}
			total += rt[k]
		}
		for c := range cols {
			k := 0
			for r := range rows {
				k |= int(g.cells[r*cols+c]) << (4 * r)
			}
			total += ct[k]
		}
		return total
	}
	return ev.directScore(g)
}

// directScore is score computed line by line, without the tables: for
// boards the tables do not cover.
func (ev *evaluator) directScore(g *grid) float64 {
	rows, cols := g.rows, g.cols
	var total float64
	var line [engine.MaxSide]uint8
	for r := range rows {
		total += ev.lineScore(g.cells[r*cols : r*cols+cols])
	}
	for c := range cols {
		for r := range rows {
			line[r] = g.cells[r*cols+c]
		}
		total += ev.lineScore(line[:rows])
	}
	return total
}
