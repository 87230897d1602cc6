// Package apiplay plays games through the HTTP API of a tileproof server
// (package server) and records them as replays with the server's think
// times, for the tests of several packages. It takes the server's
// address, not the server, so that the server's own tests can use it. It
// is imported by tests only.
package apiplay

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
	"github.com/tileproof/tileproof/replay"
)

// Call sends one request of ctx to addr: GET when body is nil, else POST
// the body as JSON. It returns the status and the decoded answer, and
// fails the test if the request or the decoding fails.
func Call(t testing.TB, ctx context.Context, addr string, body any) (int, protocol.Response) {
	t.Helper()
	method, rd := http.MethodGet, io.Reader(nil)
	if body != nil {
		b, _ := json.Marshal(body)
		method, rd = http.MethodPost, bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, addr, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r protocol.Response
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, r
}

// Do sends one request to the game at base (the server's address) as
// Call does, to /api/games/{game}{path}, and fails the test unless the
// status is 200 and the answer is OK.
func Do(t testing.TB, base, game, path string, body any) protocol.Response {
	t.Helper()
	code, r := Call(t, t.Context(), base+"/api/games/"+game+path, body)
	if code != http.StatusOK || !r.OK {
		t.Fatalf("%s%s: %d %+v", game, path, code, r)
	}
	return r
}

// Record appends the action a and the time the answer r carries to rep,
// and takes r's times seal as rep's. r must carry a time.
func Record(rep *replay.Replay, a engine.Action, r protocol.Response) {
	rep.Actions = append(rep.Actions, a)
	rep.Times = append(rep.Times, *r.ThinkMs)
	rep.TimesSeal = r.TimesSeal
}

// Claim is the claim of the game whose last answer is r.
func Claim(r protocol.Response) replay.Claim {
	return replay.Claim{Score: r.Observation.Score, MaxTile: r.Observation.MaxTile, Moves: r.Observation.Moves}
}

// Play starts a game of game from seed at the server at base and plays
// at most n moves, or to the game's end: next picks the i-th move from
// the answer r before it (and may wait first, to spend think time). It
// returns the game as a replay with the server's times, its times seal
// and the claim of the last answer.
func Play(t testing.TB, base, game, seed string, n int, next func(i int, r protocol.Response) protocol.ActionBody) *replay.Replay {
	t.Helper()
	r := Do(t, base, game, "/init?seed="+url.QueryEscape(seed), nil)
	rep := &replay.Replay{Profile: game, Seed: &seed, Times: []uint32{}}
	for i := 0; i < n && !r.GameOver; i++ {
		a := next(i, r)
		r = Do(t, base, game, "/action", map[string]any{"state": r.State, "action": a})
		d, err := engine.ParseDirection(a.Direction)
		if err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		Record(rep, engine.Action(d), r)
	}
	rep.Claim = Claim(r)
	return rep
}
