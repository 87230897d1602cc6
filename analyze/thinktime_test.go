package analyze

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/testkit/apiplay"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/server"
)

// TestSpearman: ranks with ties at their average rank; a monotone
// relation correlates 1 or -1, a constant series not at all.
func TestSpearman(t *testing.T) {
	if got := ranks([]float64{10, 30, 20, 30}); got[0] != 1 || got[1] != 3.5 || got[2] != 2 || got[3] != 3.5 {
		t.Errorf("ranks = %v", got)
	}
	x := []float64{1, 2, 3, 4, 5}
	if r := spearman(x, []float64{1, 4, 9, 16, 100}); r == nil || math.Abs(*r-1) > 1e-12 {
		t.Errorf("monotone: %v", r)
	}
	if r := spearman(x, []float64{5, 4, 3, 2, 1}); r == nil || math.Abs(*r+1) > 1e-12 {
		t.Errorf("reversed: %v", r)
	}
	if r := spearman(x, []float64{2, 2, 2, 2, 2}); r != nil {
		t.Errorf("constant: %v", *r)
	}
	// 1 - 6*sum(d^2)/(n(n^2-1)) without ties: d = (0, 0, 1, -1, 0).
	if r := spearman(x, []float64{1, 2, 4, 3, 5}); r == nil || math.Abs(*r-0.9) > 1e-12 {
		t.Errorf("one swap: %v, want 0.9", r)
	}
}

