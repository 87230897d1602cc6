package conformance

import (
	"github.com/tileproof/tileproof/engine"
)

// engineStep returns the step of an action the engine has just played in
// game g, with what must follow it as the engine played it: st and err
// are what the engine's Do, Move or MoveSpawn returned. forced gives the
// step the spawn the engine placed (for an implementation whose spawns
// are forced); full asks for every expectation of the step (the board
// after the slide, the points, changed and spawned, the whole state and
// the legal moves), and otherwise only the board after. An error the
// protocol has no word for (or a bad spawn) is returned as it is.
func engineStep(g *engine.Game, a engine.Action, st engine.Step, err error, forced, full bool) (CaseStep, error) {
	cs := actionStep(a)
	if err != nil {
		code := engine.Refusal(err)
		if code == "" || code == "bad-spawn" {
			return cs, err
		}
		cs.Expect.Error = code
		return cs, nil
	}
	if forced && st.Changed {
		sp := st.Spawn
		cs.Spawn = &sp
	}
	if !full {
		after := g.Board()
		cs.Expect.After = &after
		return cs, nil
	}
	if cs.Move != nil {
		slid := slidBoard(g.Board(), st)
		gained, changed := st.Gained, st.Changed
		cs.Expect.Board, cs.Expect.Gained, cs.Expect.Changed, cs.Expect.Spawned = &slid, &gained, &changed, &changed
	}
	expectState(&cs.Expect, g)
	return cs, nil
}

// slidBoard returns the board a move of the engine's slid to, before
// its spawn: after, the board the move left, without step's spawn.
func slidBoard(after engine.Board, step engine.Step) engine.Board {
	if step.Changed {
		after.Set(step.Spawn.Row, step.Spawn.Col, 0)
	}
	return after
}

// actionStep returns the step that plays action a, expecting nothing.
func actionStep(a engine.Action) CaseStep {
	if d, isMove := a.Direction(); isMove {
		return CaseStep{Move: &d}
	}
	return CaseStep{Action: a.String()}
}

// stateStep is a step that only checks the state: game g's board, score,
// counted moves, flags, result and legal moves.
func stateStep(g *engine.Game) CaseStep {
	var st CaseStep
	expectState(&st.Expect, g)
	return st
}

// expectState has e expect game g's whole state.
func expectState(e *Expect, g *engine.Game) {
	after, score, moves, won, over, result := g.Board(), g.Score(), int64(g.Moves()), g.Won(), g.Over(), g.Result()
	legal := g.LegalMoves()
	if legal == nil {
		legal = []engine.Direction{}
	}
	e.After, e.Score, e.Moves, e.Won, e.Over, e.Result, e.Legal = &after, &score, &moves, &won, &over, &result, &legal
}
