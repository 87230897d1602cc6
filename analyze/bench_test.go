package analyze

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/tileproof/tileproof/replay"
)

var (
	benchGameOnce sync.Once
	benchGame     *replay.Replay
)

// longBotGame is replays/valid/tile-merge-4096.yaml: 4,189 moves by
// package player's expectimax, to 4096, read once.
func longBotGame(b *testing.B) *replay.Replay {
	benchGameOnce.Do(func() {
		data, err := os.ReadFile("../replays/valid/tile-merge-4096.yaml")
		if err != nil {
			b.Fatal(err)
		}
		if benchGame, err = replay.Decode("tile-merge-4096.yaml", data); err != nil {
			b.Fatal(err)
		}
	})
	return benchGame
}

// BenchmarkAnalyze measures the analysis of a long game at the default
// evaluators and with --deep, and prints the moves analysed a second on
// one core, beside the verification alone of the same game.
func BenchmarkAnalyze(b *testing.B) {
	r := longBotGame(b)
	v := replay.NewVerifier()
	for _, c := range []struct {
		name string
		opts Options
	}{
		{"default", Options{}},
		{"default+clairvoyance", Options{Clairvoyance: true}},
		{"deep", Options{Deep: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			moves := 0
			for b.Loop() {
				rep, err := Analyze(context.Background(), v, "bench", r, c.opts)
				if err != nil {
					b.Fatal(err)
				}
				moves += rep.Analysed
			}
			b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
		})
	}
	b.Run("verify-only", func(b *testing.B) {
		moves := 0
		for b.Loop() {
			vd := v.Verify(r)
			moves += vd.Moves
		}
		b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
	})
}
