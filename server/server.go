// Package server is tileproof's reference HTTP server of the tile-merge
// API shape (the Tile Merge API's rules, docs/sources.md): GET
// /api/games/{game}/init?seed=S starts a game, POST
// /api/games/{game}/action plays an action on the state the client
// carries. docs/api.md documents it with curl examples.
//
// Unsigned, the server keeps nothing between requests: the state holds
// the board, score, moves, flags, the tp1 generator and the undo step,
// and anyone can build one. Signed (a key of at least [MinKeySize]
// bytes), the generator is sealed with AES-256-GCM, which also
// authenticates the rest of the state, and the server records which
// states were played, so that each state is good for one action
// (docs/api.md, "Signed states", gives the threat model).
package server

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/strictyaml"
	"github.com/tileproof/tileproof/protocol"
	"github.com/tileproof/tileproof/replay"
)

// Name and Version identify the server in GET /api/games: its software
// and the version of the API it serves (docs/api.md).
const (
	Name    = "tileproof-serve"
	Version = "1"
)

// Server serves the games of a set of profiles, one game name each. It
// is safe for concurrent use.
type Server struct {
	rules  map[string]*engine.Rules
	sealer *sealer // nil: unsigned
	record *record // the used-state record, when signed
	times  []byte  // the key of the think times' MAC, when signed (times.go)
	// ForcedSpawns lets an action name the tile that appears after it
	// (for conformance tests of the server itself), on an unsigned server
	// only: a signed server never takes a forced spawn, whatever this
	// says. Off, a client cannot choose its spawns.
	ForcedSpawns bool

	verifier  *replay.Verifier // POST /api/verify (verify.go)
	verifying chan struct{}    // a token a replay being verified
	verifies  chan struct{}    // a token a request to verify, read or verifying
}

// Options configure a server.
type Options struct {
	// Key, at least MinKeySize bytes, makes the server seal and sign
	// every state it hands out and take only those, each once. Empty: an
	// unsigned server, which takes any state.
	Key []byte
	// Window is how many games a signed server keeps live at once (0:
	// DefaultWindow; at least MinWindow). Each game holds a place from
	// init until it is over for good (or idle, below), and only its own
	// actions spend its states; the live-game record takes 12 bytes a
	// place.
	Window int
	// Idle is how long a live game may go without an action before its
	// place may go to a new game (0: DefaultIdle). With every place held
	// by a game played within Idle, init is refused (503), never a game
	// in progress ended.
	Idle time.Duration
}

// New returns a server of the given profiles, each served under its name,
// signed with key when it is not empty ([NewWith] with Options{Key: key}).
func New(profiles []*engine.Profile, key []byte) (*Server, error) {
	return NewWith(profiles, Options{Key: key})
}

