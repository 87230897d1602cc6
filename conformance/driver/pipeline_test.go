package driver

import (
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/server"
)

var classicBoard, _ = engine.ParseBoard("2 . . ./. . . ./. . . ./. . . .")

// randomGames returns n games of one move on random boards, a quarter of
// the moves ones that change nothing.
func randomGames(n int, seed uint64) []conformance.OneMove {
	rng := rand.New(rand.NewPCG(seed, 1))
	games := make([]conformance.OneMove, n)
	for i := range games {
		b, _ := engine.NewBoard(4, 4)
		for c := range 16 {
			if rng.IntN(3) == 0 {
				b.Set(c/4, c%4, 2<<rng.IntN(5))
			}
		}
		if b.Empty() == 16 {
			b.Set(0, 0, 2)
		}
		games[i] = conformance.OneMove{State: conformance.LoadState{Board: b}, Move: engine.Directions[rng.IntN(4)]}
	}
	return games
}

// oneByOne plays games as the property checks do without a Pipeliner.
func oneByOne(impl interface {
	conformance.Impl
	conformance.Loader
}, profile string, games []conformance.OneMove) []conformance.OneMoveResult {
	out := make([]conformance.OneMoveResult, len(games))
	for i, g := range games {
		if _, out[i].Err = impl.Load(profile, g.State); out[i].Err == nil {
			out[i].Move, out[i].Err = impl.Move(g.Move, nil)
		}
	}
	return out
}

// sameResults compares two batches' results, refusals by their word.
func sameResults(t *testing.T, got, want []conformance.OneMoveResult) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d results, want %d", len(got), len(want))
	}
	refusals := 0
	for i := range got {
		var g, w *conformance.RuleError
		errors.As(got[i].Err, &g)
		errors.As(want[i].Err, &w)
		switch {
		case (got[i].Err == nil) != (want[i].Err == nil) || (g == nil) != (w == nil):
			t.Fatalf("game %d: %v, want %v", i, got[i].Err, want[i].Err)
		case g != nil && g.Code != w.Code:
			t.Fatalf("game %d: refused as %s, want %s", i, g.Code, w.Code)
		case g != nil:
			refusals++
		case got[i].Err != nil:
			t.Fatalf("game %d: %v", i, got[i].Err)
		case !reflect.DeepEqual(got[i].Move, want[i].Move):
			t.Fatalf("game %d: %+v, want %+v", i, got[i].Move, want[i].Move)
		}
	}
	if refusals == 0 || refusals == len(got) {
		t.Errorf("%d refusals in %d games: the batch does not mix them", refusals, len(got))
	}
}

// TestPlayAllAsOneByOne: the games of a pipelined batch come out as the
// same games played one request at a time, refusals of moves that change
// nothing (tile-merge) included: the adapter draws the spawns of loaded
// games from its own generator in the order of the loads, so the two
// runs see the same tiles.
func TestPlayAllAsOneByOne(t *testing.T) {
	t.Parallel()
	games := randomGames(500, 7)
	a, b := adapter(t), adapter(t)
	defer a.Close()
	defer b.Close()
	sameResults(t, a.PlayAll("tile-merge", games), oneByOne(b, "tile-merge", games))
	// A batch after a batch, and after single requests: ids go on.
	sameResults(t, a.PlayAll("tile-merge", games[:100]), oneByOne(b, "tile-merge", games[:100]))
	if _, err := a.Load("classic", conformance.LoadState{Board: classicBoard}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Load("classic", conformance.LoadState{Board: classicBoard}); err != nil {
		t.Fatal(err)
	}
	sameResults(t, a.PlayAll("tile-merge", games[100:]), oneByOne(b, "tile-merge", games[100:]))
}

// TestPlayAllFailure: a crash and a hang in the middle of a batch fail
// that game; the games after it are not run (not played on a process
// that is gone, nor each waiting its timeout); the next request starts
// the adapter again.
func TestPlayAllFailure(t *testing.T) {
	t.Parallel()
	games := randomGames(20, 3)
	for i := range games {
		games[i].State.Board = classicBoard
		games[i].Move = engine.Right // a move that changes the board: every game moves
	}
	for hook, want := range map[string]conformance.Status{"crash-on-move": conformance.Crash, "hang-on-move": conformance.Timeout} {
		t.Run(hook, func(t *testing.T) {
			// The timeout also bounds the answers of the four games that
			// pass, which a loaded machine delays: 2 s, not 1 (an answer
			// took over 300 ms at load 14). One timeout is 2 s of the
			// batch, under 4 timeouts' time; one a game would be 16.
			e := adapter(t, "--mutant", hook)
			e.Timeout = 2 * time.Second
			defer e.Close()
			start := time.Now()
			out := e.PlayAll("classic", games)
			if elapsed := time.Since(start); elapsed > 4*e.Timeout {
				t.Errorf("the batch took %v", elapsed)
			}
			for i, r := range out {
				switch {
				case i < 4 && r.Err != nil:
					t.Errorf("game %d: %v", i+1, r.Err)
				case i == 4:
					wantDriverError(t, r.Err, want, "move (request 11)")
				case i > 4:
					wantDriverError(t, r.Err, want, "not run: game 5 of 20 of the batch failed before it")
				}
			}
			if _, err := e.Load("classic", conformance.LoadState{Board: classicBoard}); err != nil {
				t.Errorf("after the batch: %v", err)
			}
		})
	}
}

// TestPlayAllRefusedLoad: a game whose load is refused gets the refusal;
// its move, already sent, played on the game before, and its answer is
// dropped; the games after it are played as if it were not there.
func TestPlayAllRefusedLoad(t *testing.T) {
	games := randomGames(6, 5)
	bad := games[2]
	bad.State.Setup = &engine.Setup{Target: 512} // classic has no choice of target
	a, b := adapter(t), adapter(t)
	defer a.Close()
	defer b.Close()
	out := a.PlayAll("classic", append(append(games[:2:2], bad), games[2:]...))
	var re *conformance.RuleError
	if !errors.As(out[2].Err, &re) || re.Code != "unsupported" {
		t.Fatalf("the refused load: %v", out[2].Err)
	}
	out = append(out[:2], out[3:]...)
	want := oneByOne(b, "classic", games[:2])
	b.Load("classic", bad.State) // the adapter draws for a load only when it takes it: nothing to match here
	want = append(want, oneByOne(b, "classic", games[2:])...)
	for i := range want {
		if !reflect.DeepEqual(out[i], want[i]) {
			t.Errorf("game %d: %+v, want %+v", i, out[i], want[i])
		}
	}
}

// TestPlayAllWindow: a batch keeps at most window requests unanswered. An
// implementation that answers only once 64 requests wait gets them (and
// plays the batch); one that waits for 65 never does.
func TestPlayAllWindow(t *testing.T) {
	t.Parallel()
	games := randomGames(100, 1)
	e := &Exec{Command: fake(t, "window 64"), Timeout: 2 * time.Second, Stderr: io.Discard}
	defer e.Close()
	for i, r := range e.PlayAll("classic", games) {
		if r.Err != nil {
			t.Fatalf("window 64, game %d: %v", i+1, r.Err)
		}
	}
	e2 := &Exec{Command: fake(t, "window 65"), Timeout: time.Second, Stderr: io.Discard}
	defer e2.Close()
	out := e2.PlayAll("classic", games)
	wantDriverError(t, out[0].Err, conformance.Timeout, "load (request 2): no answer within 1s")
}

// TestHTTPPlayAll: through the HTTP driver a batch is played on several
// connections at once, at most httpWorkers, and comes out as the same
// games played one at a time (each load's generator is its number in the
// run, whatever the order the requests finish in).
func TestHTTPPlayAll(t *testing.T) {
	t.Parallel()
	srv := builtinServer(t)
	var inFlight, most atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(200 * time.Microsecond) // long enough for requests to overlap
		srv.ServeHTTP(w, r)
		inFlight.Add(-1)
	}))
	defer ts.Close()
	games := randomGames(300, 9)
	got := (&HTTP{BaseURL: ts.URL}).PlayAll("tile-merge", games)
	if m := most.Load(); m < 2 || m > httpWorkers {
		t.Errorf("at most %d requests in flight, want 2 to %d", m, httpWorkers)
	}
	most.Store(0)
	want := oneByOne(&HTTP{BaseURL: ts.URL}, "tile-merge", games)
	if m := most.Load(); m != 1 {
		t.Errorf("one at a time: %d in flight", m)
	}
	sameResults(t, got, want)
}

