package engine

import "fmt"

// Move plays one move: slide toward d, and when the board changes, add the
// points, count the move, spawn one tile from the seeded generator and
// check the finishing conditions. A move that changes nothing, and any move
// once the run is over, is ignored (Step.Changed false) or a [*MoveError],
// as the profile says; the state is then unchanged.
func (g *Game) Move(d Direction) (Step, error) {
	if !g.seeded {
		return Step{}, ErrNoRNG
	}
	return g.move(d, nil, nil)
}

// MoveSpawn plays a move whose spawn is given rather than drawn: for games
// recorded with the tiles that appeared, and for tests that force a spawn.
// The spawn must be in a cell the slide left empty, with a value the
// profile spawns; otherwise the error wraps [ErrBadSpawn] and the state is
// unchanged. The generator, if any, does not advance.
func (g *Game) MoveSpawn(d Direction, s Spawn) (Step, error) {
	return g.move(d, &s, nil)
}

// Play applies actions in order, as [Game.Do] would one by one, and stops
// at the first error, returning the number of actions applied before it.
// With spawns non-nil, spawns[i] is the tile that appeared after action i
// (used only when it is a counted move), as [Game.MoveSpawn] takes it;
// with spawns nil they are drawn from the generator. Play is the fast way
// to replay a move log.
func (g *Game) Play(actions []Action, spawns []Spawn) (int, error) {
	return g.play(actions, spawns, nil)
}

// PlayRecorded plays a spawn-recorded move log as [Game.Play] does with
// spawns, and tells where each spawn could have gone: for each counted
// move i it sets open[i] to the cells the slide left empty, bit
// row*cols+col for each (the cells a generator could have chosen). The
// entries of other actions are left as they are. open is as long as
// actions.
func (g *Game) PlayRecorded(actions []Action, spawns []Spawn, open []uint64) (int, error) {
	if len(open) != len(actions) {
		return 0, fmt.Errorf("%d actions but room for %d open cells", len(actions), len(open))
	}
	return g.play(actions, spawns, open)
}

// play is Play, and PlayRecorded when open is not nil: the replay loop
// (fastPlay) takes what it can, and each action it stops before goes
// through Do or move, the one path of a single action.
func (g *Game) play(actions []Action, spawns []Spawn, open []uint64) (int, error) {
	if spawns != nil && len(spawns) != len(actions) {
		return 0, fmt.Errorf("%d actions but %d spawns", len(actions), len(spawns))
	}
	for i := 0; i < len(actions); i++ {
		// A nil spawns or open stays nil: it has no element i, and [0:] of it is nil.
		i += g.fastPlay(actions[i:], spawns[min(i, len(spawns)):], open[min(i, len(open)):])
		if i == len(actions) {
			break
		}
		var err error
		switch a := actions[i]; {
		case a > MoveRight:
			_, err = g.Do(a)
		case spawns != nil:
			var o *uint64
			if open != nil {
				o = &open[i]
			}
			_, err = g.move(Direction(a), &spawns[i], o)
		default:
			_, err = g.Move(Direction(a))
		}
		if err != nil {
			return i, err
		}
	}
	return len(actions), nil
}

// move is the one path of a single move, for every board and every move
// the replay loop leaves; given, if not nil, is the spawn to place, and
// open, if not nil, gets the empty cells after the slide.
func (g *Game) move(d Direction, given *Spawn, open *uint64) (Step, error) {
	if g.st.result != Playing {
		return g.refuse(d)
	}
	s, err := g.st.b.Slide(d)
	if err != nil {
		return Step{}, err
	}
	if !s.Changed {
		return g.refuse(d)
	}
	if s.Gained > MaxSafeInteger-g.st.score {
		return Step{}, ErrScoreOverflow
	}
	if g.st.moves >= MaxMoves {
		return Step{}, ErrMovesOverflow
	}
	b, cols := s.Board, s.Board.Cols()
	if given != nil {
		if err := g.checkSpawn(*given, b); err != nil {
			return Step{}, err
		}
	}
	if open != nil {
		*open = b.EmptyMask()
	}
	if g.r.p.Undo {
		g.prev, g.canUndo = g.st, true
	}
	sp := Spawn{}
	if given != nil {
		sp = *given
	} else {
		exp, nth := g.draw(b.Empty())
		i := b.nthEmpty(nth)
		sp = Spawn{Row: i / cols, Col: i % cols, Value: 1 << exp}
	}
	b.cells[sp.Row*cols+sp.Col] = log2(sp.Value)
	g.st.b = b
	g.st.maxExp = max(g.st.maxExp, b.maxExp())
	g.st.score += s.Gained
	g.st.moves++
	if !g.st.won && g.r.p.Win.Tile != 0 {
		if g.r.p.Win.When == Reach {
			g.st.won = g.st.maxExp >= g.r.winExp
		} else {
			g.st.won = s.Made(g.r.p.Win.Tile)
		}
	}
	g.finish(b.Blocked())
	return Step{Changed: true, Gained: s.Gained, Spawn: sp}, nil
}

