package driver

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/safetext"
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
//
// HTTP is a [conformance.Pipeliner]: PlayAll plays its games on
// httpWorkers connections at once.
//
// Context bounds the whole run, as [Exec]'s does: each request waits at
// most Timeout from the later of its sending and the server's last
// answer (to any request: PlayAll's are sent together, and a server
// may answer them one at a time), and no longer than the context's
// deadline; once the context is done the request under way is abandoned
// and it and every later one fail with status [conformance.NotRun] and the
// context's cause.
type HTTP struct {
	BaseURL string
	Timeout time.Duration // for each request; 0 means 5 s
	// Context bounds the run: its deadline, its cancellation; nil means
	// context.Background(), no bound.
	Context context.Context
	// MaxTimeouts is how many timeouts in a row stop the driver, as
	// [Exec]'s: every later request fails at once, not run, with the
	// reason; 0 means 3.
	MaxTimeouts int

	client   *http.Client
	mu       sync.Mutex               // guards timeouts and stopped: PlayAll's requests run at once
	timeouts int                      // in a row
	stopped  *conformance.DriverError // why the driver stopped; nil while it runs
	// answered is when the server last answered a request in full
	// (UnixNano): a request waits for its answer Timeout from the later
	// of its sending and that, so that one behind PlayAll's others at a
	// server that answers one at a time is not charged for their time.
	answered atomic.Int64
	hello    *conformance.Hello
	specs    map[string]protocol.Spec
	loads    int // the states loaded so far: each gets a generator of its own
	game     httpGame
}

// httpWorkers is how many requests PlayAll has in flight.
const httpWorkers = 4

// httpGame is a game the driver plays: the server keeps none, so the
// driver carries its state from call to call.
type httpGame struct {
	name  string          // the API's game
	state json.RawMessage // the state to send with the next action
	legal []engine.Direction
}

// httpResponse is an answer of the API, its state kept as it came, to be
// sent back as it is.
type httpResponse struct {
	protocol.Response
	State json.RawMessage `json:"state"`
}

func (h *HTTP) do(method, path string, body any) (*httpResponse, error) {
	var r httpResponse
	if err := h.fetch(method, path, body, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// fetch makes a request and reads its JSON answer into out: at most
// maxHTTPBody bytes, HTTP 200.
func (h *HTTP) fetch(method, path string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	run := cmp.Or(h.Context, context.Background())
	if run.Err() != nil {
		return h.notRun(run)
	}
	if err := h.stop(); err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(run)
	defer cancel(nil)
	defer h.watch(ctx, cancel, cmp.Or(h.Timeout, defaultTimeout))()
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(h.BaseURL, "/")+path, rd)
	if err != nil {
		return &conformance.DriverError{Status: conformance.ProtocolError, Msg: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.httpClient().Do(req)
	if err != nil && run.Err() != nil {
		return h.notRun(run)
	}
	if err != nil {
		if re, ok := errors.AsType[*offsiteRedirect](err); ok {
			return &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%s %s: %v", method, path, re)}
		}
		var ue *url.Error
		if errors.Is(context.Cause(ctx), errNoAnswer) || errors.As(err, &ue) && ue.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
			return h.timedOut(method, path)
		}
		return &conformance.DriverError{Status: conformance.Crash, Msg: fmt.Sprintf("%s %s: %v", method, path, err)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxHTTPBody+1))
	switch {
	case err != nil && run.Err() != nil:
		return h.notRun(run)
	case err != nil && ctx.Err() != nil:
		return h.timedOut(method, path)
	case err != nil:
		return &conformance.DriverError{Status: conformance.Crash, Msg: fmt.Sprintf("%s %s: %v", method, path, err)}
	case len(data) > maxHTTPBody:
		return &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%s %s: the answer is longer than %d bytes", method, path, maxHTTPBody)}
	case resp.StatusCode != http.StatusOK:
		return &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, safetext.Cut(strings.TrimSpace(string(data)), 200))}
	}
	h.answered.Store(time.Now().UnixNano())
	h.mu.Lock()
	h.timeouts = 0
	h.mu.Unlock()
	if err := json.Unmarshal(data, out); err != nil {
		return &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%s %s: the answer is not the API's JSON: %v", method, path, err)}
	}
	return nil
}

