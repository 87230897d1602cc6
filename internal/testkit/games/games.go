// Package games makes the games the tests and benchmarks of several
// packages play: a batch of short tile-merge games, and a game of one
// move and its undo over and over. It is imported by tests only.
package games

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// BatchGame is a game of Batch: its seed, its start, the actions and the
// spawns that followed, and what it ended with.
type BatchGame struct {
	Seed    string
	Start   engine.Board
	Actions []engine.Action
	Spawns  []engine.Spawn
	Score   uint64
	MaxTile uint64
	Moves   int
}

// Batch plays n distinct tile-merge games, seeded "batch-0", "batch-1"
// and on, each to its end by a corner-keeping player (down, left, right,
// the first of them legal) that moves at random one time in four, from
// one random source for the batch: the same games every time.
func Batch(n int) []BatchGame {
	p, err := engine.BuiltinProfile("tile-merge")
	if err != nil {
		panic(err)
	}
	rules, err := engine.Compile(p)
	if err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	out := make([]BatchGame, n)
	for i := range out {
		seed := fmt.Sprint("batch-", i)
		g, err := rules.NewGame(seed)
		if err != nil {
			panic(err)
		}
		gm := BatchGame{Seed: seed, Start: g.Board()}
		for !g.Over() {
			legal := g.LegalMoves()
			d := legal[0]
			for _, pref := range []engine.Direction{engine.Down, engine.Left, engine.Right} {
				if slices.Contains(legal, pref) {
					d = pref
					break
				}
			}
			if rng.IntN(4) == 0 {
				d = legal[rng.IntN(len(legal))]
			}
			st, err := g.Move(d)
			if err != nil {
				panic(err)
			}
			gm.Actions, gm.Spawns = append(gm.Actions, engine.Action(d)), append(gm.Spawns, st.Spawn)
		}
		gm.Score, gm.MaxTile, gm.Moves = g.Score(), g.MaxTile(), g.Moves()
		out[i] = gm
	}
	return out
}

// MoveUndo returns a valid online-2048 replay as JSON: the first legal
// move of the game seeded "1" and its undo, pairs times over (score 0,
// no counted move in the end).
func MoveUndo(pairs int) []byte {
	p, err := engine.BuiltinProfile("online-2048")
	if err != nil {
		panic(err)
	}
	g, err := engine.NewGame(p, "1")
	if err != nil {
		panic(err)
	}
	letter := string(engine.Action(g.LegalMoves()[0]).Letter())
	return fmt.Appendf(nil, `{"profile":"online-2048","seed":"1","moves":"%s","claim":{"score":0,"maxTile":%d,"moves":0}}`, strings.Repeat(letter+"Z", pairs), g.MaxTile())
}

// Rules compiles the built-in profile name, failing tb when it cannot.
func Rules(tb testing.TB, name string) *engine.Rules {
	tb.Helper()
	p, err := engine.BuiltinProfile(name)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := engine.Compile(p)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}
