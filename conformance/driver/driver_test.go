package driver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/conformance/internal/adaptertest"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/server"
)

// adapter returns the exec driver of the reference adapter run with args.
func adapter(t testing.TB, args ...string) *Exec {
	var stderr bytes.Buffer
	return &Exec{Command: adaptertest.Command(t, args...), Stderr: &stderr}
}

// TestExecAdapterPasses runs the whole pack and the properties through the
// exec driver against the reference adapter (conformance/testdata/adapter),
// an independent implementation of every profile: nothing may fail.
func TestExecAdapterPasses(t *testing.T) {
	t.Parallel() // beside the mutants and the hooks: each mostly waits for its process
	impl := adapter(t)
	defer impl.Close()
	rep, err := conformance.Run(t.Context(), adaptertest.Pack(t), impl, conformance.Options{Properties: true})
	if err != nil {
		t.Fatal(err)
	}
	failed, _ := rep.Failures()
	for _, f := range failed {
		t.Errorf("%s [%s]: %s: %s\n%s", f.Case, f.Profile, f.Status, f.Reason, f.Diff())
	}
	if _, total := rep.Summaries(); total.Skipped > 0 || total.Passed < 600 {
		t.Errorf("%+v", total)
	}
}

// TestMutantsCaught runs the pack against every broken variant of the
// adapter's catalogue: each must fail at least one case (or, for the
// statistical ones, a property), and the test names what caught it.
func TestMutantsCaught(t *testing.T) {
	t.Parallel() // its runs beside TestExecAdapterPasses's and the hooks'
	bin, err := adaptertest.Build()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--list-mutants").Output()
	if err != nil {
		t.Fatal(err)
	}
	pack := adaptertest.Pack(t)
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, _, _ := strings.Cut(line, "\t")
		if !strings.HasSuffix(name, "-on-move") && !strings.HasSuffix(name, "-on-legal") {
			names = append(names, name)
		}
	}
	if len(names) < 20 {
		t.Fatalf("the catalogue has %d mutants", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			impl := adapter(t, "--mutant", name)
			defer impl.Close()
			// One failure catches it: each run ends at its first.
			rep, err := conformance.Run(t.Context(), pack, impl, conformance.Options{FailFast: true})
			if err != nil {
				t.Fatal(err)
			}
			failed, _ := rep.Failures()
			if len(failed) == 0 {
				rep, err = conformance.Run(t.Context(), pack, impl, conformance.Options{Properties: true, Run: regexp.MustCompile(`^properties/`), FailFast: true})
				if err != nil {
					t.Fatal(err)
				}
				failed, _ = rep.Failures()
			}
			if len(failed) == 0 {
				t.Fatalf("mutant %s passes every case and property", name)
			}
			f := failed[0]
			t.Logf("%s: caught by %s [%s] %s", name, f.Case, f.Profile, f.Status)
		})
	}
}

// TestExecFailures drives the adapter's hooks: a crash, a hang and a line
// that is not JSON each fail that case with crash, timeout or
// protocol-error, and the runner restarts the process and goes on.
//
// The rosetta cases are enough: each process fails at its 5th move
// request, so they give each hook several failures (six hangs), each
// with passes after it. A hang costs its timeout and a restart: the
// rosetta and line cases (24 hangs) took four times as long to show the
// same.
func TestExecFailures(t *testing.T) {
	t.Parallel() // beside the other adapter runs, after the timing-bound tests
	pack := adaptertest.Pack(t)
	for hook, want := range map[string]conformance.Status{"crash-on-move": conformance.Crash, "hang-on-move": conformance.Timeout, "garbage-on-legal": conformance.ProtocolError} {
		t.Run(hook, func(t *testing.T) {
			t.Parallel()
			impl := adapter(t, "--mutant", hook)
			impl.Timeout = 300 * time.Millisecond
			defer impl.Close()
			rep, err := conformance.Run(t.Context(), pack, impl, conformance.Options{Run: regexp.MustCompile(`^rosetta/`)})
			if err != nil {
				t.Fatal(err)
			}
			seen, passedAfter := false, false
			for _, r := range rep.Results {
				if r.Status == want {
					seen = true
				}
				if seen && r.Status == conformance.Pass {
					passedAfter = true
				}
			}
			if !seen || !passedAfter {
				t.Errorf("%s: a %s result %v, a pass after it %v", hook, want, seen, passedAfter)
			}
		})
	}
}