// stop returns why the driver has stopped, nil while it runs.
func (h *HTTP) stop() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped == nil {
		return nil
	}
	return h.stopped
}

// timedOut counts a request that got no answer in time and returns its
// failure: after MaxTimeouts in a row the driver stops, as [Exec] does
// (a server that answers hello and then nothing cost every request its
// timeout, the whole run's deadline: 30 minutes by default).
func (h *HTTP) timedOut(method, path string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.timeouts++; h.timeouts >= cmp.Or(h.MaxTimeouts, 3) && h.stopped == nil {
		h.stopped = &conformance.DriverError{Status: conformance.Timeout, Msg: fmt.Sprintf("not run: the implementation timed out on %d requests in a row (the last: %s %s); the driver stopped", h.timeouts, method, path)}
	}
	return &conformance.DriverError{Status: conformance.Timeout, Msg: fmt.Sprintf("%s %s: no answer in time", method, path)}
}

// errNoAnswer is the cause of a request's context cancelled by
// [HTTP.watch]: no answer in time.
var errNoAnswer = errors.New("no answer in time")

// watch cancels ctx with errNoAnswer once d has passed since the later of
// now (the request's sending) and the server's last answer, and returns
// the function that stops watching. A server that answers PlayAll's
// requests one at a time answers each within d of the one before, and
// is given that; one that answers nothing for d fails every request
// waiting.
func (h *HTTP) watch(ctx context.Context, cancel context.CancelCauseFunc, d time.Duration) (stop func()) {
	sent := time.Now()
	done := make(chan struct{})
	go func() {
		t := time.NewTimer(d)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			from := sent
			if last := time.Unix(0, h.answered.Load()); last.After(from) {
				from = last
			}
			left := d - time.Since(from)
			if left <= 0 {
				cancel(errNoAnswer)
				return
			}
			t.Reset(left)
		}
	}()
	return func() { close(done) }
}

// maxHTTPBody is the longest answer the driver reads: an exec answer's
// line, protocol.MaxLine (1 MiB, room for the longest reason escaped).
// encoding/json decodes a board of zeros at 4 bytes of memory a byte,
// and PlayAll reads httpWorkers answers at once: 16 MiB answers took
// 900 MB.
const maxHTTPBody = protocol.MaxLine

