package analyze

import (
	"cmp"
	"math"
	"slices"
)

// ThinkTime sums up a game's think times, where its replay carries them
// (the times a signed server measured, docs/api.md): how long the player
// took, how much that varied, and whether it followed the difficulty of
// the positions. A person thinks longer on crowded boards and on critical
// positions, and moves fast where the move is forced or every move is as
// good; a bot's times are uniform, or do not follow difficulty. These are
// figures for a reviewer: no human timed games were at hand to calibrate
// them, so they change no band (docs/analyze.md, "Think times").
type ThinkTime struct {
	// Moves counts the analysed moves with a time.
	Moves int `json:"moves"`
	// Sealed says whether the times' seal is the MAC of the signed
	// server whose check the analysis was given (Options.CheckTimes): true,
	// the server measured these times for this game; false, it did not
	// (the times, or the seal, were written by someone else). Absent
	// without a key: the times are then the replay's word.
	Sealed *bool `json:"sealed,omitempty"`
	// MedianMs, P25Ms and P75Ms are the times' median and quartiles, in
	// milliseconds; Spread is (P75Ms - P25Ms) / MedianMs, the quartile
	// spread against the player's own pace (0 for times all alike).
	MedianMs float64 `json:"median_ms"`
	P25Ms    float64 `json:"p25_ms"`
	P75Ms    float64 `json:"p75_ms"`
	Spread   float64 `json:"spread"`
	// CrowdedCorr is Spearman's rank correlation of the time with the
	// board's filled cells before the move; CriticalCorr with the number
	// of legal moves not near the best by the primary evaluator (what a
	// slip would cost choices). Each is absent where the times or the
	// difficulty do not vary, and in a game of fewer than
	// MinCorrelationMoves timed moves.
	CrowdedCorr  *float64 `json:"crowded_corr,omitempty"`
	CriticalCorr *float64 `json:"critical_corr,omitempty"`
	// GapCorr is its correlation with the primary evaluator's margin of
	// the best move over the next (Move.Gap).
	GapCorr *float64 `json:"gap_corr,omitempty"`
	// Easy counts the forced and trivial moves and Critical the
	// non-trivial moves whose best move leads the next by most, the
	// quarter of them with the largest Gap (a slip there costs most);
	// EasyRatio and CriticalRatio are their median times against the
	// game's median (irwin's think time against the player's own
	// average). Absent where there are no such moves or the median is 0.
	Easy          int      `json:"easy"`
	Critical      int      `json:"critical"`
	EasyRatio     *float64 `json:"easy_ratio,omitempty"`
	CriticalRatio *float64 `json:"critical_ratio,omitempty"`
}

// MinCorrelationMoves is the fewest timed moves a game's think-time
// correlations (ThinkTime.CrowdedCorr, CriticalCorr, GapCorr) are
// computed on; a game with fewer has none. With no association at all,
// Spearman's rank correlation over n moves has a standard deviation of
// about 1/sqrt(n-1): over 5 moves even a perfect 1 comes from times that
// follow nothing once in 120 games (1/5!), over 10 a value of 0.65 one
// game in 20. From 30 moves the deviation is under 0.19 and the value
// chance reaches one game in 20 is 0.36, the usual least for reading a
// rank correlation at all; below it a figure would say more than the
// moves can (docs/analyze.md, "Think times").
const MinCorrelationMoves = 30

// timedMove is what the think-time figures read of one analysed move:
// its time, the primary evaluator's gap, the filled cells, the legal
// moves not near the best, and whether it is forced or trivial.
type timedMove struct {
	ms, gap         float64
	filled, notNear int
	easy            bool
}

// thinkTime sums up the timed moves of a game; nil for none.
func thinkTime(ms []timedMove) *ThinkTime {
	if len(ms) == 0 {
		return nil
	}
	t := &ThinkTime{Moves: len(ms)}
	all := make([]float64, len(ms))
	var easy, critical []float64
	filled := make([]float64, len(ms))
	notNear := make([]float64, len(ms))
	gaps := make([]float64, len(ms))
	var hard []float64 // the gaps of the non-trivial moves
	for i, m := range ms {
		all[i], filled[i], notNear[i], gaps[i] = m.ms, float64(m.filled), float64(m.notNear), m.gap
		if m.easy {
			easy = append(easy, m.ms)
		} else {
			hard = append(hard, m.gap)
		}
	}
	if len(hard) > 0 {
		slices.Sort(hard)
		cut := quantile(hard, 0.75)
		for _, m := range ms {
			if !m.easy && m.gap >= cut && m.gap > 0 {
				critical = append(critical, m.ms)
			}
		}
	}
	sorted := slices.Sorted(slices.Values(all))
	t.MedianMs, t.P25Ms, t.P75Ms = quantile(sorted, 0.5), quantile(sorted, 0.25), quantile(sorted, 0.75)
	if t.MedianMs > 0 {
		t.Spread = (t.P75Ms - t.P25Ms) / t.MedianMs
	}
	if len(ms) >= MinCorrelationMoves {
		t.CrowdedCorr = spearman(all, filled)
		t.CriticalCorr = spearman(all, notNear)
		t.GapCorr = spearman(all, gaps)
	}
	t.Easy, t.Critical = len(easy), len(critical)
	ratio := func(xs []float64) *float64 {
		if len(xs) == 0 || t.MedianMs <= 0 {
			return nil
		}
		slices.Sort(xs)
		r := quantile(xs, 0.5) / t.MedianMs
		return &r
	}
	t.EasyRatio, t.CriticalRatio = ratio(easy), ratio(critical)
	return t
}

// spearman returns Spearman's rank correlation of x and y (ties take
// their average rank), or nil when either does not vary.
func spearman(x, y []float64) *float64 {
	rx, ry := ranks(x), ranks(y)
	var mx, my float64
	for i := range rx {
		mx += rx[i]
		my += ry[i]
	}
	n := float64(len(rx))
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-mx, ry[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return nil
	}
	r := sxy / math.Sqrt(sxx*syy)
	return &r
}

// ranks returns the 1-based ranks of xs, ties at their average rank.
func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(xs[a], xs[b]) })
	r := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && xs[idx[j]] == xs[idx[i]] {
			j++
		}
		avg := float64(i+j+1) / 2 // ranks i+1 .. j
		for k := i; k < j; k++ {
			r[idx[k]] = avg
		}
		i = j
	}
	return r
}
