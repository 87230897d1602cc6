// Package server is tileproof's reference HTTP server of the tile-merge
// API shape (the tile-merge API's rules, docs/sources.md): GET /api/games/{game}/init?seed=S starts a game,
// POST /api/games/{game}/action plays an action on the state the client
// carries. The server keeps nothing between requests: the state holds the
// board, score, moves, flags, the tp1 generator and the undo step, and
// with a key the server signs it and rejects a state whose signature does
// not match. docs/api.md documents it with curl examples.
package server

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// Name and Version identify the server in GET /api/games: its software
// and the version of the API it serves (docs/api.md).
const (
	Name    = "tileproof-serve"
	Version = "1"
)

// MaxBody is the largest request body the server reads.
const MaxBody = 64 << 10

// Server serves the games of a set of profiles, one game name each.
type Server struct {
	rules map[string]*engine.Rules
	key   []byte
	// ForcedSpawns lets an action name the tile that appears after it
	// (for conformance tests of the server itself). Off, a client cannot
	// choose its spawns.
	ForcedSpawns bool
}

// New returns a server of the given profiles, each served under its name.
// A non-empty key makes the server sign every state it hands out and
// reject any it did not sign.
func New(profiles []*engine.Profile, key []byte) (*Server, error) {
	s := &Server{rules: map[string]*engine.Rules{}, key: key}
	for _, p := range profiles {
		r, err := engine.Compile(p)
		if err != nil {
			return nil, err
		}
		s.rules[p.Name] = r
	}
	return s, nil
}

// ServeHTTP routes the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case len(parts) == 2 && parts[0] == "api" && parts[1] == "games":
		s.list(w, r)
	case len(parts) == 4 && parts[0] == "api" && parts[1] == "games" && parts[3] == "init":
		s.init(w, r, parts[2])
	case len(parts) == 4 && parts[0] == "api" && parts[1] == "games" && parts[3] == "action":
		s.action(w, r, parts[2])
	default:
		httpError(w, http.StatusNotFound, "no such endpoint: the API is GET /api/games, GET /api/games/{game}/init?seed=S and POST /api/games/{game}/action")
	}
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(protocol.ErrorBody{Error: msg})
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		httpError(w, http.StatusMethodNotAllowed, "use GET")
		return
	}
	var games []string
	for name := range s.rules {
		games = append(games, name)
	}
	sort.Strings(games)
	reply(w, protocol.GameList{Games: games, Server: &protocol.ServerInfo{Name: Name, Version: Version}})
}

func (s *Server) spec(name string, rules *engine.Rules) *protocol.Spec {
	p := rules.Profile()
	sp := &protocol.Spec{Game: name, Profile: p.Name, Rules: p.Version, Title: p.Title, Rows: p.Rows, Cols: p.Cols, RNG: engine.RNGID,
		StateFormat: protocol.StateFormat, Signed: len(s.key) > 0, Features: []string{protocol.SeedTP1}, Actions: []string{"move"}}
	sp.Features = append(sp.Features, protocol.SizeFeature(p.Rows, p.Cols))
	if len(s.key) == 0 {
		sp.Features = append(sp.Features, protocol.LoadState)
	}
	if s.ForcedSpawns {
		sp.Features = append(sp.Features, protocol.ForceSpawn)
	}
	if p.Undo {
		sp.Features, sp.Actions = append(sp.Features, protocol.Undo), append(sp.Actions, "undo")
	}
	if p.EndRun {
		sp.Features, sp.Actions = append(sp.Features, protocol.EndRun), append(sp.Actions, "end-run")
	}
	if p.Win.Then == engine.Ask {
		sp.Features, sp.Actions = append(sp.Features, protocol.KeepPlaying), append(sp.Actions, "keep-playing")
	}
	return sp
}

