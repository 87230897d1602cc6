//go:build unix

package replay

import (
	"strconv"
	"syscall"
	"testing"
	"time"
)

// BenchmarkVerdictJSON verifies the batch of 2,000 short games, seeded
// and spawn-recorded, writing each verdict's line by hand
// (Verdict.AppendJSON) and through the JSON library (the struct
// FuzzVerdictJSON holds it to) in turn in one loop, and reports the
// process's CPU time of each: ratio is the library's rate of moves over
// the hand writer's, what writing the line through the library would
// cost a batch (docs/verify.md).
func BenchmarkVerdictJSON(b *testing.B) {
	seeded, spawns, moves := spawnsCorpus(b)
	for _, set := range []struct {
		name  string
		batch [][]byte
	}{{"seeded", seeded}, {"spawns", spawns}} {
		b.Run(set.name, func(b *testing.B) {
			v := NewVerifier()
			var out []byte
			var hand, library time.Duration
			for b.Loop() {
				t := cpuTime()
				for i, data := range set.batch {
					out = append(v.VerifyFile("stdin:"+strconv.Itoa(i+1), data).AppendJSON(out[:0]), '\n')
				}
				hand += cpuTime() - t
				t = cpuTime()
				for i, data := range set.batch {
					out = append(appendLibraryJSON(b, out[:0], v.VerifyFile("stdin:"+strconv.Itoa(i+1), data)), '\n')
				}
				library += cpuTime() - t
			}
			n := float64(b.N * moves)
			b.ReportMetric(n/hand.Seconds()/1e6, "hand-Mmoves/s")
			b.ReportMetric(n/library.Seconds()/1e6, "library-Mmoves/s")
			b.ReportMetric(hand.Seconds()/library.Seconds(), "ratio")
		})
	}
}

// cpuTime is the process's CPU time so far, user and system: on a
// shared machine, steadier than the clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
