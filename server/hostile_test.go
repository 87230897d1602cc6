package server

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
	"github.com/tileproof/tileproof/replay"
)

// The attacks of issue 12 on the server, each over a real socket.

// do sends a request with the given Content-Type (none when "") and
// returns the status, the answer read as a Response, and the body.
func do(t *testing.T, method, url, ctype, body string) (int, protocol.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var r protocol.Response
	json.Unmarshal(data, &r)
	return resp.StatusCode, r, string(data)
}

// errText returns the message of an error answer, or body as it is.
func errText(body string) string {
	var e protocol.ErrorBody
	if json.Unmarshal([]byte(body), &e) != nil || e.Error == "" {
		return body
	}
	return e.Error
}

func move(d string) protocol.ActionBody { return protocol.ActionBody{Type: "move", Direction: d} }

// play posts action on st and wants an answer ok with a state.
func play(t *testing.T, base, game string, st *protocol.GameState, a protocol.ActionBody) protocol.Response {
	t.Helper()
	code, r, body := post(t, base+"/api/games/"+game+"/action", action(t, st, a))
	if code != 200 || !r.OK || r.State == nil {
		t.Fatalf("%+v: %d %s", a, code, body)
	}
	return r
}

// legalMove returns the first legal move of an answer.
func legalMove(t *testing.T, r protocol.Response) protocol.ActionBody {
	t.Helper()
	for _, a := range r.LegalActions {
		if a.Type == "move" {
			return a
		}
	}
	t.Fatalf("no legal move in %+v", r)
	return protocol.ActionBody{}
}

func TestKeyShorterThan32BytesRefused(t *testing.T) {
	for _, n := range []int{1, 16, MinKeySize - 1} {
		if _, err := New(builtins(), bytes.Repeat([]byte("k"), n)); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("the key is %d bytes", n)) {
			t.Errorf("a key of %d bytes: %v", n, err)
		}
	}
	s, err := New(sealable(), []byte(testKey))
	if err != nil || !s.Signed() {
		t.Errorf("a key of %d bytes: %v, signed %v", len(testKey), err, s != nil && s.Signed())
	}
	if s, err := New(builtins(), nil); err != nil || s.Signed() {
		t.Errorf("no key: %v, signed %v", err, s.Signed())
	}
}

// TestSealHidesTheGenerator: a signed server's state holds no generator a
// client can read. The test opens the seal with the server's own sealer
// to learn the generator, then looks for it in everything the client got.
func TestSealHidesTheGenerator(t *testing.T) {
	ts, s := newTestServerWith(t, Options{Key: []byte(testKey)})
	code, r, body := get(t, ts.URL+"/api/games/online-2048/init")
	if code != 200 || r.State == nil || r.State.Seal == "" {
		t.Fatalf("init: %d %s", code, body)
	}
	r = play(t, ts.URL, "online-2048", r.State, legalMove(t, r)) // a state with a prev, two generators
	_, sec, err := s.sealer.open(r.State.Seal, appendVisible(nil, r.State))
	if err != nil || !sec.hasPrev {
		t.Fatalf("the server's own seal: %v %+v", err, sec)
	}
	raw, _ := base64.RawURLEncoding.DecodeString(r.State.Seal)
	var answer bytes.Buffer
	json.NewEncoder(&answer).Encode(r)
	for _, v := range []uint64{sec.rng, sec.prevRNG} {
		be := binary.BigEndian.AppendUint64(nil, v)
		le := binary.LittleEndian.AppendUint64(nil, v)
		for _, form := range []string{fmt.Sprintf("%016x", v), fmt.Sprintf("%d", v), string(be), string(le)} {
			if bytes.Contains(raw, []byte(form)) || strings.Contains(answer.String(), form) {
				t.Errorf("generator %016x readable in the answer or its seal (as %q)", v, form)
			}
		}
	}
	if bytes.Contains(raw, []byte(sec.seed)) || strings.Contains(answer.String(), sec.seed) {
		t.Errorf("the drawn seed %s readable before the end", sec.seed)
	}
	if strings.Contains(answer.String(), `"rng"`) {
		t.Errorf("the answer has an rng: %s", answer.String())
	}
}

