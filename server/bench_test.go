//go:build unix

package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
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
	State        json.RawMessage   `json:"state"`
	LegalActions []protocol.Action `json:"legalActions"`
	GameOver     bool              `json:"gameOver"`
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
			State  json.RawMessage  `json:"state"`
			Action *protocol.Action `json:"action"`
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
