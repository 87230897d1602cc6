package driver

import (
	"fmt"
	"io"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/conformance/internal/adaptertest"
	"github.com/tileproof/tileproof/internal/testkit"
)

// buildForward builds testdata/forward, a sequential forwarding process
// (one request read, written to the implementation, its answer copied
// back), once a process.
func buildForward() (string, error) {
	return testkit.BuildBinary("./conformance/driver/testdata/forward")
}

// load keeps every core busy while a phase of a test holds it: a loaded
// machine, with no cores burnt while every phase waits.
type load struct {
	mu   sync.Mutex
	wake *sync.Cond
	held int  // phases under way that want the load
	done bool // the burners end
}

// burn starts a burner a core, idle until a phase holds the load; they
// end when the test (and its parallel subtests) ends.
func burn(t *testing.T) *load {
	l := &load{}
	l.wake = sync.NewCond(&l.mu)
	t.Cleanup(func() {
		l.mu.Lock()
		l.done = true
		l.mu.Unlock()
		l.wake.Broadcast()
	})
	for range runtime.NumCPU() {
		go func() {
			for n := 0; ; n++ {
				l.mu.Lock()
				for l.held == 0 && !l.done {
					l.wake.Wait()
				}
				done := l.done
				l.mu.Unlock()
				if done {
					return
				}
				for k := 0; k < 1e5; k++ {
					n ^= k
				}
			}
		}()
	}
	return l
}

// hold loads the machine (on) or lets it go (off) for one phase; a nil
// load (a quiet run) does nothing.
func (l *load) hold(on bool) {
	if l == nil {
		return
	}
	l.mu.Lock()
	if on {
		l.held++
	} else {
		l.held--
	}
	l.mu.Unlock()
	l.wake.Broadcast()
}

// TestForwardingPipe: the reference adapter behind a sequential
// forwarding process, with 0, 0.5 and 2 ms added a request, on a quiet
// and on a loaded machine, is never blamed for the runner's queue: every
// game of pipelined batches is answered, the first batch long after the
// last single request (a write deadline left from it once cut the
// batch's writes short: issue 23).
func TestForwardingPipe(t *testing.T) {
	fwd, err := buildForward()
	if err != nil {
		t.Fatal(err)
	}
	adapterCmd := adaptertest.Command(t)
	// The quiet runs at once, then the loaded ones at once: each mostly
	// waits out its timeout between the single request and the batches.
	for _, group := range []struct {
		name   string
		loaded bool
		delays []string
	}{{"quiet", false, []string{"0s", "500us", "2ms"}}, {"loaded", true, []string{"0s", "2ms"}}} {
		t.Run(group.name, func(t *testing.T) {
			var l *load
			if group.loaded {
				// Until the parallel runs below end (a defer would end it
				// before they start).
				l = burn(t)
			}
			for _, delay := range group.delays {
				t.Run(delay, func(t *testing.T) {
					t.Parallel()
					forwardBatches(t, fwd, adapterCmd, delay, l)
				})
			}
		})
	}
}

// forwardBatches runs a single request, waits past the timeout, then
// three pipelined batches of 300 games through the forwarding process
// fwd with delay added a request: every game must be answered. The load
// l, when not nil, is held through the request and the batches, not the
// wait between them.
func forwardBatches(t *testing.T, fwd, adapterCmd, delay string, l *load) {
	const timeout = 2 * time.Second
	e := &Exec{Command: fmt.Sprintf("%s --delay %s %s", fwd, delay, adapterCmd), Timeout: timeout, MaxTimeouts: 1000, Stderr: io.Discard}
	defer e.Close()
	games := randomGames(300, 7)
	l.hold(true)
	defer l.hold(false)
	if _, err := e.Load("classic", games[0].State); err != nil { // a request on its own
		t.Fatal(err)
	}
	l.hold(false)
	time.Sleep(timeout + 200*time.Millisecond)
	l.hold(true)
	for batch := range 3 {
		for i, r := range e.PlayAll("classic", games) {
			if de, ok := r.Err.(*conformance.DriverError); ok {
				t.Fatalf("batch %d, game %d: %s: %s", batch+1, i+1, de.Status, de.Msg)
			}
		}
	}
}

// TestSilentTimesOut: a pipelined batch to an implementation that reads
// every request and answers none fails by the timeout, not later.
func TestSilentTimesOut(t *testing.T) {
	e := &Exec{Command: fake(t, "silent"), Timeout: time.Second, Stderr: io.Discard}
	defer e.Close()
	if _, err := e.Hello(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out := e.PlayAll("classic", randomGames(200, 3))
	elapsed := time.Since(start)
	wantDriverError(t, out[0].Err, conformance.Timeout, "load (request 2): no answer within 1s")
	if elapsed > 3*time.Second {
		t.Errorf("the timeout came after %v", elapsed)
	}
}
