package replay

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/plain"
	"github.com/tileproof/tileproof/internal/testkit/games"
)

// plainVerify is the same work as Verifier.VerifyFile for a seeded
// replay whose profile plays like tile-merge (4x4, 2:9 4:1, no undo), done
// with the plain implementation: decode, replay, check every move is
// legal, compare the claim. It is the baseline of the benchmarks.
func plainVerify(name string, data []byte) Verdict {
	r, err := Decode(name, data)
	if err != nil {
		return Verdict{Name: name, Reason: Malformed, Error: err.Error()}
	}
	g, err := plain.NewOracle(*r.Seed, 4, 4, 2, plain.DefaultWeights())
	if err != nil {
		return Verdict{Name: name, Reason: Malformed, Error: err.Error()}
	}
	for i, a := range r.Actions {
		if !g.Play(a.Letter()) {
			return Verdict{Name: name, Reason: IllegalMove, Divergence: &Divergence{Action: i + 1}}
		}
	}
	vd := Verdict{Name: name, Score: g.Score, MaxTile: g.Board.Max(), Moves: g.Moves}
	vd.Valid = vd.Score == r.Claim.Score && vd.MaxTile == r.Claim.MaxTile && vd.Moves == r.Claim.Moves
	return vd
}

// longestCorpus returns the longest valid seeded tile-merge replays of
// replays/, read from disk.
func longestCorpus(b *testing.B) (files []string, moves int) {
	for _, f := range []string{"valid/tile-merge-4096.yaml", "valid/tile-merge-2048.yaml", "minimal.yaml"} {
		path := filepath.Join(corpusDir, f)
		r, err := Decode(path, mustReadB(b, path))
		if err != nil {
			b.Fatal(err)
		}
		files, moves = append(files, path), moves+r.Claim.Moves
	}
	return files, moves
}

func mustReadB(b *testing.B, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkVerifyLongest is end-to-end verification (read the file,
// decode, replay, compare) of the longest replays of the corpus, reported
// per 100,000 moves, with the engine and with the plain implementation.
func BenchmarkVerifyLongest(b *testing.B) {
	files, moves := longestCorpus(b)
	for _, impl := range []struct {
		name   string
		verify func(string, []byte) Verdict
	}{{"engine", NewVerifier().VerifyFile}, {"plain", plainVerify}} {
		b.Run(impl.name, func(b *testing.B) {
			total := 0
			for b.Loop() {
				for _, f := range files {
					data, err := os.ReadFile(f)
					if err != nil {
						b.Fatal(err)
					}
					if vd := impl.verify(f, data); !vd.Valid {
						b.Fatalf("%s: %+v", f, vd)
					}
				}
				total += moves
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(total)*1e5, "ms/100k-moves")
		})
	}
}

// batchCorpus records n distinct tile-merge games as JSON, the way a
// leaderboard receives them, with a corner-keeping player that moves at
// random one time in four.
var batchCorpus = sync.OnceValues(func() ([][]byte, int) {
	var out [][]byte
	moves := 0
	for _, g := range games.Batch(2000) {
		r := &Replay{Profile: "tile-merge", Seed: &g.Seed, Actions: g.Actions, Claim: Claim{Score: g.Score, MaxTile: g.MaxTile, Moves: g.Moves}}
		out, moves = append(out, r.EncodeJSON()), moves+g.Moves
	}
	return out, moves
})

// BenchmarkBatch verifies 2,000 distinct games through VerifyBatch, on one
// worker and on two, with the engine and the plain implementation, and
// reports replays and moves per second.
func BenchmarkBatch(b *testing.B) {
	replays, moves := batchCorpus()
	for _, impl := range []struct {
		name   string
		verify func(string, []byte) Verdict
	}{{"engine", NewVerifier().VerifyFile}, {"plain", plainVerify}} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", impl.name, workers), func(b *testing.B) {
				n := 0
				for b.Loop() {
					in := make(chan Input, 64)
					go func() {
						for i, data := range replays {
							in <- Input{Name: fmt.Sprint(i), Data: data}
						}
						close(in)
					}()
					VerifyBatch(context.Background(), in, workers, impl.verify, func(vd Verdict) {
						if !vd.Valid {
							b.Fatalf("%+v", vd)
						}
					}, nil)
					n++
				}
				sec := b.Elapsed().Seconds()
				b.ReportMetric(float64(n*len(replays))/sec, "replays/s")
				b.ReportMetric(float64(n*moves)/sec/1e6, "Mmoves/s")
			})
		}
	}
}

