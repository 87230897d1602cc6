package driver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// HTTP is a server shaped like the tile-merge API (docs/api.md), such as
// tileproof serve: GET {base}/api/games lists the games (one a profile),
// GET {base}/api/games/{game}/init?seed=S starts one, POST
// {base}/api/games/{game}/action with {state, action} plays an action on
// the state the driver carries. docs/api.md gives the mapping: the board,
// flags and counts come from the response's observation, the legal moves
// from legalActions, a refusal is ok: false with error and reason, and the
// features from each game's spec.
type HTTP struct {
	BaseURL string
	Timeout time.Duration // for each request; 0 means 5 s

	client *http.Client
	hello  *conformance.Hello
	specs  map[string]protocol.Spec
	game   string
	state  json.RawMessage // carried from call to call
	legal  []engine.Direction
	loads  int
}

// httpResponse is an answer of the API, its state kept as it came, to be
// sent back as it is.
type httpResponse struct {
	protocol.Response
	State json.RawMessage `json:"state"`
}

func (h *HTTP) do(method, path string, body any) (*httpResponse, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, strings.TrimRight(h.BaseURL, "/")+path, rd)
	if err != nil {
		return nil, &conformance.DriverError{Status: conformance.ProtocolError, Msg: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.httpClient().Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) && ue.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, &conformance.DriverError{Status: conformance.Timeout, Msg: fmt.Sprintf("%s %s: no answer in time", method, path)}
		}
		return nil, &conformance.DriverError{Status: conformance.Crash, Msg: fmt.Sprintf("%s %s: %v", method, path, err)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, &conformance.DriverError{Status: conformance.Crash, Msg: fmt.Sprintf("%s %s: %v", method, path, err)}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, truncate(string(data), 200))}
	}
	var r httpResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%s %s: the answer is not the API's JSON: %v", method, path, err)}
	}
	return &r, nil
}

// Hello lists the games and reads each one's spec.
func (h *HTTP) Hello() (conformance.Hello, error) {
	if h.hello != nil {
		return *h.hello, nil
	}
	var list protocol.GameList
	resp, err := h.httpClient().Get(strings.TrimRight(h.BaseURL, "/") + "/api/games")
	if err != nil {
		return conformance.Hello{}, &conformance.DriverError{Status: conformance.Crash, Msg: err.Error()}
	}
	err = json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if err != nil || len(list.Games) == 0 {
		return conformance.Hello{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: "GET /api/games: no list of games"}
	}
	hello := conformance.Hello{Name: h.BaseURL, Version: "http", Protocol: protocol.Version}
	if sv := list.Server; sv != nil && sv.Name != "" {
		hello.Name, hello.Version = sv.Name, sv.Version
	}
	h.specs = map[string]protocol.Spec{}
	for _, game := range list.Games {
		r, err := h.do("GET", "/api/games/"+url.PathEscape(game)+"/init?seed=hello", nil)
		if err != nil {
			return conformance.Hello{}, err
		}
		if r.Spec == nil {
			return conformance.Hello{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: "init of " + game + " has no spec"}
		}
		h.specs[r.Spec.Profile] = *r.Spec
		hello.Profiles = append(hello.Profiles, r.Spec.Profile)
		for _, f := range r.Spec.Features {
			if !slices.Contains(hello.Features, f) {
				hello.Features = append(hello.Features, f)
			}
		}
	}
	h.hello = &hello
	return hello, nil
}

// legalMoves reads the moves of an answer's legalActions (the other
// actions are not moves); a move in an unknown direction is a protocol
// error, as on the exec protocol.
func (r *httpResponse) legalMoves() ([]engine.Direction, error) {
	var out []engine.Direction
	for _, a := range r.LegalActions {
		if a.Type != "move" {
			continue
		}
		d, err := engine.ParseDirection(a.Direction)
		if err != nil {
			return nil, &conformance.DriverError{Status: conformance.ProtocolError, Msg: "legalActions: " + err.Error()}
		}
		out = append(out, d)
	}
	return out, nil
}

// httpClient returns the driver's client, made on first use with the
// request timeout.
func (h *HTTP) httpClient() *http.Client {
	if h.client == nil {
		t := h.Timeout
		if t == 0 {
			t = 5 * time.Second
		}
		h.client = &http.Client{Timeout: t}
	}
	return h.client
}

