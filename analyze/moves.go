package analyze

import (
	"math"

	"github.com/tileproof/tileproof/engine"
)

// MoveEval is what one evaluator says of one move played.
type MoveEval struct {
	// Rank is the played move's rank among the legal moves, 1 for a move
	// within the near margin of the best (ties share a rank).
	Rank int `json:"rank"`
	// Near is the number of legal moves within the near margin of the best.
	Near int `json:"near"`
	// Loss is the played move's value below the best move's, in the
	// evaluator's unit (for expectimax, one empty cell's bonus in its
	// heuristic; for corner, one percent of the best value).
	Loss float64 `json:"loss"`
}

// Move is one counted move of the game as the evaluators see it.
type Move struct {
	Action int              `json:"action"` // 1-based position in the move log
	Played engine.Direction `json:"-"`
	Legal  int              `json:"legal"` // the legal moves there
	Empty  int              `json:"empty"` // empty cells before the move
	// Trivial says the move is forced (one legal move) or every legal move
	// is near the best by the primary evaluator: such moves say nothing
	// of who played and are left out of the statistics.
	Trivial bool `json:"trivial"`
	// Gap is the primary evaluator's margin of the best move over the
	// next best, in its unit (0 with one legal move): how much a slip
	// there costs.
	Gap   float64    `json:"gap"`
	Evals []MoveEval `json:"evals"` // by evaluator, in the report's order
	// ThinkMs is the move's think time, where the replay carries times.
	ThinkMs *uint32 `json:"think_ms,omitempty"`
}

// nearMargin is the margin, in an evaluator's unit, within which a move
// counts as near the best (half an empty cell for expectimax, half a
// percent for corner).
const nearMargin = 0.5

// judge ranks the played move among values v (-Inf for an illegal move)
// in the unit unitOf gives, and counts the legal moves; gap is the margin
// of the best value over the next best in that unit (0 with one legal
// move).
func judge(v [4]float64, played engine.Direction, unitOf func(float64) float64) (me MoveEval, legal int, gap float64) {
	best, second := math.Inf(-1), math.Inf(-1)
	for _, x := range v {
		if !math.IsInf(x, -1) {
			legal++
			second = max(second, min(best, x))
			best = max(best, x)
		}
	}
	u := unitOf(best)
	if !math.IsInf(second, -1) {
		gap = (best - second) / u
	}
	me.Rank = 1
	for _, x := range v {
		if math.IsInf(x, -1) {
			continue
		}
		if (best-x)/u <= nearMargin {
			me.Near++
		}
		if x-v[played] > nearMargin*u {
			me.Rank++
		}
	}
	me.Loss = max(0, (best-v[played])/u)
	return me, legal, gap
}

// analyseMove analyses the move played from board b with evals, the first
// the primary evaluator, which decides which moves are trivial, and the
// profile's spawns; ok is false when the played move is not legal there
// by the bitboard: a merge to 2^16 (the verifier's game excludes the rest).
func analyseMove(evals []evaluator, spawns []spawnTile, b bitboard, played engine.Direction) (Move, bool) {
	m := Move{Played: played, Empty: b.empties(), Evals: make([]MoveEval, len(evals))}
	for i, e := range evals {
		v := e.values(b, spawns)
		if math.IsInf(v[played], -1) {
			return m, false
		}
		me, legal, gap := judge(v, played, e.unit)
		m.Evals[i] = me
		if i == 0 {
			m.Legal, m.Gap = legal, gap
			m.Trivial = legal <= 1 || me.Near == legal
		}
	}
	return m, true
}