// verifyLines verifies each replay of batch as a line of stdin and
// writes its verdict's JSON line over out, as tileproof verify --json
// does; a replay that does not verify fails b.
func verifyLines(b *testing.B, v *Verifier, batch [][]byte, out []byte) []byte {
	for i, data := range batch {
		vd := v.VerifyFile("stdin:"+strconv.Itoa(i+1), data)
		if !vd.Valid {
			b.Fatalf("%+v", vd)
		}
		out = vd.AppendJSON(out[:0])
		out = append(out, '\n')
	}
	return out
}

// BenchmarkBatchRatio is the batch of short seeded games end to end as
// tileproof verify --json does it on one worker (decode, replay, compare,
// hash, the verdict written as its JSON line), against the engine's own
// replay of the same games in the same loop: ratio is verification's
// rate of moves over the engine's (the target: at least 0.4).
func BenchmarkBatchRatio(b *testing.B) {
	replays, moves := batchCorpus()
	v := NewVerifier()
	p, _ := engine.BuiltinProfile("tile-merge")
	rules, _ := engine.Compile(p)
	decoded := make([]*Replay, len(replays))
	for i, data := range replays {
		r, err := Decode("b", data)
		if err != nil {
			b.Fatal(err)
		}
		decoded[i] = r
	}
	var replayTime, verifyTime time.Duration
	var out []byte
	for b.Loop() {
		t := time.Now()
		for _, r := range decoded {
			g, _ := rules.NewGame(*r.Seed)
			if _, err := g.Play(r.Actions, nil); err != nil {
				b.Fatal(err)
			}
		}
		replayTime += time.Since(t)
		t = time.Now()
		out = verifyLines(b, v, replays, out)
		verifyTime += time.Since(t)
	}
	n := float64(b.N * moves)
	b.ReportMetric(n/replayTime.Seconds()/1e6, "engine-Mmoves/s")
	b.ReportMetric(n/verifyTime.Seconds()/1e6, "verify-Mmoves/s")
	b.ReportMetric(replayTime.Seconds()/verifyTime.Seconds(), "ratio")
}

// spawnRecorded returns the seeded replay r as the spawn-recorded replay
// of the same game: its start board and each action's spawn, as a game
// with its own generator records it.
func spawnRecorded(tb testing.TB, r *Replay) *Replay {
	tb.Helper()
	p, _ := engine.BuiltinProfile(r.Profile)
	rules, _ := engine.Compile(p)
	g, err := rules.NewGame(*r.Seed)
	if err != nil {
		tb.Fatal(err)
	}
	start := g.Board()
	out := &Replay{Profile: r.Profile, Start: &start, Claim: r.Claim, Actions: r.Actions, Spawns: make([]engine.Spawn, len(r.Actions))}
	for i, a := range r.Actions {
		st, err := g.Do(a)
		if err != nil {
			tb.Fatal(err)
		}
		out.Spawns[i] = st.Spawn
	}
	return out
}

// spawnsCorpus returns the batch of short games (batchCorpus), each
// seeded and spawn-recorded, and its moves.
func spawnsCorpus(b *testing.B) (seeded, spawns [][]byte, moves int) {
	seeded, moves = batchCorpus()
	spawns = make([][]byte, len(seeded))
	for i, data := range seeded {
		r, err := Decode("b", data)
		if err != nil {
			b.Fatal(err)
		}
		spawns[i] = spawnRecorded(b, r).EncodeJSON()
	}
	return seeded, spawns, moves
}

// BenchmarkSpawnRecordedRatio verifies the batch of short games twice in
// one loop, seeded and spawn-recorded (the form of every game from an
// implementation with its own generator), end to end on one worker with
// the verdicts written: ratio is the spawn-recorded rate over the seeded
// one (the target: at least 0.5).
func BenchmarkSpawnRecordedRatio(b *testing.B) {
	seeded, spawns, moves := spawnsCorpus(b)
	v := NewVerifier()
	var seededTime, spawnsTime time.Duration
	var out []byte
	verifyAll := func(batch [][]byte) time.Duration {
		t := time.Now()
		out = verifyLines(b, v, batch, out)
		return time.Since(t)
	}
	for b.Loop() {
		seededTime += verifyAll(seeded)
		spawnsTime += verifyAll(spawns)
	}
	n := float64(b.N * moves)
	b.ReportMetric(n/seededTime.Seconds()/1e6, "seeded-Mmoves/s")
	b.ReportMetric(n/spawnsTime.Seconds()/1e6, "spawns-Mmoves/s")
	b.ReportMetric(seededTime.Seconds()/spawnsTime.Seconds(), "ratio")
}

