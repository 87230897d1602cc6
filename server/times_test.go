package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/testkit/apiplay"
	"github.com/tileproof/tileproof/protocol"
	"github.com/tileproof/tileproof/replay"
)

// fakeClock makes the record's clock one the test moves.
func fakeClock(s *Server) func(time.Duration) {
	var off atomic.Int64
	base := time.Now()
	s.record.now = func() time.Time { return base.Add(time.Duration(off.Load())) }
	return func(d time.Duration) { off.Add(int64(d)) }
}

// TestThinkTimes plays a game of online-2048 through a signed server on a
// real socket, the clock moved by a known time before each action: each
// answer's thinkMs is that time, an observe, a refused action and a move
// passed over carry the time on to the next action, and the times with the last timesSeal check
// with the key (CheckTimes) and not with another key or with any time
// changed, moved or left out.
func TestThinkTimes(t *testing.T) {
	ctx := t.Context()
	ts, s := newTestServerWith(t, Options{Key: []byte(testKey)})
	advance := fakeClock(s)
	const game, seed = "online-2048", "think"
	code, r := apiplay.Call(t, ctx, ts.URL+"/api/games/"+game+"/init?seed="+seed, nil)
	if code != 200 || r.TimesSeal == "" || r.ThinkMs != nil {
		t.Fatalf("init: %d %+v", code, r)
	}
	p, _ := engine.BuiltinProfile(game)
	g, _ := engine.NewGame(p, seed)
	rep := &replay.Replay{Profile: game, Seed: new(string), Times: []uint32{}}
	*rep.Seed = seed
	st := r.State
	var pending uint32 // the time since the state was handed out
	ignored := 0       // moves passed over
	wait := func(ms uint32) {
		advance(time.Duration(ms) * time.Millisecond)
		pending += ms
	}
	for i := 0; !g.Over() && i < 120; i++ {
		wait(uint32(40 + i*i*7%3000))
		switch i % 5 {
		case 1:
			// An observe spends the state but is no action of the log:
			// the time runs on.
			code, r = apiplay.Call(t, ctx, ts.URL+"/api/games/"+game+"/action", map[string]any{"state": st, "action": protocol.ActionBody{Type: "observe"}})
			if code != 200 || !r.OK || r.ThinkMs != nil {
				t.Fatalf("observe %d: %d %+v", i, code, r)
			}
			st = r.State
			wait(uint32(i))
		case 2:
			// An action the rules refuse (keep playing before any win)
			// spends nothing: the time runs on.
			code, r = apiplay.Call(t, ctx, ts.URL+"/api/games/"+game+"/action", map[string]any{"state": st, "action": protocol.ActionBody{Type: "keep-playing"}})
			if code != 200 || r.OK || r.ThinkMs != nil {
				t.Fatalf("a refused action %d: %d %+v", i, code, r)
			}
			wait(uint32(2 * i))
		case 3:
			// A move that changes nothing, which online-2048 passes over:
			// no action of the log, so the time runs on.
			for _, d := range engine.Directions {
				if g.Legal(d) {
					continue
				}
				code, r = apiplay.Call(t, ctx, ts.URL+"/api/games/"+game+"/action", map[string]any{"state": st, "action": protocol.ActionBody{Type: "move", Direction: d.String()}})
				if code != 200 || !r.OK || r.Changed == nil || *r.Changed || r.ThinkMs != nil {
					t.Fatalf("a move passed over %d: %d %+v", i, code, r)
				}
				st = r.State
				ignored++
				wait(uint32(3 * i))
				break
			}
		}
		d := g.LegalMoves()[i%len(g.LegalMoves())]
		a, act := protocol.ActionBody{Type: "move", Direction: d.String()}, engine.Action(d)
		if i%13 == 4 && g.Undo() == nil {
			a, act = protocol.ActionBody{Type: "undo"}, engine.Undo
		} else {
			g.Move(d)
		}
		code, r = apiplay.Call(t, ctx, ts.URL+"/api/games/"+game+"/action", map[string]any{"state": st, "action": a})
		if code != 200 || !r.OK || r.ThinkMs == nil {
			t.Fatalf("action %d %+v: %d %+v", i, a, code, r)
		}
		if *r.ThinkMs != pending {
			t.Errorf("action %d: thinkMs %d, the clock moved %d ms", i, *r.ThinkMs, pending)
		}
		pending = 0
		apiplay.Record(rep, act, r)
		st = r.State
	}
	if ignored == 0 {
		t.Error("no move was passed over: the test tests less than it says")
	}
	rep.Claim = apiplay.Claim(r)
	if vd := replay.NewVerifier().Verify(rep); !vd.Valid {
		t.Fatalf("the recorded replay: %+v", vd)
	}
	if err := CheckTimes([]byte(testKey), rep); err != nil {
		t.Fatalf("the server's own times: %v", err)
	}
	// Through the format and back.
	back, err := replay.Decode("g.json", rep.EncodeJSON())
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckTimes([]byte(testKey), back); err != nil {
		t.Errorf("the times read back: %v", err)
	}
	if err := CheckTimes([]byte("another key of thirty-two bytes!"), rep); !errors.Is(err, ErrTimesForged) {
		t.Errorf("another key: %v", err)
	}
	forge := func(what string, edit func(r *replay.Replay)) {
		f := *rep
		f.Times = append([]uint32(nil), rep.Times...)
		f.Actions = append([]engine.Action(nil), rep.Actions...)
		edit(&f)
		if err := CheckTimes([]byte(testKey), &f); !errors.Is(err, ErrTimesForged) {
			t.Errorf("%s: %v", what, err)
		}
	}
	forge("a time 1 ms shorter", func(f *replay.Replay) { f.Times[5]-- })
	forge("two times swapped", func(f *replay.Replay) { f.Times[2], f.Times[9] = f.Times[9], f.Times[2] })
	forge("the last action left out", func(f *replay.Replay) { f.Actions, f.Times = f.Actions[:len(f.Actions)-1], f.Times[:len(f.Times)-1] })
	forge("another seed", func(f *replay.Replay) { s := "think2"; f.Seed = &s })
	forge("another action", func(f *replay.Replay) { f.Actions[0] ^= 1 })
	if err := CheckTimes([]byte(testKey), &replay.Replay{Profile: game, Seed: rep.Seed}); !errors.Is(err, ErrNoTimes) {
		t.Errorf("no times: %v", err)
	}
}

