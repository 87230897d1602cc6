package driver

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tileproof/tileproof/conformance"
)

// TestHTTPCancel: a cancellation (an interrupt) abandons the request
// under way at once, whatever its timeout, and it and every later request
// fail as not run, with the cause; the run's deadline does the same.
func TestHTTPCancel(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // never answers
	}))
	defer ts.Close()
	ctx, cancel := context.WithCancelCause(t.Context())
	h := &HTTP{BaseURL: ts.URL, Timeout: time.Minute, Context: ctx}
	time.AfterFunc(200*time.Millisecond, func() { cancel(errors.New("interrupt")) })
	start := time.Now()
	_, err := h.Hello()
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("the request ended %v after it began", elapsed)
	}
	_, err2 := h.Hello()
	for _, err := range []error{err, err2} {
		if de, ok := errors.AsType[*conformance.DriverError](err); !ok || de.Status != conformance.NotRun || de.Msg != "not run: interrupt" {
			t.Errorf("got %v, want not-run: not run: interrupt", err)
		}
	}

	dctx, dcancel := context.WithTimeoutCause(t.Context(), 300*time.Millisecond, errors.New("the run's deadline has passed"))
	defer dcancel()
	h = &HTTP{BaseURL: ts.URL, Timeout: time.Minute, Context: dctx}
	start = time.Now()
	_, err = h.Hello()
	if de, ok := errors.AsType[*conformance.DriverError](err); !ok || de.Status != conformance.NotRun || de.Msg != "not run: the run's deadline has passed" || time.Since(start) > 5*time.Second {
		t.Errorf("got %v after %v, want not-run at the deadline", err, time.Since(start))
	}
}