// refuse answers a move that is illegal or comes after the run is over:
// ignored or an error, as the profile says.
func (g *Game) refuse(d Direction) (Step, error) {
	if g.r.p.Illegal == Ignore {
		return Step{}, nil
	}
	return Step{}, &MoveError{Dir: d, Result: g.st.result, Legal: g.LegalMoves()}
}

// checkSpawn checks a given spawn against the board after the slide.
func (g *Game) checkSpawn(s Spawn, b Board) error {
	switch {
	case s.Row < 0 || s.Row >= b.Rows() || s.Col < 0 || s.Col >= b.Cols():
		return fmt.Errorf("%w: row %d, column %d is outside the %dx%d board", ErrBadSpawn, s.Row, s.Col, b.Rows(), b.Cols())
	case b.At(s.Row, s.Col) != 0:
		return fmt.Errorf("%w: row %d, column %d is not empty after the slide", ErrBadSpawn, s.Row, s.Col)
	case !g.r.p.SpawnValue(s.Value):
		return fmt.Errorf("%w: profile %s spawns %s, not %d", ErrBadSpawn, g.r.p.Name, g.r.p.SpawnValues(), s.Value)
	}
	return nil
}

// draw makes the two draws of a spawn on a board with empty empty cells,
// the tile's exponent and which empty cell (0-based, row-major), by tp1
// or by the game's registered generator.
func (g *Game) draw(empty int) (exp uint8, nth int) {
	if g.drawOther != nil {
		next, v, nth := g.drawOther(g.st.rng.state, empty)
		g.st.rng.state = next
		return g.r.spawnExp(v), nth
	}
	exp = g.r.spawnExp(g.st.rng.Next())
	return exp, int(g.st.rng.Next() % uint64(empty))
}

// nthEmpty returns the index of empty cell number n (0-based, row-major).
func (b *Board) nthEmpty(n int) int {
	for i, e := range b.cells[:b.Cells()] {
		if e == 0 {
			if n == 0 {
				return i
			}
			n--
		}
	}
	panic("engine: fewer empty cells than drawn") // the draw is modulo the number of empty cells
}

// finish ends the run when a finishing condition holds ([Rules.finished]).
func (g *Game) finish(blocked bool) {
	if r := g.r.finished(g.st.won, g.st.keep, g.st.moves, blocked); r != Playing {
		g.st.result = r
	}
}

// evaluate brings a new or loaded state's flags up to date, blocked
// saying whether its board has no move left ([Game.blocked]).
func (g *Game) evaluate(blocked bool) {
	if g.r.winExp != 0 && g.r.p.Win.When == Reach && g.st.maxExp >= g.r.winExp {
		g.st.won = true
	}
	g.finish(blocked)
}

// blocked reports whether the board has no move left in the sense of the
// profile's game-over rule: no move changes it, and it is not empty
// unless the profile counts an empty board as over. Only a loaded state
// or a break reaches this with an empty board: the move paths check a
// board that has just had a tile spawned, or at least kept one.
func (g *Game) blocked() bool {
	b := &g.st.b
	return b.Blocked() && (g.r.p.GameOver == NoValidMove || b.Empty() != b.Cells())
}
