package analyze

import (
	"context"
	"fmt"
	"testing"

	"github.com/tileproof/tileproof/replay"
)

// windows cuts a report's kept moves into consecutive windows of n moves
// and places each against ref, as a game of its own.
func windows(rep *GameReport, evals []evaluator, n int, ref *Reference) []*GameReport {
	var out []*GameReport
	for from := 0; from+n <= len(rep.Moves); from += n {
		g := newGameMoves(len(evals))
		for _, m := range rep.Moves[from : from+n] {
			g.add(m, false)
		}
		w := g.report(evals)
		w.Name, w.MaxTile, w.AnalysedMaxTile = fmt.Sprintf("%s[%d:%d]", rep.Name, from, from+n), rep.MaxTile, rep.AnalysedMaxTile
		// The window is placed whatever its length, against the model
		// fitted to the reference games of MinMoves or more, as a game is.
		short := *ref
		short.MinMoves = 1
		short.place(w)
		out = append(out, w)
	}
	return out
}

// TestHumanWindows measures the false alarms on human play by game length:
// the long human games cut into windows of 100 to 2,000 counted moves,
// each placed against the reference without its game. It prints the table
// of docs/analyze.md and fails when a window of the minimum length or
// more is flagged strong.
func TestHumanWindows(t *testing.T) {
	ref := mustBuiltin(t)
	evals := Options{}.evaluators()
	type count struct {
		n, review, strong int
		top               float64
	}
	lengths := []int{100, 200, 300, 500, 1000, 2000}
	counts := make([]count, len(lengths))
	for _, h := range humanGames(t) {
		rep, err := Analyze(context.Background(), replay.NewVerifier(), h.name, h.r, Options{KeepMoves: true, Reference: ref})
		if err != nil {
			continue
		}
		loo := ref.Without(rep.SHA256)
		loo.MinBandGames = 0 // windows of the 512 game would have no band
		for i, l := range lengths {
			for _, w := range windows(rep, evals, l, loo) {
				counts[i].n++
				counts[i].top = max(counts[i].top, w.Score)
				switch w.Band {
				case Review:
					counts[i].review++
				case Strong:
					counts[i].strong++
					if l >= ref.MinMoves {
						t.Errorf("%s: strong: %s", w.Name, w.Statement)
					}
				}
			}
		}
	}
	for i, l := range lengths {
		c := counts[i]
		t.Logf("windows of %4d moves: %3d, review %d, strong %d, highest score %.2f", l, c.n, c.review, c.strong, c.top)
	}
}
