package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The recordings in testdata are the real program's output, made by
//
//	go test ./conformance/adapters/2048c -run TestRecord -record
//
// which plays each scenario below in /usr/games/2048 (through the adapter
// with -trace, or by pressing raw keys) and writes NAME.raw (NAME.raw.gz
// for the long one) and NAME.events, the events the parser reads in it.
// A recording comes from a game seeded by the clock, so each run of the
// command makes different ones; the tests read whichever are checked in.

var record = flag.Bool("record", false, "record the testdata again from /usr/games/2048")

// recording is one scenario.
type recording struct {
	name  string
	flags []string // the adapter's flags
	moves string   // U D L R a move, N a new game; "" for a raw recording
	keys  string   // for a raw recording: the keys pressed after the first frame
	gzip  bool
}

var recordings = []recording{
	{name: "tiny", moves: "NUU"},
	{name: "short", moves: "NULDRRUULDDLRU"},
	{name: "blackwhite", flags: []string{"-scheme", "blackwhite"}, moves: "NLURDU"},
	{name: "restart", flags: []string{"-restart"}, moves: "NULDNRU"},
	{name: "game", flags: []string{"-fast"}, moves: "N" + randomMoves(900, 2048), gzip: true},
	{name: "quit", keys: "qy"},
	{name: "input-error", keys: "\xff"},
}

// randomMoves returns n move letters drawn from a fixed seed.
func randomMoves(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 0))
	b := make([]byte, n)
	for i := range b {
		b[i] = "UDLR"[r.IntN(4)]
	}
	return string(b)
}

// requests turns move letters into the protocol's requests, hello first.
func requests(moves string) string {
	var sb strings.Builder
	sb.WriteString(`{"id":1,"op":"hello","protocol":1}` + "\n")
	for i, m := range moves {
		if m == 'N' {
			fmt.Fprintf(&sb, `{"id":%d,"op":"new","profile":%q}`+"\n", i+2, profileName)
			continue
		}
		d := map[rune]string{'U': "up", 'D': "down", 'L': "left", 'R': "right"}[m]
		fmt.Fprintf(&sb, `{"id":%d,"op":"move","direction":%q}`+"\n", i+2, d)
	}
	return sb.String()
}

func TestRecord(t *testing.T) {
	if !*record {
		t.Skip("-record records the testdata again")
	}
	needGame(t)
	for _, rec := range recordings {
		trace := filepath.Join(t.TempDir(), rec.name+".raw")
		if rec.moves != "" {
			var out, errs bytes.Buffer
			args := append(append([]string(nil), rec.flags...), "-trace", trace)
			if code := run(args, strings.NewReader(requests(rec.moves)), &out, &errs); code != 0 || strings.Contains(out.String(), `"ok":false`) {
				t.Fatalf("%s: exit %d: %s%s", rec.name, code, out.String(), errs.String())
			}
		} else {
			f, err := os.Create(trace)
			if err != nil {
				t.Fatal(err)
			}
			cfg := testConfig(nil)
			cfg.trace = f
			g, _, err := startGame(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.press(rec.keys); err != nil {
				t.Fatal(err)
			}
			for {
				if _, err := g.next(); err != nil {
					break
				}
			}
			g.close()
			f.Close()
		}
		data, err := os.ReadFile(trace)
		if err != nil {
			t.Fatal(err)
		}
		events, err := parseAll(data, nil)
		if err != nil {
			t.Fatalf("%s: %v", rec.name, err)
		}
		if rec.name == "game" && events[len(events)-2].Kind != GameOver {
			t.Fatalf("the game did not end in %d moves: record again", len(rec.moves)-1)
		}
		raw := filepath.Join("testdata", rec.name+".raw")
		if rec.gzip {
			var z bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
			zw.Write(data)
			zw.Close()
			data, raw = z.Bytes(), raw+".gz"
		}
		if err := os.WriteFile(raw, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("testdata", rec.name+".events"), []byte(eventText(events)), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes, %d events", raw, len(data), len(events))
	}
}