// NewWith returns a server of the given profiles, each served under its
// name. A key shorter than MinKeySize bytes is an error: a server given a
// key must not run unsigned or on a guessable key.
func NewWith(profiles []*engine.Profile, opts Options) (*Server, error) {
	// POST /api/verify knows the built-in profiles and those served (a
	// served profile file's name is known as `verify --profile FILE`
	// makes it known).
	s := &Server{rules: map[string]*engine.Rules{}, verifier: replay.NewVerifier(), verifying: make(chan struct{}, MaxVerifying), verifies: make(chan struct{}, MaxVerifyRequests)}
	s.verifier.HowToAdd = "serve --profiles FILE"
	switch n := len(opts.Key); {
	case n > 0 && n < MinKeySize:
		return nil, fmt.Errorf("the key is %d bytes; a key has at least %d (say, 32 random bytes: head -c 32 /dev/urandom | base64)", n, MinKeySize)
	case n > 0:
		var err error
		if s.sealer, err = newSealer(opts.Key); err != nil {
			return nil, err
		}
		if s.times, err = timesKey(opts.Key); err != nil {
			return nil, err
		}
		w, idle := cmp.Or(opts.Window, DefaultWindow), cmp.Or(opts.Idle, DefaultIdle)
		if w < 0 {
			return nil, fmt.Errorf("window %d is negative", w)
		}
		if idle < 0 {
			return nil, fmt.Errorf("idle %v is negative", idle)
		}
		s.record = newRecord(w, idle)
	}
	for _, p := range profiles {
		r, err := engine.Compile(p)
		if err != nil {
			return nil, err
		}
		if _, dup := s.rules[p.Name]; dup {
			return nil, fmt.Errorf("profile %s is given twice", p.Name)
		}
		if s.Signed() && !SeededReplays(p) {
			return nil, fmt.Errorf("profile %s's seeded games spawn by %s, and the server deals by %s: signed, it would seal games whose replays cannot be seeded ones of %s (serve it unsigned: docs/api.md, \"Profiles of another generator\")", p.Name, p.Generator(), engine.RNGID, p.Name)
		}
		s.rules[p.Name] = r
		if err := s.verifier.AddProfile(p); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// SeededReplays reports whether the server's games of profile p replay
// as p's seeded games: whether p's seeded games spawn by tp1, as the
// server deals every game. A game of another profile (hallabois-4x4) is
// replayed spawn-recorded, and a signed server does not serve it
// (docs/api.md, "Profiles of another generator").
func SeededReplays(p *engine.Profile) bool { return p.Generator() == engine.RNGID }

// Signed reports whether the server seals and signs its states.
func (s *Server) Signed() bool { return s.sealer != nil }

// RecordSize returns the memory of the live-game record in bytes (0 on
// an unsigned server): 12 bytes a game of Window, whatever the traffic.
func (s *Server) RecordSize() int {
	if s.record == nil {
		return 0
	}
	return s.record.size()
}

// forced reports whether the server takes forced spawns.
func (s *Server) forced() bool { return s.ForcedSpawns && s.sealer == nil }

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
	case len(parts) == 2 && parts[0] == "api" && parts[1] == "verify":
		s.verify(w, r)
	default:
		httpError(w, http.StatusNotFound, "no such endpoint: the API is GET /api/games, GET /api/games/{game}/init?seed=S, POST /api/games/{game}/action and POST /api/verify")
	}
}

func httpError(w http.ResponseWriter, code int, msg string) {
	reply(w, code, protocol.ErrorBody{Error: msg})
}

// notAllowed answers 405 for a request whose method is not allow, saying
// so in the Allow header, as HTTP asks, and how in msg.
func notAllowed(w http.ResponseWriter, allow, msg string) {
	w.Header().Set("Allow", allow)
	httpError(w, http.StatusMethodNotAllowed, msg)
}

// reply answers v, with status code, as one line of JSON. v is the
// server's own, so it always encodes; a write error is the client's going
// away.
func reply(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		notAllowed(w, http.MethodGet, "use GET")
		return
	}
	reply(w, http.StatusOK, protocol.GameList{Games: slices.Sorted(maps.Keys(s.rules)), Server: &protocol.ServerInfo{Name: Name, Version: Version}})
}

func (s *Server) spec(name string, rules *engine.Rules) *protocol.Spec {
	p := rules.Profile()
	sp := &protocol.Spec{Game: name, Profile: p.Name, Rules: p.Version, Title: p.Title, Rows: p.Rows, Cols: p.Cols, RNG: engine.RNGID,
		Replay: protocol.ReplaySeeded, StateFormat: protocol.StateFormat, Signed: s.Signed(), Features: []string{protocol.SeedTP1}, Actions: []string{"move"}}
	if !SeededReplays(p) {
		sp.Replay = protocol.ReplaySpawnRecorded
	}
	sp.Features = append(sp.Features, protocol.SizeFeature(p.Rows, p.Cols))
	if s.Signed() {
		sp.Features = append(sp.Features, protocol.ServerSeed)
	} else {
		sp.Features = append(sp.Features, protocol.LoadState)
	}
	if s.forced() {
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
		notAllowed(w, method, usage)
		return nil, false
	}
	rules, ok := s.rules[name]
	if !ok {
		httpError(w, http.StatusNotFound, fmt.Sprintf("no game %s (GET /api/games lists them)", strictyaml.Quote(name, maxQuoted)))
	}
	return rules, ok
}

