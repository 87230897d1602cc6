package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestShimKeepsTheGame shows that -fast changes nothing but time. 2048.c
// seeds its generator with the clock in seconds (srand(time(NULL)), in
// the first addRandom), so two runs started in the same second play the
// same game for the same keys. The test starts one run with the pause and
// one with the shim in the same second, presses the same keys in both,
// and compares every byte the two wrote and every answer: identical. And
// the shim must have worked: the run with it takes a fraction of the time
// of the other, which pauses 150 ms each move that changes the board.
func TestShimKeepsTheGame(t *testing.T) {
	shim := needShim(t)
	moves := "ULDRUULLDDRRUDLR"
	for try := 0; ; try++ {
		var traceSlow, traceFast bytes.Buffer
		slowCfg, fastCfg := testConfig(nil), testConfig(shim)
		slowCfg.trace, fastCfg.trace = &traceSlow, &traceFast
		slow, fast := newSession(t, slowCfg), newSession(t, fastCfg)
		second := time.Now().Unix()
		a, b := slow.ok(`{"op":"new","profile":"2048c"}`), fast.ok(`{"op":"new","profile":"2048c"}`)
		if time.Now().Unix() != second {
			if try < 5 {
				continue // the second turned between the two starts
			}
			t.Fatal("cannot start two games in one second")
		}
		if jsonOf(a) != jsonOf(b) {
			t.Fatalf("two games started in one second open differently:\n%s\n%s", jsonOf(a), jsonOf(b))
		}
		var slowTime, fastTime time.Duration
		changed := 0
		for _, m := range moves {
			req := fmt.Sprintf(`{"op":"move","direction":%q}`, map[rune]string{'U': "up", 'D': "down", 'L': "left", 'R': "right"}[m])
			start := time.Now()
			x := slow.ok(req)
			slowTime += time.Since(start)
			start = time.Now()
			y := fast.ok(req)
			fastTime += time.Since(start)
			if jx, jy := jsonOf(x), jsonOf(y); jx != jy {
				t.Fatalf("move %c: with the pause %s, with the shim %s", m, jx, jy)
			}
			if x.Changed {
				changed++
			}
		}
		// The bytes to the end of the last event: the cursor-up after the
		// last board may be still on its way in one and not the other.
		n := traceEnd(t, traceSlow.Bytes())
		if n != traceEnd(t, traceFast.Bytes()) || !bytes.Equal(traceSlow.Bytes()[:n], traceFast.Bytes()[:n]) {
			t.Fatalf("the two runs wrote different bytes (%d and %d)", traceSlow.Len(), traceFast.Len())
		}
		if changed < 5 || slowTime < time.Duration(changed)*150*time.Millisecond || fastTime > slowTime/5 {
			t.Fatalf("%d moves changed the board: with the pause %s, with the shim %s", changed, slowTime, fastTime)
		}
		t.Logf("%d moves, %d changing the board, %d bytes alike: %s with the pause, %s with the shim", len(moves), changed, n, slowTime, fastTime)
		return
	}
}

// traceEnd returns the offset of the end of the last event in a trace.
func traceEnd(t *testing.T, trace []byte) int {
	t.Helper()
	var p Parser
	events, err := p.Feed(trace)
	if err != nil || len(events) == 0 {
		t.Fatalf("the trace: %v, %d events", err, len(events))
	}
	return int(events[len(events)-1].End)
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// BenchmarkMove measures the moves a second the adapter sustains in the
// real program, in process (no JSON pipes), random moves, a new game
// (a new run of the program) at each end: with the shim and with the
// game's own pause.
func BenchmarkMove(b *testing.B) {
	for _, mode := range []string{"fast", "paused"} {
		b.Run(mode, func(b *testing.B) {
			shim := needShim(b)
			if mode == "paused" {
				shim = nil
			}
			a := &adapter{cfg: testConfig(shim), declared: defaultProfile}
			defer a.stop()
			a.handle([]byte(`{"id":1,"op":"hello","protocol":1}`))
			r := rand.New(rand.NewPCG(1, 2))
			dirs := []string{"up", "down", "left", "right"}
			games := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if !a.started || a.st.Over {
					games++
					a.handle([]byte(`{"id":2,"op":"new","profile":"2048c"}`))
				}
				if out := a.handle(fmt.Appendf(nil, `{"id":3,"op":"move","direction":%q}`, dirs[r.IntN(4)])); !bytes.Contains(out, []byte(`"ok":true`)) {
					b.Fatalf("%s", out)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
			b.ReportMetric(float64(games), "games")
		})
	}
}

// TestClock runs the game with -clock: a run's seed is the second it is
// shown, the adapter's first run N, its second N+1. Two adapters with the
// same N play the same two games for the same moves; the two games differ;
// and an adapter started at N+1 plays, as its first game, the other's
// second. (Both shims preloaded at once, too.)
func TestClock(t *testing.T) {
	nosleep := needShim(t)
	clock := needShimOf(t, "clock", clockSource)
	moves := "ULDRRDLUUDLRLURD"
	play := func(second int64, games int) []string {
		cfg := testConfig(nosleep)
		cfg.clock, cfg.second = clock, second
		s := newSession(t, cfg)
		var out []string
		for range games {
			var sb strings.Builder
			sb.WriteString(jsonOf(s.ok(`{"op":"new","profile":"2048c"}`).State))
			for _, m := range moves {
				r := s.ok(fmt.Sprintf(`{"op":"move","direction":%q}`, map[rune]string{'U': "up", 'D': "down", 'L': "left", 'R': "right"}[m]))
				r.ID = 0 // the sessions number their requests apart
				sb.WriteString(jsonOf(r))
			}
			out = append(out, sb.String())
		}
		return out
	}
	a, b, c := play(1_000_000, 2), play(1_000_000, 2), play(1_000_001, 1)
	if a[0] != b[0] || a[1] != b[1] {
		t.Errorf("two adapters with -clock 1000000 played different games")
	}
	if a[0] == a[1] {
		t.Errorf("the runs at seconds 1000000 and 1000001 played the same game")
	}
	if c[0] != a[1] {
		t.Errorf("the run at second 1000001 is not the second run of -clock 1000000:\n%.300s\n%.300s", c[0], a[1])
	}
}