// TestStateUsedOnce: a signed state is good for one action. Taking an old
// state again (unlimited undo in tile-merge, undo deeper than one step in
// online-2048) is refused with 409.
func TestStateUsedOnce(t *testing.T) {
	ts := newTestServer(t, testKey)
	_, r0, _ := get(t, ts.URL+"/api/games/tile-merge/init?seed=7")
	s0 := r0.State
	r1 := play(t, ts.URL, "tile-merge", s0, legalMove(t, r0))
	for _, a := range r0.LegalActions { // the other branches of s0, or s0's again
		code, _, body := post(t, ts.URL+"/api/games/tile-merge/action", action(t, s0, a))
		if code != 409 || !strings.Contains(body, "played already") {
			t.Errorf("tile-merge, the first state again, %s: %d %s", a.Direction, code, body)
		}
	}
	if code, _, body := post(t, ts.URL+"/api/games/tile-merge/action", action(t, s0, protocol.ActionBody{Type: "observe"})); code != 409 {
		t.Errorf("observe on a spent state: %d %s", code, body)
	}
	play(t, ts.URL, "tile-merge", r1.State, legalMove(t, r1))

	// online-2048: s0 -> s1 -> s2, undo -> s1'. s1 and s0 are spent; s1'
	// undoes no further.
	_, r0, _ = get(t, ts.URL+"/api/games/online-2048/init?seed=7")
	r1 = play(t, ts.URL, "online-2048", r0.State, legalMove(t, r0))
	r2 := play(t, ts.URL, "online-2048", r1.State, legalMove(t, r1))
	u := play(t, ts.URL, "online-2048", r2.State, protocol.ActionBody{Type: "undo"})
	if fmt.Sprint(u.Observation.Board) != fmt.Sprint(r1.Observation.Board) {
		t.Fatalf("undo gave %v, want %v", u.Observation.Board, r1.Observation.Board)
	}
	for i, old := range []*protocol.GameState{r0.State, r1.State, r2.State} {
		code, _, body := post(t, ts.URL+"/api/games/online-2048/action", action(t, old, protocol.ActionBody{Type: "undo"}))
		if code != 409 {
			t.Errorf("online-2048: undo on spent state %d: %d %s", i, code, body)
		}
	}
	code, r, body := post(t, ts.URL+"/api/games/online-2048/action", action(t, u.State, protocol.ActionBody{Type: "undo"}))
	if code != 200 || r.OK || r.Error != "no-undo" {
		t.Errorf("online-2048: a second undo: %d %s", code, body)
	}
}

// TestRefusalSpendsNothing: an action the rules refuse hands out no state,
// so the state sent stays playable, and the refusal tells the state's
// real score and flags.
func TestRefusalSpendsNothing(t *testing.T) {
	ts := newTestServer(t, testKey)
	_, r, _ := get(t, ts.URL+"/api/games/tile-merge/init?seed=7")
	// Play until the score is not 0 and some move is illegal.
	for i := 0; i < 200 && (r.Score == 0 || len(r.LegalActions) == 4); i++ {
		r = play(t, ts.URL, "tile-merge", r.State, legalMove(t, r))
	}
	if r.Score == 0 || len(r.LegalActions) == 4 {
		t.Fatal("no state with a score and an illegal move in 200 moves")
	}
	illegal := ""
	for _, d := range []string{"up", "down", "left", "right"} {
		if !strings.Contains(fmt.Sprint(r.LegalActions), d) {
			illegal = d
		}
	}
	for range 3 {
		code, ref, body := post(t, ts.URL+"/api/games/tile-merge/action", action(t, r.State, move(illegal)))
		if code != 200 || ref.OK || ref.Error != "illegal-move" || ref.State != nil {
			t.Fatalf("illegal %s: %d %s", illegal, code, body)
		}
		if ref.Score != r.Score || ref.GameOver || ref.Observation == nil || ref.Observation.Moves != r.Observation.Moves || ref.Observation.Score != r.Score {
			t.Errorf("the refusal says score %d, gameOver %v, observation %+v; the state has score %d, moves %d", ref.Score, ref.GameOver, ref.Observation, r.Score, r.Observation.Moves)
		}
	}
	play(t, ts.URL, "tile-merge", r.State, legalMove(t, r))
}