func (s *Server) init(w http.ResponseWriter, r *http.Request, name string) {
	rules, ok := s.game(w, r, name, http.MethodGet, "init is GET /api/games/{game}/init?seed=S")
	if !ok {
		return
	}
	seed, given, rerr := initSeed(r)
	if rerr != nil {
		httpError(w, rerr.code, rerr.msg)
		return
	}
	var drawn string
	switch {
	case !given && !s.Signed():
		httpError(w, http.StatusBadRequest, "init needs ?seed=S (1 to 96 characters); only a signed server draws one")
		return
	case !given:
		drawn = drawSeed()
		seed = drawn
	}
	g, err := rules.NewGame(seed)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	var t ticket
	var tm timing
	if s.Signed() {
		if t, err = s.record.begin(); err != nil {
			w.Header().Set("Retry-After", "60")
			httpError(w, http.StatusServiceUnavailable, err.Error())
			return
		}
		// The chain starts from the seed as a replay holds it (trimmed),
		// which CheckTimes reads.
		norm, _ := engine.NormalizeSeed(seed) // NewGame took it
		tm.chain = chainStart(name, norm)
	}
	resp := s.respond(name, g, drawn, t, tm)
	resp.Spec = s.spec(name, rules)
	reply(w, http.StatusOK, resp)
}

func (s *Server) action(w http.ResponseWriter, r *http.Request, name string) {
	rules, ok := s.game(w, r, name, http.MethodPost, "action is POST /api/games/{game}/action with {state, action}")
	if !ok {
		return
	}
	req, rerr := readAction(w, r)
	if rerr != nil {
		httpError(w, rerr.code, rerr.msg)
		return
	}
	// When the action came in, as the seals keep time: once the whole
	// body is read, not when the headers were. A client may send its
	// headers before it has chosen the action, and send the action (the
	// body) when it has: a time taken before the body would hide that
	// wait, up to the read timeout, and make a time shorter than the
	// player took.
	var received uint64
	var sec *secret
	if s.Signed() {
		received = s.record.millis()
		var buf [256]byte
		_, opened, err := s.sealer.open(req.State.Seal, appendVisible(buf[:0], req.State))
		if err == nil {
			err = s.record.check(opened.t)
		}
		if err != nil {
			httpError(w, stateStatus(err), "state: "+err.Error())
			return
		}
		sec = &opened
	}
	st, err := s.unwire(name, rules, req.State, sec)
	if err != nil {
		httpError(w, stateStatus(err), "state: "+err.Error())
		return
	}
	g, err := rules.Load(st)
	if err != nil {
		httpError(w, http.StatusBadRequest, "state: "+err.Error())
		return
	}
	step, err := s.apply(g, req.Action)
	switch code := engine.Refusal(err); {
	case code != "":
		// Refused by the rules: nothing changed, so the state sent stays
		// the one to play, and the answer tells it as it is.
		resp := observed(g)
		resp.Reason, resp.Error = err.Error(), code
		reply(w, http.StatusOK, resp)
		return
	case err != nil:
		httpError(w, http.StatusBadRequest, "action: "+err.Error())
		return
	}
	var seed string
	var next ticket
	var tm timing
	var think *uint32
	if sec != nil {
		// The think time, measured from the hand-out of the state played
		// to now, once the action is known to be played; an observe, or
		// a move that changed nothing (which the rules pass over), is no
		// action of the game's log and carries the state's hand-out time
		// and chain on.
		tm = timing{handed: sec.handed, chain: sec.chain}
		if letter, logged := actionLetter(req.Action.Type, req.Action.Direction); logged && (step == nil || step.Changed) {
			ms := thinkMillis(sec.handed, received)
			think = &ms
			tm = timing{chain: chainNext(sec.chain, letter, ms)}
		}
		// The answer hands out the next state: this one is spent. Of two
		// requests with one state, one gets here.
		if next, err = s.record.use(sec.t); err != nil {
			httpError(w, stateStatus(err), "state: "+err.Error())
			return
		}
		seed = sec.seed
		if g.Over() && !g.AwaitingKeep() {
			s.record.end(next) // over for good: its place goes to the next new game
		}
	}
	resp := s.respond(name, g, seed, next, tm)
	resp.ThinkMs = think
	if step != nil {
		resp.Changed, resp.Gained = &step.Changed, &step.Gained
		if step.Changed {
			sp := step.Spawn
			resp.Spawn = &sp
		}
	}
	reply(w, http.StatusOK, resp)
}

