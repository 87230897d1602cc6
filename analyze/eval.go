package analyze

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"sync"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/player"
)

// An evaluator values each of a position's four moves; the analysis
// compares the move played with its values. Each is pinned by a name and
// a version (ID), and by a hash of the tables it evaluates with (Pin), so
// that figures computed with one are never compared with another's.
type evaluator interface {
	// ID is the evaluator's name and version, "expectimax-2/1".
	ID() string
	// values returns the value of each move (by engine.Direction) from
	// board b, -Inf for a move that does not change it (or that would
	// make 2^16). spawns are the profile's spawn tiles.
	values(b bitboard, spawns []spawnTile) [4]float64
	// unit returns the loss unit at a position whose best value is best:
	// a loss of 1 is one unit below the best move.
	unit(best float64) float64
}

// spawnTile is a tile a profile spawns and its probability.
type spawnTile struct {
	exp  uint8
	prob float64
}

// spawnTiles returns a profile's spawn tiles and their probabilities (the
// player's), leaving out a tile that is not a power of two a bitboard
// holds.
func spawnTiles(ws []engine.SpawnWeight) []spawnTile {
	var out []spawnTile
	for _, s := range player.SpawnChances(ws) {
		if s.Value < 2 || s.Value&(s.Value-1) != 0 {
			continue
		}
		if e := uint8(bits.TrailingZeros64(s.Value)); e <= maxBitExp {
			out = append(out, spawnTile{e, s.Prob})
		}
	}
	return out
}

// heuristic is the expectimax player's board evaluation (package player),
// held as one table of every row.
type heuristic struct {
	rows  []float64
	empty float64 // one empty cell's bonus: the loss unit
	loss  float64 // a lost game, per line, below the root's evaluation
	pin   string  // sha256 of the table, first 12 hex digits
}

var (
	heurOnce sync.Once
	heur     *heuristic
)

func getHeuristic() *heuristic {
	heurOnce.Do(func() {
		t, empty, loss := player.Heuristic()
		h := sha256.New()
		binary.Write(h, binary.LittleEndian, t) // a hash takes every write
		heur = &heuristic{rows: t, empty: empty, loss: loss, pin: fmt.Sprintf("%x", h.Sum(nil))[:12]}
	})
	return heur
}

// score evaluates a board: the sum of its rows' and columns' scores.
func (h *heuristic) score(b bitboard) float64 {
	t := b.transpose()
	x, y := uint64(b), uint64(t)
	return h.rows[uint16(x)] + h.rows[uint16(x>>16)] + h.rows[uint16(x>>32)] + h.rows[uint16(x>>48)] +
		h.rows[uint16(y)] + h.rows[uint16(y>>16)] + h.rows[uint16(y>>32)] + h.rows[uint16(y>>48)]
}

// expectimax values a move by an expectimax search to a fixed depth (the
// number of the player's moves searched, the first being the move
// valued), averaging over every spawn after each move, with the
// expectimax player's heuristic at the horizon. Chance nodes less likely
// than minProb from the root are evaluated as they stand, as the player
// does. Depth 1 is a greedy player with that heuristic.
type expectimax struct {
	depth int
	h     *heuristic
	loss  float64
	cache map[cacheKey]float64 // chance nodes of the current position, for depth 3 and more
}

// expectimaxMinProb is the probability below which a chance node is not
// expanded (the player's own cutoff).
const expectimaxMinProb = 1e-4

// cacheKey is a chance node: its board and the depth left below it.
type cacheKey struct {
	b     bitboard
	depth int
}

func newExpectimax(depth int) *expectimax {
	return &expectimax{depth: depth, h: getHeuristic(), cache: map[cacheKey]float64{}}
}

func (e *expectimax) ID() string { return fmt.Sprintf("expectimax-%d/1", e.depth) }

func (e *expectimax) unit(float64) float64 { return e.h.empty }

