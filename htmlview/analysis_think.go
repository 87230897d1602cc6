package htmlview

import (
	"fmt"
	"math"

	"github.com/tileproof/tileproof/analyze"
)

// The think times of an analysed game (analyze.ThinkTime, docs/analyze.md
// "Think times") on its viewer page: in the section "Moves compared with
// reference evaluators and players", after the evaluators, the part "Think times" with the figures a
// reviewer reads, whether the times are sealed by the signed server whose
// key was given, and the sentence that they change no band. A replay
// without times has no such part.

// Seals of the times as the part names them (its data-sealed).
const (
	thinkSealed    = "sealed"
	thinkNotSealed = "not-sealed"
	thinkUnchecked = "unchecked"
)

// thinkView is the part "Think times" of the section: the analysis's
// figures, written as the page shows them.
type thinkView struct {
	// Seal is thinkSealed, thinkNotSealed or thinkUnchecked (no key was
	// given: the times are the replay's word).
	Seal  string
	Moves int
	// Median, P25 and P75 are the times' median and quartiles in whole
	// milliseconds, digits grouped; Spread their spread in two decimals.
	Median, P25, P75, Spread string
	// Corrs are the rank correlations of the time with the board's
	// crowding, the critical moves and the evaluator's gap, in that order.
	Corrs []thinkCorr
	// Ratios are the easy and the critical moves' median times over the
	// game's.
	Ratios []thinkRatio
	// MinCorr is the fewest timed moves the correlations are computed
	// on (analyze.MinCorrelationMoves).
	MinCorr int
}

// thinkCorr is one of the rank correlations as the part writes it: its
// value ("" where the analysis left it out: the time or the difficulty
// does not vary, or the game has fewer than MinCorr timed moves), what
// the time is correlated with, and where a value above 0 says the player
// takes longer.
type thinkCorr struct {
	ID, Label, Value, Of, Where string
}

// thinkRatio is the easy or the critical moves as the part writes them:
// their count, what they are, and their median time over the game's
// ("" where the analysis left it out: no such moves, or a median of 0)
// with what a value says.
type thinkRatio struct {
	ID, Label string
	N         int
	Ratio     string
	What      string
	Means     string
}

// thinkViewOf is the part of the think times t; nil when the game has
// none.
func thinkViewOf(t *analyze.ThinkTime) *thinkView {
	if t == nil {
		return nil
	}
	v := &thinkView{Seal: thinkUnchecked, Moves: t.Moves, Median: millis(t.MedianMs), P25: millis(t.P25Ms), P75: millis(t.P75Ms),
		Spread: fmt.Sprintf("%.2f", t.Spread), MinCorr: analyze.MinCorrelationMoves}
	v.Corrs = []thinkCorr{
		{ID: "think-crowded", Label: "with crowded boards", Value: maybe(t.CrowdedCorr), Of: "the board’s filled cells before the move", Where: "on crowded boards"},
		{ID: "think-critical", Label: "with critical positions", Value: maybe(t.CriticalCorr), Of: "the legal moves not near the best by the primary evaluator", Where: "where more moves would cost"},
		{ID: "think-gap", Label: "with the evaluator’s gap", Value: maybe(t.GapCorr), Of: "the primary evaluator’s lead of the best move over the next", Where: "where a slip costs more"},
	}
	v.Ratios = []thinkRatio{
		{ID: "think-easy", Label: "easy moves", N: t.Easy, Ratio: maybe(t.EasyRatio), What: "forced or trivial", Means: "below 1 when the player moves faster on them"},
		{ID: "think-hard", Label: "critical moves", N: t.Critical, Ratio: maybe(t.CriticalRatio),
			What: "the quarter of the non-trivial ones whose best move leads the next by most", Means: "above 1 when the player takes longer on them"},
	}
	if t.Sealed != nil {
		v.Seal = thinkNotSealed
		if *t.Sealed {
			v.Seal = thinkSealed
		}
	}
	return v
}

// wholeMs rounds a time to whole milliseconds; false for one no server
// measures (not a number, below 0, past 2^32-1), as a hostile report may
// hold.
func wholeMs(ms float64) (uint64, bool) {
	if math.IsNaN(ms) || ms < 0 || ms > math.MaxUint32 {
		return 0, false
	}
	return uint64(math.Round(ms)), true
}

// millis writes a time in whole milliseconds, digits grouped; one wholeMs
// refuses as a dash.
func millis(ms float64) string {
	if n, ok := wholeMs(ms); ok {
		return grouped(n)
	}
	return "\u2013"
}

// maybe writes a figure the analysis may leave out in two decimals; ""
// when it did.
func maybe(x *float64) string {
	if x == nil {
		return ""
	}
	return fmt.Sprintf("%.2f", *x)
}

// hasThink reports whether the report's table has the column of the
// median think times: it has the column of bands, and an entry has a
// median the rows can carry.
func hasThink(entries []Entry) bool {
	if !hasBands(entries) {
		return false
	}
	for _, e := range entries {
		if thinkCell(e.ThinkMs) != nil {
			return true
		}
	}
	return false
}

// thinkCell is a median think time as the report's rows carry it: whole
// milliseconds; nil for none (and for one wholeMs refuses).
func thinkCell(ms *float64) any {
	if ms != nil {
		if n, ok := wholeMs(*ms); ok {
			return n
		}
	}
	return nil
}