// stateStatus is the HTTP status of a state the server does not take:
// 403 for a seal that does not match, 409 for a state played already, 410
// for one too old or from an earlier run, 400 for anything else.
func stateStatus(err error) int {
	switch {
	case errors.Is(err, errSeal):
		return http.StatusForbidden
	case errors.Is(err, errUsed):
		return http.StatusConflict
	case errors.Is(err, errExpired), errors.Is(err, errOtherRun):
		return http.StatusGone
	}
	return http.StatusBadRequest
}

var errBadAction = errors.New("bad action")

func (s *Server) apply(g *engine.Game, a *protocol.ActionBody) (*engine.Step, error) {
	switch a.Type {
	case "move":
		d, ok := direction(a.Direction)
		if !ok {
			return nil, fmt.Errorf("%w: direction %s is not up, down, left or right", errBadAction, strictyaml.Quote(a.Direction, maxQuoted))
		}
		var step engine.Step
		var err error
		if a.Spawn != nil {
			if !s.forced() {
				return nil, fmt.Errorf("%w: this server does not take forced spawns", errBadAction)
			}
			// A spawn the slide does not allow is the rules' refusal,
			// bad-spawn, as in the exec protocol: the caller answers it.
			step, err = g.MoveSpawn(d, *a.Spawn)
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
	return nil, fmt.Errorf("%w: type %s is not move, undo, end-run, keep-playing or observe", errBadAction, strictyaml.Quote(a.Type, maxQuoted))
}

// direction reads a move's direction, exactly as the API names them.
func direction(s string) (engine.Direction, bool) {
	for _, d := range engine.Directions {
		if s == d.String() {
			return d, true
		}
	}
	return 0, false
}

// timing is what a sealed state carries of its game's think times: when
// it was handed out (0: now, as it is sealed) and the hash of the times so
// far.
type timing struct {
	handed uint64
	chain  [timesHashLen]byte
}

// respond is the answer of an action that hands out the next state; seed
// is the seed the server drew for the game, or "".
func (s *Server) respond(name string, g *engine.Game, seed string, t ticket, tm timing) protocol.Response {
	resp := observed(g)
	resp.OK, resp.State = true, s.wire(name, g, seed, t, tm)
	if s.Signed() {
		resp.TimesSeal = timesSeal(s.times, tm.chain)
	}
	if seed != "" {
		resp.SeedCommitment, _ = replay.Commitment(seed)
		if g.Over() && !g.AwaitingKeep() {
			// Over for good: no action of the rules plays on, so the
			// seed tells nothing that could still be used.
			resp.Seed = seed
		}
	}
	return resp
}

// observed is an answer's account of g: the state as the rules read it
// and the moves they accept, as the API names them.
func observed(g *engine.Game) protocol.Response {
	obs := protocol.Observe(g)
	resp := protocol.Response{LegalActions: []protocol.ActionBody{}, Observation: obs, Score: obs.Score, GameOver: obs.Over}
	for _, d := range g.LegalMoves() {
		resp.LegalActions = append(resp.LegalActions, protocol.ActionBody{Type: "move", Direction: d.String()})
	}
	return resp
}
