package hallabois

import "github.com/tileproof/tileproof/engine"

// RNGID names the second format's spawn procedure (its generator, the cell
// and value draws and the two start tiles) in a tileproof replay's rng
// field, beside tileproof's own tp1: the engine's name for it.
const RNGID = engine.LCGID

// LCG is the second format's generator: a linear congruential generator
// whose state is 32 bits. Each draw computes 1103515245*state + 12345
// modulo 2^32, then modulo 2^31-1, and that is both the new state and the
// draw. The seed is the first state.
type LCG struct{ State uint32 }

// Next advances the generator and returns the draw.
func (g *LCG) Next() uint32 {
	g.State = (1103515245*g.State + 12345) % 2147483647 // uint32: the product wraps at 2^32
	return g.State
}

// spawnValues are the tiles a spawn picks from, one draw modulo 4: a 4 one
// time in four.
var spawnValues = [4]uint64{2, 2, 2, 4}

// Spawn places one tile the way the peer does: the first draw picks an
// empty cell (modulo the number of empty cells, counted row by row from
// the top left), the second the value. On a full board it places nothing
// and draws nothing. It returns the cell's index (y*W+x) and the value, or
// -1 and 0.
func (g *LCG) Spawn(b Board) (cell int, value uint64) {
	n := b.Empty()
	if n == 0 {
		return -1, 0
	}
	k := int(g.Next() % uint32(n))
	for i, v := range b.Cells {
		if v == 0 {
			if k == 0 {
				cell = i
				break
			}
			k--
		}
	}
	value = spawnValues[g.Next()%4]
	b.Cells[cell] = value
	return cell, value
}

// Start returns the board a second-format game starts from: an empty board
// of w columns and h rows with two tiles spawned from seed, and the
// generator after them.
func Start(w, h int, seed uint32) (Board, LCG) {
	b := NewBoard(w, h)
	g := LCG{seed}
	g.Spawn(b)
	g.Spawn(b)
	return b, g
}
