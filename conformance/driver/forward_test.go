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
//
// Each run sends its single request, then all wait out the timeout
// once, together; then the quiet runs play their batches at once, then
// the loaded ones at once. A loaded run's wait is the longer for it,
// which is the same case: any time past the deadline left behind.
func TestForwardingPipe(t *testing.T) {
	fwd, err := buildForward()
	if err != nil {
		t.Fatal(err)
	}
	adapterCmd := adaptertest.Command(t)
	// Until the batches below end (a defer would end it before the
	// parallel subtests start): idle while no phase holds it.
	l := burn(t)
	type run struct {
		delay string
		e     *Exec
	}
	groups := []struct {
		name string
		l    *load // nil: quiet
		runs []*run
	}{
		{"quiet", nil, []*run{{delay: "0s"}, {delay: "500us"}, {delay: "2ms"}}},
		{"loaded", l, []*run{{delay: "0s"}, {delay: "2ms"}}},
	}
	for _, g := range groups {
		// A group's single requests at once, under its load.
		g.l.hold(true)
		var wg sync.WaitGroup
		errs := make([]error, len(g.runs))
		for i, r := range g.runs {
			r.e = &Exec{Command: fmt.Sprintf("%s --delay %s %s", fwd, r.delay, adapterCmd), Timeout: forwardTimeout, MaxTimeouts: 1000, Stderr: io.Discard}
			t.Cleanup(func() { r.e.Close() })
			wg.Go(func() { errs[i] = singleRequest(r.e) })
		}
		wg.Wait()
		g.l.hold(false)
		for i, err := range errs {
			if err != nil {
				t.Fatalf("%s/%s: %v", g.name, g.runs[i].delay, err)
			}
		}
	}
	time.Sleep(forwardTimeout + 200*time.Millisecond)
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			for _, r := range g.runs {
				t.Run(r.delay, func(t *testing.T) {
					t.Parallel()
					forwardBatches(t, r.e, g.l)
				})
			}
		})
	}
}

// forwardTimeout is the timeout of TestForwardingPipe's runs, for each
// answer.
const forwardTimeout = 2 * time.Second

// singleRequest sends e a request on its own (starting its process).
func singleRequest(e *Exec) error {
	_, err := e.Load("classic", randomGames(1, 7)[0].State)
	return err
}

// forwardBatches plays three pipelined batches of 300 games through e,
// a forwarding process whose single request was sent more than its
// timeout ago: every game must be answered. The load l, when not nil,
// is held through the batches.
func forwardBatches(t *testing.T, e *Exec, l *load) {
	games := randomGames(300, 7)
	l.hold(true)
	defer l.hold(false)
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
	t.Parallel()
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