// TestThinkTimesRealClock: on the server's own clock a client that waits
// 30 ms before a move is measured at 30 ms or more (times are only ever
// longer than the wait), and the seal, edited, is refused.
func TestThinkTimesRealClock(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	ts := newTestServer(t, testKey)
	_, r := apiplay.Call(t, ctx, ts.URL+"/api/games/classic/init", nil)
	st := r.State
	time.Sleep(30 * time.Millisecond)
	code, r := apiplay.Call(t, ctx, ts.URL+"/api/games/classic/action", map[string]any{"state": st, "action": r.LegalActions[0]})
	if code != 200 || r.ThinkMs == nil || *r.ThinkMs < 30 || *r.ThinkMs > 10_000 {
		t.Fatalf("%d thinkMs %v", code, r.ThinkMs)
	}
	// The same state again, to fork the game with a quicker move: refused.
	code, _ = apiplay.Call(t, ctx, ts.URL+"/api/games/classic/action", map[string]any{"state": st, "action": r.LegalActions[0]})
	if code != http.StatusConflict {
		t.Errorf("a spent state played again: %d", code)
	}
}

// TestSealCarriesTimes: the seal keeps the hand-out time and the chain.
func TestSealCarriesTimes(t *testing.T) {
	sl, err := newSealer([]byte(testKey))
	if err != nil {
		t.Fatal(err)
	}
	sec := secret{t: ticket{1, 2, 3}, rng: 7, handed: 1<<40 + 5, chain: chainStart("classic", "7"), hasPrev: true, prevRNG: 9, seed: string(bytes.Repeat([]byte("a"), serverSeedLen))}
	_, got, err := sl.open(sl.seal(1, []byte("v"), sec), []byte("v"))
	if err != nil || got != sec {
		t.Errorf("opened %+v, %v; sealed %+v", got, err, sec)
	}
}

