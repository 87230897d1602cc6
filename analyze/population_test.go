package analyze

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tileproof/tileproof/player"
	"github.com/tileproof/tileproof/replay"
)

// population is a kind of player and how to make one for game i.
type population struct {
	name  string
	make  func(i int) bot
	clair bool // the bot sees the next spawns
	soft  bool // a softmax bot: an ROC curve, no target
	// target is the least share of games flagged (review or strong) the
	// issue asks for; 0 for none.
	target float64
}

func populations() []population {
	var ps []population
	shipped := []func() evaluator{
		func() evaluator { return newExpectimax(2) },
		func() evaluator { return newExpectimax(1) },
		func() evaluator { return corner{} },
		func() evaluator { return newExpectimax(3) },
	}
	for _, mk := range shipped {
		id := mk().ID()
		ps = append(ps, population{name: id, target: 0.99, make: func(i int) bot { return newEvalBot(mk(), 0, 0, uint64(i)) }})
	}
	ps = append(ps, population{name: "player expectimax (not shipped)", target: 0.99,
		make: func(int) bot { return playerBot{player.NewExpectimax(player.ExpectimaxOptions{})} }})
	for _, mk := range shipped[:3] {
		for _, e := range []float64{0.05, 0.1, 0.2} {
			id := mk().ID()
			ps = append(ps, population{name: fmt.Sprintf("%s random %.2f", id, e), target: 0.9,
				make: func(i int) bot { return newEvalBot(mk(), e, 0, uint64(i)) }})
		}
	}
	ps = append(ps, population{name: "clairvoyant", clair: true, target: 0.99, make: func(int) bot {
		return &clairvoyantBot{rules: tileMerge, ev: newExpectimax(3), sp: tileMergeSpawns}
	}})
	for _, temp := range []float64{1, 4, 16, 64} {
		ps = append(ps, population{name: fmt.Sprintf("expectimax-2/1 softmax %g", temp), soft: true,
			make: func(i int) bot { return newEvalBot(newExpectimax(2), 0, temp, uint64(i)) }})
	}
	// A bot that plays like a person part of the time: the engine's moves
	// in some blocks of 50 moves, softmax 64 (not told from the reference
	// players) in the others. No target: a measurement.
	for _, tenths := range []int{2, 5} {
		ps = append(ps, population{name: fmt.Sprintf("expectimax-2/1 in %d0%% of 50-move blocks, softmax 64 the rest", tenths),
			make: func(i int) bot {
				return &blockBot{engine: newEvalBot(newExpectimax(2), 0, 0, uint64(i)), person: newEvalBot(newExpectimax(2), 0, 64, uint64(i)), tenths: tenths}
			}})
	}
	return ps
}