// Hello lists the games and reads each one's spec.
func (h *HTTP) Hello() (conformance.Hello, error) {
	if h.hello != nil {
		return *h.hello, nil
	}
	var list protocol.GameList
	if err := h.fetch("GET", "/api/games", nil, &list); err != nil {
		return conformance.Hello{}, err
	}
	if len(list.Games) == 0 || len(list.Games) > protocol.MaxProfiles {
		return conformance.Hello{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("GET /api/games: %d games; a server has 1 to %d", len(list.Games), protocol.MaxProfiles)}
	}
	hello := conformance.Hello{Name: h.BaseURL, Version: "http", Protocol: protocol.Version}
	if sv := list.Server; sv != nil && sv.Name != "" {
		if err := longest("GET /api/games: server.name", sv.Name, protocol.MaxNameLength); err != nil {
			return conformance.Hello{}, err
		}
		if err := longest("GET /api/games: server.version", sv.Version, protocol.MaxNameLength); err != nil {
			return conformance.Hello{}, err
		}
		hello.Name, hello.Version = sv.Name, sv.Version
	}
	h.specs = map[string]protocol.Spec{}
	for _, game := range list.Games {
		if err := longest("GET /api/games: a game", game, protocol.MaxProfileLength); err != nil {
			return conformance.Hello{}, err
		}
		r, err := h.do("GET", "/api/games/"+url.PathEscape(game)+"/init?seed=hello", nil)
		if err != nil {
			return conformance.Hello{}, err
		}
		if r.Spec == nil {
			return conformance.Hello{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: "init of " + game + " has no spec"}
		}
		if err := longest("init of "+game+": spec.profile", r.Spec.Profile, protocol.MaxProfileLength); err != nil {
			return conformance.Hello{}, err
		}
		// The features are compared each with every profile's: a list
		// of 200,000 spun the runner for hours, deaf to its deadline.
		if n := len(r.Spec.Features); n > protocol.MaxFeatures {
			return conformance.Hello{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("init of %s: spec.features: %d features, more than %d", game, n, protocol.MaxFeatures)}
		}
		for _, f := range r.Spec.Features {
			if err := longest("init of "+game+": a feature", f, protocol.MaxProfileLength); err != nil {
				return conformance.Hello{}, err
			}
		}
		if _, dup := h.specs[r.Spec.Profile]; dup {
			continue // a profile served twice counts once
		}
		h.specs[r.Spec.Profile] = *r.Spec
		hello.Profiles = append(hello.Profiles, r.Spec.Profile)
	}
	// Each game is one profile, on its own board: the features every game
	// has hold under every profile, the others under their game's only
	// (a 3x3 game's size is not the 4x4 games').
	hello.Features = slices.DeleteFunc(slices.Clone(h.specs[hello.Profiles[0]].Features), func(f string) bool {
		return slices.ContainsFunc(hello.Profiles, func(p string) bool { return !slices.Contains(h.specs[p].Features, f) })
	})
	for _, p := range hello.Profiles {
		for _, f := range h.specs[p].Features {
			if !slices.Contains(hello.Features, f) {
				if hello.ProfileFeatures == nil {
					hello.ProfileFeatures = map[string][]string{}
				}
				hello.ProfileFeatures[p] = append(hello.ProfileFeatures[p], f)
			}
		}
	}
	h.hello = &hello
	return hello, nil
}

// legalMoves reads the moves of an answer's legalActions (the other
// actions are not moves); a move in an unknown direction, or more moves
// than there are directions, is a protocol error, as on the exec
// protocol (where a direction listed twice is one too).
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
		if out = append(out, d); len(out) > len(engine.Directions) {
			// A list past the four directions is kept, and quoted, by
			// every check that compares it: hundreds of thousands of
			// moves in an answer would cost megabytes a failing check.
			return nil, &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("legalActions: more than %d moves", len(engine.Directions))}
		}
	}
	return out, nil
}

// notRun is the failure of a request once the run's context is done.
func (h *HTTP) notRun(run context.Context) error {
	return &conformance.DriverError{Status: conformance.NotRun, Msg: "not run: " + context.Cause(run).Error()}
}

// httpClient returns the driver's client, made on first use; each
// request's context bounds its time.
func (h *HTTP) httpClient() *http.Client {
	if h.client == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = httpWorkers // PlayAll's connections stay open
		h.client = &http.Client{Transport: tr, CheckRedirect: h.checkRedirect}
	}
	return h.client
}

// offsiteRedirect is a redirect to another host than the implementation's:
// the driver does not follow it (it would make the runner request any
// address the implementation names).
type offsiteRedirect struct{ to string }

func (r *offsiteRedirect) Error() string {
	return fmt.Sprintf("a redirect to %q, off the implementation's host, not followed", safetext.Cut(r.to, 200))
}

// checkRedirect follows a redirect within the implementation's own scheme
// and host (at most 10, as the default client does), and refuses any
// other.
func (h *HTTP) checkRedirect(req *http.Request, via []*http.Request) error {
	base, err := url.Parse(h.BaseURL)
	if err != nil || req.URL.Scheme != base.Scheme || req.URL.Host != base.Host {
		return &offsiteRedirect{to: req.URL.Redacted()}
	}
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	return nil
}