// TestRefusalOfAFinishedGame: a refusal on a finished game says gameOver
// true, with its score, on an unsigned server too, and its legal actions
// are an empty list, not null (a client iterating it must not meet null).
func TestRefusalOfAFinishedGame(t *testing.T) {
	ts := newTestServer(t, "")
	st := &protocol.GameState{Format: protocol.StateFormat, Game: "tile-merge", Rules: 1, Score: 1234, Moves: 77, Result: "playing",
		Board: [][]uint64{{2, 4, 2, 4}, {4, 2, 4, 2}, {2, 4, 2, 4}, {4, 2, 4, 2}}, RNG: "0000000000000001"}
	code, r, body := post(t, ts.URL+"/api/games/tile-merge/action", action(t, st, move("left")))
	if code != 200 || r.OK || r.Error != "finished" || !r.GameOver || r.Score != 1234 || r.Observation == nil || r.Observation.Moves != 77 || r.Observation.Result != "no-moves" {
		t.Errorf("a move on a blocked board: %d %s", code, body)
	}
	if !strings.Contains(body, `"legalActions":[]`) {
		t.Errorf("a finished game's legal actions are not an empty list: %s", body)
	}
}

// TestOneStateTwoRequests: of many requests at once with one state,
// exactly one plays.
func TestOneStateTwoRequests(t *testing.T) {
	ts := newTestServer(t, testKey)
	_, r, _ := get(t, ts.URL+"/api/games/classic/init?seed=7")
	const n = 16
	var wg sync.WaitGroup
	codes := make([]int, n)
	for i := range n {
		body := action(t, r.State, r.LegalActions[i%len(r.LegalActions)])
		wg.Go(func() {
			resp, err := http.Post(ts.URL+"/api/games/classic/action", "application/json", strings.NewReader(body))
			if err != nil {
				return // codes[i] stays 0: an error below
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			codes[i] = resp.StatusCode
		})
	}
	wg.Wait()
	ok := 0
	for _, c := range codes {
		switch c {
		case 200:
			ok++
		case 409:
		default:
			t.Errorf("status %d", c)
		}
	}
	if ok != 1 {
		t.Errorf("%d of %d requests with one state played (%v), want 1", ok, n, codes)
	}
}

// TestRestartRefusesOldStates: a state of an earlier run of the server
// (whose record of used states is gone) is refused by the next run, with
// the same key.
func TestRestartRefusesOldStates(t *testing.T) {
	first := newTestServer(t, testKey)
	_, r, _ := get(t, first.URL+"/api/games/classic/init?seed=7")
	second := newTestServer(t, testKey)
	code, _, body := post(t, second.URL+"/api/games/classic/action", action(t, r.State, legalMove(t, r)))
	if code != 410 || !strings.Contains(body, "before the server restarted") {
		t.Errorf("a state of the run before: %d %s", code, body)
	}
	play(t, first.URL, "classic", r.State, legalMove(t, r))
}

// TestInitFloodExpiresNoGame: 1,100 anonymous inits at a window of 1,024
// games do not expire a game in progress (issue 25, item 8: they did, the
// window counting states handed out); the inits beyond the window are
// refused (503, Retry-After) while every place is held by a game played
// lately. The record's memory is 12 bytes a game.
func TestInitFloodExpiresNoGame(t *testing.T) {
	ts, s := newTestServerWith(t, Options{Key: []byte(testKey), Window: MinWindow})
	if s.RecordSize() != MinWindow*slotSize {
		t.Errorf("record of %d bytes, want %d", s.RecordSize(), MinWindow*slotSize)
	}
	_, old, _ := get(t, ts.URL+"/api/games/classic/init?seed=old")
	refused := 0
	for i := range 1100 {
		code, _, body := get(t, ts.URL+fmt.Sprintf("/api/games/classic/init?seed=flood-%d", i))
		switch {
		case code == 503 && strings.Contains(body, "try again later"):
			refused++
		case code != 200:
			t.Fatalf("init %d: %d %s", i, code, body)
		}
	}
	if refused != 1100-(MinWindow-1) {
		t.Errorf("%d inits refused, want %d", refused, 1100-(MinWindow-1))
	}
	play(t, ts.URL, "classic", old.State, legalMove(t, old))
}

// TestServerDrawnSeed: a signed server draws the seed when init names
// none, commits to it from the first answer, and reveals it when the game
// is over for good; the game is the seed's tp1 game.
func TestServerDrawnSeed(t *testing.T) {
	ts := newTestServer(t, testKey)
	_, r, body := get(t, ts.URL+"/api/games/tile-merge/init")
	if r.Spec == nil || !strings.Contains(fmt.Sprint(r.Spec.Features), protocol.ServerSeed) || !strings.HasPrefix(r.SeedCommitment, "sha256:") || r.Seed != "" {
		t.Fatalf("init without a seed: %s", body)
	}
	commitment, first := r.SeedCommitment, r.Observation.Board
	var moves []engine.Direction
	for !r.GameOver {
		if r.Seed != "" || r.SeedCommitment != commitment {
			t.Fatalf("move %d: seed %q, commitment %q", len(moves), r.Seed, r.SeedCommitment)
		}
		a := r.LegalActions[len(moves)%len(r.LegalActions)]
		d, _ := direction(a.Direction)
		moves = append(moves, d)
		r = play(t, ts.URL, "tile-merge", r.State, a)
	}
	if c, err := replay.Commitment(r.Seed); err != nil || c != commitment {
		t.Fatalf("the seed revealed, %q, has commitment %q, not %q", r.Seed, c, commitment)
	}
	p, _ := engine.BuiltinProfile("tile-merge")
	g, _ := engine.NewGame(p, r.Seed)
	if fmt.Sprint(g.Board().Values()) != fmt.Sprint(first) {
		t.Fatalf("the seed's first board %v, the game's %v", g.Board().Values(), first)
	}
	for _, d := range moves {
		g.Move(d)
	}
	if g.Score() != r.Score || fmt.Sprint(g.Board().Values()) != fmt.Sprint(r.Observation.Board) {
		t.Errorf("the seed's game ends at %v score %d; the server's at %v score %d", g.Board().Values(), g.Score(), r.Observation.Board, r.Score)
	}
	// Unsigned, init without a seed is an error: a seed the client cannot
	// read means nothing where the generator is in the clear.
	us := newTestServer(t, "")
	if code, _, body := get(t, us.URL+"/api/games/tile-merge/init"); code != 400 || !strings.Contains(body, "only a signed server draws one") {
		t.Errorf("unsigned init without a seed: %d %s", code, body)
	}
}

// TestSeedHiddenWhileTheGameCanGoOn: a classic game stopped at the win
// asks whether to keep playing: it is over but not for good, so the seed
// stays sealed.
func TestSeedHiddenWhileTheGameCanGoOn(t *testing.T) {
	s, err := New(sealable(), []byte(testKey))
	if err != nil {
		t.Fatal(err)
	}
	classic := s.rules["classic"]
	b, _ := engine.BoardFromValues([][]uint64{{2048, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 2}})
	rng := engine.RNGFromState(1)
	for _, tt := range []struct {
		result engine.Result
		reveal bool
	}{{engine.TargetReached, false}, {engine.RunFinished, true}} {
		g, err := classic.Load(engine.State{Board: b, RNG: &rng, Won: true, Result: tt.result})
		if err != nil {
			t.Fatal(err)
		}
		resp := s.respond("classic", g, strings.Repeat("a", serverSeedLen), ticket{}, timing{})
		if got := resp.Seed != ""; got != tt.reveal || resp.SeedCommitment == "" {
			t.Errorf("%v: seed %q, commitment %q; want revealed %v", tt.result, resp.Seed, resp.SeedCommitment, tt.reveal)
		}
	}
}

// TestStrictRequests: one JSON object, exact keys, valid UTF-8, and the
// JSON content type; each refusal names where.
func TestStrictRequests(t *testing.T) {
	ts := newTestServer(t, "")
	_, r, _ := get(t, ts.URL+"/api/games/classic/init?seed=7")
	good := action(t, r.State, legalMove(t, r))
	url := ts.URL + "/api/games/classic/action"
	longKey := strings.Repeat("k", 10000)
	tests := []struct {
		name, ctype, body string
		code              int
		want              []string
	}{
		{"trailing data", "application/json", good + ` {"state":{}}`, 400, []string{"line 1, column", "after top-level value"}},
		{"trailing garbage", "application/json", good + "x", 400, []string{"after top-level value"}},
		{"upper-case key", "application/json", strings.Replace(good, `"state"`, `"STATE"`, 1), 400, []string{`unknown key "STATE"`, "case included"}},
		{"folded key", "application/json", strings.Replace(good, `"state"`, `"ſtate"`, 1), 400, []string{`unknown key "ſtate"`}},
		{"case-variant inner key", "application/json", strings.Replace(good, `"score"`, `"Score"`, 1), 400, []string{`unknown key "Score"`, `"/state"`}},
		{"duplicate key", "application/json", strings.Replace(good, `"action":`, `"state":{},"action":`, 1), 400, []string{`the key "state" is given twice`}},
		{"duplicate inner key", "application/json", strings.Replace(good, `"score":0`, "\n"+`"score":999996,"score":0`, 1), 400, []string{"line 2, column", `the key "score" is given twice`, `"/state"`}},
		{"invalid UTF-8", "application/json", strings.Replace(good, `"classic"`, "\"cl\xffassic\"", 1), 400, []string{"invalid UTF-8", "/state/game"}},
		{"a long unknown key", "application/json", strings.Replace(good, `"state"`, `"`+longKey+`"`, 1), 400, []string{"(10000 bytes in all)"}},
		{"a number for a string", "application/json", strings.Replace(good, `"classic"`, `12`, 1), 400, []string{`a number where a string belongs`, "/state/game"}},
		{"not an object", "application/json", `[1,2]`, 400, []string{"a list where an object belongs"}},
		{"cut short", "application/json", good[:len(good)/2], 400, []string{"ends inside a value"}},
		{"empty", "application/json", ``, 400, []string{"the request is empty"}},
		{"no content type", "", good, 415, []string{"no Content-Type"}},
		{"text/plain", "text/plain", good, 415, []string{`Content-Type is "text/plain"`}},
		{"form", "application/x-www-form-urlencoded", good, 415, []string{"application/json"}},
		{"another charset", "application/json; charset=latin1", good, 415, []string{"charset=utf-8"}},
		{"charset utf-8", "application/json; charset=UTF-8", good, 200, []string{`"ok":true`}},
	}
	for _, tt := range tests {
		code, _, body := do(t, "POST", url, tt.ctype, tt.body)
		if code != tt.code {
			t.Errorf("%s: %d %s; want %d", tt.name, code, body, tt.code)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(errText(body), w) {
				t.Errorf("%s: %s; want %q in it", tt.name, body, w)
			}
		}
		if code != 200 && len(body) > 600 {
			t.Errorf("%s: an answer of %d bytes", tt.name, len(body))
		}
	}
	// Two Content-Type headers.
	req, _ := http.NewRequest("POST", url, strings.NewReader(good))
	req.Header.Add("Content-Type", "application/json")
	req.Header.Add("Content-Type", "text/plain")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 415 {
		t.Errorf("two Content-Type headers: %d", resp.StatusCode)
	}
}

// TestStrictInit: init takes seed once and nothing else.
func TestStrictInit(t *testing.T) {
	ts := newTestServer(t, testKey)
	for q, want := range map[string]string{
		"seed=1&seed=2":                  "more than once",
		"seed=1&Seed=2":                  `unknown parameter "Seed"`,
		"seed=%zz":                       "does not parse",
		strings.Repeat("x", 1000) + "=1": "(1000 bytes in all)",
	} {
		code, _, body := get(t, ts.URL+"/api/games/classic/init?"+q)
		if code != 400 || !strings.Contains(errText(body), want) {
			t.Errorf("init?%.40s: %d %s; want 400 and %q", q, code, body, want)
		}
	}
	if code, _, body := get(t, ts.URL+"/api/games/"+strings.Repeat("g", 5000)+"/init?seed=1"); code != 404 || len(body) > 300 {
		t.Errorf("a long game name: %d, %d bytes", code, len(body))
	}
}

// TestCounters: counts out of range are refused, and no answer carries a
// count past 2^53-1.
func TestCounters(t *testing.T) {
	ts := newTestServer(t, "")
	base := func() *protocol.GameState {
		return &protocol.GameState{Format: protocol.StateFormat, Game: "tile-merge", Rules: 1, Result: "playing", RNG: "0000000000000001",
			Board: [][]uint64{{2, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}}
	}
	url := ts.URL + "/api/games/tile-merge/action"
	// Past MaxMoves: 2^53 where int has 64 bits, 2^31 where it has 32.
	for _, moves := range []string{"9223372036854775807", "9007199254740992", strconv.FormatUint(MaxMoves+1, 10), "-1"} {
		body := strings.Replace(action(t, base(), move("right")), `"moves":0`, `"moves":`+moves, 1)
		code, _, resp := post(t, url, body)
		want := "move count"
		if n, err := strconv.ParseInt(moves, 10, 64); err == nil && n > math.MaxInt {
			// Where int has 32 bits, a count past 2^31-1 is not read
			// at all: the JSON reader names the field and its range.
			want = `(\"/state/moves\"): a number \"` + moves + `\" where a whole number from -2^31 to 2^31-1 belongs`
		}
		if code != 400 || !strings.Contains(resp, want) {
			t.Errorf("moves %s: %d %s; want 400 and %s", moves, code, resp, want)
		}
	}
	st := base()
	st.Moves = MaxMoves - 1
	code, r, body := post(t, url, action(t, st, move("right")))
	if code != 200 || r.Observation == nil || r.Observation.Moves != MaxMoves || r.State.Moves != MaxMoves {
		t.Errorf("moves MaxMoves-1, one more: %d %s", code, body)
	}
	// At MaxMoves the state loads, and the next move is the rules' overflow.
	st.Moves = MaxMoves
	code, r, body = post(t, url, action(t, st, move("right")))
	if code != 200 || r.OK || r.Error != "overflow" || r.Observation == nil || r.Observation.Moves != MaxMoves {
		t.Errorf("moves MaxMoves, one more: %d %s", code, body)
	}
	for name, body := range map[string]string{
		"score 2^64":        strings.Replace(action(t, base(), move("right")), `"score":0`, `"score":18446744073709551616`, 1),
		"rules 2^63":        strings.Replace(action(t, base(), move("right")), `"rules":1`, `"rules":9223372036854775808`, 1),
		"moves 1.0":         strings.Replace(action(t, base(), move("right")), `"moves":0`, `"moves":1.0`, 1),
		"cell 2.0":          strings.Replace(action(t, base(), move("right")), `[2,0,0,0]`, `[2.0,0,0,0]`, 1),
		"spawn row 1e400":   strings.Replace(action(t, base(), move("right")), `"direction":"right"`, `"direction":"right","spawn":{"row":1e400,"col":0,"value":2}`, 1),
		"direction Right":   strings.Replace(action(t, base(), move("right")), `"right"`, `"Right"`, 1),
		"direction r":       strings.Replace(action(t, base(), move("right")), `"right"`, `"r"`, 1),
		"a prev's prev":     strings.Replace(action(t, base(), move("right")), `"rng":`, `"prev":{"prev":{}},"rng":`, 1),
		"a seal, unsigned":  strings.Replace(action(t, base(), move("right")), `"rng":`, `"seal":"AAAA","rng":`, 1),
		"a long type":       strings.Replace(action(t, base(), move("right")), `"move"`, `"`+strings.Repeat("m", 5000)+`"`, 1),
		"rng not hex":       strings.Replace(action(t, base(), move("right")), `"0000000000000001"`, `"zz00000000000001"`, 1),
		"a result unknown":  strings.Replace(action(t, base(), move("right")), `"playing"`, `"won"`, 1),
		"score past 2^53-1": strings.Replace(action(t, base(), move("right")), `"score":0`, `"score":9007199254740992`, 1),
	} {
		code, _, resp := post(t, url, body)
		if code != 400 || len(resp) > 600 {
			t.Errorf("%s: %d %.300s", name, code, resp)
		}
	}
}

// TestSignedTakesNoClientState: a signed server refuses a state it did
// not hand out (the conformance driver's load-state), a state with its
// generator in the clear, and forced spawns even when asked to take them.
func TestSignedTakesNoClientState(t *testing.T) {
	ts, s := newTestServerWith(t, Options{Key: []byte(testKey)})
	s.ForcedSpawns = true
	_, r, _ := get(t, ts.URL+"/api/games/classic/init?seed=7")
	if strings.Contains(fmt.Sprint(r.Spec.Features), protocol.ForceSpawn) || strings.Contains(fmt.Sprint(r.Spec.Features), protocol.LoadState) {
		t.Errorf("a signed server's features: %v", r.Spec.Features)
	}
	built := &protocol.GameState{Format: protocol.StateFormat, Game: "classic", Rules: 1, Result: "playing", RNG: "0000000000000001",
		Board: [][]uint64{{2, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}}
	if code, _, body := post(t, ts.URL+"/api/games/classic/action", action(t, built, move("right"))); code != 403 {
		t.Errorf("a state the client built: %d %s", code, body)
	}
	withRNG := *r.State
	withRNG.RNG = "0000000000000001"
	if code, _, body := post(t, ts.URL+"/api/games/classic/action", action(t, &withRNG, move("right"))); code != 400 || !strings.Contains(body, "sealed") {
		t.Errorf("a state with rng in the clear: %d %s", code, body)
	}
	a := legalMove(t, r)
	a.Spawn = &engine.Spawn{Row: 0, Col: 0, Value: 4}
	if code, _, body := post(t, ts.URL+"/api/games/classic/action", action(t, r.State, a)); code != 400 || !strings.Contains(body, "does not take forced spawns") {
		t.Errorf("a forced spawn on a signed server: %d %s", code, body)
	}
	play(t, ts.URL, "classic", r.State, legalMove(t, r)) // none of that spent the state
}

// TestRequestMemoryBounded: whatever the shape of a request of up to
// MaxBody bytes, the server allocates at most 20 times its size to answer
// it (a list of 21,000 empty rows cost 38 times before the shape check),
// and says where the request went wrong.
func TestRequestMemoryBounded(t *testing.T) {
	s, err := New(builtins(), nil)
	if err != nil {
		t.Fatal(err)
	}
	wrap := func(state string) string { return `{"state":` + state + `,"action":{"type":"move"}}` }
	for _, tt := range []struct{ name, body, want string }{
		{"empty rows", wrap(`{"board":[` + strings.Repeat(`[],`, 21000) + `[]]}`), "more than 1024 values"},
		{"zero cells", wrap(`{"board":[[` + strings.Repeat(`0,`, 32000) + `0]]}`), "more than 1024 values"},
		{"nested prev", wrap(strings.Repeat(`{"prev":`, 7000) + `{}` + strings.Repeat(`}`, 7000)), "nested more than 5 deep"},
		{"nested lists", wrap(`{"board":` + strings.Repeat(`[`, 30000) + strings.Repeat(`]`, 30000) + `}`), "nested more than 5 deep"},
		{"long string", wrap(`{"format":"` + strings.Repeat(`a`, 65000) + `"}`), "(65000 bytes in all)"},
		{"escapes", wrap(`{"format":"` + strings.Repeat(`\u00e9`, 10000) + `"}`), "(20000 bytes in all)"},
		{"many keys", wrap(`{` + strings.Repeat(`"x":1,`, 10000) + `"y":1}`), `unknown key "x"`},
	} {
		if len(tt.body) > MaxBody {
			t.Fatalf("%s: %d bytes, above MaxBody", tt.name, len(tt.body))
		}
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/api/games/classic/action", strings.NewReader(tt.body))
		req.Header.Set("Content-Type", "application/json")
		s.ServeHTTP(rec, req)
		runtime.ReadMemStats(&m1)
		ratio := float64(m1.TotalAlloc-m0.TotalAlloc) / float64(len(tt.body))
		t.Logf("%s: %d bytes, %.1fx allocated", tt.name, len(tt.body), ratio)
		if ratio > 20 || rec.Code != 400 || !strings.Contains(errText(rec.Body.String()), tt.want) || !strings.Contains(rec.Body.String(), "line 1") && !strings.Contains(tt.want, "bytes in all") {
			t.Errorf("%s: %.1fx its size allocated, %d %.300s", tt.name, ratio, rec.Code, rec.Body)
		}
	}
}

// TestBadForcedSpawnIsARefusal: under ForcedSpawns, a spawn the slide does
// not allow is the rules' refusal bad-spawn (HTTP 200, ok false, the state
// as it was), as the exec protocol answers it, not a malformed request.
func TestBadForcedSpawnIsARefusal(t *testing.T) {
	ts, s := newTestServerWith(t, Options{})
	s.ForcedSpawns = true
	st := &protocol.GameState{Format: protocol.StateFormat, Game: "classic", Rules: 1, Result: "playing",
		Board: [][]uint64{{2, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}}
	for _, sp := range []engine.Spawn{{Row: 0, Col: 3, Value: 2}, {Row: 1, Col: 1, Value: 8}, {Row: 9, Col: 0, Value: 2}} {
		code, r, body := post(t, ts.URL+"/api/games/classic/action", action(t, st, protocol.ActionBody{Type: "move", Direction: "right", Spawn: &sp}))
		if code != 200 || r.OK || r.Error != "bad-spawn" || r.State != nil || r.Observation == nil || r.Observation.Board[0][0] != 2 {
			t.Errorf("right with spawn %+v: %d %s", sp, code, body)
		}
	}
	sp := engine.Spawn{Row: 1, Col: 1, Value: 4}
	if code, r, body := post(t, ts.URL+"/api/games/classic/action", action(t, st, protocol.ActionBody{Type: "move", Direction: "right", Spawn: &sp})); code != 200 || !r.OK || r.Observation.Board[1][1] != 4 {
		t.Errorf("right with a good spawn: %d %s", code, body)
	}
}

// TestGameOverFreesItsPlace: a signed server gives the place of a game
// over for good to the next new game at once, not an hour later (issue
// 25): with every place held, init is refused until a game ends; then it
// is served, the finished game's last state is too old (410), and every
// other game plays on.
func TestGameOverFreesItsPlace(t *testing.T) {
	ts, _ := newTestServerWith(t, Options{Key: []byte(testKey), Window: MinWindow})
	_, done, _ := get(t, ts.URL+"/api/games/online-2048/init?seed=done")
	_, other, _ := get(t, ts.URL+"/api/games/online-2048/init?seed=other")
	for i := range MinWindow - 2 {
		if code, _, body := get(t, ts.URL+fmt.Sprintf("/api/games/classic/init?seed=fill-%d", i)); code != 200 {
			t.Fatalf("init %d: %d %s", i, code, body)
		}
	}
	if code, _, body := get(t, ts.URL+"/api/games/classic/init?seed=late"); code != 503 {
		t.Fatalf("init with every place held: %d %s", code, body)
	}
	done = play(t, ts.URL, "online-2048", done.State, legalMove(t, done))
	end := play(t, ts.URL, "online-2048", done.State, protocol.ActionBody{Type: "end-run"})
	if !end.GameOver {
		t.Fatalf("end-run: %+v", end)
	}
	// Until a new game takes its place, the last state still answers.
	end = play(t, ts.URL, "online-2048", end.State, protocol.ActionBody{Type: "observe"})
	if code, _, body := get(t, ts.URL+"/api/games/classic/init?seed=late"); code != 200 {
		t.Fatalf("init after a game ended: %d %s", code, body)
	}
	if code, _, body := post(t, ts.URL+"/api/games/online-2048/action", action(t, end.State, protocol.ActionBody{Type: "observe"})); code != 410 || !strings.Contains(body, "was over") {
		t.Errorf("the ended game's last state after its place went to a new game: %d %s", code, body)
	}
	if code, _, body := get(t, ts.URL+"/api/games/classic/init?seed=later"); code != 503 {
		t.Errorf("a second init with one place freed: %d %s", code, body)
	}
	play(t, ts.URL, "online-2048", other.State, legalMove(t, other))
}
