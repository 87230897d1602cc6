package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/testkit/apiplay"
	"github.com/tileproof/tileproof/protocol"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/server"
)

// TestAnalyzeTimesKey plays a game through a signed server on a real
// socket, writes its replay with the server's times, and analyses it
// with the server's key (the times are sealed by it), with another key
// (they are not) and with none (the replay's word).
func TestAnalyzeTimesKey(t *testing.T) {
	rep := playTimedGame(t, "cli", 120)
	dir := t.TempDir()
	file, keyFile, otherKey := filepath.Join(dir, "g.json"), filepath.Join(dir, "key"), filepath.Join(dir, "other")
	for f, data := range map[string]string{file: string(rep.EncodeJSON()), keyFile: timesKey + "\n", otherKey: strings.Repeat("x", 32)} {
		if err := os.WriteFile(f, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--times-key-file", keyFile}, "think times: sealed by the server whose key was given"},
		{[]string{"--times-key-file", otherKey}, "think times: NOT sealed"},
		{nil, "think times: the replay's word"},
		{[]string{"--json", "--times-key-file", keyFile}, `"sealed":true`},
	} {
		code, out, errOut := runCLI(t, "", append(append([]string{"analyze"}, tc.args...), file)...)
		if code != exitOK || !strings.Contains(out, tc.want) || !strings.Contains(out, "think") {
			t.Errorf("analyze %v: exit %d, want %q in\n%s%s", tc.args, code, tc.want, out, errOut)
		}
	}
}

// TestAnalyzeTimesMedianZero: times whose median is 0 but which vary
// (most moves at 0 ms, the rest at 500) have no spread: the text says so
// rather than print 0.00, which reads as times all alike.
func TestAnalyzeTimesMedianZero(t *testing.T) {
	rep := playTimedGame(t, "zero", 60)
	rep.TimesSeal = ""
	for i := range rep.Times {
		rep.Times[i] = 0
		if i%3 == 0 {
			rep.Times[i] = 500
		}
	}
	file := filepath.Join(t.TempDir(), "g.json")
	if err := os.WriteFile(file, rep.EncodeJSON(), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "", "analyze", file)
	if code != exitOK || !strings.Contains(out, "median 0 ms, quartiles 0-500 ms (spread -, the median is 0)") {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
}

// timesKey is the key of the signed server of the tests' timed games.
const timesKey = "0123456789abcdef0123456789abcdef"

// playTimedGame plays a tile-merge game of at most n moves from seed
// through a server signed with timesKey on a real socket and returns its
// replay with the server's times and times seal.
func playTimedGame(t *testing.T, seed string, n int) *replay.Replay {
	t.Helper()
	p, _ := engine.BuiltinProfile("tile-merge")
	s, err := server.New([]*engine.Profile{p}, []byte(timesKey))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	return apiplay.Play(t, ts.URL, "tile-merge", seed, n, func(i int, r protocol.Response) protocol.ActionBody {
		return r.LegalActions[i%len(r.LegalActions)]
	})
}

// dirWriter returns a function that writes data to the file name under
// dir, making its folders, and returns the file's path.
func dirWriter(t *testing.T, dir string) func(name string, data []byte) string {
	return func(name string, data []byte) string {
		t.Helper()
		f := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return f
	}
}

// slowerAt returns rep with its i-th think time one millisecond longer:
// times no server sealed.
func slowerAt(rep *replay.Replay, i int) replay.Replay {
	r := *rep
	r.Times = append([]uint32(nil), rep.Times...)
	r.Times[i]++
	return r
}

// untimedCopy returns rep without its think times and their seal.
func untimedCopy(rep *replay.Replay) replay.Replay {
	r := *rep
	r.Times, r.TimesSeal = nil, ""
	return r
}

// TestAnalyzeTextFewTimedMoves: the text of a game with fewer timed moves
// than analyze.MinCorrelationMoves says why it has no correlations; one
// with enough whose times do not vary keeps the bare dash.
func TestAnalyzeTextFewTimedMoves(t *testing.T) {
	one := 1.0
	for _, tc := range []struct {
		tt   analyze.ThinkTime
		want string
	}{
		{analyze.ThinkTime{Moves: analyze.MinCorrelationMoves - 1, MedianMs: 100},
			"rank correlation with filled cells -, too few timed moves, with moves not near the best -, too few timed moves, with the best move's lead -, too few timed moves;"},
		{analyze.ThinkTime{Moves: analyze.MinCorrelationMoves, MedianMs: 100, GapCorr: &one},
			"rank correlation with filled cells -, with moves not near the best -, with the best move's lead 1.00;"},
	} {
		var b strings.Builder
		printAnalysis(&b, &analyze.GameReport{Name: "g", Band: analyze.Consistent, ThinkTime: &tc.tt})
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%d timed moves:\n%s\nwant %q", tc.tt.Moves, b.String(), tc.want)
		}
	}
}
