//go:build unix

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/testkit/batch"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/replay/jsonl"
)

// benchGames records the batch of BenchmarkVerifyJSONLines
// (cmd/tileproof): 2,000 short tile-merge games of a corner-keeping
// player that moves at random one time in four, seeded and then
// spawn-recorded, 4,000 lines of JSON Lines.
func benchGames() (data []byte, moves int) {
	seeded, spawned, moves := batch.Replays(2000)
	return append(batch.JSONLines(seeded), batch.JSONLines(spawned)...), 2 * moves
}

// longGame is the corpus's longest game (replays/valid/tile-merge-4096.yaml,
// 4,189 moves to a 4096) spawn-recorded, as BenchmarkLongSpawnRecorded
// (replay) verifies it.
func longGame(b *testing.B) (data []byte, moves int) {
	path := filepath.Join(repoRoot, "replays", "valid", "tile-merge-4096.yaml")
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	r, err := replay.Decode(path, raw)
	if err != nil {
		b.Fatal(err)
	}
	p, _ := engine.BuiltinProfile(r.Profile)
	rules, _ := engine.Compile(p)
	g, err := rules.NewGame(*r.Seed)
	if err != nil {
		b.Fatal(err)
	}
	start := g.Board()
	sr := &replay.Replay{Profile: r.Profile, Start: &start, Claim: r.Claim, Actions: r.Actions, Spawns: make([]engine.Spawn, len(r.Actions))}
	for i, a := range r.Actions {
		st, err := g.Do(a)
		if err != nil {
			b.Fatal(err)
		}
		sr.Spawns[i] = st.Spawn
	}
	return sr.EncodeJSON(), r.Claim.Moves
}

// perPass runs f until it has taken about d (after one pass to warm up)
// and returns the time a pass took, by the clock and in the process's CPU
// time (which a busy machine inflates less).
func perPass(d time.Duration, f func()) (wall, cpu time.Duration) {
	f()
	n := 0
	t, c := time.Now(), cpuTime()
	for time.Since(t) < d {
		f()
		n++
	}
	return time.Since(t) / time.Duration(n), (cpuTime() - c) / time.Duration(n)
}

// cpuTime is the CPU time this process has used, every thread's.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkKit measures the kit's verifier against its targets (issue 26,
// item 3; figures in docs/web.md), in one run:
//
//   - load-ms: loading the verifier in node, from importing the kit to a
//     verifier ready (the median of 5 fresh processes; target: 150 at most),
//     and load-cpu-ms the CPU time it took, every thread's (V8 compiles on
//     several), which a busy machine does not inflate as it does the wall
//     time
//   - batch-ratio: node's rate on the 4,000-game batch over this process's
//     in-process rate, the command's work on one core (JSON Lines read,
//     verified, verdict lines written; target: 0.3 at least)
//   - long-ratio: the same on the longest spawn-recorded game
//   - batch-cpu-ratio, long-cpu-ratio: the same in CPU time, which other
//     work on the machine inflates less than the clock's
//   - gzip-bytes: the module gzipped (target: 1.5 MB at most)
//
// It needs node and builds the module (npm run build's steps).
func BenchmarkKit(b *testing.B) {
	if _, err := exec.LookPath("node"); err != nil {
		b.Skip("node not found")
	}
	dir := b.TempDir()
	wasm := filepath.Join(dir, "verifier.wasm")
	if out, err := exec.Command("node", "build.mjs", wasm).CombinedOutput(); err != nil {
		b.Fatalf("node build.mjs: %v\n%s", err, out)
	}
	module, err := os.ReadFile(wasm)
	if err != nil {
		b.Fatal(err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(module)
	zw.Close()
	lines, batchMoves := benchGames()
	long, longMoves := longGame(b)
	batchFile, longFile := filepath.Join(dir, "batch.jsonl"), filepath.Join(dir, "long.json")
	if err := os.WriteFile(batchFile, lines, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(longFile, long, 0o644); err != nil {
		b.Fatal(err)
	}
	v := replay.NewVerifier()
	var out []byte
	goBatch := func() {
		out = out[:0]
		jsonl.Read("stdin", bytes.NewReader(lines), maxReplaySize, func(in replay.Input) bool {
			out = jsonl.AppendVerdict(out, v.VerifyFile(in.Name, in.Data))
			return true
		}, nil)
	}
	goLong := func() { out = jsonl.AppendVerdict(out[:0], v.VerifyFile(longFile, long)) }
	node := func(args ...string) map[string]float64 {
		c := exec.Command("node", append([]string{"bench.mjs"}, args...)...)
		c.Stderr = os.Stderr
		res, err := c.Output()
		if err != nil {
			b.Fatalf("node bench.mjs: %v", err)
		}
		var m map[string]float64
		if err := json.Unmarshal(res, &m); err != nil {
			b.Fatalf("node bench.mjs: %v: %s", err, res)
		}
		return m
	}
	for b.Loop() {
		var loads, cpus []float64
		for range 5 {
			m := node("--load", wasm)
			loads, cpus = append(loads, m["loadMs"]), append(cpus, m["loadCPUMs"])
		}
		sort.Float64s(loads)
		sort.Float64s(cpus)
		// The in-process rates before and after node's, their mean: a
		// machine whose load changes while it runs skews the ratio less.
		goBatchT, goBatchC := perPass(time.Second, goBatch)
		goLongT, goLongC := perPass(time.Second, goLong)
		kit := node(wasm, batchFile, longFile, strconv.Itoa(2))
		t2, c2 := perPass(time.Second, goBatch)
		goBatchT, goBatchC = (goBatchT+t2)/2, (goBatchC+c2)/2
		t2, c2 = perPass(time.Second, goLong)
		goLongT, goLongC = (goLongT+t2)/2, (goLongC+c2)/2
		b.ReportMetric(loads[2], "load-ms")
		b.ReportMetric(cpus[2], "load-cpu-ms")
		b.ReportMetric(float64(gz.Len()), "gzip-bytes")
		b.ReportMetric(float64(batchMoves)/goBatchT.Seconds()/1e6, "go-batch-Mmoves/s")
		b.ReportMetric(float64(batchMoves)/kit["batchSec"]/1e6, "kit-batch-Mmoves/s")
		b.ReportMetric(goBatchT.Seconds()/kit["batchSec"], "batch-ratio")
		b.ReportMetric(goBatchC.Seconds()/kit["batchCPUSec"], "batch-cpu-ratio")
		b.ReportMetric(float64(longMoves)/goLongT.Seconds()/1e6, "go-long-Mmoves/s")
		b.ReportMetric(float64(longMoves)/kit["longSec"]/1e6, "kit-long-Mmoves/s")
		b.ReportMetric(goLongT.Seconds()/kit["longSec"], "long-ratio")
		b.ReportMetric(goLongC.Seconds()/kit["longCPUSec"], "long-cpu-ratio")
		b.Logf("load ms (5 processes): %.1f, CPU ms %.1f; module %d bytes, %d gzipped", loads, cpus, len(module), gz.Len())
	}
}