func (e *expectimax) values(b bitboard, spawns []spawnTile) [4]float64 {
	e.loss = e.h.score(b) - float64(8*e.h.loss)
	if e.depth >= 3 {
		clear(e.cache)
	}
	return moveValues(b, func(s bitboard) float64 { return e.chance(s, e.depth-1, 1, spawns) })
}

// moveValues returns the value of the board each move makes from b, by
// engine.Direction, -Inf for a move that does not change b (or that would
// make 2^16).
func moveValues(b bitboard, value func(bitboard) float64) [4]float64 {
	var v [4]float64
	for _, d := range engine.Directions {
		s, ok := b.slide(d)
		if !ok || s == b {
			v[d] = math.Inf(-1)
			continue
		}
		v[d] = value(s)
	}
	return v
}

func (e *expectimax) chance(b bitboard, depth int, prob float64, spawns []spawnTile) float64 {
	if depth <= 0 || prob < expectimaxMinProb {
		return e.h.score(b)
	}
	if depth >= 2 {
		if v, ok := e.cache[cacheKey{b, depth}]; ok {
			return v
		}
	}
	n := b.empties()
	if n == 0 {
		return e.h.score(b)
	}
	cell := prob / float64(n)
	var total float64
	for i := range 16 {
		if b.exp(i) != 0 {
			continue
		}
		for _, s := range spawns {
			total += float64(s.prob * e.maxNode(b.with(i, s.exp), depth, cell*s.prob, spawns)) // no fused multiply-add (halfPow)
		}
	}
	v := total / float64(n)
	if depth >= 2 {
		e.cache[cacheKey{b, depth}] = v
	}
	return v
}

func (e *expectimax) maxNode(b bitboard, depth int, prob float64, spawns []spawnTile) float64 {
	best := e.loss
	for _, d := range engine.Directions {
		s, ok := b.slide(d)
		if !ok || s == b {
			continue
		}
		best = max(best, e.chance(s, depth-1, prob, spawns))
	}
	return best
}

// corner is an evaluator of a different kind from expectimax: a greedy
// (one-move) player that keeps the tiles in a snake from a corner. A
// board's value is the largest, over the board's eight symmetries, of the
// sum of each tile's value times its cell's weight along the snake
// (4^-k for the k-th cell from the corner), plus a small bonus for each
// empty cell. It searches nothing and knows nothing of spawns.
type corner struct{}

// snake is the order of the cells of the snake from the top left corner.
var snake = [16]int{0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15, 14, 13, 12}

var (
	cornerOnce  sync.Once
	cornerTable *[8][16]float64
)

// cornerWeights[k][i] is cell i's weight in symmetry k, computed at
// first use (a command that analyses nothing does no work for it).
func cornerWeights() *[8][16]float64 {
	cornerOnce.Do(func() {
		w := new([8][16]float64)
		for k := range 8 {
			for rank, cell := range snake {
				r, c := cell/4, cell%4
				if k&1 != 0 {
					c = 3 - c
				}
				if k&2 != 0 {
					r = 3 - r
				}
				if k&4 != 0 {
					r, c = c, r
				}
				w[k][4*r+c] = math.Pow(4, -float64(rank))
			}
		}
		cornerTable = w
	})
	return cornerTable
}

func (corner) ID() string { return "corner-1/1" }

// unit is one percent of the best move's value.
func (corner) unit(best float64) float64 { return max(best/100, 1e-9) }

func (corner) values(b bitboard, _ []spawnTile) [4]float64 {
	return moveValues(b, cornerScore)
}

func cornerScore(b bitboard) float64 {
	var tiles [16]float64
	empty := 0
	for i := range 16 {
		if e := b.exp(i); e != 0 {
			tiles[i] = float64(uint64(1) << e)
		} else {
			empty++
		}
	}
	best := 0.0
	w := cornerWeights()
	for k := range 8 {
		s := 0.0
		for i, t := range tiles {
			s += float64(t * w[k][i])
		}
		best = max(best, s)
	}
	return best * (1 + float64(0.01*float64(empty)))
}