// TestPopulations plays each population of bots and prints the detection
// table (docs/analyze.md). It runs only with TILEPROOF_ANALYZE_GAMES=N, the
// games a population (the figure is 200), as it takes minutes:
//
//	TILEPROOF_ANALYZE_GAMES=200 go test ./analyze -run Populations -v -timeout 0
//
// TILEPROOF_ANALYZE_ONLY=substring runs the populations whose names hold it.
func TestPopulations(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("TILEPROOF_ANALYZE_GAMES"))
	if n <= 0 {
		t.Skip("set TILEPROOF_ANALYZE_GAMES=N to play N games a population")
	}
	only := os.Getenv("TILEPROOF_ANALYZE_ONLY")
	ref := mustBuiltin(t)
	var humans []float64
	for _, h := range humanGames(t) {
		rep, err := Analyze(context.Background(), replay.NewVerifier(), h.name, h.r, Options{Reference: ref})
		if err != nil {
			continue
		}
		ref.Without(rep.SHA256).place(rep)
		if rep.Band != Insufficient {
			humans = append(humans, rep.Score)
		}
	}
	t.Logf("human games placed (leave one out): %d, scores %.2f", len(humans), humans)
	lengths := []int{200, 500, 1000, 2000}
	fmt.Printf("| population | games | median moves | flagged | flagged of placed | strong | insufficient | clairvoyance flagged | flagged at %v moves | target |\n|---|---|---|---|---|---|---|---|---|---|\n", lengths)
	for _, p := range populations() {
		if only != "" && !strings.Contains(p.name, only) {
			continue
		}
		reps := playPopulation(t, p, n, 2000)
		var flagged, strong, insufficient, clair int
		var moves []int
		var scores []float64
		atLen := make([]int, len(lengths))
		for _, r := range reps {
			moves = append(moves, r.GameMoves)
			switch r.Band {
			case Review:
				flagged++
			case Strong:
				flagged++
				strong++
			case Insufficient:
				insufficient++
			}
			if r.Clairvoyance != nil && r.Clairvoyance.Z >= ref.ClairvoyanceReviewZ {
				clair++
			}
			scores = append(scores, r.Score)
			for i := range lengths {
				if r.byLength[i] {
					atLen[i]++
				}
			}
		}
		slices.Sort(moves)
		pct := func(k int) string { return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(len(reps))) }
		var byLen []string
		for _, k := range atLen {
			byLen = append(byLen, pct(k))
		}
		target := "-"
		if p.target > 0 {
			got := flagged
			if p.clair {
				got = clair
			}
			ok := float64(got) >= p.target*float64(len(reps))
			target = fmt.Sprintf(">= %.0f%%: %v", 100*p.target, map[bool]string{true: "met", false: "NOT met"}[ok])
		}
		placed := "-"
		if k := len(reps) - insufficient; k > 0 {
			placed = fmt.Sprintf("%.1f%% of %d", 100*float64(flagged)/float64(k), k)
		}
		fmt.Printf("| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s |\n", p.name, len(reps), moves[len(moves)/2], pct(flagged), placed, pct(strong), pct(insufficient), pct(clair), strings.Join(byLen, " / "), target)
		var sum [8][3]float64
		for _, r := range reps {
			for i, e := range r.Evaluators {
				sum[i][0] += e.Agreement / float64(len(reps))
				sum[i][1] += e.LargeErrors / float64(len(reps))
				sum[i][2] += e.MeanLoss / float64(len(reps))
			}
		}
		t.Logf("%s: mean agreement, large errors, mean loss by evaluator: %.3f", p.name, sum[:len(reps[0].Evaluators)])
		if p.soft {
			slices.Sort(scores)
			t.Logf("%s: scores %v", p.name, roc(scores, humans))
		}
	}
}

// roc returns, for each threshold, the share of bot games at or above it
// and the share of human games at or above it.
func roc(bots, humans []float64) string {
	var b strings.Builder
	for _, z := range []float64{0, 1, 2, 3, 4, 5, 6, 8} {
		tp, fp := 0, 0
		for _, s := range bots {
			if s >= z {
				tp++
			}
		}
		for _, s := range humans {
			if s >= z {
				fp++
			}
		}
		fmt.Fprintf(&b, " z>=%g: TPR %.2f FPR %d/%d;", z, float64(tp)/float64(len(bots)), fp, len(humans))
	}
	return b.String()
}

// populationGame is a game of a population analysed whole, and whether
// it is flagged when cut at 200, 500, 1,000 and 2,000 moves.
type populationGame struct {
	*GameReport
	byLength []bool
}

// playPopulation plays n games of population p (at most limit moves each)
// on two goroutines and analyses each, whole and cut.
func playPopulation(t *testing.T, p population, n, limit int) []populationGame {
	reps := make([]populationGame, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := replay.NewVerifier()
			for i := range next {
				seed := fmt.Sprintf("%s-%d", p.name, i)
				r := playBot(t, p.make(i), seed, limit)
				rep, err := Analyze(context.Background(), v, seed, r, Options{Clairvoyance: true})
				if err != nil {
					t.Error(err)
					return
				}
				g := populationGame{GameReport: rep}
				for _, l := range []int{200, 500, 1000, 2000} {
					cut, err := Analyze(context.Background(), v, seed, r, Options{MaxMoves: l, Clairvoyance: p.clair})
					if err != nil {
						t.Error(err)
						return
					}
					g.byLength = append(g.byLength, cut.Band == Review || cut.Band == Strong)
				}
				reps[i] = g
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return reps
}
