package analyze

import (
	"context"
	"math"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/player"
	"github.com/tileproof/tileproof/replay"
)

// TestExpectimaxMatchesPlayer checks the expectimax evaluators against
// package player's expectimax at the same fixed depth: the player's
// choice is always among the evaluator's best moves.
func TestExpectimaxMatchesPlayer(t *testing.T) {
	for _, depth := range []int{1, 2, 3} {
		p := player.NewExpectimax(player.ExpectimaxOptions{Depth: depth})
		ev := newExpectimax(depth)
		g, err := tileMerge.NewGame("match")
		if err != nil {
			t.Fatal(err)
		}
		limit := 300
		if depth == 3 {
			limit = 60
		}
		for n := 0; n < limit && !g.Over(); n++ {
			b, _ := toBitboard(g.Board())
			d := p.Choose(g)
			v := ev.values(b, tileMergeSpawns)
			top := math.Inf(-1)
			for _, x := range v {
				top = max(top, x)
			}
			if top-v[d] > 1e-6*math.Abs(top) {
				t.Fatalf("depth %d, move %d: the player chose %v (%g), the evaluator's best is %g\n%v", depth, n, d, v[d], top, g.Board())
			}
			if _, err := g.Move(d); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestJudge(t *testing.T) {
	inf := math.Inf(-1)
	unit := func(float64) float64 { return 10 }
	v := [4]float64{100, 96, 40, inf} // up best, down near, left far, right illegal
	me, legal, gap := judge(v, engine.Left, unit)
	if legal != 3 || me.Near != 2 || me.Rank != 3 || me.Loss != 6 || gap != 0.4 {
		t.Errorf("left: %+v, %d legal, gap %v; want rank 3, 2 near, loss 6, 3 legal, gap 0.4", me, legal, gap)
	}
	if _, legal, gap := judge([4]float64{inf, 7, inf, inf}, engine.Down, unit); legal != 1 || gap != 0 {
		t.Errorf("one legal move: %d legal, gap %v; want 1, gap 0", legal, gap)
	}
	if me, _, _ := judge(v, engine.Down, unit); me.Rank != 1 || me.Loss != 0.4 {
		t.Errorf("down (within the margin): %+v, want rank 1, loss 0.4", me)
	}
}

// analyseBot plays a game with bt and analyses it.
func analyseBot(t testing.TB, bt bot, seed string, limit int, opts Options) *GameReport {
	r := playBot(t, bt, seed, limit)
	rep, err := Analyze(context.Background(), replay.NewVerifier(), seed, r, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func statsOf(t testing.TB, rep *GameReport, id string) EvalStats {
	for _, s := range rep.Evaluators {
		if s.Evaluator == id {
			return s
		}
	}
	t.Fatalf("no %s in the report", id)
	return EvalStats{}
}

// TestBotsAgree checks that a bot playing an evaluator's moves agrees with
// it on every non-trivial move, and that a random player does not.
func TestBotsAgree(t *testing.T) {
	for _, ev := range []evaluator{newExpectimax(2), newExpectimax(1), corner{}} {
		rep := analyseBot(t, newEvalBot(ev, 0, 0, 1), "agree", 400, Options{})
		if s := statsOf(t, rep, ev.ID()); s.Agreement != 1 || s.MeanLoss != 0 || rep.NonTrivial < 100 {
			t.Errorf("%s's own bot: %+v over %d non-trivial moves", ev.ID(), s, rep.NonTrivial)
		}
	}
	rep := analyseBot(t, playerBot{player.NewRandom(3)}, "random", 400, Options{})
	for _, s := range rep.Evaluators {
		if s.Agreement > 0.6 || s.LargeErrors < 0.1 {
			t.Errorf("the random player: %+v", s)
		}
	}
	if rep.Band != Insufficient && rep.NonTrivial < mustBuiltin(t).MinMoves {
		t.Errorf("a game of %d non-trivial moves placed: %s", rep.NonTrivial, rep.Band)
	}
}

// TestMaxMoves checks that an analysis stops at the bound it is given.
func TestMaxMoves(t *testing.T) {
	r := playBot(t, newEvalBot(newExpectimax(1), 0, 0, 1), "bound", 300)
	rep, err := Analyze(context.Background(), replay.NewVerifier(), "bound", r, Options{MaxMoves: 120, Clairvoyance: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Analysed != 120 || rep.GameMoves <= 120 || rep.Clairvoyance.Positions > 120 {
		t.Errorf("analysed %d of %d moves, clairvoyance over %d positions; want 120", rep.Analysed, rep.GameMoves, rep.Clairvoyance.Positions)
	}
}

// TestNoiselessBotsFlagged checks that every shipped evaluator's own bot,
// the corner player's included (whose agreement rate alone is within the
// reference players' reach), is flagged when its game is long enough to
// be placed, against the built-in reference.
func TestNoiselessBotsFlagged(t *testing.T) {
	ref := mustBuiltin(t)
	for _, ev := range []evaluator{newExpectimax(2), newExpectimax(1), corner{}} {
		for _, seed := range []string{"flag-1", "flag-2", "flag-3"} {
			rep := analyseBot(t, newEvalBot(ev, 0, 0, 1), seed, 1500, Options{Reference: ref})
			if rep.NonTrivial < ref.MinMoves {
				continue
			}
			if rep.Band != Review && rep.Band != Strong {
				t.Errorf("%s's own bot, seed %s: %s over %d non-trivial moves: %s", ev.ID(), seed, rep.Band, rep.NonTrivial, rep.Statement)
			}
		}
	}
}