// builtinServer is tileproof's server of every built-in profile.
func builtinServer(t *testing.T) *server.Server {
	t.Helper()
	var ps []*engine.Profile
	for _, name := range engine.BuiltinNames() {
		p, _ := engine.BuiltinProfile(name)
		ps = append(ps, p)
	}
	srv, err := server.New(ps, nil)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestHTTPDriver runs the pack through the HTTP driver against tileproof's
// server over a real socket, every built-in profile a game of its own:
// everything it can run passes. What it skips is a setup (its games are
// fixed); a board of another size than a game's, and the actions a game
// offers only under its own profile (keep playing in classic, undo and
// End run in online-2048), are not applicable under the other profiles.
func TestHTTPDriver(t *testing.T) {
	srv := builtinServer(t)
	srv.ForcedSpawns = true
	ts := httptest.NewServer(srv)
	defer ts.Close()
	rep, err := conformance.Run(t.Context(), adaptertest.Pack(t), &HTTP{BaseURL: ts.URL}, conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	failed, _ := rep.Failures()
	for _, f := range failed {
		t.Errorf("%s [%s]: %s: %s\n%s", f.Case, f.Profile, f.Status, f.Reason, f.Diff())
	}
	for _, r := range rep.Results {
		if r.Status == conformance.Skip && !r.NotApplicable && r.Reason != "needs setup" {
			t.Errorf("%s [%s] skipped: %s", r.Case, r.Profile, r.Reason)
		}
	}
	if rep.Impl.Name != server.Name || rep.Impl.Version != server.Version {
		t.Errorf("the report names the implementation %q %q, want the server's %q %q", rep.Impl.Name, rep.Impl.Version, server.Name, server.Version)
	}
	_, total := rep.Summaries()
	t.Logf("through HTTP: %+v", total)
}

// TestHTTPDriverSpawnKeys checks what the HTTP driver puts on the wire for
// a forced spawn: the lower-case keys of docs/api.md, which a server in any
// language reads (Go's decoder would also take other cases).
func TestHTTPDriverSpawnKeys(t *testing.T) {
	p, _ := engine.BuiltinProfile("classic")
	srv, err := server.New([]*engine.Profile{p}, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv.ForcedSpawns = true
	var bodies []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(body))
		r.Body = io.NopCloser(bytes.NewReader(body))
		srv.ServeHTTP(w, r)
	}))
	defer ts.Close()
	h := &HTTP{BaseURL: ts.URL}
	if _, err := h.New("classic", "7", nil); err != nil {
		t.Fatal(err)
	}
	g, _ := engine.NewGame(p, "7")
	d := g.LegalMoves()[0]
	sl, _ := g.Board().Slide(d)
	sp := engine.Spawn{Value: 2}
	for i := range 16 {
		if sl.Board.At(i/4, i%4) == 0 {
			sp.Row, sp.Col = i/4, i%4
			break
		}
	}
	mr, err := h.Move(d, &sp)
	if err != nil || mr.Spawn == nil || *mr.Spawn != sp {
		t.Fatalf("move %s with spawn %+v: %+v, %v", d, sp, mr, err)
	}
	want := fmt.Sprintf(`"spawn":{"row":%d,"col":%d,"value":2}`, sp.Row, sp.Col)
	if last := bodies[len(bodies)-1]; !strings.Contains(last, want) {
		t.Errorf("the action sent is %s, without %s", last, want)
	}
}