// game returns the rules of game name for a request that must use method
// (usage says how, in an error), or answers the error itself.
func (s *Server) game(w http.ResponseWriter, r *http.Request, name, method, usage string) (*engine.Rules, bool) {
	if r.Method != method {
		httpError(w, http.StatusMethodNotAllowed, usage)
		return nil, false
	}
	rules, ok := s.rules[name]
	if !ok {
		httpError(w, http.StatusNotFound, fmt.Sprintf("no game %q (GET /api/games lists them)", name))
	}
	return rules, ok
}

func (s *Server) init(w http.ResponseWriter, r *http.Request, name string) {
	rules, ok := s.game(w, r, name, http.MethodGet, "init is GET /api/games/{game}/init?seed=S")
	if !ok {
		return
	}
	seed := r.URL.Query().Get("seed")
	if seed == "" {
		httpError(w, http.StatusBadRequest, "init needs ?seed=S (1 to 96 characters)")
		return
	}
	g, err := rules.NewGame(seed)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	resp := s.respond(name, g)
	resp.Spec = s.spec(name, rules)
	reply(w, resp)
}

func (s *Server) action(w http.ResponseWriter, r *http.Request, name string) {
	rules, ok := s.game(w, r, name, http.MethodPost, "action is POST /api/games/{game}/action with {state, action}")
	if !ok {
		return
	}
	var req protocol.ActionRequest
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request is larger than %d bytes", MaxBody))
		return
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		httpError(w, http.StatusBadRequest, "the request is not {state, action} JSON: "+err.Error())
		return
	}
	if req.State == nil || req.Action == nil {
		httpError(w, http.StatusBadRequest, "the request needs both state and action")
		return
	}
	g, err := s.load(name, rules, req.State)
	if err != nil {
		code := http.StatusBadRequest
		if errors.Is(err, errSignature) {
			code = http.StatusForbidden
		}
		httpError(w, code, "state: "+err.Error())
		return
	}
	step, err := s.apply(g, req.Action)
	switch code := engine.Refusal(err); {
	case errors.Is(err, errBadAction):
		httpError(w, http.StatusBadRequest, "action: "+err.Error())
		return
	case code != "":
		reply(w, protocol.Response{OK: false, Reason: err.Error(), Error: code, LegalActions: legalActions(g)})
		return
	case err != nil:
		httpError(w, http.StatusBadRequest, "action: "+err.Error())
		return
	}
	resp := s.respond(name, g)
	if step != nil {
		resp.Changed, resp.Gained = &step.Changed, &step.Gained
		if step.Changed {
			sp := step.Spawn
			resp.Spawn = &sp
		}
	}
	reply(w, resp)
}

var (
	errSignature = errors.New("the signature does not match: this server did not hand out this state")
	errBadAction = errors.New("bad action")
)

func (s *Server) apply(g *engine.Game, a *protocol.Action) (*engine.Step, error) {
	switch a.Type {
	case "move":
		d, err := engine.ParseDirection(a.Direction)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errBadAction, err)
		}
		var step engine.Step
		if a.Spawn != nil {
			if !s.ForcedSpawns {
				return nil, fmt.Errorf("%w: this server does not take forced spawns", errBadAction)
			}
			step, err = g.MoveSpawn(d, *a.Spawn)
			if errors.Is(err, engine.ErrBadSpawn) {
				return nil, fmt.Errorf("%w: %v", errBadAction, err)
			}
		} else {
			step, err = g.Move(d)
		}
		return &step, err
	case "undo":
		return nil, g.Undo()
	case "end-run":
		return nil, g.EndRun()
	case "keep-playing":
		return nil, g.KeepPlaying()
	case "observe":
		return nil, nil // changes nothing: the answer is the state as the rules read it
	}
	return nil, fmt.Errorf("%w: type %q is not move, undo, end-run, keep-playing or observe", errBadAction, a.Type)
}

func (s *Server) respond(name string, g *engine.Game) protocol.Response {
	st := g.State()
	ws := s.wire(name, g.Rules(), st)
	res, _ := g.Result().MarshalText()
	return protocol.Response{
		OK: true, State: ws, LegalActions: legalActions(g), Score: g.Score(), GameOver: g.Over(),
		Observation: &protocol.Observation{Board: g.Board().Values(), Score: g.Score(), Moves: g.Moves(), MaxTile: g.MaxTile(), Won: g.Won(), Over: g.Over(), Result: string(res)},
	}
}

