package conformance

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

	"github.com/tileproof/tileproof/engine"
)

// HTTP is a server shaped like the tile-merge API of seed 000, such as
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
	hello  *Hello
	specs  map[string]httpSpec
	game   string
	state  json.RawMessage // carried from call to call
	legal  []engine.Direction
	loads  int
}

type httpSpec struct {
	Game        string   `json:"game"`
	Profile     string   `json:"profile"`
	Rules       int      `json:"rules"`
	StateFormat string   `json:"stateFormat"`
	Features    []string `json:"features"`
}

type httpResponse struct {
	OK           bool            `json:"ok"`
	State        json.RawMessage `json:"state"`
	Observation  *wireState      `json:"observation"` // the fields a state has on the exec protocol
	LegalActions []struct {
		Type      string `json:"type"`
		Direction string `json:"direction"`
	} `json:"legalActions"`
	Spec    *httpSpec     `json:"spec"`
	Changed *bool         `json:"changed"`
	Gained  *uint64       `json:"gained"`
	Spawn   *engine.Spawn `json:"spawn"`
	Reason  string        `json:"reason"`
	Error   string        `json:"error"`
}

func (h *HTTP) do(method, path string, body any) (*httpResponse, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, strings.TrimRight(h.BaseURL, "/")+path, rd)
	if err != nil {
		return nil, &DriverError{ProtocolError, err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.httpClient().Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) && ue.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, &DriverError{Timeout, fmt.Sprintf("%s %s: no answer in time", method, path)}
		}
		return nil, &DriverError{Crash, fmt.Sprintf("%s %s: %v", method, path, err)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, &DriverError{Crash, fmt.Sprintf("%s %s: %v", method, path, err)}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &DriverError{ProtocolError, fmt.Sprintf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, truncate(string(data), 200))}
	}
	var r httpResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, &DriverError{ProtocolError, fmt.Sprintf("%s %s: the answer is not the API's JSON: %v", method, path, err)}
	}
	return &r, nil
}

// Hello lists the games and reads each one's spec.
func (h *HTTP) Hello() (Hello, error) {
	if h.hello != nil {
		return *h.hello, nil
	}
	var list struct {
		Games  []string `json:"games"`
		Server *struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"server"` // optional: tileproof serve names itself
	}
	resp, err := h.httpClient().Get(strings.TrimRight(h.BaseURL, "/") + "/api/games")
	if err != nil {
		return Hello{}, &DriverError{Crash, err.Error()}
	}
	err = json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if err != nil || len(list.Games) == 0 {
		return Hello{}, &DriverError{ProtocolError, "GET /api/games: no list of games"}
	}
	hello := Hello{Name: h.BaseURL, Version: "http", Protocol: ProtocolVersion}
	if sv := list.Server; sv != nil && sv.Name != "" {
		hello.Name, hello.Version = sv.Name, sv.Version
	}
	h.specs = map[string]httpSpec{}
	for _, game := range list.Games {
		r, err := h.do("GET", "/api/games/"+url.PathEscape(game)+"/init?seed=hello", nil)
		if err != nil {
			return Hello{}, err
		}
		if r.Spec == nil {
			return Hello{}, &DriverError{ProtocolError, "init of " + game + " has no spec"}
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
			return nil, &DriverError{ProtocolError, "legalActions: " + err.Error()}
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

func (h *HTTP) take(r *httpResponse) (State, error) {
	if r.Observation == nil || r.State == nil {
		return State{}, &DriverError{ProtocolError, "the answer has no state or observation"}
	}
	st, err := r.Observation.state("observation.board")
	if err != nil {
		return State{}, err
	}
	if h.legal, err = r.legalMoves(); err != nil {
		return State{}, err
	}
	h.state = r.State
	return st, nil
}

// New starts a game with a tp1 seed.
func (h *HTTP) New(profile, seed string, setup *Setup) (State, error) {
	if setup != nil {
		return State{}, &RuleError{"unsupported", "the HTTP API has no setup"}
	}
	if _, err := h.Hello(); err != nil {
		return State{}, err
	}
	h.game = h.specs[profile].Game
	r, err := h.do("GET", "/api/games/"+url.PathEscape(h.game)+"/init?seed="+url.QueryEscape(seed), nil)
	if err != nil {
		return State{}, err
	}
	return h.take(r)
}

// Load builds a state in the server's state format (tileproof/1) and
// carries it: the server must take unsigned states (feature load-state).
func (h *HTTP) Load(profile string, st LoadState) (State, error) {
	if st.Setup != nil {
		return State{}, &RuleError{"unsupported", "the HTTP API has no setup"}
	}
	if _, err := h.Hello(); err != nil {
		return State{}, err
	}
	spec := h.specs[profile]
	if spec.StateFormat != "tileproof/1" {
		return State{}, &RuleError{"unsupported", "the server's states are " + spec.StateFormat}
	}
	h.game = spec.Game
	h.loads++
	ws := map[string]any{"format": "tileproof/1", "game": spec.Game, "rules": spec.Rules, "board": st.Board.Values(),
		"score": st.Score, "moves": st.Moves, "won": st.Won, "keepPlaying": st.KeepPlaying, "result": "playing",
		"rng": fmt.Sprintf("%016x", uint64(h.loads)*0x9E3779B97F4A7C15)}
	h.state, _ = json.Marshal(ws)
	// The server reads the state through the rules (a blocked board is
	// over at once): observe asks it, changing nothing.
	r, err := h.post(map[string]any{"type": "observe"})
	if err != nil {
		return State{}, err
	}
	return h.take(r)
}

func (h *HTTP) post(action map[string]any) (*httpResponse, error) {
	if h.state == nil {
		return nil, &DriverError{ProtocolError, "an action before init or load"}
	}
	r, err := h.do("POST", "/api/games/"+url.PathEscape(h.game)+"/action", map[string]any{"state": h.state, "action": action})
	if err != nil {
		return nil, err
	}
	if !r.OK {
		if h.legal, err = r.legalMoves(); err != nil {
			return nil, err
		}
		return nil, &RuleError{Code: r.Error, Message: r.Reason}
	}
	return r, nil
}

// Move posts a move.
func (h *HTTP) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	action := map[string]any{"type": "move", "direction": d.String()}
	if spawn != nil {
		action["spawn"] = spawn
	}
	r, err := h.post(action)
	if err != nil {
		return MoveResult{}, err
	}
	st, err := h.take(r)
	if err != nil {
		return MoveResult{}, err
	}
	return moveResult(st, r.Changed, r.Gained, r.Spawn)
}

// Legal returns the legal moves of the last answer.
func (h *HTTP) Legal() ([]engine.Direction, error) { return slices.Clone(h.legal), nil }

// Do posts undo, end-run or keep-playing.
func (h *HTTP) Do(action string) (State, error) {
	r, err := h.post(map[string]any{"type": action})
	if err != nil {
		return State{}, err
	}
	return h.take(r)
}

// Close does nothing: the server keeps no game.
func (h *HTTP) Close() error { return nil }
