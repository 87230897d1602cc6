//go:build unix

package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/conformance/internal/adaptertest"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// The exec driver against hostile implementations (issue 12): each test
// is one way an implementation can cost the runner its memory, its time or
// the truth about what happened.

// TestExecLineLimit: an answer that never ends its line is a protocol
// error once it passes protocol.MaxLine, at once and in bounded memory
// (without the limit the driver reads until the timeout, gigabytes).
func TestExecLineLimit(t *testing.T) {
	e := &Exec{Command: fake(t, "endless-line"), Stderr: io.Discard}
	defer e.Close()
	if _, err := e.Hello(); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := e.Load("classic", conformance.LoadState{Board: classicBoard})
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	wantDriverError(t, err, conformance.ProtocolError, "load (request 2)", fmt.Sprintf("longer than %d bytes", protocol.MaxLine))
	if elapsed > 3*time.Second {
		t.Errorf("%v to refuse the line", elapsed)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16*protocol.MaxLine {
		t.Errorf("reading the line allocated %d MiB", grew>>20)
	}
}

// alive reports whether process pid runs (a zombie does not).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// pids reads the pids a command appended to file, waiting for n of them.
func pids(t *testing.T, file string, n int) []int {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; { // a bound on a hang: shells start late on a loaded machine
		data, _ := os.ReadFile(file)
		var out []int
		for _, f := range strings.Fields(string(data)) {
			if p, err := strconv.Atoi(f); err == nil {
				out = append(out, p)
			}
		}
		if len(out) >= n {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d pids, want %d", file, len(out), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func waitDead(t *testing.T, what string, pid int) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); alive(pid); { // a bound on a hang, as above
		if time.Now().After(deadline) {
			t.Errorf("%s: process %d still runs", what, pid)
			syscall.Kill(pid, syscall.SIGKILL)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestExecEndsDescendants starts the adapter behind a shell that first
// starts a child that tries to outlive it, four ways: in its process
// group; in a session of its own (setsid); in a session of its own with
// its parent gone at once (setsid -f: only the tag finds it); with its
// environment cleared (env -i: only its parent finds it). Each child is
// ended when the driver ends the adapter, at Close and (but the last,
// whose parent is gone by then) at the restart after a crash.
func TestExecEndsDescendants(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the descendants are found through /proc")
	}
	adapterCmd := adaptertest.Command(t, "--mutant", "crash-on-move")
	for _, tc := range []struct {
		name, child string
		restart     bool // the child is ended at a restart after the adapter crashed too
	}{
		{"group", `sleep 1000 & echo $! >> "$F"`, true},
		{"setsid", `setsid sleep 1000 & echo $! >> "$F"`, true},
		{"setsid-orphan", `setsid -f sh -c 'echo $$ >> "$F"; exec sleep 1000'`, true},
		{"env-cleared", `setsid env -i sleep 1000 & echo $! >> "$F"`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "pids")
			e := &Exec{Command: fmt.Sprintf("export F='%s'; %s; exec %s", file, tc.child, adapterCmd), Timeout: time.Minute, Stderr: io.Discard}
			defer e.Close()
			if _, err := e.Hello(); err != nil {
				t.Fatal(err)
			}
			first := pids(t, file, 1)[0]
			if !alive(first) {
				t.Fatalf("the child %d did not start", first)
			}
			if tc.restart {
				// The adapter exits at its 5th move; the next request
				// starts another, with a child of its own.
				if _, err := e.Load("classic", conformance.LoadState{Board: classicBoard}); err != nil {
					t.Fatal(err)
				}
				var err error
				start := time.Now()
				for i := 0; i < 5 && err == nil; i++ {
					_, err = e.Move(engine.Right, nil)
				}
				// The child holds the adapter's stdout open: the exit is seen
				// by the process ending, well before the timeout of a minute
				// (which is long for a loaded machine's sake: it costs
				// nothing here unless the exit is missed).
				wantDriverError(t, err, conformance.Crash, "exited (exit status 3)")
				if elapsed := time.Since(start); elapsed > 20*time.Second {
					t.Errorf("the crash was seen after %v", elapsed)
				}
				waitDead(t, "after the crash", first)
				if _, err := e.Hello(); err != nil {
					t.Fatal(err)
				}
				if _, err := e.Load("classic", conformance.LoadState{Board: classicBoard}); err != nil {
					t.Fatal(err)
				}
				first = pids(t, file, 2)[1]
			}
			e.Close()
			waitDead(t, "at Close", first)
		})
	}
}

// TestExecHelloBounded: a hello that lists a profile 100,000 times is a
// protocol error that names the field (it made the runner run the suite
// 100,000 times); below the bound a profile listed twice counts once.
func TestExecHelloBounded(t *testing.T) {
	e := &Exec{Command: fake(t, "profiles 100000"), Stderr: io.Discard}
	defer e.Close()
	_, err := e.Hello()
	wantDriverError(t, err, conformance.ProtocolError, "hello (request 1)", "/profiles", "more than 256 items")

	e2 := &Exec{Command: fake(t, "profiles 3"), Stderr: io.Discard}
	defer e2.Close()
	h, err := e2.Hello()
	if err != nil || len(h.Profiles) != 1 || h.Profiles[0] != "classic" {
		t.Errorf("hello with classic three times: %v, %v", h.Profiles, err)
	}
}

// TestExecStderrCapped: 10 MB on stderr reaches the runner's stderr as
// StderrLimit bytes and a note of the rest, and does not block the
// implementation.
func TestExecStderrCapped(t *testing.T) {
	var stderr bytes.Buffer
	e := &Exec{Command: fake(t, "stderr 10000000"), Stderr: &stderr}
	if _, err := e.Hello(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.New("classic", "", nil); err != nil {
		t.Fatal(err)
	}
	// The copy of stderr runs beside the answers: wait for all of it (a
	// fixed wait could end, on a loaded machine, before the copy has read
	// the last of the pipe, and the note would count fewer bytes).
	copied := func() int {
		e.stderr.mu.Lock()
		defer e.stderr.mu.Unlock()
		return e.stderr.written + e.stderr.dropped
	}
	for deadline := time.Now().Add(time.Minute); copied() < 10000000; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d bytes of stderr copied a minute after the answers, want 10000000", copied())
		}
	}
	e.Close()
	if n := stderr.Len(); n > StderrLimit+200 || n < StderrLimit {
		t.Errorf("%d bytes of stderr passed on, want %d and a note", n, StderrLimit)
	}
	if want := fmt.Sprintf("impl: [%d more bytes of stderr dropped", 10000000-StderrLimit); !strings.Contains(stderr.String(), want) {
		t.Errorf("no note %q in %q", want, stderr.String()[max(0, stderr.Len()-200):])
	}
}

// runCore runs the core cases under classic.
func runCore(t *testing.T, impl conformance.Impl) *conformance.Report {
	t.Helper()
	rep, err := conformance.Run(t.Context(), adaptertest.Pack(t), impl, conformance.Options{Profiles: []string{"classic"}, Run: regexp.MustCompile(`^core/`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) < 50 {
		t.Fatalf("%d results", len(rep.Results))
	}
	return rep
}

// TestExecStopsAfterTimeouts: an implementation that answers hello and
// then nothing costs three timeouts, not one a request (52 minutes for
// the pack at 5 s each): the rest is reported as not run, saying why.
func TestExecStopsAfterTimeouts(t *testing.T) {
	t.Parallel()
	e := &Exec{Command: fake(t, "silent"), Timeout: 500 * time.Millisecond, Stderr: io.Discard}
	defer e.Close()
	start := time.Now()
	rep := runCore(t, e)
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("%d cases took %v", len(rep.Results), elapsed)
	}
	i := 0
	for _, r := range rep.Results {
		if r.Status == conformance.Skip {
			continue
		}
		i++
		want := "no answer within 500ms"
		if i > 3 {
			want = "not run: the implementation timed out on 3 requests in a row (the last: load (request 6)); the driver stopped"
		}
		if r.Status != conformance.Timeout || !strings.Contains(r.Reason, want) {
			t.Fatalf("%s, the %dth case run: %s: %s; want timeout: %s", r.Case, i, r.Status, r.Reason, want)
		}
	}
}

// TestExecRunDeadline: the run's context's deadline ends the run: the
// request under way and every check after it are not run, saying why,
// none a failure of the implementation's; the process is ended at once.
func TestExecRunDeadline(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeoutCause(t.Context(), 3*time.Second, errors.New("the run's deadline of 3s has passed"))
	defer cancel()
	e := &Exec{Command: fake(t, "slow 40ms"), Context: ctx, Stderr: io.Discard}
	defer e.Close()
	start := time.Now()
	rep := runCore(t, e)
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("%d cases took %v", len(rep.Results), elapsed)
	}
	var notRun, other int
	for _, r := range rep.Results {
		switch {
		case r.Status == conformance.NotRun && r.Reason == "not run: the run's deadline of 3s has passed":
			notRun++
		case r.Status == conformance.NotRun || r.Status == conformance.Timeout:
			t.Errorf("%s: %s: %s", r.Key(), r.Status, r.Reason)
		default:
			other++ // played: the fake's answers are not the rules'
		}
	}
	if notRun == 0 || other == 0 { // how many ran depends on the machine's load
		t.Errorf("%d cases played, %d not run (of %d)", other, notRun, len(rep.Results))
	}
	if p := e.proc; p != nil {
		t.Errorf("the process still runs after the deadline")
	}
}

// TestExecCancel: a cancellation (an interrupt) kills the process under
// a request at once, whatever its timeout, and every later request fails
// at once as not run, with the cause.
func TestExecCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancelCause(t.Context())
	e := &Exec{Command: fake(t, "silent"), Timeout: time.Minute, Context: ctx, Stderr: io.Discard}
	defer e.Close()
	if _, err := e.Hello(); err != nil {
		t.Fatal(err)
	}
	pid := e.proc.cmd.Process.Pid
	time.AfterFunc(200*time.Millisecond, func() { cancel(errors.New("interrupt")) })
	start := time.Now()
	_, err := e.New("classic", "", nil)
	if elapsed := time.Since(start); elapsed > 3*time.Second {
		t.Errorf("the request ended %v after it began", elapsed)
	}
	for _, err := range []error{err, func() error { _, err := e.Move(engine.Left, nil); return err }()} {
		de, ok := errors.AsType[*conformance.DriverError](err)
		if !ok || de.Status != conformance.NotRun || de.Msg != "not run: interrupt" {
			t.Errorf("got %v, want not-run: not run: interrupt", err)
		}
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("the process %d still runs", pid)
	}
}

