package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

func newTestServer(t *testing.T, key string) *httptest.Server {
	t.Helper()
	var ps []*engine.Profile
	for _, name := range engine.BuiltinNames() {
		p, _ := engine.BuiltinProfile(name)
		ps = append(ps, p)
	}
	s, err := New(ps, []byte(key))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

func get(t *testing.T, url string) (int, protocol.Response, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var r protocol.Response
	json.Unmarshal(body, &r)
	return resp.StatusCode, r, string(body)
}

func post(t *testing.T, url string, body string) (int, protocol.Response, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var r protocol.Response
	json.Unmarshal(data, &r)
	return resp.StatusCode, r, string(data)
}

func action(t *testing.T, st *protocol.GameState, a protocol.Action) string {
	b, _ := json.Marshal(map[string]any{"state": st, "action": a})
	return string(b)
}

// TestPlaysLikeTheEngine plays a whole game through the API, carrying the
// state, and compares every step with the engine.
func TestPlaysLikeTheEngine(t *testing.T) {
	ts := newTestServer(t, "secret")
	code, r, body := get(t, ts.URL+"/api/games/online-2048/init?seed=7")
	if code != 200 || !r.OK || r.Spec == nil || !r.Spec.Signed || r.State.Sig == "" {
		t.Fatalf("init: %d %s", code, body)
	}
	p, _ := engine.BuiltinProfile("online-2048")
	g, _ := engine.NewGame(p, "7")
	st := r.State
	for i := 0; !g.Over() && i < 300; i++ {
		d := g.LegalMoves()[i%len(g.LegalMoves())]
		a := protocol.Action{Type: "move", Direction: d.String()}
		if i%17 == 5 {
			a = protocol.Action{Type: "undo"}
			g.Undo()
		} else {
			g.Move(d)
		}
		code, r, body = post(t, ts.URL+"/api/games/online-2048/action", action(t, st, a))
		if code != 200 || !r.OK {
			t.Fatalf("action %d %+v: %d %s", i, a, code, body)
		}
		want := g.Board().Values()
		if got, _ := json.Marshal(r.Observation.Board); string(got) != mustJSON(want) || r.Score != g.Score() {
			t.Fatalf("action %d: board %s score %d; engine %v %d", i, got, r.Score, want, g.Score())
		}
		st = r.State
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestRefusalsAndErrors(t *testing.T) {
	ts := newTestServer(t, "")
	_, r, _ := get(t, ts.URL+"/api/games/tile-merge/init?seed=7")
	st := r.State
	// An illegal move in tile-merge: HTTP 200, ok false, a teaching reason.
	st.Board = [][]uint64{{2, 0, 0, 0}, {4, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}
	code, r, body := post(t, ts.URL+"/api/games/tile-merge/action", action(t, st, protocol.Action{Type: "move", Direction: "left"}))
	if code != 200 || r.OK || r.Error != "illegal-move" || !strings.Contains(r.Reason, "does not change the board") || len(r.LegalActions) != 2 {
		t.Errorf("illegal move: %d %s", code, body)
	}
	tests := []struct {
		method, path, body string
		code               int
		want               string
	}{
		{"POST", "/api/games/tile-merge/action", `{"state":`, 400, "not {state, action} JSON"},
		{"POST", "/api/games/tile-merge/action", `{"state":{}, "action":{"type":"move","direction":"left"}, "extra":1}`, 400, "unknown field"},
		{"POST", "/api/games/tile-merge/action", action(t, &protocol.GameState{Format: protocol.StateFormat, Game: "tile-merge", Rules: 1, Board: [][]uint64{{3}}, Result: "playing"}, protocol.Action{Type: "move", Direction: "left"}), 400, "a board is 2 to 8 cells a side"},
		{"POST", "/api/games/tile-merge/action", action(t, &protocol.GameState{Format: protocol.StateFormat, Game: "tile-merge", Rules: 1, Board: [][]uint64{{3, 0}, {0, 0}}, Result: "playing"}, protocol.Action{Type: "move", Direction: "left"}), 400, "3 is not a power of two"},
		{"POST", "/api/games/tile-merge/action", action(t, &protocol.GameState{Format: protocol.StateFormat, Game: "tile-merge", Rules: 1, Board: [][]uint64{{2, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}, Result: "playing", Score: 1 << 60}, protocol.Action{Type: "move", Direction: "right"}), 400, "above 2^53-1"},
		{"POST", "/api/games/tile-merge/action", action(t, &protocol.GameState{Format: protocol.StateFormat, Game: "classic", Rules: 1}, protocol.Action{Type: "move", Direction: "right"}), 400, `a state of game \"classic\" sent to game \"tile-merge\"`},
		{"POST", "/api/games/tile-merge/action", action(t, st, protocol.Action{Type: "jump"}), 400, `type \"jump\" is not move`},
		{"POST", "/api/games/tile-merge/action", action(t, st, protocol.Action{Type: "move", Direction: "left", Spawn: &engine.Spawn{Row: 0, Col: 3, Value: 2}}), 400, "does not take forced spawns"},
		{"POST", "/api/games/tile-merge/action", `{"state":` + strings.Repeat(" ", MaxBody) + `{}}`, 413, "larger than"},
		{"GET", "/api/games/tile-merge/action", "", 405, "POST"},
		{"GET", "/api/games/chess/init?seed=1", "", 404, `no game \"chess\"`},
		{"GET", "/api/games/tile-merge/init", "", 400, "needs ?seed="},
		{"GET", "/api/games/tile-merge/init?seed=" + strings.Repeat("x", 97), "", 400, "97 characters"},
		{"GET", "/nowhere", "", 404, "no such endpoint"},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, ts.URL+tt.path, bytes.NewReader([]byte(tt.body)))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.code || !strings.Contains(string(data), tt.want) {
			t.Errorf("%s %s: %d %s; want %d and %q", tt.method, tt.path, resp.StatusCode, data, tt.code, tt.want)
		}
	}
}

// TestSignedStates: with a key, a state the client edits is refused.
func TestSignedStates(t *testing.T) {
	ts := newTestServer(t, "secret")
	_, r, _ := get(t, ts.URL+"/api/games/classic/init?seed=7")
	st := *r.State
	code, _, body := post(t, ts.URL+"/api/games/classic/action", action(t, &st, protocol.Action{Type: "move", Direction: "left"}))
	if code != 200 {
		t.Fatalf("signed state refused: %s", body)
	}
	for name, edit := range map[string]func(*protocol.GameState){
		"board": func(w *protocol.GameState) { w.Board[0][0] = 1024 },
		"score": func(w *protocol.GameState) { w.Score = 100000 },
		"rng":   func(w *protocol.GameState) { w.RNG = "0000000000000001" },
		"sig":   func(w *protocol.GameState) { w.Sig = "00" },
	} {
		edited := st
		edited.Board = [][]uint64{append([]uint64(nil), st.Board[0]...), st.Board[1], st.Board[2], st.Board[3]}
		edit(&edited)
		code, _, body := post(t, ts.URL+"/api/games/classic/action", action(t, &edited, protocol.Action{Type: "move", Direction: "left"}))
		if code != 403 || !strings.Contains(body, "signature does not match") {
			t.Errorf("edited %s: %d %s", name, code, body)
		}
	}
}

// FuzzAction posts arbitrary bodies: the server answers, never panics.
func FuzzAction(f *testing.F) {
	f.Add(`{"state":{"format":"tileproof/1","game":"classic","rules":1,"board":[[2,0],[0,0]],"result":"playing","rng":"0000000000000001"},"action":{"type":"move","direction":"left"}}`)
	f.Add(`{"state":{"format":"tileproof/1","game":"classic","rules":1,"board":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"result":"playing","rng":"00","prev":{}},"action":{"type":"undo"}}`)
	p, _ := engine.BuiltinProfile("classic")
	s, _ := New([]*engine.Profile{p}, nil)
	f.Fuzz(func(t *testing.T, body string) {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("POST", "/api/games/classic/action", strings.NewReader(body)))
		if rec.Code != 200 && rec.Code != 400 && rec.Code != 403 && rec.Code != 413 {
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	})
}

// TestListNamesGamesAndServer checks GET /api/games: the profiles' names,
// sorted, and the server's name and API version.
func TestListNamesGamesAndServer(t *testing.T) {
	ts := newTestServer(t, "")
	code, _, body := get(t, ts.URL+"/api/games")
	want := `{"games":["classic","online-2048","pgs","rosetta","tile-merge"],"server":{"name":"tileproof-serve","version":"1"}}`
	if code != http.StatusOK || strings.TrimSpace(body) != want {
		t.Errorf("GET /api/games: %d %s, want 200 %s", code, body, want)
	}
}