// TestHTTPPlayAllStops: once a game of a batch fails (the server stops
// answering properly), no further game is begun: the rest are not run.
func TestHTTPPlayAllStops(t *testing.T) {
	p, _ := engine.BuiltinProfile("classic")
	srv, err := server.New([]*engine.Profile{p}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var posts atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" && posts.Add(1) > 40 {
			http.Error(w, "gone", http.StatusServiceUnavailable)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	defer ts.Close()
	out := (&HTTP{BaseURL: ts.URL}).PlayAll("classic", randomGames(1000, 2))
	first := -1
	for i, r := range out {
		if r.Err != nil && !isRefusal(r.Err) {
			first = i
			break
		}
	}
	if first < 0 || first > 40 {
		t.Fatalf("the first failure at game %d", first+1)
	}
	wantDriverError(t, out[first].Err, conformance.ProtocolError, "HTTP 503")
	if n := posts.Load(); n > 40+2*httpWorkers {
		t.Errorf("%d actions posted for 20 games and a failure", n)
	}
	if last := out[len(out)-1].Err; last == nil || !strings.Contains(last.Error(), "not run: a game of the batch failed before it") {
		t.Errorf("the last game: %v", last)
	}
}

func isRefusal(err error) bool {
	var re *conformance.RuleError
	return errors.As(err, &re)
}

// TestHTTPRedirectOffHost: a server that redirects to another host (here
// another loopback port) does not make the runner request it: the request
// fails as a protocol error naming the redirect, and the other server
// sees nothing. A redirect within the implementation's own host is
// followed.
func TestHTTPRedirectOffHost(t *testing.T) {
	var hits atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, `{"games":["classic"]}`)
	}))
	defer other.Close()
	impl := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	}))
	defer impl.Close()
	h := &HTTP{BaseURL: impl.URL, Timeout: 2 * time.Second}
	_, err := h.Hello()
	wantDriverError(t, err, conformance.ProtocolError, "GET /api/games: a redirect to", "off the implementation's host, not followed")
	if n := hits.Load(); n != 0 {
		t.Errorf("the other server got %d requests", n)
	}

	// Within its own host: /api/... moved to /v2/api/..., followed.
	p, _ := engine.BuiltinProfile("classic")
	srv, err := server.New([]*engine.Profile{p}, nil)
	if err != nil {
		t.Fatal(err)
	}
	moved := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.Path, "/v2"); ok {
			r.URL.Path = rest
			srv.ServeHTTP(w, r)
			return
		}
		http.Redirect(w, r, "/v2"+r.URL.RequestURI(), http.StatusFound)
	}))
	defer moved.Close()
	if hello, err := (&HTTP{BaseURL: moved.URL}).Hello(); err != nil || len(hello.Profiles) != 1 {
		t.Errorf("a redirect within the host: %+v, %v", hello, err)
	}
}