// TestExecEndOfStdout: an implementation that closes its stdout and runs
// on is reported as that, at once, and one that exits with its status;
// both are crashes, neither a timeout.
func TestExecEndOfStdout(t *testing.T) {
	t.Parallel()
	for mode, want := range map[string]string{
		"close-stdout":     "new (request 2): the implementation closed its stdout, still running, without answering",
		"exit-after-hello": "new (request 2): the implementation exited (exit status 7) without answering",
	} {
		e := &Exec{Command: fake(t, mode), Stderr: io.Discard}
		if _, err := e.Hello(); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err := e.New("classic", "", nil)
		wantDriverError(t, err, conformance.Crash, want)
		if elapsed := time.Since(start); elapsed > 2*time.Second {
			t.Errorf("%s: %v to see it", mode, elapsed)
		}
		e.Close()
	}
}

// panicStderr is what a chatty implementation that crashes writes to
// stderr: more lines of its own than a crash's message keeps, then a
// panic.
var panicStderr = strings.Repeat("debug: a request read\n", 120) + "panic: the board is full \x1b[2J\n\ngoroutine 1 [running]:\nmain.move(...)\n\t/src/game.go:42 +0x1d\nexit status 2\n"

// TestExecCrashSaysStderr: a crash's message quotes the end of what the
// implementation wrote to stderr, from a whole line, two kilobytes at
// most.
func TestExecCrashSaysStderr(t *testing.T) {
	t.Parallel()
	e := &Exec{Command: fake(t, "panic-after-hello"), Stderr: io.Discard}
	defer e.Close()
	if _, err := e.Hello(); err != nil {
		t.Fatal(err)
	}
	_, err := e.New("classic", "", nil)
	wantDriverError(t, err, conformance.Crash, "new (request 2): the implementation exited (exit status 2) without answering; the end of its stderr:\n...\ndebug: a request read\n",
		"debug: a request read\npanic: the board is full \x1b[2J\n\ngoroutine 1 [running]:\nmain.move(...)\n\t/src/game.go:42 +0x1d\nexit status 2")
	if de := driverError(t, err); len(de.Msg) > 2200 || strings.HasSuffix(de.Msg, "\n") {
		t.Errorf("the message (%d bytes) keeps more than two kilobytes of stderr, or its line break: %q", len(de.Msg), de.Msg)
	}
}