// take reads the state of an answer and carries it in g; err is the
// request's failure or refusal, returned as it is.
func (g *httpGame) take(r *httpResponse, err error) (conformance.ImplState, error) {
	if err != nil {
		return conformance.ImplState{}, err
	}
	if r.Observation == nil || r.State == nil {
		return conformance.ImplState{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: "the answer has no state or observation"}
	}
	o := r.Observation
	if err := longest("observation.result", o.Result, protocol.MaxNameLength); err != nil {
		return conformance.ImplState{}, err
	}
	st, err := fromWire(protocol.WireState{Board: o.Board, Score: o.Score, Moves: o.Moves, Won: o.Won, Over: o.Over, Result: o.Result}, "observation.board")
	if err != nil {
		return conformance.ImplState{}, err
	}
	if g.legal, err = r.legalMoves(); err != nil {
		return conformance.ImplState{}, err
	}
	g.state = r.State
	return st, nil
}

// New starts a game with a tp1 seed.
func (h *HTTP) New(profile, seed string, setup *engine.Setup) (conformance.ImplState, error) {
	if setup != nil {
		return conformance.ImplState{}, &conformance.RuleError{Code: protocol.ErrorUnsupported, Message: "the HTTP API has no setup"}
	}
	if _, err := h.Hello(); err != nil {
		return conformance.ImplState{}, err
	}
	h.game = httpGame{name: h.specs[profile].Game}
	return h.game.take(h.do("GET", "/api/games/"+url.PathEscape(h.game.name)+"/init?seed="+url.QueryEscape(seed), nil))
}

// Load builds a state in the server's state format (tileproof/1) and
// carries it: the server must take unsigned states (feature load-state).
func (h *HTTP) Load(profile string, st conformance.LoadState) (conformance.ImplState, error) {
	if _, err := h.Hello(); err != nil {
		return conformance.ImplState{}, err
	}
	h.loads++
	return h.load(&h.game, profile, st, h.loads)
}

// load starts g from st, the n-th state loaded (its generator's seed).
func (h *HTTP) load(g *httpGame, profile string, st conformance.LoadState, n int) (conformance.ImplState, error) {
	if st.Setup != nil {
		return conformance.ImplState{}, &conformance.RuleError{Code: protocol.ErrorUnsupported, Message: "the HTTP API has no setup"}
	}
	spec := h.specs[profile]
	if spec.StateFormat != protocol.StateFormat {
		return conformance.ImplState{}, &conformance.RuleError{Code: protocol.ErrorUnsupported, Message: "the server's states are " + spec.StateFormat}
	}
	ws := protocol.GameState{Format: protocol.StateFormat, Game: spec.Game, Rules: spec.Rules, Board: st.Board.Values(),
		Score: st.Score, Moves: st.Moves, Won: st.Won, KeepPlaying: st.KeepPlaying, Result: "playing",
		RNG: fmt.Sprintf("%016x", uint64(n)*0x9E3779B97F4A7C15)}
	g.name = spec.Game
	g.state, _ = json.Marshal(ws)
	// The server reads the state through the rules (a blocked board is
	// over at once): observe asks it, changing nothing.
	return g.take(h.post(g, protocol.ActionBody{Type: "observe"}))
}

func (h *HTTP) post(g *httpGame, action protocol.ActionBody) (*httpResponse, error) {
	if g.state == nil {
		return nil, &conformance.DriverError{Status: conformance.ProtocolError, Msg: "an action before init or load"}
	}
	r, err := h.do("POST", "/api/games/"+url.PathEscape(g.name)+"/action", struct {
		State  json.RawMessage      `json:"state"`
		Action *protocol.ActionBody `json:"action"`
	}{g.state, &action})
	if err != nil {
		return nil, err
	}
	if !r.OK {
		if err := longest(action.Type+": error", r.Error, protocol.MaxNameLength); err != nil {
			return nil, err
		}
		if err := longest(action.Type+": reason", r.Reason, protocol.MaxMessageLength); err != nil {
			return nil, err
		}
		if g.legal, err = r.legalMoves(); err != nil {
			return nil, err
		}
		return nil, &conformance.RuleError{Code: r.Error, Message: r.Reason}
	}
	return r, nil
}