// timedGame plays a game with a noiseless bot, analyses it to learn each
// move's difficulty, and returns the replay with times from timeOf (given
// each analysed move, by its action) and the times' figures.
func timedGame(t *testing.T, seed string, timeOf func(m Move, rng *rand.Rand) uint32) *ThinkTime {
	t.Helper()
	r := playBot(t, newEvalBot(newExpectimax(1), 0, 0, 1), seed, 400)
	plain, err := Analyze(context.Background(), replay.NewVerifier(), seed, r, Options{KeepMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	if plain.ThinkTime != nil {
		t.Fatalf("a replay without times has think-time figures: %+v", plain.ThinkTime)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	r.Times = make([]uint32, len(r.Actions))
	for _, m := range plain.Moves {
		r.Times[m.Action-1] = timeOf(m, rng)
	}
	rep, err := Analyze(context.Background(), replay.NewVerifier(), seed, r, Options{KeepMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ThinkTime == nil || rep.ThinkTime.Moves != rep.Analysed {
		t.Fatalf("think time %+v for %d analysed moves", rep.ThinkTime, rep.Analysed)
	}
	if rep.Band != plain.Band || rep.Score != plain.Score || rep.SHA256 != plain.SHA256 {
		t.Errorf("times changed the band: %s %.2f %s, without %s %.2f %s", rep.Band, rep.Score, rep.SHA256, plain.Band, plain.Score, plain.SHA256)
	}
	for _, m := range rep.Moves {
		if m.ThinkMs == nil || *m.ThinkMs != r.Times[m.Action-1] {
			t.Fatalf("move %d: think %v, the replay's %d", m.Action, m.ThinkMs, r.Times[m.Action-1])
		}
	}
	return rep.ThinkTime
}

// humanLike is a think time that follows difficulty, as a person's is
// said to: longer on crowded boards and critical positions, short on
// forced and trivial moves, with log-normal noise.
func humanLike(m Move, rng *rand.Rand) uint32 {
	ms := (300 + 120*float64(16-m.Empty)) * (1 + 0.5*float64(m.Legal-m.Evals[0].Near)) * (1 + 0.5*math.Log1p(m.Gap))
	if m.Legal <= 1 || m.Trivial {
		ms *= 0.4
	}
	return uint32(ms * math.Exp(0.4*rng.NormFloat64()))
}

// TestThinkTimeSeries: a bot's constant times have no spread and follow
// nothing; its uniform random times have a wide spread that follows
// nothing (correlations near 0, easy and critical moves at the game's
// pace); a human-like series follows the crowding and the criticality,
// quick on easy moves, slow on critical ones.
func TestThinkTimeSeries(t *testing.T) {
	constant := timedGame(t, "tt-1", func(Move, *rand.Rand) uint32 { return 150 })
	if constant.Spread != 0 || constant.MedianMs != 150 || constant.CrowdedCorr != nil || constant.CriticalCorr != nil || constant.GapCorr != nil ||
		*constant.EasyRatio != 1 || *constant.CriticalRatio != 1 {
		t.Errorf("constant: %+v", constant)
	}
	uniform := timedGame(t, "tt-2", func(_ Move, rng *rand.Rand) uint32 { return 100 + uint32(rng.IntN(400)) })
	if uniform.Spread < 0.5 || math.Abs(*uniform.CrowdedCorr) > 0.2 || math.Abs(*uniform.CriticalCorr) > 0.2 || math.Abs(*uniform.GapCorr) > 0.2 ||
		uniform.Critical < 20 || math.Abs(*uniform.CriticalRatio-1) > 0.2 {
		t.Errorf("uniform: %s", describeTT(uniform))
	}
	t.Logf("constant: %s\nuniform:  %s", describeTT(constant), describeTT(uniform))
	// A human-like series, over five games: one game's correlation
	// with the critical positions is some 0.15 give or take 0.05 (a
	// Spearman correlation over 200 to 400 moves), so the figures asked
	// for are the games' medians.
	var crowded, critical, gap, easyRatio, criticalRatio []float64
	easy := 0
	for i := 3; i <= 7; i++ {
		h := timedGame(t, fmt.Sprintf("tt-%d", i), humanLike)
		t.Logf("human %d:  %s", i, describeTT(h))
		crowded, critical, gap = append(crowded, *h.CrowdedCorr), append(critical, *h.CriticalCorr), append(gap, *h.GapCorr)
		if h.EasyRatio != nil {
			easyRatio = append(easyRatio, *h.EasyRatio)
		}
		if h.Critical < 20 {
			t.Errorf("human-like %d: %d critical moves", i, h.Critical)
		}
		criticalRatio = append(criticalRatio, *h.CriticalRatio)
		easy += h.Easy
	}
	if median(crowded) < 0.3 || median(critical) < 0.1 || median(gap) < 0.3 || easy == 0 || median(easyRatio) > 0.7 || median(criticalRatio) < 1.2 {
		t.Errorf("human-like, the medians of five games: crowded %.2f, critical %.2f, gap %.2f, easy ratio %.2f (%d easy moves), critical ratio %.2f",
			median(crowded), median(critical), median(gap), median(easyRatio), easy, median(criticalRatio))
	}
	t.Logf("human-like, the medians of five games: crowded %.2f, critical %.2f, gap %.2f, easy ratio %.2f (%d easy moves), critical ratio %.2f",
		median(crowded), median(critical), median(gap), median(easyRatio), easy, median(criticalRatio))
}

// median is the median of xs (the mean of the middle two for an even
// count; NaN for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}

func describeTT(t *ThinkTime) string {
	f := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return strconv.FormatFloat(*p, 'f', 2, 64)
	}
	return "moves " + strconv.Itoa(t.Moves) + " median " + strconv.FormatFloat(t.MedianMs, 'f', 0, 64) + " ms spread " + strconv.FormatFloat(t.Spread, 'f', 2, 64) +
		" crowded " + f(t.CrowdedCorr) + " critical " + f(t.CriticalCorr) + " gap " + f(t.GapCorr) + " easy " + strconv.Itoa(t.Easy) + " x" + f(t.EasyRatio) +
		" critical " + strconv.Itoa(t.Critical) + " x" + f(t.CriticalRatio)
}

// TestThinkTimeServerEndToEnd plays a game through a signed server on a
// real socket with a player that waits longer on crowded boards, records
// the replay with the times the server measured, checks them with the
// key, and analyses it: the times follow the crowding.
func TestThinkTimeServerEndToEnd(t *testing.T) {
	t.Parallel()
	key := []byte("0123456789abcdef0123456789abcdef")
	p, _ := engine.BuiltinProfile("tile-merge")
	s, err := server.New([]*engine.Profile{p}, key)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	r := apiplay.Play(t, ts.URL, "tile-merge", "served", 80, slowOnCrowded)
	if err := server.CheckTimes(key, r); err != nil {
		t.Fatalf("the server's times: %v", err)
	}
	check := func(r *replay.Replay) error { return server.CheckTimes(key, r) }
	rep, err := Analyze(t.Context(), replay.NewVerifier(), "served", r, Options{CheckTimes: check})
	if err != nil {
		t.Fatal(err)
	}
	tt := rep.ThinkTime
	if tt == nil || tt.Moves != rep.Analysed || tt.CrowdedCorr == nil || *tt.CrowdedCorr < 0.5 || tt.MedianMs < 2 || tt.Sealed == nil || !*tt.Sealed {
		t.Fatalf("think time: %+v", tt)
	}
	// Without the key the times are the replay's word; with one time
	// edited, the seal is not the server's.
	if rep, _ := Analyze(t.Context(), replay.NewVerifier(), "served", r, Options{}); rep.ThinkTime.Sealed != nil {
		t.Errorf("no key, sealed %v", *rep.ThinkTime.Sealed)
	}
	r.Times[len(r.Times)/2] /= 2
	if rep, _ := Analyze(t.Context(), replay.NewVerifier(), "served", r, Options{CheckTimes: check}); rep.ThinkTime.Sealed == nil || *rep.ThinkTime.Sealed {
		t.Errorf("a time halved: sealed %v", rep.ThinkTime.Sealed)
	}
	t.Logf("served: %s", describeTT(tt))
}

// TestThinkTimesOtherLength: a replay made in Go whose times are not one
// an action (replay.Decode refuses such a file) is not analysable, and
// the error names the field and both counts. Before, Analyze panicked
// (an index out of range) on fewer times than actions, and read only the
// first times of more.
func TestThinkTimesOtherLength(t *testing.T) {
	r := playBot(t, newEvalBot(newExpectimax(1), 0, 0, 1), "times-length", 50)
	for _, n := range []int{0, len(r.Actions) - 3, len(r.Actions) + 1} {
		r.Times = make([]uint32, n)
		rep, err := Analyze(context.Background(), replay.NewVerifier(), "times-length", r, Options{})
		want := fmt.Sprintf("times: %d think times for the log's %d actions", n, len(r.Actions))
		if err == nil || !errors.Is(err, ErrNotAnalysable) || !strings.Contains(err.Error(), want) {
			t.Errorf("%d times for %d actions: report %v, error %v; want %q", n, len(r.Actions), rep != nil, err, want)
		}
	}
	r.Times = make([]uint32, len(r.Actions))
	if rep, err := Analyze(context.Background(), replay.NewVerifier(), "times-length", r, Options{}); err != nil || rep.ThinkTime == nil {
		t.Errorf("a time an action: %v", err)
	}
}

// TestThinkTimeFewMoves: the correlations need MinCorrelationMoves timed
// moves. Times that follow the filled cells, the moves not near the best
// and the gap exactly correlate 1 with each from that many moves on; one
// move fewer gives no correlation at all (absent from the JSON, as an
// undefined one is), while the median, the spread and the ratios stay.
// Before 2026-12-07 a game of 3 timed moves printed correlations.
func TestThinkTimeFewMoves(t *testing.T) {
	series := func(n int) []timedMove {
		ms := make([]timedMove, n)
		for i := range ms {
			ms[i] = timedMove{ms: float64(100 + 10*i), gap: float64(i), filled: i / 2, notNear: i, easy: i%4 == 0}
		}
		return ms
	}
	enough := thinkTime(series(MinCorrelationMoves))
	if enough.CrowdedCorr == nil || enough.CriticalCorr == nil || enough.GapCorr == nil || *enough.GapCorr != 1 || *enough.CriticalCorr != 1 || *enough.CrowdedCorr < 0.99 {
		t.Fatalf("%d moves: correlations %v %v %v, want all three near 1", MinCorrelationMoves, enough.CrowdedCorr, enough.CriticalCorr, enough.GapCorr)
	}
	for _, n := range []int{3, MinCorrelationMoves - 1} {
		few := thinkTime(series(n))
		if few.CrowdedCorr != nil || few.CriticalCorr != nil || few.GapCorr != nil {
			t.Errorf("%d moves: correlations %v %v %v, want none", n, few.CrowdedCorr, few.CriticalCorr, few.GapCorr)
		}
		if few.Moves != n || few.MedianMs <= 0 || few.EasyRatio == nil || few.CriticalRatio == nil {
			t.Errorf("%d moves: %+v: the other figures are gone too", n, few)
		}
		data, err := json.Marshal(few)
		if err != nil || strings.Contains(string(data), "_corr") {
			t.Errorf("%d moves: JSON %s, %v", n, data, err)
		}
	}
}