// TestThinkTimesTrimmedSeed: a seed given with white space around it is
// the seed a replay holds trimmed, and the times of its game check with
// that replay (the chain starts from the seed tp1 hashes).
func TestThinkTimesTrimmedSeed(t *testing.T) {
	ctx := t.Context()
	ts := newTestServer(t, testKey)
	code, r := apiplay.Call(t, ctx, ts.URL+"/api/games/tile-merge/init?seed=%20trim%0A", nil)
	if code != 200 {
		t.Fatalf("init: %d %+v", code, r)
	}
	a := r.LegalActions[0]
	code, r = apiplay.Call(t, ctx, ts.URL+"/api/games/tile-merge/action", map[string]any{"state": r.State, "action": a})
	if code != 200 || r.ThinkMs == nil {
		t.Fatalf("move: %d %+v", code, r)
	}
	d, _ := engine.ParseDirection(a.Direction)
	seed := "trim"
	rep := &replay.Replay{Profile: "tile-merge", Seed: &seed, Actions: []engine.Action{engine.Action(d)}, Times: []uint32{*r.ThinkMs}, TimesSeal: r.TimesSeal}
	if err := CheckTimes([]byte(testKey), rep); err != nil {
		t.Errorf("the times of a game of seed %q, as a replay holds it: %v", seed, err)
	}
}

// TestActionLetter: the log letter of each action the API plays, and
// none for observe, a break or a direction that is not one.
func TestActionLetter(t *testing.T) {
	for _, tc := range []struct {
		typ, dir string
		letter   byte
		ok       bool
	}{
		{"move", "up", 'U', true}, {"move", "down", 'D', true}, {"move", "left", 'L', true}, {"move", "right", 'R', true},
		{"undo", "", 'Z', true}, {"end-run", "", 'E', true}, {"keep-playing", "", 'K', true},
		{"observe", "", 0, false}, {"break", "", 0, false}, {"move", "sideways", 0, false}, {"undo", "up", 'Z', true},
	} {
		if letter, ok := actionLetter(tc.typ, tc.dir); letter != tc.letter || ok != tc.ok {
			t.Errorf("actionLetter(%q, %q) = %q, %v; want %q, %v", tc.typ, tc.dir, letter, ok, tc.letter, tc.ok)
		}
	}
}

// clockReader is a request body that moves the server's clock by wait
// before the rest of the body comes: a client that sends its request's
// headers, and its body up to the action, before it has chosen the
// action.
type clockReader struct {
	head, tail []byte
	advance    func(time.Duration)
	wait       time.Duration
}

func (c *clockReader) Read(p []byte) (int, error) {
	if len(c.head) > 0 {
		n := copy(p, c.head)
		c.head = c.head[n:]
		return n, nil
	}
	if c.wait > 0 {
		c.advance(c.wait)
		c.wait = 0
	}
	if len(c.tail) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.tail)
	c.tail = c.tail[n:]
	return n, nil
}

// TestThinkTimeCountsTheBody: the think time runs until the whole action
// has come in, not until its headers have: a client that sends the
// headers at once and the action 5 s later thought for 5 s, and is
// measured so (before, at 0 ms: any wait hid in a request's body, up to
// the server's read timeout).
func TestThinkTimeCountsTheBody(t *testing.T) {
	s, err := NewWith(sealable(), Options{Key: []byte(testKey)})
	if err != nil {
		t.Fatal(err)
	}
	advance := fakeClock(s)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/games/tile-merge/init?seed=body", nil))
	var r protocol.Response
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil || !r.OK {
		t.Fatalf("init: %v %s", err, rec.Body)
	}
	body := []byte(action(t, r.State, r.LegalActions[0]))
	cut := bytes.Index(body, []byte(`"action"`))
	req := httptest.NewRequest(http.MethodPost, "/api/games/tile-merge/action", &clockReader{head: body[:cut], tail: body[cut:], advance: advance, wait: 5 * time.Second})
	req.Header.Set("Content-Type", "application/json")
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	r = protocol.Response{}
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil || !r.OK || r.ThinkMs == nil {
		t.Fatalf("move: %v %s", err, rec.Body)
	}
	if *r.ThinkMs != 5000 {
		t.Errorf("thinkMs %d, and the action came 5000 ms after the state was handed out", *r.ThinkMs)
	}
}
