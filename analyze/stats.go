package analyze

import (
	"math"
	"slices"
)

// largeLoss is the loss, in an evaluator's unit, above which a move is a
// large error (four empty cells' worth for expectimax, four percent for
// corner).
const largeLoss = 4

// crowdedEmpty is the number of empty cells at or below which a board is
// crowded: where a person errs more.
const crowdedEmpty = 4

// EvalStats is one evaluator's figures over a game's non-trivial moves.
type EvalStats struct {
	Evaluator string `json:"evaluator"`
	// Agree is the number of non-trivial moves played within the near
	// margin of the evaluator's best; Agreement their share.
	Agree     int     `json:"agree"`
	Agreement float64 `json:"agreement"`
	// MeanLoss and the quantiles of the loss, in the evaluator's unit.
	MeanLoss float64 `json:"mean_loss"`
	Loss50   float64 `json:"loss_p50"`
	Loss90   float64 `json:"loss_p90"`
	Loss99   float64 `json:"loss_p99"`
	// LargeErrors is the share of non-trivial moves that lost more than
	// four units.
	Large       int     `json:"large"`
	LargeErrors float64 `json:"large_errors"`
	// ErrorsZ is the large errors' z-score against the reference, signed
	// so that fewer errors than the reference players make is positive.
	ErrorsZ float64 `json:"errors_z"`
	// SmallErrors is the share of non-trivial moves that were not near
	// the best but lost four units or less: the near misses people make.
	// SmallErrorsZ is its z-score, signed as ErrorsZ.
	SmallErrors  float64 `json:"small_errors"`
	SmallErrorsZ float64 `json:"small_errors_z"`
	// Second counts the non-trivial moves played at rank 2, below the
	// best alone: a person's usual miss. SecondBest is their share and
	// SecondZ its z-score, signed as ErrorsZ.
	Second     int     `json:"second"`
	SecondBest float64 `json:"second_best"`
	SecondZ    float64 `json:"second_z"`
	// CrowdedMiss and OpenMiss are the shares of non-trivial moves on
	// crowded boards (4 empty cells or fewer) and on open ones that were
	// not near the best; Crowded counts the crowded ones.
	Crowded     int     `json:"crowded"`
	CrowdedMiss float64 `json:"crowded_miss"`
	OpenMiss    float64 `json:"open_miss"`
	// Placed names the statistics the reference placed (agreement,
	// large_errors, small_errors, second_best): a z-score of one not
	// placed is 0 and means nothing.
	Placed []string `json:"placed,omitempty"`
	// Z is the agreement's z-score against the reference players, and
	// Percentile the share of reference games whose agreement is lower,
	// of ReferenceGames, the games the reference's model of it is fitted
	// to (all set by the reference, when it holds this evaluator).
	Z              float64 `json:"z"`
	Percentile     float64 `json:"percentile"`
	ReferenceGames int     `json:"reference_games,omitempty"`
}

// gameMoves accumulates a game's moves.
type gameMoves struct {
	counted, forced, trivial int
	losses                   [][]float64 // by evaluator, non-trivial moves
	agree, large, second     []int
	crowded, crowdedMiss     []int
	openMiss                 []int
	moves                    []Move
	stopped                  string
}

func newGameMoves(n int) *gameMoves {
	return &gameMoves{losses: make([][]float64, n), agree: make([]int, n), large: make([]int, n), second: make([]int, n),
		crowded: make([]int, n), crowdedMiss: make([]int, n), openMiss: make([]int, n)}
}

func (g *gameMoves) add(m Move, keep bool) {
	g.counted++
	if keep {
		g.moves = append(g.moves, m)
	}
	switch {
	case m.Legal <= 1:
		g.forced++
		return
	case m.Trivial:
		g.trivial++
		return
	}
	for i, e := range m.Evals {
		g.losses[i] = append(g.losses[i], e.Loss)
		hit := e.Rank == 1
		if hit {
			g.agree[i]++
		}
		if e.Rank == 2 {
			g.second[i]++
		}
		if e.Loss > largeLoss {
			g.large[i]++
		}
		if m.Empty <= crowdedEmpty {
			g.crowded[i]++
			if !hit {
				g.crowdedMiss[i]++
			}
		} else if !hit {
			g.openMiss[i]++
		}
	}
}

func (g *gameMoves) report(evals []evaluator) *GameReport {
	r := &GameReport{Analysed: g.counted, Forced: g.forced, Trivial: g.trivial, Stopped: g.stopped, Moves: g.moves}
	for i, e := range evals {
		n := len(g.losses[i])
		r.NonTrivial = n
		s := EvalStats{Evaluator: e.ID(), Agree: g.agree[i], Large: g.large[i], Second: g.second[i], Crowded: g.crowded[i]}
		if n > 0 {
			l := slices.Sorted(slices.Values(g.losses[i]))
			sum := 0.0
			for _, x := range l {
				sum += x
			}
			s.Agreement = float64(g.agree[i]) / float64(n)
			s.MeanLoss = sum / float64(n)
			s.Loss50, s.Loss90, s.Loss99 = quantile(l, 0.5), quantile(l, 0.9), quantile(l, 0.99)
			s.LargeErrors = float64(g.large[i]) / float64(n)
			s.SmallErrors = float64(n-g.agree[i]-g.large[i]) / float64(n)
			s.SecondBest = float64(g.second[i]) / float64(n)
			if c := g.crowded[i]; c > 0 {
				s.CrowdedMiss = float64(g.crowdedMiss[i]) / float64(c)
			}
			if o := n - g.crowded[i]; o > 0 {
				s.OpenMiss = float64(g.openMiss[i]) / float64(o)
			}
		}
		r.Evaluators = append(r.Evaluators, s)
	}
	return r
}

// quantile returns the q-quantile of sorted values (nearest rank).
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