func (h *HTTP) take(r *httpResponse) (conformance.State, error) {
	if r.Observation == nil || r.State == nil {
		return conformance.State{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: "the answer has no state or observation"}
	}
	o := r.Observation
	st, err := fromWire(protocol.State{Board: o.Board, Score: o.Score, Moves: o.Moves, Won: o.Won, Over: o.Over, Result: o.Result}, "observation.board")
	if err != nil {
		return conformance.State{}, err
	}
	if h.legal, err = r.legalMoves(); err != nil {
		return conformance.State{}, err
	}
	h.state = r.State
	return st, nil
}

// New starts a game with a tp1 seed.
func (h *HTTP) New(profile, seed string, setup *engine.Setup) (conformance.State, error) {
	if setup != nil {
		return conformance.State{}, &conformance.RuleError{Code: "unsupported", Message: "the HTTP API has no setup"}
	}
	if _, err := h.Hello(); err != nil {
		return conformance.State{}, err
	}
	h.game = h.specs[profile].Game
	r, err := h.do("GET", "/api/games/"+url.PathEscape(h.game)+"/init?seed="+url.QueryEscape(seed), nil)
	if err != nil {
		return conformance.State{}, err
	}
	return h.take(r)
}

// Load builds a state in the server's state format (tileproof/1) and
// carries it: the server must take unsigned states (feature load-state).
func (h *HTTP) Load(profile string, st conformance.LoadState) (conformance.State, error) {
	if st.Setup != nil {
		return conformance.State{}, &conformance.RuleError{Code: "unsupported", Message: "the HTTP API has no setup"}
	}
	if _, err := h.Hello(); err != nil {
		return conformance.State{}, err
	}
	spec := h.specs[profile]
	if spec.StateFormat != protocol.StateFormat {
		return conformance.State{}, &conformance.RuleError{Code: "unsupported", Message: "the server's states are " + spec.StateFormat}
	}
	h.game = spec.Game
	h.loads++
	ws := protocol.GameState{Format: protocol.StateFormat, Game: spec.Game, Rules: spec.Rules, Board: st.Board.Values(),
		Score: st.Score, Moves: st.Moves, Won: st.Won, KeepPlaying: st.KeepPlaying, Result: "playing",
		RNG: fmt.Sprintf("%016x", uint64(h.loads)*0x9E3779B97F4A7C15)}
	h.state, _ = json.Marshal(ws)
	// The server reads the state through the rules (a blocked board is
	// over at once): observe asks it, changing nothing.
	r, err := h.post(protocol.Action{Type: "observe"})
	if err != nil {
		return conformance.State{}, err
	}
	return h.take(r)
}

func (h *HTTP) post(action protocol.Action) (*httpResponse, error) {
	if h.state == nil {
		return nil, &conformance.DriverError{Status: conformance.ProtocolError, Msg: "an action before init or load"}
	}
	r, err := h.do("POST", "/api/games/"+url.PathEscape(h.game)+"/action", struct {
		State  json.RawMessage  `json:"state"`
		Action *protocol.Action `json:"action"`
	}{h.state, &action})
	if err != nil {
		return nil, err
	}
	if !r.OK {
		if h.legal, err = r.legalMoves(); err != nil {
			return nil, err
		}
		return nil, &conformance.RuleError{Code: r.Error, Message: r.Reason}
	}
	return r, nil
}

// Move posts a move.
func (h *HTTP) Move(d engine.Direction, spawn *engine.Spawn) (conformance.MoveResult, error) {
	r, err := h.post(protocol.Action{Type: "move", Direction: d.String(), Spawn: spawn})
	if err != nil {
		return conformance.MoveResult{}, err
	}
	st, err := h.take(r)
	if err != nil {
		return conformance.MoveResult{}, err
	}
	return moveResult(st, r.Changed, r.Gained, r.Spawn)
}

// Legal returns the legal moves of the last answer.
func (h *HTTP) Legal() ([]engine.Direction, error) { return slices.Clone(h.legal), nil }

// Do posts undo, end-run or keep-playing.
func (h *HTTP) Do(action string) (conformance.State, error) {
	r, err := h.post(protocol.Action{Type: action})
	if err != nil {
		return conformance.State{}, err
	}
	return h.take(r)
}

// Close does nothing: the server keeps no game.
func (h *HTTP) Close() error { return nil }
