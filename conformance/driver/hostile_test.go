package driver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/protocol"
)

// An implementation that answers within the protocol's limits can still
// make the runner hold what it sends: these tests hold the runner to
// bounds whatever it sends (docs/security.md, "The conformance runner").

// retained returns how many bytes of heap what f returns holds, the
// garbage collected before and after.
func retained(f func() any) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := f()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	return after.HeapAlloc - before.HeapAlloc
}

// TestPlayAllKeepsLittle: a batch whose every game is refused with the
// longest message the protocol allows (65,536 characters of four bytes)
// keeps a little of each message, not all of it: the property checks
// play thousands of games in a batch (a 256 KiB message each held 1.3 GB
// and took a run to 2 GB), and read only that a game was refused.
func TestPlayAllKeepsLittle(t *testing.T) {
	games := randomGames(256, 4)
	check := func(t *testing.T, impl conformance.Pipeliner) {
		var out []conformance.OneMoveResult
		n := retained(func() any {
			out = impl.PlayAll("classic", games)
			return out
		})
		for i, r := range out {
			var re *conformance.RuleError
			if !errors.As(r.Err, &re) || re.Code != "illegal-move" || !strings.HasPrefix(re.Message, "\U0001F600") || len(re.Message) > keptMessage+3 {
				t.Fatalf("game %d: %.80v", i+1, r.Err)
			}
		}
		if n > 8<<20 {
			t.Errorf("the batch's results hold %.1f MB of heap (%d games)", float64(n)/(1<<20), len(games))
		}
	}
	t.Run("exec", func(t *testing.T) {
		e := &Exec{Command: fake(t, "long-refusal"), Timeout: 10 * time.Second, Stderr: io.Discard}
		defer e.Close()
		check(t, e)
	})
	t.Run("http", func(t *testing.T) {
		ts := httptest.NewServer(hostileServer(t, strings.Repeat("\U0001F600", protocol.MaxMessageLength), "tileproof-serve"))
		defer ts.Close()
		check(t, &HTTP{BaseURL: ts.URL, Timeout: 10 * time.Second})
	})
}

// hostileServer is a server of the API with one game, classic, that
// refuses every action as illegal-move with reason, and names itself
// name. The refusal is made once, not quoted again for each request
// (TestPlayAllKeepsLittle's reason is 65,536 emoji, for 256 games).
func hostileServer(t *testing.T, reason, name string) http.Handler {
	srv := builtinServer(t)
	refusal := fmt.Appendf(nil, `{"ok":false,"error":"illegal-move","reason":%q,"legalActions":[]}`, reason)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/api/games":
			fmt.Fprintf(w, `{"games":["classic"],"server":{"name":%q,"version":"1"}}`, name)
		case r.Method == "POST":
			w.Write(refusal)
		default:
			srv.ServeHTTP(w, r)
		}
	})
}

// TestHTTPLongFields: a server's name, version, refusals, results,
// legal moves and answers are held to the exec protocol's limits: a reason of 16 MiB in every
// refusal, kept in every failing check, took a run of the suite past
// 20 GB. (The exec protocol's result is one of five words; a server's
// is held to 256 characters, and an unknown word stays a mismatch.)
func TestHTTPLongFields(t *testing.T) {
	t.Run("reason", func(t *testing.T) {
		ts := httptest.NewServer(hostileServer(t, strings.Repeat("é", protocol.MaxMessageLength+1), "x"))
		defer ts.Close()
		h := &HTTP{BaseURL: ts.URL}
		_, err := h.Load("classic", conformance.LoadState{Board: classicBoard})
		wantDriverError(t, err, conformance.ProtocolError, "observe: reason: 65537 characters, more than 65536")
	})
	t.Run("reason-allowed", func(t *testing.T) {
		ts := httptest.NewServer(hostileServer(t, strings.Repeat("é", protocol.MaxMessageLength), "x"))
		defer ts.Close()
		_, err := (&HTTP{BaseURL: ts.URL}).Load("classic", conformance.LoadState{Board: classicBoard})
		var re *conformance.RuleError
		if !errors.As(err, &re) || len(re.Message) != 2*protocol.MaxMessageLength {
			t.Errorf("%.80v", err)
		}
	})
	t.Run("result", func(t *testing.T) {
		ts := postAnswers(t, fmt.Sprintf(`{"ok":true,"state":{},"observation":{"board":[[0,0],[0,0]],"result":"%s"},"legalActions":[]}`, strings.Repeat("r", 1<<19)))
		_, err := (&HTTP{BaseURL: ts.URL}).Load("classic", conformance.LoadState{Board: classicBoard})
		wantDriverError(t, err, conformance.ProtocolError, "observation.result: 524288 characters, more than 256")
	})
	t.Run("legal", func(t *testing.T) {
		moves := strings.Repeat(`{"type":"move","direction":"left"},`, 5)
		ts := postAnswers(t, fmt.Sprintf(`{"ok":true,"state":{},"observation":{"board":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"result":"playing"},"legalActions":[%s{"type":"observe"}]}`, moves))
		_, err := (&HTTP{BaseURL: ts.URL}).Load("classic", conformance.LoadState{Board: classicBoard})
		wantDriverError(t, err, conformance.ProtocolError, "legalActions: more than 4 moves")
	})
	t.Run("body", func(t *testing.T) {
		ts := postAnswers(t, fmt.Sprintf(`{"ok":true,"state":{},"observation":{"board":[[%s0]],"result":"playing"},"legalActions":[]}`, strings.Repeat("0,", protocol.MaxLine/2)))
		_, err := (&HTTP{BaseURL: ts.URL}).Load("classic", conformance.LoadState{Board: classicBoard})
		wantDriverError(t, err, conformance.ProtocolError, "the answer is longer than 1048576 bytes")
	})
	t.Run("name", func(t *testing.T) {
		ts := httptest.NewServer(hostileServer(t, "no", strings.Repeat("n", protocol.MaxNameLength+1)))
		defer ts.Close()
		_, err := (&HTTP{BaseURL: ts.URL}).Hello()
		wantDriverError(t, err, conformance.ProtocolError, "server.name: 257 characters, more than 256")
	})
}

