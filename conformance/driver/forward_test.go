package driver

import (
	"context"
	"fmt"
	"io"
	"runtime"
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

// burn keeps every core busy until ctx ends: a loaded machine.
func burn(ctx context.Context) {
	for range runtime.NumCPU() {
		go func() {
			for n := 0; ctx.Err() == nil; n++ {
				for k := 0; k < 1e5; k++ {
					n ^= k
				}
			}
		}()
	}
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
			if group.loaded {
				// Until the parallel runs below end (a defer would end it
				// before they start).
				ctx, cancel := context.WithCancel(context.Background())
				t.Cleanup(cancel)
				burn(ctx)
			}
			for _, delay := range group.delays {
				t.Run(delay, func(t *testing.T) {
					t.Parallel()
					forwardBatches(t, fwd, adapterCmd, delay)
				})
			}
		})
	}
}

// forwardBatches runs a single request, waits past the timeout, then
// three pipelined batches of 300 games through the forwarding process
// fwd with delay added a request: every game must be answered.
func forwardBatches(t *testing.T, fwd, adapterCmd, delay string) {
	const timeout = 2 * time.Second
	e := &Exec{Command: fmt.Sprintf("%s --delay %s %s", fwd, delay, adapterCmd), Timeout: timeout, MaxTimeouts: 1000, Stderr: io.Discard}
	defer e.Close()
	games := randomGames(300, 7)
	if _, err := e.Load("classic", games[0].State); err != nil { // a request on its own
		t.Fatal(err)
	}
	time.Sleep(timeout + 200*time.Millisecond)
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
