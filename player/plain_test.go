package player

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// This file keeps the expectimax search as it was before the evaluator read
// the board directly (a grid read at every node, the empty cells counted on
// it), to check that the search chooses exactly as it did.

// grid is a board's exponents in row-major order, read once for the
// evaluation and the chance nodes.
type grid struct {
	rows, cols int
	cells      [engine.MaxSide * engine.MaxSide]uint8
	maxExp     uint8
}

func plainReadGrid(b *engine.Board) grid {
	g := grid{rows: b.Rows(), cols: b.Cols()}
	i := 0
	for r := range g.rows {
		for c := range g.cols {
			e := uint8(b.Exp(r, c))
			g.cells[i] = e
			g.maxExp = max(g.maxExp, e)
			i++
		}
	}
	return g
}

// plainScore evaluates a board: the sum of the scores of its rows and columns.
func plainScore(ev *evaluator, g *grid) float64 {
	rows, cols := g.rows, g.cols
	var total float64
	var line [engine.MaxSide]uint8
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

// plainChoose is Choose as it was, with the chance and max nodes below.
func plainChoose(p *expectimax, g *engine.Game) engine.Direction {
	legal := g.LegalMoves()
	if len(legal) < 2 {
		return p.Choose(g)
	}
	if r := g.Rules(); r != p.rules {
		p.rules, p.spawns = r, spawnChoices(r.Profile().Spawn)
	}
	b := g.Board()
	depth := p.depth
	if depth == 0 {
		depth = 2
		if b.Empty() <= crowded {
			depth = 3
		}
	}
	root := plainReadGrid(&b)
	p.loss = plainScore(p.ev, &root) - float64(b.Rows()+b.Cols())*p.ev.w.loss
	clear(p.cache)
	best, bestValue := legal[0], math.Inf(-1)
	for _, d := range legal {
		s, err := b.Slide(d)
		if err != nil {
			continue
		}
		if v := plainChance(p, s.Board, depth-1, 1); v > bestValue {
			best, bestValue = d, v
		}
	}
	return best
}

func plainChance(p *expectimax, b engine.Board, depth int, prob float64) float64 {
	if depth <= 0 || prob < minProb {
		g := plainReadGrid(&b)
		return plainScore(p.ev, &g)
	}
	if c, ok := p.cache[b]; ok && c.depth >= depth {
		return c.value
	}
	g := plainReadGrid(&b)
	empty := 0
	for _, e := range g.cells[:g.rows*g.cols] {
		if e == 0 {
			empty++
		}
	}
	if empty == 0 {
		return plainScore(p.ev, &g)
	}
	cellProb := prob / float64(empty)
	var total float64
	for i, e := range g.cells[:g.rows*g.cols] {
		if e != 0 {
			continue
		}
		r, c := i/g.cols, i%g.cols
		for _, s := range p.spawns {
			nb := b
			if nb.Set(r, c, s.value) != nil {
				continue
			}
			best := p.loss
			for _, d := range engine.Directions {
				sl, err := nb.Slide(d)
				if err != nil || !sl.Changed {
					continue
				}
				best = math.Max(best, plainChance(p, sl.Board, depth-1, cellProb*s.prob))
			}
			total += s.prob * best
		}
	}
	v := total / float64(empty)
	p.cache[b] = cached{v, depth}
	return v
}

// TestScoreMatchesPlain checks the evaluation against the plain one on random
// boards of every size, with tiles below and above 2^16.
func TestScoreMatchesPlain(t *testing.T) {
	ev := getDefaultEvaluator()
	rng := rand.New(rand.NewPCG(3, 4))
	for rows := engine.MinSide; rows <= engine.MaxSide; rows++ {
		for cols := engine.MinSide; cols <= engine.MaxSide; cols++ {
			for range 500 {
				b, err := engine.NewBoard(rows, cols)
				if err != nil {
					t.Fatal(err)
				}
				top := 15 + rng.IntN(2)*10
				for r := range rows {
					for c := range cols {
						if rng.IntN(3) > 0 {
							if err := b.Set(r, c, 1<<(1+rng.IntN(top))); err != nil {
								t.Fatal(err)
							}
						}
					}
				}
				g := plainReadGrid(&b)
				if got, want := ev.score(&b), plainScore(ev, &g); got != want {
					t.Fatalf("%v: score %v, plain %v", b, got, want)
				}
			}
		}
	}
}

// TestExpectimaxMatchesPlain checks that the search chooses as the plain one
// along games of several rule sets and board sizes, at the adaptive depth.
func TestExpectimaxMatchesPlain(t *testing.T) {
	rules := []*engine.Rules{builtinRules(t, "tile-merge"), builtinRules(t, "classic"),
		sizedRules(t, 3, 5, "spawn: {2: 6, 4: 3, 8: 1}\n"), sizedRules(t, 5, 5, "")}
	for i, r := range rules {
		p := NewExpectimax(ExpectimaxOptions{}).(*expectimax)
		plain := NewExpectimax(ExpectimaxOptions{}).(*expectimax)
		g := newGame(t, r, fmt.Sprint("plain-", i))
		for !g.Over() && g.Moves() < 150 {
			d := p.Choose(g)
			if want := plainChoose(plain, g); d != want {
				t.Fatalf("rules %d move %d: chose %v, plain %v\n%v", i, g.Moves()+1, d, want, g.Board())
			}
			if _, err := g.Move(d); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// BenchmarkExpectimaxChoosePlain is BenchmarkExpectimaxChoose/depth-0 for
// the plain search, to compare the two in one process.
func BenchmarkExpectimaxChoosePlain(b *testing.B) {
	positions := midGamePositions(b)
	p := NewExpectimax(ExpectimaxOptions{}).(*expectimax)
	i := 0
	for b.Loop() {
		plainChoose(p, positions[i%len(positions)])
		i++
	}
}
