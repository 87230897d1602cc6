package analyze

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
	"github.com/tileproof/tileproof/replay"
)

// apiClient plays one game through the HTTP API of a signed server.
type apiClient struct {
	t   *testing.T
	ctx context.Context
	url string // .../api/games/{game}
}

func newAPIClient(t *testing.T, url string) *apiClient {
	return &apiClient{t: t, ctx: t.Context(), url: url}
}

func (c *apiClient) do(method, path string, body any) protocol.Response {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(c.ctx, method, c.url+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var r protocol.Response
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode != 200 || !r.OK {
		c.t.Fatalf("%s %s: %d %v %+v", method, path, resp.StatusCode, err, r)
	}
	return r
}

// play plays at most n moves, the first legal one of up, left, right,
// down, calling wait with the board's filled cells before each, and
// returns the game as a replay with the server's times and seal.
func (c *apiClient) play(n int, wait func(filled int)) *replay.Replay {
	r := c.do(http.MethodGet, "/init?seed=served", nil)
	seed := "served"
	rep := &replay.Replay{Profile: "tile-merge", Seed: &seed, Times: []uint32{}}
	for i := 0; i < n && !r.GameOver; i++ {
		filled := 0
		for _, row := range r.Observation.Board {
			for _, v := range row {
				if v != 0 {
					filled++
				}
			}
		}
		a := r.LegalActions[0]
	choose:
		for _, pref := range []string{"down", "right", "left", "up"} {
			for _, l := range r.LegalActions {
				if l.Direction == pref {
					a = l
					break choose
				}
			}
		}
		wait(filled)
		st := r.State
		r = c.do(http.MethodPost, "/action", map[string]any{"state": st, "action": a})
		d, _ := engine.ParseDirection(a.Direction)
		rep.Actions = append(rep.Actions, engine.Action(d))
		rep.Times = append(rep.Times, *r.ThinkMs)
		rep.TimesSeal = r.TimesSeal
	}
	rep.Claim = replay.Claim{Score: r.Observation.Score, MaxTile: r.Observation.MaxTile, Moves: r.Observation.Moves}
	return rep
}

func sleepMs(ms int) { time.Sleep(time.Duration(ms) * time.Millisecond) }
