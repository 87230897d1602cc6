// Package player holds the built-in players of tileproof record: they
// choose the moves of a game, to make realistic test data.
//
// Two players are built in:
//
//   - "random" ([NewRandom]) chooses uniformly among the legal moves, from
//     its own seeded generator: short, chaotic games.
//   - "expectimax" ([NewExpectimax]) searches the game tree with a heuristic
//     evaluation of the board: long games that nearly always reach 2048 on
//     the 4x4 tile-merge profile (docs/engine.md has the figures).
//
// A player only reads the game: it never moves it. The caller plays the
// move Choose returns. A Player keeps state between calls (a generator, a
// search cache), so it is not safe for concurrent use: use one player per
// goroutine.
package player

import (
	"fmt"
	"math/rand/v2"

	"github.com/tileproof/tileproof/engine"
)

// A Player chooses the next move of a game that is not over; the move it
// returns is one of g.LegalMoves().
//
// Called on a game with no legal move (one that is over, or whose board is
// blocked), Choose returns [engine.Up]; callers check [engine.Game.Over]
// first.
type Player interface {
	Name() string
	Choose(g *engine.Game) engine.Direction
}

// Names lists the built-in players: "expectimax", "random".
func Names() []string { return []string{"expectimax", "random"} }

// New returns a built-in player by name; seed seeds the random player
// (expectimax is deterministic and ignores it). The expectimax player gets
// the default options (adaptive depth).
func New(name string, seed uint64) (Player, error) {
	switch name {
	case "random":
		return NewRandom(seed), nil
	case "expectimax":
		return NewExpectimax(ExpectimaxOptions{}), nil
	}
	return nil, fmt.Errorf("no player %q (the players are %v)", name, Names())
}

// pcgStream is the second word of the random player's PCG seed: a fixed
// constant, so that the player's whole stream depends on its seed alone.
const pcgStream = 0x7469_6c65_7072_6f66 // "tileprof"

type random struct {
	rng *rand.Rand
}

// NewRandom returns a player that chooses uniformly among the legal moves,
// from its own seeded generator (math/rand/v2 PCG), so the same seed gives
// the same choices. It draws one number for each move it chooses, and none
// when there is no legal move.
func NewRandom(seed uint64) Player {
	return &random{rng: rand.New(rand.NewPCG(seed, pcgStream))}
}

func (p *random) Name() string { return "random" }

func (p *random) Choose(g *engine.Game) engine.Direction {
	legal := g.LegalMoves()
	if len(legal) == 0 {
		return engine.Up
	}
	return legal[p.rng.IntN(len(legal))]
}