// longSpawnRecorded returns the corpus's longest game (4,189 moves to a
// 4096) spawn-recorded: its path, the replay, its JSON, and its profile
// and rules.
func longSpawnRecorded(b *testing.B) (path string, sr *Replay, data []byte, p *engine.Profile, rules *engine.Rules) {
	path = filepath.Join(corpusDir, "valid/tile-merge-4096.yaml")
	r, err := Decode(path, mustReadB(b, path))
	if err != nil {
		b.Fatal(err)
	}
	sr = spawnRecorded(b, r)
	p, _ = engine.BuiltinProfile(r.Profile)
	rules, _ = engine.Compile(p)
	return path, sr, sr.EncodeJSON(), p, rules
}

// BenchmarkLongSpawnRecorded verifies the corpus's longest game (4,189
// moves to a 4096) spawn-recorded, end to end from its bytes, and reports
// moves per second (the target: at least 20 M), with the engine's
// own replay of the same game in the same loop for the ratio.
func BenchmarkLongSpawnRecorded(b *testing.B) {
	path, sr, data, _, rules := longSpawnRecorded(b)
	v := NewVerifier()
	var engineTime, verifyTime time.Duration
	for b.Loop() {
		t := time.Now()
		g, _ := rules.Load(engine.State{Board: *sr.Start})
		if _, err := g.Play(sr.Actions, sr.Spawns); err != nil {
			b.Fatal(err)
		}
		engineTime += time.Since(t)
		t = time.Now()
		if vd := v.VerifyFile(path, data); !vd.Valid {
			b.Fatalf("%+v", vd)
		}
		verifyTime += time.Since(t)
	}
	n := float64(b.N * sr.Claim.Moves)
	b.ReportMetric(n/verifyTime.Seconds()/1e6, "verify-Mmoves/s")
	b.ReportMetric(n/engineTime.Seconds()/1e6, "engine-Mmoves/s")
	b.ReportMetric(engineTime.Seconds()/verifyTime.Seconds(), "ratio")
}

// BenchmarkLongSpawnRecordedStages times each stage of verifying the
// long spawn-recorded game of BenchmarkLongSpawnRecorded on its own, in
// nanoseconds a move, to show where the time goes: reading the JSON,
// parsing the spawn log, the engine's replay with the open cells, the
// plausibility count, writing the canonical move log and its SHA-256, and
// the whole verification.
func BenchmarkLongSpawnRecordedStages(b *testing.B) {
	path, sr, data, p, rules := longSpawnRecorded(b)
	log := sr.MoveLog()
	open := make([]uint64, len(sr.Actions))
	canonical := sr.appendMoveLog(nil, false)
	v := NewVerifier()
	var actions []engine.Action
	var spawns []engine.Spawn
	var buf []byte
	perMove := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sr.Claim.Moves), "ns/move")
	}
	for _, stage := range []struct {
		name string
		run  func()
	}{
		{"json", func() { readJSONPlain(data, &form{}) }},
		{"parse", func() { actions, spawns, _ = appendParsedSpawnLog(actions[:0], spawns[:0], log, 4) }},
		{"engine", func() {
			g, _ := rules.Load(engine.State{Board: *sr.Start})
			if _, err := g.PlayRecorded(sr.Actions, sr.Spawns, open); err != nil {
				b.Fatal(err)
			}
		}},
		{"count", func() {
			pc := NewSpawnCounter(p)
			for i, o := range open {
				pc.CountOpen(o, sr.Spawns[i])
			}
			pc.Result()
		}},
		{"canonical-log", func() { buf = sr.appendMoveLog(buf[:0], false) }},
		{"sha256", func() { sha256.Sum256(canonical) }},
		{"verify", func() { v.VerifyFile(path, data) }},
	} {
		b.Run(stage.name, func(b *testing.B) {
			for b.Loop() {
				stage.run()
			}
			perMove(b)
		})
	}
}
