package main

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/testkit/batch"
	"github.com/tileproof/tileproof/replay"
)

// shortGames records 2,000 distinct short tile-merge games (a
// corner-keeping player that moves at random one time in four), as a
// JSON Lines batch in the seeded form and in the spawn-recorded one, and
// the seeded replays decoded, for the engine's own replay of them.
var shortGames = sync.OnceValue(func() (g struct {
	seeded, spawns []byte
	replays        []*replay.Replay
	moves          int
}) {
	seeded, spawned, moves := batch.Replays(2000)
	g.seeded, g.spawns, g.replays, g.moves = batch.JSONLines(seeded), batch.JSONLines(spawned), seeded, moves
	return g
})

// BenchmarkVerifyJSONLines runs tileproof verify --json - on the batch of
// short games, from the JSON Lines on stdin to the verdicts' lines on
// stdout (the process's start aside), with one worker on one core and
// with two on two, beside the engine's own replay of the same games in
// the same loop: x-engine is one core's rate of moves over the engine's,
// x-one-worker two cores' rate over one's, and engine-x-one-core the
// engine's own on two cores over one (what the machine gives two threads
// that share nothing).
func BenchmarkVerifyJSONLines(b *testing.B) {
	g := shortGames()
	p, _ := engine.BuiltinProfile("tile-merge")
	rules, _ := engine.Compile(p)
	for _, form := range []struct {
		name  string
		batch []byte
	}{{"seeded", g.seeded}, {"spawns", g.spawns}} {
		b.Run(form.name, func(b *testing.B) {
			replayAll := func() {
				for _, r := range g.replays {
					game, _ := rules.NewGame(*r.Seed)
					if _, err := game.Play(r.Actions, nil); err != nil {
						b.Error(err)
						return
					}
				}
			}
			var engineTime, engineTwice time.Duration
			var verifyTime [2]time.Duration
			for b.Loop() {
				t := time.Now()
				replayAll()
				engineTime += time.Since(t)
				// The machine's own scaling: the engine replaying the games
				// twice over, on two goroutines and two cores.
				procs := runtime.GOMAXPROCS(2)
				t = time.Now()
				var wg sync.WaitGroup
				wg.Go(replayAll)
				wg.Go(replayAll)
				wg.Wait()
				engineTwice += time.Since(t)
				runtime.GOMAXPROCS(procs)
				for w := range verifyTime {
					// n workers on n cores: the command's scaling, its
					// reading and writing included.
					procs := runtime.GOMAXPROCS(w + 1)
					var errs bytes.Buffer
					c := &cli{stdin: bytes.NewReader(form.batch), stdout: io.Discard, stderr: &errs}
					t := time.Now()
					code := c.main([]string{"verify", "--json", "--workers", fmt.Sprint(w + 1), "-"})
					verifyTime[w] += time.Since(t)
					runtime.GOMAXPROCS(procs)
					if code != exitOK {
						b.Fatalf("exit %d: %s", code, errs.String())
					}
				}
			}
			moves := float64(b.N * g.moves)
			b.ReportMetric(moves/engineTime.Seconds()/1e6, "engine-Mmoves/s")
			b.ReportMetric(moves/verifyTime[0].Seconds()/1e6, "verify-Mmoves/s")
			b.ReportMetric(engineTime.Seconds()/verifyTime[0].Seconds(), "x-engine")
			b.ReportMetric(verifyTime[0].Seconds()/verifyTime[1].Seconds(), "x-one-worker")
			b.ReportMetric(2*engineTime.Seconds()/engineTwice.Seconds(), "engine-x-one-core")
		})
	}
}
