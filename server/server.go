// Package server is tileproof's reference HTTP server of the tile-merge
// API shape (seed 000): GET /api/games/{game}/init?seed=S starts a game,
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
)

// StateFormat names the layout of the state objects this server hands out.
const StateFormat = "tileproof/1"

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

// WireState is the state a client carries from one call to the next.
type WireState struct {
	Format      string     `json:"format"`
	Game        string     `json:"game"`
	Rules       int        `json:"rules"`
	Board       [][]uint64 `json:"board"`
	Score       uint64     `json:"score"`
	Moves       int        `json:"moves"`
	Won         bool       `json:"won"`
	KeepPlaying bool       `json:"keepPlaying"`
	Result      string     `json:"result"`
	RNG         string     `json:"rng"`            // the tp1 generator's state, 16 hex digits
	Prev        *WireState `json:"prev,omitempty"` // the state an undo returns to
	Sig         string     `json:"sig,omitempty"`  // HMAC-SHA256 of the state without sig, with the server's key
}

// Action is a request's action: {"type": "move", "direction": "left"}, or
// undo, end-run, keep-playing, or observe (which changes nothing and
// answers the state with its observation and legal actions). Spawn forces
// the next tile when the server allows it.
type Action struct {
	Type      string        `json:"type"`
	Direction string        `json:"direction,omitempty"`
	Spawn     *engine.Spawn `json:"spawn,omitempty"`
}

// Observation is what the player sees.
type Observation struct {
	Board   [][]uint64 `json:"board"`
	Score   uint64     `json:"score"`
	Moves   int        `json:"moves"`
	MaxTile uint64     `json:"maxTile"`
	Won     bool       `json:"won"`
	Over    bool       `json:"over"`
	Result  string     `json:"result"`
}

// Response is the answer to init and to an action.
type Response struct {
	OK           bool          `json:"ok"`
	State        *WireState    `json:"state,omitempty"`
	Observation  *Observation  `json:"observation,omitempty"`
	LegalActions []Action      `json:"legalActions"`
	Spec         *Spec         `json:"spec,omitempty"`
	Score        uint64        `json:"score"`
	GameOver     bool          `json:"gameOver"`
	Changed      *bool         `json:"changed,omitempty"`
	Gained       *uint64       `json:"gained,omitempty"`
	Spawn        *engine.Spawn `json:"spawn,omitempty"`
	// A refused action: HTTP 200 with ok false, the reason (a teaching
	// message) and error (illegal-move, finished, unsupported, no-undo,
	// not-stopped).
	Reason string `json:"reason,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Spec describes a game: its rules and what a client may do.
type Spec struct {
	Game        string   `json:"game"`
	Profile     string   `json:"profile"`
	Rules       int      `json:"rules"`
	Title       string   `json:"title"`
	Rows        int      `json:"rows"`
	Cols        int      `json:"cols"`
	RNG         string   `json:"rng"`
	StateFormat string   `json:"stateFormat"`
	Signed      bool     `json:"signed"`
	Features    []string `json:"features"`
	Actions     []string `json:"actions"`
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
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
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
	reply(w, map[string]any{"games": games, "server": map[string]string{"name": Name, "version": Version}})
}

func (s *Server) spec(name string, rules *engine.Rules) *Spec {
	p := rules.Profile()
	sp := &Spec{Game: name, Profile: p.Name, Rules: p.Version, Title: p.Title, Rows: p.Rows, Cols: p.Cols, RNG: engine.RNGID,
		StateFormat: StateFormat, Signed: len(s.key) > 0, Features: []string{"seed-tp1"}, Actions: []string{"move"}}
	sp.Features = append(sp.Features, fmt.Sprintf("size:%dx%d", p.Rows, p.Cols))
	if len(s.key) == 0 {
		sp.Features = append(sp.Features, "load-state")
	}
	if s.ForcedSpawns {
		sp.Features = append(sp.Features, "force-spawn")
	}
	if p.Undo {
		sp.Features, sp.Actions = append(sp.Features, "undo"), append(sp.Actions, "undo")
	}
	if p.EndRun {
		sp.Features, sp.Actions = append(sp.Features, "end-run"), append(sp.Actions, "end-run")
	}
	if p.Win.Then == engine.Ask {
		sp.Features, sp.Actions = append(sp.Features, "keep-playing"), append(sp.Actions, "keep-playing")
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
	var req struct {
		State  *WireState `json:"state"`
		Action *Action    `json:"action"`
	}
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
		reply(w, Response{OK: false, Reason: err.Error(), Error: code, LegalActions: legalActions(g)})
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

func (s *Server) apply(g *engine.Game, a *Action) (*engine.Step, error) {
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

func (s *Server) respond(name string, g *engine.Game) Response {
	st := g.State()
	ws := s.wire(name, g.Rules(), st)
	res, _ := g.Result().MarshalText()
	return Response{
		OK: true, State: ws, LegalActions: legalActions(g), Score: g.Score(), GameOver: g.Over(),
		Observation: &Observation{Board: g.Board().Values(), Score: g.Score(), Moves: g.Moves(), MaxTile: g.MaxTile(), Won: g.Won(), Over: g.Over(), Result: string(res)},
	}
}

func legalActions(g *engine.Game) []Action {
	out := []Action{}
	for _, d := range g.LegalMoves() {
		out = append(out, Action{Type: "move", Direction: d.String()})
	}
	return out
}

// wire converts an engine state to the wire form, signed.
func (s *Server) wire(name string, rules *engine.Rules, st engine.State) *WireState {
	res, _ := st.Result.MarshalText()
	ws := &WireState{Format: StateFormat, Game: name, Rules: rules.Version(), Board: st.Board.Values(), Score: st.Score,
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

func (s *Server) sign(ws *WireState) string {
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
func (s *Server) load(name string, rules *engine.Rules, ws *WireState) (*engine.Game, error) {
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

func (s *Server) unwire(name string, rules *engine.Rules, ws *WireState, top bool) (engine.State, error) {
	switch {
	case ws.Format != StateFormat:
		return engine.State{}, fmt.Errorf("format %q; this server reads %q", ws.Format, StateFormat)
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