// TestHTTPLegalMoves: the HTTP driver reads the moves among legalActions
// and, like the exec driver, calls a move in an unknown direction a
// protocol error.
func TestHTTPLegalMoves(t *testing.T) {
	var r httpResponse
	json.Unmarshal([]byte(`{"legalActions":[{"type":"move","direction":"up"},{"type":"undo"},{"type":"move","direction":"left"}]}`), &r)
	got, err := r.legalMoves()
	if err != nil || !slices.Equal(got, []engine.Direction{engine.Up, engine.Left}) {
		t.Errorf("legalMoves = %v, %v; want [up left]", got, err)
	}
	json.Unmarshal([]byte(`{"legalActions":[{"type":"move","direction":"sideways"}]}`), &r)
	var de *conformance.DriverError
	if _, err := r.legalMoves(); !errors.As(err, &de) || de.Status != conformance.ProtocolError {
		t.Errorf("a move sideways: %v, want a protocol error", err)
	}
}

// FuzzHTTPAnswer feeds arbitrary answers to what the HTTP driver makes of
// a server's response: an error or a state, never a panic.
func FuzzHTTPAnswer(f *testing.F) {
	f.Add([]byte(`{"ok":true,"state":{"x":1},"observation":{"board":[[2,0],[0,0]],"score":4,"moves":1},"legalActions":[{"type":"move","direction":"up"},{"type":"move","direction":"sideways"}]}`))
	f.Add([]byte(`{"ok":true,"state":{},"observation":{"board":[]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r httpResponse
		if json.Unmarshal(data, &r) != nil {
			return
		}
		var g httpGame
		if st, err := g.take(&r, nil); err == nil && st.Board.Rows() == 0 {
			t.Fatalf("a state without a board from %q", data)
		}
	})
}

// TestBoardDivergenceBoards runs a broken implementation (merge priority
// reversed) on the merge-priority cases: a board divergence carries the
// step's start board, the rules' board and the implementation's, as text
// grids equal to what the case and the engine say, in the JSON report and
// side by side in the text report.
func TestBoardDivergenceBoards(t *testing.T) {
	impl := adapter(t, "--mutant", "merge-priority-reversed")
	defer impl.Close()
	pack := adaptertest.Pack(t)
	rep, err := conformance.Run(t.Context(), pack, impl, conformance.Options{Run: regexp.MustCompile(`^core/priority-three-equal-left$`), Profiles: []string{"classic"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 {
		t.Fatalf("%d results", len(rep.Results))
	}
	res := rep.Results[0]
	var c *conformance.Case
	for _, pc := range pack.Cases {
		if pc.Name() == res.Case {
			c = pc
		}
	}
	if res.Status != conformance.BoardDiverged || res.Step != 1 {
		t.Fatalf("status %s at step %d", res.Status, res.Step)
	}
	if res.Start == nil || *res.Start != *c.Start.Board {
		t.Errorf("start\n%s\nwant the case's start\n%s", res.Start, c.Start.Board)
	}
	want := c.Steps[0].Expect.Board
	if res.Want == nil || *res.Want != *want {
		t.Errorf("want\n%s\nis not the case's expected board\n%s", res.Want, want)
	}
	// The implementation merged the far pair first: 2 2 2 -> 2 4.
	got := *res.Got
	if got.At(0, 0) != 2 || got.At(0, 1) != 4 || got.At(0, 2) != 0 {
		t.Errorf("got\n%s", res.Got)
	}

	var text bytes.Buffer
	rep.WriteText(&text, false)
	for _, line := range []string{
		"      before step 1   the rules give   the implementation\n",
		"      2 2 2 .         4 2 . .          2 4 . .             <\n",
		"      . . . .         . . . .          . . . .\n",
	} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("the text report lacks %q:\n%s", line, text.String())
		}
	}

	// The boards survive the JSON report.
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	back, err := conformance.ReadReport(&js)
	if err != nil {
		t.Fatal(err)
	}
	if b := back.Results[0]; *b.Start != *res.Start || *b.Want != *res.Want || *b.Got != *res.Got {
		t.Errorf("read back %+v", b)
	}
}

// oneAtATime hides a driver's PlayAll: the property checks then play
// their games one request at a time, as they did before drivers could
// pipeline.
type oneAtATime struct{ d pipelined }

type pipelined interface {
	conformance.Impl
	conformance.Loader
	conformance.LegalLister
	conformance.Doer
}

func (o oneAtATime) Hello() (conformance.Hello, error) { return o.d.Hello() }
func (o oneAtATime) New(p, s string, su *engine.Setup) (conformance.ImplState, error) {
	return o.d.New(p, s, su)
}
func (o oneAtATime) Load(p string, st conformance.LoadState) (conformance.ImplState, error) {
	return o.d.Load(p, st)
}
func (o oneAtATime) Move(d engine.Direction, sp *engine.Spawn) (conformance.MoveResult, error) {
	return o.d.Move(d, sp)
}
func (o oneAtATime) Legal() ([]engine.Direction, error)         { return o.d.Legal() }
func (o oneAtATime) Do(a string) (conformance.ImplState, error) { return o.d.Do(a) }
func (o oneAtATime) Close() error                               { return o.d.Close() }

// BenchmarkSuite runs the whole pack, without and with the property
// checks, against the engine in-process, against the reference adapter
// over the exec protocol and against tileproof's server over HTTP (on a
// real socket), in the same run. It reports cases per second and, for
// the drivers, the ratio of a run's time to the engine's ("x-builtin").
// The drivers run as they are (their PlayAll pipelines the property
// checks' games) and, for the properties, one request at a time
// ("one-by-one", PlayAll hidden) as before they could.
func BenchmarkSuite(b *testing.B) {
	pack := adaptertest.Pack(b)
	// The five profiles of the source documents: the ones every driver
	// here plays.
	profiles := []string{"classic", "tile-merge", "pgs", "online-2048", "rosetta"}
	var ps []*engine.Profile
	for _, name := range profiles {
		p, _ := engine.BuiltinProfile(name)
		ps = append(ps, p)
	}
	srv, err := server.New(ps, nil)
	if err != nil {
		b.Fatal(err)
	}
	srv.ForcedSpawns = true
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, props := range []bool{false, true} {
		name := "cases"
		if props {
			name = "properties"
		}
		var builtin time.Duration // one run's time against the engine
		for _, impl := range []struct {
			name string
			new  func() conformance.Impl
		}{
			{"builtin", func() conformance.Impl { return &conformance.Builtin{} }},
			{"exec-adapter", func() conformance.Impl { return &Exec{Command: adaptertest.Command(b)} }},
			{"exec-adapter-one-by-one", func() conformance.Impl { return oneAtATime{&Exec{Command: adaptertest.Command(b)}} }},
			{"http-server", func() conformance.Impl { return &HTTP{BaseURL: ts.URL} }},
			{"http-server-one-by-one", func() conformance.Impl { return oneAtATime{&HTTP{BaseURL: ts.URL}} }},
		} {
			if !props && strings.HasSuffix(impl.name, "-one-by-one") {
				continue // the cases do not pipeline
			}
			b.Run(name+"/"+impl.name, func(b *testing.B) {
				im := impl.new()
				defer im.Close()
				if _, err := im.Hello(); err != nil {
					b.Fatal(err)
				}
				n := 0
				for b.Loop() {
					rep, err := conformance.Run(b.Context(), pack, im, conformance.Options{Properties: props, Profiles: profiles})
					if err != nil {
						b.Fatal(err)
					}
					if failed, _ := rep.Failures(); len(failed) > 0 && !strings.HasPrefix(impl.name, "http") {
						b.Fatalf("%d failures, the first %s: %s", len(failed), failed[0].Key(), failed[0].Reason)
					}
					n += len(rep.Results)
				}
				per := b.Elapsed() / time.Duration(b.N)
				b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "cases/s")
				if impl.name == "builtin" {
					builtin = per
				} else if builtin > 0 {
					b.ReportMetric(float64(per)/float64(builtin), "x-builtin")
				}
			})
		}
	}
}