func legalActions(g *engine.Game) []protocol.Action {
	out := []protocol.Action{}
	for _, d := range g.LegalMoves() {
		out = append(out, protocol.Action{Type: "move", Direction: d.String()})
	}
	return out
}

// wire converts an engine state to the wire form, signed.
func (s *Server) wire(name string, rules *engine.Rules, st engine.State) *protocol.GameState {
	res, _ := st.Result.MarshalText()
	ws := &protocol.GameState{Format: protocol.StateFormat, Game: name, Rules: rules.Version(), Board: st.Board.Values(), Score: st.Score,
		Moves: st.Moves, Won: st.Won, KeepPlaying: st.KeepPlaying, Result: string(res)}
	if st.RNG != nil {
		ws.RNG = fmt.Sprintf("%016x", st.RNG.State())
	}
	if st.Prev != nil {
		ws.Prev = s.wire(name, rules, *st.Prev)
		ws.Prev.Sig = ""
	}
	ws.Sig = s.sign(ws)
	return ws
}

func (s *Server) sign(ws *protocol.GameState) string {
	if len(s.key) == 0 {
		return ""
	}
	c := *ws
	c.Sig = ""
	data, _ := json.Marshal(c)
	mac := hmac.New(sha256.New, s.key)
	mac.Write(data)
	return hex.EncodeToString(mac.Sum(nil))
}

// load checks a client's state (its signature first) and loads it.
func (s *Server) load(name string, rules *engine.Rules, ws *protocol.GameState) (*engine.Game, error) {
	if len(s.key) > 0 {
		want, err := hex.DecodeString(ws.Sig)
		if err != nil || !hmac.Equal(want, mustHex(s.sign(ws))) {
			return nil, errSignature
		}
	}
	st, err := s.unwire(name, rules, ws, true)
	if err != nil {
		return nil, err
	}
	return rules.Load(st)
}

func mustHex(s string) []byte {
	b, _ := hex.DecodeString(s)
	return b
}

func (s *Server) unwire(name string, rules *engine.Rules, ws *protocol.GameState, top bool) (engine.State, error) {
	switch {
	case ws.Format != protocol.StateFormat:
		return engine.State{}, fmt.Errorf("format %q; this server reads %q", ws.Format, protocol.StateFormat)
	case ws.Game != name:
		return engine.State{}, fmt.Errorf("a state of game %q sent to game %q", ws.Game, name)
	case ws.Rules != rules.Version():
		return engine.State{}, fmt.Errorf("rules version %d; game %s is at version %d", ws.Rules, name, rules.Version())
	case !top && ws.Prev != nil:
		return engine.State{}, errors.New("prev has a prev of its own")
	}
	b, err := engine.BoardFromValues(ws.Board)
	if err != nil {
		return engine.State{}, err
	}
	var result engine.Result
	if err := result.UnmarshalText([]byte(ws.Result)); err != nil {
		return engine.State{}, fmt.Errorf("result: %v", err)
	}
	st := engine.State{Board: b, Score: ws.Score, Moves: ws.Moves, Won: ws.Won, KeepPlaying: ws.KeepPlaying, Result: result}
	if ws.RNG != "" {
		v, err := strconv.ParseUint(ws.RNG, 16, 64)
		if err != nil || len(ws.RNG) != 16 {
			return engine.State{}, fmt.Errorf("rng %q is not 16 hex digits", ws.RNG)
		}
		rng := engine.RNGFromState(v)
		st.RNG = &rng
	}
	if ws.Prev != nil {
		prev, err := s.unwire(name, rules, ws.Prev, false)
		if err != nil {
			return engine.State{}, fmt.Errorf("prev: %w", err)
		}
		st.Prev = &prev
	}
	return st, nil
}
