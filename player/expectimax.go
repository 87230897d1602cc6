package player

import (
	"math"

	"github.com/tileproof/tileproof/engine"
)

// ExpectimaxOptions tunes the expectimax player.
type ExpectimaxOptions struct {
	// Depth is the search depth in moves: the number of max layers (the
	// player's own moves) searched, each but the last followed by a
	// chance layer (the spawn); the boards after the last move of a line
	// are evaluated by the heuristic. Depth 1 is a greedy player.
	//
	// 0 (or less) means adaptive: depth 2 while the board has more than 6
	// empty cells, depth 3 once it has 6 or fewer. A crowded board is where
	// games are lost, and it is also where the chance nodes branch least,
	// so the deeper search costs little more there than the shallow one on
	// an open board (docs/engine.md has its cost and strength).
	Depth int
}

// crowded is the number of empty cells at or below which the adaptive depth
// searches 3 moves deep instead of 2.
const crowded = 6

// minProb is the probability below which a chance node is not expanded but
// evaluated as it stands. The probability of a node is the product, along
// the line from the root, of the probabilities of its spawns: the tile's
// weight share divided by the number of empty cells. This prunes the
// unlikely lines, chiefly those with several 4s in a row, which would
// otherwise be most of the tree.
const minProb = 1e-4

// SpawnChance is a tile a profile spawns and its probability.
type SpawnChance struct {
	Value uint64
	Prob  float64 // the tile's share of the spawn weights
}

type cached struct {
	value float64
	depth int // the max layers searched below the chance node
}

type expectimax struct {
	depth int // 0: adaptive
	ev    *evaluator

	rules  *engine.Rules // the rules spawns was read from
	spawns []SpawnChance

	// cache holds the value of each chance node searched during one
	// Choose: the same board recurs when spawns and moves come in another
	// order. It is cleared at every Choose.
	cache map[engine.Board]cached

	// loss is the value of a lost game (no move left) in the current
	// search, see Choose.
	loss float64

	slides int // Board.Slide calls of the last Choose, for tests and benchmarks
}

// NewExpectimax returns a player that searches the game tree with
// expectimax, over the engine's public [engine.Board]:
//
//   - at a max node (the player's move) it tries the four directions
//     with [engine.Board.Slide] and takes the best value among those that
//     change the board; a board with no move left is a lost game, worth a
//     fixed amount per line below the evaluation of the current position
//     (see Choose);
//   - at a chance node (the spawn) it averages over every empty cell, equally
//     likely, and every tile the game's profile spawns, weighted as the
//     profile weighs them (Profile.Spawn);
//   - at the search horizon, and at chance nodes less likely than 1 in
//     10,000 from the root (pruned), it evaluates the board after the move
//     with a heuristic: a sum over every row and column of bonuses for
//     empty cells and available merges and penalties for lines that are
//     not monotone and for large tiles.
//
// The values of chance nodes are cached during one choice (a transposition
// cache keyed by the board). The search is deterministic: the same game
// state gives the same choice, whatever the player chose before. Ties go to
// the first move in the order of [engine.Directions].
//
// It is tuned for 4x4 boards and plays on every size the engine supports,
// 2x2 to 8x8 (docs/engine.md has its strength and cost). A player is not
// safe for concurrent use: it keeps its cache between calls to save
// allocations.
func NewExpectimax(opts ExpectimaxOptions) Player {
	return &expectimax{
		depth: max(opts.Depth, 0),
		ev:    getDefaultEvaluator(),
		cache: make(map[engine.Board]cached),
	}
}

func (p *expectimax) Name() string { return "expectimax" }

func (p *expectimax) Choose(g *engine.Game) engine.Direction {
	p.slides = 0
	legal := g.LegalMoves()
	switch len(legal) {
	case 0:
		return engine.Up
	case 1:
		return legal[0]
	}
	if r := g.Rules(); r != p.rules {
		p.rules, p.spawns = r, SpawnChances(r.Profile().Spawn)
	}
	b := g.Board()
	depth := p.depth
	if depth == 0 {
		depth = 2
		if b.Empty() <= crowded {
			depth = 3
		}
	}
	// A lost game is worth a fixed amount for every line less than the
	// evaluation of the position itself: a loss is then as bad, next to
	// the boards the search compares it with, early in a game as late, and
	// with huge tiles as with small ones. (With a fixed value, the evaluation of a live board with large
	// tiles out of order could fall below that of a loss.)
	root := readGrid(&b)
	lines := float64(b.Rows() + b.Cols())
	p.loss = p.ev.score(&root) - float64(lines*p.ev.w.loss)
	clear(p.cache)
	best, bestValue := legal[0], math.Inf(-1)
	for _, d := range legal {
		p.slides++
		s, err := b.Slide(d)
		if err != nil {
			continue // a merge past 2^52, which the game refuses too
		}
		if v := p.chance(s.Board, depth-1, 1); v > bestValue {
			best, bestValue = d, v
		}
	}
	return best
}

// SpawnChances returns the tiles a profile spawns with their
// probabilities, in the profile's order, leaving out a tile of weight 0.
// Package analyze searches with them too.
func SpawnChances(ws []engine.SpawnWeight) []SpawnChance {
	var total uint64
	for _, w := range ws {
		total += w.Weight
	}
	var out []SpawnChance
	for _, w := range ws {
		if w.Weight > 0 {
			out = append(out, SpawnChance{w.Value, float64(w.Weight) / float64(total)})
		}
	}
	return out
}

// chance returns the expected value of board b after a move, before its
// spawn, with depth max layers left to search; prob is the probability of
// reaching b from the root.
func (p *expectimax) chance(b engine.Board, depth int, prob float64) float64 {
	if depth <= 0 || prob < minProb {
		g := readGrid(&b)
		return p.ev.score(&g)
	}
	if c, ok := p.cache[b]; ok && c.depth >= depth {
		return c.value
	}
	g := readGrid(&b)
	empty := b.Empty()
	if empty == 0 { // cannot happen after a move that changed the board
		return p.ev.score(&g)
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
			if nb.Set(r, c, s.Value) != nil {
				continue // not a tile; Compile refuses such profiles
			}
			total += float64(s.Prob * p.maxNode(nb, depth, cellProb*s.Prob)) // no fused multiply-add (halfPow)
		}
	}
	v := total / float64(empty)
	p.cache[b] = cached{v, depth}
	return v
}

// maxNode returns the value of board b before a move, with depth max layers
// left to search (depth >= 1): the best value of its moves, or p.loss when
// no move is left.
func (p *expectimax) maxNode(b engine.Board, depth int, prob float64) float64 {
	best := p.loss
	for _, d := range engine.Directions {
		p.slides++
		s, err := b.Slide(d)
		if err != nil || !s.Changed {
			continue
		}
		best = math.Max(best, p.chance(s.Board, depth-1, prob))
	}
	return best
}