// TestExecEndOfStdoutSimpleCommand: an adapter named as one simple
// command (a path, no exec of its own) that closes its stdout is seen to,
// at once: the shell that runs it does not keep a copy of the pipe open.
func TestExecEndOfStdoutSimpleCommand(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TILEPROOF_FAKE", "close-stdout")
	e := &Exec{Command: "'" + exe + "'", Timeout: 5 * time.Second, Stderr: io.Discard}
	defer e.Close()
	if _, err := e.Hello(); err != nil {
		t.Fatal(err)
	}
	_, err = e.New("classic", "", nil)
	wantDriverError(t, err, conformance.Crash, "closed its stdout, still running")
}

func TestExecPrefix(t *testing.T) {
	for command, want := range map[string]string{
		"node adapter.js --fast":   "exec node adapter.js --fast",
		"'/a b/adapter' -x":        "exec '/a b/adapter' -x",
		"node $HOME/a.js":          "exec node $HOME/a.js",
		"cd js && node a.js":       "cd js && node a.js",
		"A=1 node a.js":            "A=1 node a.js",
		"exec node a.js":           "exec node a.js",
		"node a.js 2>/dev/null":    "node a.js 2>/dev/null",
		"if true; then node a; fi": "if true; then node a; fi",
		"node a.js | tee log":      "node a.js | tee log",
		"(node a.js)":              "(node a.js)",
		"node a.js\nnode b.js":     "node a.js\nnode b.js",
	} {
		if got := execPrefix(command); got != want {
			t.Errorf("execPrefix(%q) = %q, want %q", command, got, want)
		}
	}
}