// hostileStderr, raw on a terminal, sets the window's title, writes the
// clipboard (OSC 52), hides all that follows (the report) and rewrites
// the line before it.
const hostileStderr = "log\x1b]0;title\x07\x1b]52;c;cm0gLXJmIH4=\x07\x1b[8m\n\x1b[1A\x1b[2K\rok \u202eLIAF\xff\n"

// TestExecStderrShownSafely: the implementation's stderr reaches the
// runner's terminal with every control, escape sequence and
// bidirectional override shown (\x1b, \u202e), each line prefixed; a
// character cut between two writes is shown whole.
func TestExecStderrShownSafely(t *testing.T) {
	var stderr bytes.Buffer
	e := &Exec{Command: fake(t, "stderr-hostile"), Stderr: &stderr}
	if _, err := e.Hello(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		e.stderr.mu.Lock()
		n := e.stderr.written
		e.stderr.mu.Unlock()
		if n == len(hostileStderr) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d bytes of stderr copied", n)
		}
	}
	e.Close()
	want := `impl: log\x1b]0;title\x07\x1b]52;c;cm0gLXJmIH4=\x07\x1b[8m` + "\n" + `impl: \x1b[1A\x1b[2K\x0dok \u202eLIAF\xff` + "\n"
	if got := stderr.String(); got != want {
		t.Errorf("stderr passed on as\n%q, want\n%q", got, want)
	}

	var b strings.Builder
	c := &cappedWriter{w: &b, prefix: "impl: ", limit: StderrLimit}
	for _, part := range []string{"caf\xc3", "\xa9 \xf0\x9f", "\x98", "\x80\n\xe2\x80"} {
		c.Write([]byte(part))
	}
	c.close()
	if got, want := b.String(), "impl: café 😀\nimpl: \\xe2\\x80"; got != want {
		t.Errorf("characters cut between writes: %q, want %q", got, want)
	}
}

// TestHTTPManyFeatures: a spec of 80,000 features (700 KB, within an
// answer's 1 MiB) is a protocol error at once: each feature was compared
// with every other, and 200,000 spun the runner past its deadline and an
// interrupt (16 MiB of them, when an answer could be that long: hours).
func TestHTTPManyFeatures(t *testing.T) {
	srv := builtinServer(t)
	features := make([]string, 80000)
	for i := range features {
		features[i] = fmt.Sprintf("f%d", i)
	}
	list, _ := json.Marshal(features)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.URL.Path, "/init") {
			srv.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		w.Write(bytes.Replace(rec.Body.Bytes(), []byte(`"features":[`), append(append([]byte(`"features":`), list...), []byte(`,"x":[`)...), 1))
	}))
	defer ts.Close()
	start := time.Now()
	_, err := (&HTTP{BaseURL: ts.URL}).Hello()
	wantDriverError(t, err, conformance.ProtocolError, "spec.features: 80000 features, more than 256")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("hello took %v", d)
	}
}

// TestHTTPStopsAfterTimeouts: a server that says hello and then answers
// no action costs three timeouts, as an adapter does over exec, not one
// a request: the rest is reported as not run, saying why (before
// 2026-12-07 every request waited its timeout: the whole run's deadline,
// 30 minutes by default, for the pack).
func TestHTTPStopsAfterTimeouts(t *testing.T) {
	srv := builtinServer(t)
	quit := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" {
			select {
			case <-quit:
			case <-r.Context().Done():
			}
			return
		}
		srv.ServeHTTP(w, r)
	}))
	defer ts.Close()
	defer close(quit)
	h := &HTTP{BaseURL: ts.URL, Timeout: 300 * time.Millisecond}
	start := time.Now()
	rep := runCore(t, h)
	// Three timeouts and the rest not run take some 1 s; a timeout a
	// request, the fault this holds off, some 20 s (70 cases). 9 s leaves a loaded
	// machine room (10 timeouts, 3 s, failed at a load average of 17).
	if elapsed := time.Since(start); elapsed > 30*h.Timeout {
		t.Errorf("the run took %v", elapsed)
	}
	i := 0
	for _, res := range rep.Results {
		if res.Status == conformance.Skip {
			continue
		}
		if i++; res.Status != conformance.Timeout {
			t.Fatalf("%s: %s: %s", res.Case, res.Status, res.Reason)
		}
		if i > 3 && !strings.Contains(res.Reason, "not run: the implementation timed out on 3 requests in a row (the last: POST /api/games/classic/action); the driver stopped") {
			t.Fatalf("%s: %s", res.Case, res.Reason)
		}
	}
}

// postAnswers is the built-in server answering every POST (every
// action) with body, and the rest (hello, the spec) as it does.
func postAnswers(t *testing.T, body string) *httptest.Server {
	t.Helper()
	srv := builtinServer(t)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "POST" {
			srv.ServeHTTP(w, r)
			return
		}
		io.WriteString(w, body)
	}))
	t.Cleanup(ts.Close)
	return ts
}
