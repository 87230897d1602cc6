package driver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
)

// serialServer serves one request at a time, each answered pace late, as a
// small single-threaded server does; hung, it answers nothing.
type serialServer struct {
	mu   sync.Mutex
	next http.Handler
	pace time.Duration
	hung chan struct{} // closed: every request waits until the client gives up
}

func (s *serialServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.hung != nil {
		select {
		case <-s.hung:
			io.Copy(io.Discard, r.Body) // so that the server sees the client go
			<-r.Context().Done()
			return
		default:
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	time.Sleep(s.pace)
	s.next.ServeHTTP(w, r)
}

// TestHTTPOneAtATime: PlayAll sends httpWorkers requests at once. A server
// that answers them one at a time, each well within the timeout of the
// answer before it, is not charged for the requests ahead of it (the
// last of four waited four answers, past the timeout, and failed as a
// timeout); one that answers nothing still times out.
//
// An answer 400 ms after the one before it, against a timeout of 1.5 s,
// leaves a loaded machine 1.1 s to spare for each (150 against 450 ms
// failed the first answer at a load average of 17, in a CI run beside
// other work, and 300 against 1 s in a full run beside a browser test's
// work); charged for the queue, the fourth request waits 1.6 s, and a
// load only makes that longer.
func TestHTTPOneAtATime(t *testing.T) {
	t.Parallel()
	srv := builtinServer(t)
	slow := &serialServer{next: srv, pace: 400 * time.Millisecond, hung: make(chan struct{})}
	ts := httptest.NewServer(slow)
	defer ts.Close()
	h := &HTTP{BaseURL: ts.URL, Timeout: 1500 * time.Millisecond}
	b, err := engine.ParseBoard("2 2 . .\n. . . .\n. . . .\n. . . .")
	if err != nil {
		t.Fatal(err)
	}
	games := make([]conformance.OneMove, httpWorkers)
	for i := range games {
		games[i] = conformance.OneMove{State: conformance.LoadState{Board: b}, Move: engine.Left}
	}
	for i, r := range h.PlayAll("classic", games) {
		if r.Err != nil || !r.Move.Changed {
			t.Fatalf("game %d: %v, changed %v", i+1, r.Err, r.Move.Changed)
		}
	}
	close(slow.hung)
	start := time.Now()
	r := h.PlayAll("classic", games)
	de, ok := r[0].Err.(*conformance.DriverError)
	if !ok || de.Status != conformance.Timeout || !strings.Contains(de.Msg, "no answer in time") {
		t.Fatalf("a hung server: %v", r[0].Err)
	}
	if took := time.Since(start); took > 5*h.Timeout {
		t.Errorf("a hung server took %s to time out; the timeout is %s", took, h.Timeout)
	}
}