// longest returns a protocol error when s, what the server sent as
// field, has more than max characters: the exec protocol's limits
// (protocol.MaxNameLength, MaxMessageLength), held to a server too. Its
// text goes into every report, and a refusal's into each failing
// check's: 16 MiB reasons took a run past 20 GB.
func longest(field, s string, max int) error {
	if len(s) <= max {
		return nil // no more bytes than characters allowed
	}
	if n := utf8.RuneCountInString(s); n > max {
		return &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%s: %d characters, more than %d", field, n, max)}
	}
	return nil
}

// Move posts a move.
func (h *HTTP) Move(d engine.Direction, spawn *engine.Spawn) (conformance.MoveResult, error) {
	return h.move(&h.game, d, spawn)
}

func (h *HTTP) move(g *httpGame, d engine.Direction, spawn *engine.Spawn) (conformance.MoveResult, error) {
	r, err := h.post(g, protocol.ActionBody{Type: "move", Direction: d.String(), Spawn: spawn})
	st, err := g.take(r, err)
	if err != nil {
		return conformance.MoveResult{}, err
	}
	if r.Changed == nil {
		return conformance.MoveResult{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: "move: the answer has no \"changed\""}
	}
	mr := conformance.MoveResult{Changed: *r.Changed, State: st, Spawn: r.Spawn}
	if r.Gained != nil {
		mr.Gained = *r.Gained
	}
	return mr, nil
}

// PlayAll plays games of one move each, httpWorkers at once, each a state
// loaded (an observe) and a move. At the first game that fails other than
// by a refusal no further game is begun: the games begun finish, and the
// others fail as not run, with the reason.
func (h *HTTP) PlayAll(profile string, games []conformance.OneMove) []conformance.OneMoveResult {
	out := make([]conformance.OneMoveResult, len(games))
	if _, err := h.Hello(); err != nil {
		for i := range out {
			out[i].Err = err
		}
		return out
	}
	base := h.loads
	h.loads += len(games)
	h.httpClient() // made before the workers share it
	var next atomic.Int64
	var failed atomic.Bool
	var failure atomic.Pointer[conformance.DriverError]
	var wg sync.WaitGroup
	for range min(httpWorkers, len(games)) {
		wg.Go(func() {
			for !failed.Load() {
				i := int(next.Add(1)) - 1
				if i >= len(games) {
					return
				}
				var g httpGame
				r := &out[i]
				if _, r.Err = h.load(&g, profile, games[i].State, base+i+1); r.Err == nil {
					r.Move, r.Err = h.move(&g, games[i].Move, nil)
				}
				r.Err = keptRefusal(r.Err)
				if de, ok := errors.AsType[*conformance.DriverError](r.Err); ok {
					failure.CompareAndSwap(nil, de)
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	if de := failure.Load(); de != nil {
		for i := int(min(next.Load(), int64(len(games)))); i < len(games); i++ {
			out[i].Err = &conformance.DriverError{Status: de.Status, Msg: "not run: a game of the batch failed before it: " + de.Msg}
		}
	}
	return out
}

// Legal returns the legal moves of the last answer.
func (h *HTTP) Legal() ([]engine.Direction, error) { return slices.Clone(h.game.legal), nil }

// Do posts undo, end-run or keep-playing.
func (h *HTTP) Do(action string) (conformance.ImplState, error) {
	return h.game.take(h.post(&h.game, protocol.ActionBody{Type: action}))
}

// Close does nothing: the server keeps no game.
func (h *HTTP) Close() error { return nil }
