package conformance

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

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/server"
)

// TestExecAdapterPasses runs the whole pack and the properties through the
// exec driver against the reference adapter (conformance/testdata/adapter),
// an independent implementation of every profile: nothing may fail.
func TestExecAdapterPasses(t *testing.T) {
	impl := adapter(t)
	defer impl.Close()
	rep, err := Run(loadRepoPack(t), impl, Options{Properties: true})
	if err != nil {
		t.Fatal(err)
	}
	failed, _ := rep.Failures()
	for _, f := range failed {
		t.Errorf("%s [%s]: %s: %s\n%s", f.Case, f.Profile, f.Status, f.Reason, f.Diff)
	}
	if _, total := rep.Summaries(); total.Skipped > 0 || total.Passed < 600 {
		t.Errorf("%+v", total)
	}
}

// TestMutantsCaught runs the pack against every broken variant of the
// adapter's catalogue: each must fail at least one case (or, for the
// statistical ones, a property), and the test names what caught it.
func TestMutantsCaught(t *testing.T) {
	bin, err := buildAdapter()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--list-mutants").Output()
	if err != nil {
		t.Fatal(err)
	}
	pack := loadRepoPack(t)
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
			impl := adapter(t, "--mutant", name)
			defer impl.Close()
			rep, err := Run(pack, impl, Options{})
			if err != nil {
				t.Fatal(err)
			}
			failed, _ := rep.Failures()
			if len(failed) == 0 {
				rep, err = Run(pack, impl, Options{Properties: true, Run: regexp.MustCompile(`^properties/`)})
				if err != nil {
					t.Fatal(err)
				}
				failed, _ = rep.Failures()
			}
			if len(failed) == 0 {
				t.Fatalf("mutant %s passes every case and property", name)
			}
			var caught []string
			for _, f := range failed[:min(3, len(failed))] {
				caught = append(caught, f.Case+" ["+f.Profile+"] "+string(f.Status))
			}
			t.Logf("%s: caught by %d checks, first %s", name, len(failed), strings.Join(caught, "; "))
		})
	}
}

// TestExecFailures drives the adapter's hooks: a crash, a hang and a line
// that is not JSON each fail that case with crash, timeout or
// protocol-error, and the runner restarts the process and goes on.
func TestExecFailures(t *testing.T) {
	pack := loadRepoPack(t)
	for hook, want := range map[string]Status{"crash-on-move": Crash, "hang-on-move": Timeout, "garbage-on-legal": ProtocolError} {
		t.Run(hook, func(t *testing.T) {
			impl := adapter(t, "--mutant", hook)
			impl.Timeout = 300 * time.Millisecond
			defer impl.Close()
			rep, err := Run(pack, impl, Options{Run: regexp.MustCompile(`^(rosetta|line)/`)})
			if err != nil {
				t.Fatal(err)
			}
			seen, passedAfter := false, false
			for _, r := range rep.Results {
				if r.Status == want {
					seen = true
				}
				if seen && r.Status == Pass {
					passedAfter = true
				}
			}
			if !seen || !passedAfter {
				t.Errorf("%s: a %s result %v, a pass after it %v", hook, want, seen, passedAfter)
			}
		})
	}
}

// TestHTTPDriver runs the pack through the HTTP driver against tileproof's
// server over a real socket: everything a 4x4 server without setups (its
// games are fixed) can run passes.
func TestHTTPDriver(t *testing.T) {
	var ps []*engine.Profile
	for _, name := range engine.BuiltinNames() {
		p, _ := engine.BuiltinProfile(name)
		ps = append(ps, p)
	}
	srv, err := server.New(ps, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv.ForcedSpawns = true
	ts := httptest.NewServer(srv)
	defer ts.Close()
	rep, err := Run(loadRepoPack(t), &HTTP{BaseURL: ts.URL}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	failed, _ := rep.Failures()
	for _, f := range failed {
		t.Errorf("%s [%s]: %s: %s\n%s", f.Case, f.Profile, f.Status, f.Reason, f.Diff)
	}
	for _, r := range rep.Results {
		if r.Status == Skip && !strings.HasPrefix(r.Reason, "needs size:") && r.Reason != "needs setup" {
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

// oddMove is the engine, except that every move fails with an error that
// is neither a rule's refusal nor a driver's.
type oddMove struct{ *Builtin }

func (oddMove) Move(engine.Direction, *engine.Spawn) (MoveResult, error) {
	return MoveResult{}, errors.New("something odd")
}

// TestPropertyCallFailure: a move that fails oddly fails the property
// (as a protocol error), never lets it pass.
func TestPropertyCallFailure(t *testing.T) {
	rep, err := Run(loadRepoPack(t), oddMove{&Builtin{}}, Options{Properties: true, Profiles: []string{"classic"}, Run: regexp.MustCompile(`^properties/`)})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Status == Pass {
			t.Errorf("%s passes although every move fails", r.Case)
		}
	}
	if len(rep.Results) == 0 {
		t.Fatal("no properties ran")
	}
}

// TestHTTPLegalMoves: the HTTP driver reads the moves among legalActions
// and, like the exec driver, calls a move in an unknown direction a
// protocol error.
func TestHTTPLegalMoves(t *testing.T) {
	var r httpResponse
	json.Unmarshal([]byte(`{"legalActions":[{"type":"move","direction":"up"},{"type":"undo"},{"type":"move","direction":"left"}]}`), &r)
	got, err := r.legalMoves()
	if err != nil || !sameDirections(got, []engine.Direction{engine.Up, engine.Left}) {
		t.Errorf("legalMoves = %v, %v; want [up left]", got, err)
	}
	json.Unmarshal([]byte(`{"legalActions":[{"type":"move","direction":"sideways"}]}`), &r)
	var de *DriverError
	if _, err := r.legalMoves(); !errors.As(err, &de) || de.Status != ProtocolError {
		t.Errorf("a move sideways: %v, want a protocol error", err)
	}
}

// unseeded is the engine declaring every feature but seed-tp1.
type unseeded struct{ *Builtin }

func (u unseeded) Hello() (Hello, error) {
	h, err := u.Builtin.Hello()
	h.Features = slices.DeleteFunc(h.Features, func(f string) bool { return f == FeatureSeedTP1 })
	return h, err
}

// TestSkipReasons: a case and a property that need a feature the
// implementation lacks are skipped with the same words.
func TestSkipReasons(t *testing.T) {
	rep, err := Run(loadRepoPack(t), unseeded{&Builtin{}}, Options{Properties: true, Profiles: []string{"tile-merge"}})
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, r := range rep.Results {
		if r.Status == Skip {
			reasons[r.Area] = r.Reason
		}
	}
	if reasons["properties"] != "needs seed-tp1" || reasons["tp1"] != "needs seed-tp1" {
		t.Errorf("skip reasons by area: %q", reasons)
	}
}