// TestExecDeaf: an implementation that stops reading its input (here
// while it answers ahead, guessing the ids) fills the pipe of requests;
// the write that would wait for ever times out.
func TestExecDeaf(t *testing.T) {
	t.Parallel()
	e := &Exec{Command: fake(t, "deaf"), Timeout: 500 * time.Millisecond, Stderr: io.Discard}
	defer e.Close()
	var err error
	n := 0
	for ; n < 100000 && err == nil; n++ {
		_, err = e.Legal()
	}
	wantDriverError(t, err, conformance.Timeout, "legal (request", "the implementation has not read its input for 500ms")
	if n < 100 {
		t.Errorf("failed after %d requests", n)
	}
}

// TestExecAnswers: what the driver makes of answers that are not proper
// ones, and of refusals: each names the request and the field.
func TestExecAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode   string
		call   func(e *Exec) error
		status conformance.Status // "" for a refusal by the rules
		words  []string
		ended  bool // the answer is not one: the process is ended
	}{
		{"no-state", func(e *Exec) error { _, err := e.New("classic", "", nil); return err }, conformance.ProtocolError,
			[]string{"new (request 2)", `missing field "state"`}, true},
		{"no-state", func(e *Exec) error { _, err := e.Legal(); return err }, conformance.ProtocolError,
			[]string{"legal (request 2)", `missing field "legal"`}, true},
		{"no-state", func(e *Exec) error { _, err := e.Do("undo"); return err }, conformance.ProtocolError,
			[]string{"undo (request 2)", `missing field "state"`}, true},
		{"bare-refusal", func(e *Exec) error { _, err := e.Legal(); return err }, conformance.ProtocolError,
			[]string{"legal (request 2)", `missing field "error"`}, true},
		{"word oops", func(e *Exec) error { _, err := e.Move(engine.Left, nil); return err }, conformance.ProtocolError,
			[]string{"move (request 2)", `/error: "oops" is not an error word`}, true},
		{"word bad-request", func(e *Exec) error { _, err := e.Move(engine.Left, nil); return err }, conformance.ProtocolError,
			[]string{"move (request 2): the implementation answered bad-request: as asked"}, false},
		{"word impl-error", func(e *Exec) error { _, err := e.Move(engine.Left, nil); return err }, conformance.ProtocolError,
			[]string{"the implementation answered impl-error: as asked"}, false},
		{"wrong-id", func(e *Exec) error { _, err := e.New("classic", "", nil); return err }, conformance.ProtocolError,
			[]string{"new (request 2): the answer is to request 3, not 2"}, true},
		{"word not-stopped", func(e *Exec) error { _, err := e.Do("keep-playing"); return err }, "", []string{"not-stopped"}, false},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			e := &Exec{Command: fake(t, tc.mode), Stderr: io.Discard}
			defer e.Close()
			if _, err := e.Hello(); err != nil {
				t.Fatal(err)
			}
			err := tc.call(e)
			if tc.status == "" {
				var re *conformance.RuleError
				if !errors.As(err, &re) || re.Code != tc.words[0] || re.Message != "as asked" {
					t.Errorf("%v, want the refusal %s", err, tc.words[0])
				}
			} else {
				wantDriverError(t, err, tc.status, tc.words...)
			}
			// A malformed answer ends the process; a proper refusal, with
			// a protocol word or a rules word, does not.
			if ended := e.proc == nil; ended != tc.ended {
				t.Errorf("the process was ended: %v, want %v", ended, tc.ended)
			}
		})
	}
}

