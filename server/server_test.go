package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// testKey is a key of the shortest length a server takes.
const testKey = "0123456789abcdef0123456789abcdef"

func builtins() []*engine.Profile {
	var ps []*engine.Profile
	for _, name := range engine.BuiltinNames() {
		p, _ := engine.BuiltinProfile(name)
		ps = append(ps, p)
	}
	return ps
}

// sealable returns the built-in profiles a signed server serves: those
// whose seeded games spawn by tp1.
func sealable() []*engine.Profile {
	var ps []*engine.Profile
	for _, p := range builtins() {
		if p.Generator() == engine.RNGID {
			ps = append(ps, p)
		}
	}
	return ps
}

func newTestServer(t *testing.T, key string) *httptest.Server {
	t.Helper()
	ts, _ := newTestServerWith(t, Options{Key: []byte(key)})
	return ts
}

func newTestServerWith(t *testing.T, opts Options) (*httptest.Server, *Server) {
	t.Helper()
	ps := builtins()
	if len(opts.Key) > 0 {
		ps = sealable()
	}
	s, err := NewWith(ps, opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts, s
}

func get(t *testing.T, url string) (int, protocol.Response, string) {
	t.Helper()
	return do(t, http.MethodGet, url, "", "")
}

func post(t *testing.T, url string, body string) (int, protocol.Response, string) {
	t.Helper()
	return do(t, http.MethodPost, url, "application/json", body)
}

func action(t *testing.T, st *protocol.GameState, a protocol.ActionBody) string {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"state": st, "action": a})
	return string(b)
}

