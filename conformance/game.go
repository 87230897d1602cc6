package conformance

import (
	"math/bits"
	"math/rand/v2"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// explorer plays one game.
type explorer struct {
	impl    Impl
	hello   Hello
	p       *engine.Profile
	seeded  bool // the implementation draws its own spawns from the tp1 seed
	canLoad bool // load-state and force-spawn
	late    bool // the game starts from a late board (lateBoard), loaded
	// observed: the game is an implementation's own, observed ([Observe]),
	// and its cases say so.
	observed bool
	seed     string
	rng      *rand.Rand
	steps    int

	history []engine.State // the engine's state before each move
	moves   []move
}

// move is one action of an explored game: a move, with the spawn the
// engine placed after it (nil when the move changed nothing or was
// refused), or undo, End run or keep playing.
type move struct {
	Act   engine.Action
	Spawn *engine.Spawn
}

// play plays the game and returns its first divergence, or nil.
func (x *explorer) play(maxMoves int) *ExploreDivergence {
	var g *engine.Game
	var err error
	if x.late {
		// The engine draws the spawns (forced on the implementation) from
		// a generator of the game's own random source.
		b, rng := x.lateBoard(), engine.RNGFromState(x.rng.Uint64())
		g, err = engine.Load(x.p, engine.State{Board: b, Score: b.Potential(), RNG: &rng})
	} else {
		g, err = engine.NewGame(x.p, x.seed)
	}
	res := CaseResult{Profile: x.p.Name}
	if err != nil {
		res.fail(ProtocolError, 0, "the engine cannot start the game: %v", err)
		return x.diverged(0, res)
	}
	s := &session{impl: x.impl, profile: x.p}
	if x.seeded {
		if !s.newGame(x.seed, nil, &res) {
			return x.diverged(0, res)
		}
		// The start is tp1's too.
		x.steps++
		if !s.step(stateStep(g), 1, &res) {
			return x.diverged(0, res)
		}
	} else if !s.load(LoadState{Board: g.Board(), Score: g.Score()}, &res) {
		return x.diverged(0, res)
	}
	for n := 1; n <= maxMoves; n++ {
		over := g.Over()
		a := x.choose(g)
		x.history = append(x.history, g.State())
		step, err := g.Do(a)
		m := move{Act: a}
		if err == nil && step.Changed {
			sp := step.Spawn
			m.Spawn = &sp
		}
		x.moves = append(x.moves, m)
		cs, err := engineStep(g, a, step, err, !x.seeded, true)
		if err != nil {
			res.fail(ProtocolError, n, "the engine failed: %v", err)
			return x.diverged(n, res)
		}
		x.steps++
		if !s.step(cs, n, &res) {
			return x.diverged(n, res)
		}
		if over && g.Over() {
			break // one action after the end, which both refuse
		}
	}
	return nil
}

// lateBoard returns a board of the profile's size with zero to four
// empty cells and tiles from 2 to half the win tile (1024 when the profile
// has none), no two equal tiles side by side; in half of them two tiles of
// half the win tile sit side by side in the first row, so that a move
// makes the win tile, and on a full board it may be the last move.
func (x *explorer) lateBoard() engine.Board {
	rows, cols := x.p.Rows, x.p.Cols
	b, _ := engine.NewBoard(rows, cols)
	top := 10
	if w := x.p.Win.Tile; w >= 4 {
		top = bits.Len64(w) - 2
	}
	pair := -1
	if x.rng.IntN(2) == 0 {
		pair = x.rng.IntN(cols - 1)
	}
	for r := range rows {
		for c := range cols {
			v := uint64(1) << (1 + x.rng.IntN(top))
			if r == 0 && (c == pair || c == pair+1) {
				v = 1 << top
			} else if top > 2 {
				for (c > 0 && b.At(r, c-1) == v) || (r > 0 && b.At(r-1, c) == v) {
					v = 1 << (1 + x.rng.IntN(top))
				}
			}
			b.Set(r, c, v)
		}
	}
	empty := x.rng.IntN(min(5, rows*cols-1))
	for _, i := range x.rng.Perm(rows * cols)[:empty] {
		b.Set(i/cols, i%cols, 0)
	}
	return b
}

func (x *explorer) diverged(move int, res CaseResult) *ExploreDivergence {
	res.Case, res.Area, res.Profile = "", "", x.p.Name
	return &ExploreDivergence{Move: move, Profile: x.p.Name, Result: res}
}

// choose picks the next action. Where the profile has them and the
// implementation declares them: keep playing half the time when the run
// has stopped at a win that asks, undo one time in ten (refused, too,
// where there is nothing to undo), End run one time in 150. Otherwise a
// move: most often one the engine says is legal, sometimes any direction
// (a move that changes nothing, or none left).
func (x *explorer) choose(g *engine.Game) engine.Action {
	p := x.p
	switch {
	case g.AwaitingKeep() && x.hello.Has(protocol.KeepPlaying) && x.rng.IntN(2) == 0:
		return engine.KeepPlaying
	case p.Undo && x.hello.Has(protocol.Undo) && x.rng.IntN(10) == 0:
		return engine.Undo
	case p.EndRun && x.hello.Has(protocol.EndRun) && x.rng.IntN(150) == 0:
		return engine.EndRun
	}
	legal := g.LegalMoves()
	if len(legal) > 0 && x.rng.IntN(8) != 0 {
		return engine.Action(legal[x.rng.IntN(len(legal))])
	}
	return engine.Action(engine.Directions[x.rng.IntN(len(engine.Directions))])
}
