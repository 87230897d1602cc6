//go:build unix

package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// The server's throughput: whole games of tile-merge played by clients
// that carry the state, over loopback (a real socket and net/http's
// client), unsigned against signed in the same run.
//
//	go test -run XXX -bench . -benchtime 5s ./server
//
// req/s is the clock's, which other work on the machine lowers;
// cpu-ns/req is the CPU time of the process (client and server) per
// request, steadier on a shared machine.

// cpuTime returns the CPU time the process has used, user and system, in
// nanoseconds: on a machine shared with other work, a steadier measure
// than the time on the clock.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// benchKey is a 32-byte key.
const benchKey = "bench-key-0123456789abcdef012345"

func benchServer(b *testing.B, key string) http.Handler {
	p, _ := engine.BuiltinProfile("tile-merge")
	s, err := New([]*engine.Profile{p}, []byte(key))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// benchAnswer is what a client reads of an answer: the state kept as it
// came, to send back.
type benchAnswer struct {
	State        json.RawMessage       `json:"state"`
	LegalActions []protocol.ActionBody `json:"legalActions"`
	GameOver     bool                  `json:"gameOver"`
}

// benchGame plays games through send, one request per call of step: an
// init when no game is going on, else the first legal move.
type benchGame struct {
	send  func(method, path string, body []byte) []byte
	seeds *atomic.Int64
	cur   *benchAnswer
}

func (g *benchGame) step(b *testing.B) {
	var data []byte
	if g.cur == nil || g.cur.GameOver {
		data = g.send("GET", fmt.Sprintf("/api/games/tile-merge/init?seed=bench-%d", g.seeds.Add(1)), nil)
	} else {
		body, _ := json.Marshal(struct {
			State  json.RawMessage      `json:"state"`
			Action *protocol.ActionBody `json:"action"`
		}{g.cur.State, &g.cur.LegalActions[0]})
		data = g.send("POST", "/api/games/tile-merge/action", body)
	}
	var a benchAnswer
	if err := json.Unmarshal(data, &a); err != nil || a.State == nil {
		b.Fatalf("%v: %s", err, data)
	}
	g.cur = &a
}

func BenchmarkPlayLoopback(b *testing.B) {
	for _, key := range []string{"", benchKey} {
		name := map[string]string{"": "unsigned", benchKey: "signed"}[key]
		b.Run(name, func(b *testing.B) {
			ts := httptest.NewServer(benchServer(b, key))
			defer ts.Close()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
			var seeds atomic.Int64
			start, cpu := time.Now(), cpuTime()
			b.RunParallel(func(pb *testing.PB) {
				g := &benchGame{seeds: &seeds, send: func(method, path string, body []byte) []byte {
					req, _ := http.NewRequest(method, ts.URL+path, bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					resp, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return nil
					}
					data, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					return data
				}}
				for pb.Next() {
					g.step(b)
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/req")
		})
	}
}

// BenchmarkHandler is the same games without the socket: the server's
// own cost per request.
func BenchmarkHandler(b *testing.B) {
	for _, key := range []string{"", benchKey} {
		name := map[string]string{"": "unsigned", benchKey: "signed"}[key]
		b.Run(name, func(b *testing.B) {
			h := benchServer(b, key)
			var seeds atomic.Int64
			g := &benchGame{seeds: &seeds, send: func(method, path string, body []byte) []byte {
				rec := httptest.NewRecorder()
				req := httptest.NewRequest(method, path, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				h.ServeHTTP(rec, req)
				return rec.Body.Bytes()
			}}
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				g.step(b)
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/req")
		})
	}
}

// BenchmarkVerifyLoopback posts replays to POST /api/verify over
// loopback from as many clients as GOMAXPROCS (the endpoint verifies at
// most 8 replays at once, answering the rest 503): a short seeded game
// and the corpus's longest, each as YAML. It reports requests and moves
// a second, the CPU time of a request, and the process's peak resident
// memory (the test binary's, client and server together).
func BenchmarkVerifyLoopback(b *testing.B) {
	for _, name := range []string{"committed-seed.yaml", "tile-merge-4096.yaml"} {
		body, err := os.ReadFile("../replays/valid/" + name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			ts := httptest.NewServer(benchServer(b, ""))
			defer ts.Close()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
			var moves, busy atomic.Int64
			start, cpu := time.Now(), cpuTime()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					resp, err := client.Post(ts.URL+"/api/verify", "application/yaml", bytes.NewReader(body))
					if err != nil {
						b.Error(err)
						return
					}
					var vd struct {
						Valid bool
						Moves int64
					}
					err = json.NewDecoder(resp.Body).Decode(&vd)
					resp.Body.Close()
					switch {
					case resp.StatusCode == http.StatusServiceUnavailable:
						busy.Add(1)
					case err != nil || !vd.Valid:
						b.Errorf("%s: HTTP %d, %+v, %v", name, resp.StatusCode, vd, err)
						return
					default:
						moves.Add(vd.Moves)
					}
				}
			})
			el := time.Since(start).Seconds()
			b.ReportMetric(float64(b.N)/el, "req/s")
			b.ReportMetric(float64(moves.Load())/el/1e6, "Mmoves/s")
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/req")
			b.ReportMetric(float64(busy.Load()), "503s")
			if kb := peakRSSKiB(); kb > 0 {
				b.ReportMetric(float64(kb)/1024, "peak-MiB")
			}
		})
	}
}

// peakRSSKiB returns the process's peak resident memory (VmHWM) in KiB,
// or 0 where /proc does not say.
func peakRSSKiB() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), &kb)
			return kb
		}
	}
	return 0
}
