package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/server"
)

// TestAnalyzeTimesKey plays a game through a signed server on a real
// socket, writes its replay with the server's times, and analyses it
// with the server's key (the times are sealed by it), with another key
// (they are not) and with none (the replay's word).
func TestAnalyzeTimesKey(t *testing.T) {
	key := "0123456789abcdef0123456789abcdef"
	rep := playTimedGame(t, key, "cli", 120)
	dir := t.TempDir()
	file, keyFile, otherKey := filepath.Join(dir, "g.json"), filepath.Join(dir, "key"), filepath.Join(dir, "other")
	for f, data := range map[string]string{file: string(rep.EncodeJSON()), keyFile: key + "\n", otherKey: strings.Repeat("x", 32)} {
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

// playTimedGame plays a tile-merge game of at most n moves from seed
// through a server signed with key on a real socket and returns its
// replay with the server's times and times seal.
func playTimedGame(t *testing.T, key, seed string, n int) *replay.Replay {
	t.Helper()
	p, _ := engine.BuiltinProfile("tile-merge")
	s, err := server.New([]*engine.Profile{p}, []byte(key))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	do := func(method, path string, body any) protocol.Response {
		var b []byte
		if body != nil {
			b, _ = json.Marshal(body)
		}
		req, _ := http.NewRequestWithContext(t.Context(), method, ts.URL+"/api/games/tile-merge"+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r protocol.Response
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || !r.OK {
			t.Fatalf("%s %s: %v %+v", method, path, err, r)
		}
		return r
	}
	r := do(http.MethodGet, "/init?seed="+url.QueryEscape(seed), nil)
	rep := &replay.Replay{Profile: "tile-merge", Seed: &seed, Times: []uint32{}}
	for i := 0; i < n && !r.GameOver; i++ {
		a := r.LegalActions[i%len(r.LegalActions)]
		r = do(http.MethodPost, "/action", map[string]any{"state": r.State, "action": a})
		d, _ := engine.ParseDirection(a.Direction)
		rep.Actions = append(rep.Actions, engine.Action(d))
		rep.Times = append(rep.Times, *r.ThinkMs)
		rep.TimesSeal = r.TimesSeal
	}
	rep.Claim = replay.Claim{Score: r.Observation.Score, MaxTile: r.Observation.MaxTile, Moves: r.Observation.Moves}
	return rep
}