// TestLegalNotListed: legal answered unsupported-op means the
// implementation does not list legal moves (legal has no feature to leave
// undeclared): ErrNoLegal, which the runner takes as nothing to compare;
// the same word to another op stays a protocol error.
func TestLegalNotListed(t *testing.T) {
	no := protocol.Answer{ID: 3, OK: false, Error: protocol.ErrorUnsupportedOp, Message: "no legal here"}
	if err := refusal(requestName{protocol.OpLegal, 3}, no); !errors.Is(err, conformance.ErrNoLegal) {
		t.Errorf("legal answered unsupported-op: %v, want ErrNoLegal", err)
	}
	var de *conformance.DriverError
	if err := refusal(requestName{protocol.OpMove, 3}, no); !errors.As(err, &de) || de.Status != conformance.ProtocolError {
		t.Errorf("move answered unsupported-op: %v, want a protocol error", err)
	}
}

// TestExecSlowStart: hello's answer waits on the process's start, which
// a runtime on a busy machine can take longer than an answer's timeout;
// the start is not the implementation's failure. A process that never
// answers hello still fails, as a timeout.
//
// The timeout is also the bound of the one answer after the start, which
// a loaded machine can delay: 300 ms failed at load 14. A start longer
// than it is all the test needs, and a sleep is never shorter on a busy
// machine, so the start is the timeout and half a second.
func TestExecSlowStart(t *testing.T) {
	t.Parallel()
	e := &Exec{Command: fake(t, "slow-start 2500ms"), Timeout: 2 * time.Second, Stderr: io.Discard}
	defer e.Close()
	if _, err := e.Hello(); err != nil {
		t.Fatalf("a start of 2.5 s with a timeout of 2s: %v", err)
	}
	if _, err := e.Legal(); err != nil {
		t.Errorf("after the start: %v", err)
	}
}

// TestExecHelloTimeoutSaysFlush: hello unanswered, most often an answer
// the adapter wrote and did not flush (Python's print to a pipe), says
// so.
func TestExecHelloTimeoutSaysFlush(t *testing.T) {
	t.Parallel()
	e := &Exec{Command: "sleep 30", Timeout: 300 * time.Millisecond, StartTimeout: 300 * time.Millisecond, Stderr: io.Discard}
	defer e.Close()
	_, err := e.Hello()
	wantDriverError(t, err, conformance.Timeout, "hello (request 1): no answer within 300ms", "flush after each line")
}

// FuzzStderrTail holds stderrTail, written in pieces, to the plain tail
// of the whole: its last stderrTailSize bytes, from the first whole line
// when bytes were dropped.
func FuzzStderrTail(f *testing.F) {
	f.Add([]byte(strings.Repeat("a line\n", 700)), uint8(7))
	f.Add([]byte("short"), uint8(1))
	f.Add([]byte(strings.Repeat("x", 5000)+"\nend\n"), uint8(200))
	f.Fuzz(func(t *testing.T, data []byte, piece uint8) {
		var tail stderrTail
		for rest := data; len(rest) > 0; {
			n := min(len(rest), 1+int(piece)*int(piece))
			if w, _ := tail.Write(rest[:n]); w != n || len(tail.buf) > 2*stderrTailSize {
				t.Fatalf("Write took %d of %d bytes, and keeps %d", w, n, len(tail.buf))
			}
			rest = rest[n:]
		}
		want := string(data)
		if len(want) > stderrTailSize {
			want = want[len(want)-stderrTailSize:]
			if _, rest, ok := strings.Cut(want, "\n"); ok {
				want = rest
			}
			want = "...\n" + want
		}
		want = strings.TrimRight(want, " \t\r\n")
		if got := tail.String(); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}