// TestPlaysLikeTheEngine plays a whole game through the API, carrying the
// state, and compares every step with the engine.
func TestPlaysLikeTheEngine(t *testing.T) {
	ts := newTestServer(t, testKey)
	code, r, body := get(t, ts.URL+"/api/games/online-2048/init?seed=7")
	if code != 200 || !r.OK || r.Spec == nil || !r.Spec.Signed || r.State.Seal == "" || r.State.RNG != "" {
		t.Fatalf("init: %d %s", code, body)
	}
	p, _ := engine.BuiltinProfile("online-2048")
	g, _ := engine.NewGame(p, "7")
	st := r.State
	for i := 0; !g.Over() && i < 300; i++ {
		d := g.LegalMoves()[i%len(g.LegalMoves())]
		a := protocol.ActionBody{Type: "move", Direction: d.String()}
		if i%17 == 5 {
			a = protocol.ActionBody{Type: "undo"}
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
	code, r, body := post(t, ts.URL+"/api/games/tile-merge/action", action(t, st, protocol.ActionBody{Type: "move", Direction: "left"}))
	if code != 200 || r.OK || r.Error != "illegal-move" || !strings.Contains(r.Reason, "does not change the board") || len(r.LegalActions) != 2 {
		t.Errorf("illegal move: %d %s", code, body)
	}
	tests := []struct {
		method, path, body string
		code               int
		want               string
	}{
		{"POST", "/api/games/tile-merge/action", `{"state":`, 400, "not {state, action} JSON"},
		{"POST", "/api/games/tile-merge/action", `{"state":{}, "action":{"type":"move","direction":"left"}, "extra":1}`, 400, `unknown key \"extra\"`},
		{"POST", "/api/games/tile-merge/action", action(t, &protocol.GameState{Format: protocol.StateFormat, Game: "tile-merge", Rules: 1, Board: [][]uint64{{3}}, Result: "playing"}, protocol.ActionBody{Type: "move", Direction: "left"}), 400, "a board is 2 to 8 cells a side"},
		{"POST", "/api/games/tile-merge/action", action(t, &protocol.GameState{Format: protocol.StateFormat, Game: "tile-merge", Rules: 1, Board: [][]uint64{{3, 0}, {0, 0}}, Result: "playing"}, protocol.ActionBody{Type: "move", Direction: "left"}), 400, "3 is not a power of two"},
		{"POST", "/api/games/tile-merge/action", action(t, &protocol.GameState{Format: protocol.StateFormat, Game: "tile-merge", Rules: 1, Board: [][]uint64{{2, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}, Result: "playing", Score: 1 << 60}, protocol.ActionBody{Type: "move", Direction: "right"}), 400, "above 2^53-1"},
		{"POST", "/api/games/tile-merge/action", action(t, &protocol.GameState{Format: protocol.StateFormat, Game: "classic", Rules: 1}, protocol.ActionBody{Type: "move", Direction: "right"}), 400, `a state of game \"classic\" sent to game \"tile-merge\"`},
		{"POST", "/api/games/tile-merge/action", action(t, st, protocol.ActionBody{Type: "jump"}), 400, `type \"jump\" is not move`},
		{"POST", "/api/games/tile-merge/action", action(t, st, protocol.ActionBody{Type: "move", Direction: "left", Spawn: &engine.Spawn{Row: 0, Col: 3, Value: 2}}), 400, "does not take forced spawns"},
		{"POST", "/api/games/tile-merge/action", `{"state":` + strings.Repeat(" ", MaxBody) + `{}}`, 413, "larger than"},
		{"GET", "/api/games/tile-merge/action", "", 405, "POST"},
		{"GET", "/api/games/chess/init?seed=1", "", 404, `no game \"chess\"`},
		{"GET", "/api/games/tile-merge/init", "", 400, "needs ?seed="},
		{"GET", "/api/games/tile-merge/init?seed=" + strings.Repeat("x", 97), "", 400, "97 characters"},
		{"GET", "/nowhere", "", 404, "no such endpoint"},
		{"POST", "/api/games", "", 405, "GET"},
		{"POST", "/api/games/tile-merge/init?seed=1", "", 405, "GET"},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, ts.URL+tt.path, bytes.NewReader([]byte(tt.body)))
		if tt.method == "POST" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.code || !strings.Contains(string(data), tt.want) {
			t.Errorf("%s %s: %d %s; want %d and %q", tt.method, tt.path, resp.StatusCode, data, tt.code, tt.want)
		}
		if allow := resp.Header.Get("Allow"); tt.code == 405 && allow != tt.want {
			t.Errorf("%s %s: 405 with Allow %q, want %q", tt.method, tt.path, allow, tt.want)
		}
	}
}

// TestSignedStates: with a key, a state the client edits is refused.
func TestSignedStates(t *testing.T) {
	ts := newTestServer(t, testKey)
	_, r, _ := get(t, ts.URL+"/api/games/classic/init?seed=7")
	st := *r.State
	code, r, body := post(t, ts.URL+"/api/games/classic/action", action(t, &st, protocol.ActionBody{Type: "move", Direction: "left"}))
	if code != 200 || r.State == nil {
		t.Fatalf("signed state refused: %s", body)
	}
	st = *r.State // the state of the answer: the first is spent now
	for name, edit := range map[string]func(*protocol.GameState){
		"board":  func(w *protocol.GameState) { w.Board[0][0] = 1024 },
		"score":  func(w *protocol.GameState) { w.Score = 100000 },
		"moves":  func(w *protocol.GameState) { w.Moves = 0 },
		"won":    func(w *protocol.GameState) { w.Won = true },
		"result": func(w *protocol.GameState) { w.Result = "no-moves" },
		"seal":   func(w *protocol.GameState) { w.Seal = w.Seal[:len(w.Seal)-2] + otherTail(w.Seal) },
		"serial": func(w *protocol.GameState) { w.Seal = flipSealByte(w.Seal, 12) },
		"secret": func(w *protocol.GameState) { w.Seal = flipSealByte(w.Seal, 20) },
		"none":   func(w *protocol.GameState) { w.Seal = "" },
		"junk":   func(w *protocol.GameState) { w.Seal = "!!" },
	} {
		edited := st
		edited.Board = [][]uint64{append([]uint64(nil), st.Board[0]...), st.Board[1], st.Board[2], st.Board[3]}
		edit(&edited)
		code, _, body := post(t, ts.URL+"/api/games/classic/action", action(t, &edited, protocol.ActionBody{Type: "move", Direction: "left"}))
		if code != 403 || !strings.Contains(body, "seal does not match") {
			t.Errorf("edited %s: %d %s", name, code, body)
		}
	}
	// Unedited, it plays (the edits spent nothing).
	if code, _, body := post(t, ts.URL+"/api/games/classic/action", action(t, &st, protocol.ActionBody{Type: "observe"})); code != 200 {
		t.Errorf("the unedited state after the edits: %d %s", code, body)
	}
}

// otherTail returns two characters other than seal's last two: an edit
// of the seal's end that always edits (a seal ending "AA", one in 4,096,
// was left as it was and the test failed).
func otherTail(seal string) string {
	if strings.HasSuffix(seal, "AA") {
		return "BB"
	}
	return "AA"
}

// flipSealByte returns seal with byte i of its decoded form changed.
func flipSealByte(seal string, i int) string {
	b, _ := base64.RawURLEncoding.DecodeString(seal)
	b[i] ^= 1
	return base64.RawURLEncoding.EncodeToString(b)
}

// FuzzAction posts arbitrary bodies to an unsigned and a signed server:
// each answers with a status of the API and JSON, an error message of
// bounded length, never a panic.
func FuzzAction(f *testing.F) {
	f.Add(`{"state":{"format":"tileproof/1","game":"classic","rules":1,"board":[[2,0],[0,0]],"result":"playing","rng":"0000000000000001"},"action":{"type":"move","direction":"left"}}`)
	f.Add(`{"state":{"format":"tileproof/1","game":"classic","rules":1,"board":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"result":"playing","rng":"00","prev":{}},"action":{"type":"undo"}}`)
	f.Add(`{"state":{"format":"tileproof/1","game":"classic","rules":1,"board":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"result":"playing","moves":9007199254740990,"rng":"0000000000000001"},"action":{"type":"move","direction":"right"}}`)
	p, _ := engine.BuiltinProfile("classic")
	unsigned, _ := New([]*engine.Profile{p}, nil)
	signed, _ := New([]*engine.Profile{p}, []byte(testKey))
	rec := httptest.NewRecorder()
	signed.ServeHTTP(rec, httptest.NewRequest("GET", "/api/games/classic/init?seed=7", nil))
	var r protocol.Response
	json.Unmarshal(rec.Body.Bytes(), &r)
	f.Add(action(&testing.T{}, r.State, protocol.ActionBody{Type: "move", Direction: "left"}))
	f.Fuzz(func(t *testing.T, body string) {
		for _, s := range []*Server{unsigned, signed} {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("POST", "/api/games/classic/action", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			s.ServeHTTP(rec, req)
			switch rec.Code {
			case 200:
				var r protocol.Response
				if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil || r.OK != (r.State != nil) || r.Observation == nil {
					t.Fatalf("signed %v: 200 %s", s.Signed(), rec.Body)
				}
			case 400, 403, 409, 410, 413:
				var e protocol.ErrorBody
				if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == "" || len(e.Error) > 1000 {
					t.Fatalf("signed %v: %d %s", s.Signed(), rec.Code, rec.Body)
				}
			default:
				t.Fatalf("signed %v: status %d: %s", s.Signed(), rec.Code, rec.Body)
			}
		}
	})
}

// TestListNamesGamesAndServer checks GET /api/games: the profiles' names,
// sorted, and the server's name and API version.
func TestListNamesGamesAndServer(t *testing.T) {
	ts := newTestServer(t, "")
	code, _, body := get(t, ts.URL+"/api/games")
	names := slices.Sorted(slices.Values(engine.BuiltinNames())) // the server lists a map's keys: sorted, or in random order
	want, _ := json.Marshal(protocol.GameList{Games: names, Server: &protocol.ServerInfo{Name: "tileproof-serve", Version: "1"}})
	if code != http.StatusOK || strings.TrimSpace(body) != string(want) {
		t.Errorf("GET /api/games: %d %s, want 200 %s", code, body, want)
	}
}

// TestReplayForm checks the spec's replay: seeded for a profile whose
// seeded games spawn by tp1, as the server deals, spawn-recorded for one
// of another generator (hallabois-4x4); and that a signed server refuses
// to serve the latter.
func TestReplayForm(t *testing.T) {
	ts := newTestServer(t, "")
	other := 0
	for _, p := range builtins() {
		code, r, body := get(t, ts.URL+"/api/games/"+p.Name+"/init?seed=7")
		want := protocol.ReplaySeeded
		if p.Generator() != engine.RNGID {
			want, other = protocol.ReplaySpawnRecorded, other+1
		}
		if code != 200 || r.Spec == nil || r.Spec.Replay != want || r.Spec.RNG != engine.RNGID {
			t.Errorf("%s: %d %s, want replay %q", p.Name, code, body, want)
		}
	}
	if other == 0 {
		t.Fatal("no built-in profile of another generator than tp1")
	}
	hb, _ := engine.BuiltinProfile("hallabois-4x4")
	if _, err := New(append(sealable(), hb), []byte(testKey)); err == nil || !strings.Contains(err.Error(), "profile hallabois-4x4's seeded games spawn by hallabois-lcg") {
		t.Errorf("signed, with hallabois-4x4: %v", err)
	}
	if _, err := New(append(sealable(), hb), nil); err != nil {
		t.Errorf("unsigned, with hallabois-4x4: %v", err)
	}
}
