package server

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/replay/jsonl"
)

// The bounds of POST /api/verify (docs/api.md, "Verifying replays"): one
// replay, or one line of a JSON Lines body, is at most MaxVerifyReplay
// bytes; a JSON Lines body at most MaxVerifyBody bytes and
// MaxVerifyLines lines; at most MaxVerifying replays are verified at
// once, a single replay's request answered 503 at once when none is free
// and a JSON Lines line waiting for its turn. A request takes a place
// only to verify what it has read, never while its body comes in, so a
// slow client holds none. At most MaxVerifyRequests requests are read
// or verified at once, the next answered 503 at once: each holds at most
// one replay (or line) in memory while its body comes in, so this bounds
// the endpoint's memory whatever the number of clients. Verifying is
// linear in the replay's size, so these bound the time of a request too;
// serve's read and write timeouts bound a slow client.
const (
	MaxVerifyReplay   = 4 << 20
	MaxVerifyBody     = 64 << 20
	MaxVerifyLines    = 100_000
	MaxVerifying      = 8
	MaxVerifyRequests = 32
)

// verify answers POST /api/verify: a replay's verdict, or a verdict a line
// of JSON Lines, streamed.
func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		notAllowed(w, http.MethodPost, "verify is POST /api/verify with a replay (application/json or application/yaml) or JSON Lines of them (application/jsonl)")
		return
	}
	kind, rerr := contentType(r.Header, "verify reads application/json or application/yaml (a replay) and application/jsonl (JSON Lines of replays)",
		"application/json", "application/yaml", "application/jsonl")
	if rerr == nil && r.URL.RawQuery != "" {
		rerr = &requestError{http.StatusBadRequest, "verify takes no query parameter"}
	}
	if rerr != nil {
		httpError(w, rerr.code, rerr.msg)
		return
	}
	select {
	case s.verifies <- struct{}{}:
		defer func() { <-s.verifies }()
	default:
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, fmt.Sprintf("%d requests to verify are under way already; try again", cap(s.verifies)))
		return
	}
	if kind == "application/jsonl" {
		s.verifyLines(w, r)
		return
	}
	// The body is read before the request takes a place among the
	// verifying: a place held while a body comes in would let a few
	// clients that send slowly hold them all (up to the read timeout each).
	body, rerr := readBody(w, r, MaxVerifyReplay, "the replay")
	if rerr != nil {
		httpError(w, rerr.code, rerr.msg)
		return
	}
	// A byte-order mark before the object is read as tileproof verify
	// reads a file that has one.
	if t := bytes.TrimLeft(bytes.TrimPrefix(body, []byte("\ufeff")), " \t\r\n"); kind == "application/json" && (len(t) == 0 || t[0] != '{') {
		httpError(w, http.StatusBadRequest, "the body is not a JSON object: send a replay in JSON as application/json, one in YAML as application/yaml")
		return
	}
	select {
	case s.verifying <- struct{}{}:
	default:
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, fmt.Sprintf("%d replays are being verified already; try again", cap(s.verifying)))
		return
	}
	vd := s.verifyHeld("request", body)
	w.Header().Set("Content-Type", "application/json")
	w.Write(jsonl.AppendVerdict(nil, vd))
}

// verifyLines answers a JSON Lines body: a verdict a line, each written
// out before the body is read further, so that a client streaming
// replays gets each verdict promptly. Each line waits for a
// place among the verifying, and gives it back once verified.
func (s *Server) verifyLines(w http.ResponseWriter, r *http.Request) {
	body := http.MaxBytesReader(w, r.Body, MaxVerifyBody)
	w.Header().Set("Content-Type", "application/jsonl")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	rc := http.NewResponseController(w)
	// net/http's HTTP/1 server stops reading a body once the answer has
	// begun, unless told otherwise: verdicts go out while lines come in.
	rc.EnableFullDuplex()
	out := bufio.NewWriterSize(w, 32<<10)
	flush := func() {
		if out.Buffered() > 0 {
			out.Flush()
			rc.Flush()
		}
	}
	var line []byte
	n := 0
	in := &lineBody{r: body, flush: flush}
	// The verdicts so far go out before each read of more of the body,
	// which may wait: also when the body has the start of the next line
	// and not its end.
	jsonl.Read("request", in, MaxVerifyReplay, func(l replay.Input) bool {
		// The request's context ends when the client goes, and when its
		// body fails (jsonl.Read gives the line it failed in that error):
		// the lines that ended before are answered all the same.
		var gone <-chan struct{}
		if in.err == nil {
			if r.Context().Err() != nil {
				return false // the client has gone
			}
			gone = r.Context().Done()
		}
		var vd replay.Verdict
		switch n++; {
		case n > MaxVerifyLines:
			vd = jsonl.Unreadable(l.Name, fmt.Errorf("more than %d replays in one request; send the rest in another", MaxVerifyLines))
		case l.Err != nil && in.err != nil && errors.Is(l.Err, in.err):
			vd = jsonl.Unreadable(l.Name, cutOff(w, l.Err))
		case l.Err != nil:
			vd = jsonl.Unreadable(l.Name, l.Err)
		default:
			// A place among the verifying, for this line only: the
			// request holds none while its next line comes in.
			select {
			case s.verifying <- struct{}{}:
			case <-gone:
				return false
			}
			vd = s.verifyHeld(l.Name, l.Data)
		}
		line = jsonl.AppendVerdict(line[:0], vd)
		if _, err := out.Write(line); err != nil {
			return false
		}
		return n <= MaxVerifyLines
	}, nil)
	flush()
}

// verifyHeld verifies a replay with a place among the verifying taken,
// and gives the place back.
func (s *Server) verifyHeld(name string, data []byte) replay.Verdict {
	defer func() { <-s.verifying }()
	return s.verifier.VerifyFile(name, data)
}

// lineBody is a JSON Lines request's body: it writes out the answer so
// far (flush) before each read of more of it, and keeps the error that
// cut it off, if any.
type lineBody struct {
	r     io.Reader
	flush func()
	err   error // the read's error other than io.EOF: the body cut off
}

func (b *lineBody) Read(p []byte) (int, error) {
	b.flush()
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		b.err = err
	}
	return n, err
}

// cutOff says why the body was cut off, by err, inside its current line,
// and what to do. An answer cut off by the server's read timeout is given
// time to go out (answerLate).
func cutOff(w http.ResponseWriter, err error) error {
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return fmt.Errorf("the request is larger than %d bytes; send the rest in another", MaxVerifyBody)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		answerLate(w)
		return errors.New("the request was cut off before this line's end: the server's read timeout, which counts from the request's start, passed with the body still coming; send this line and those after it in another request, and a long batch as several")
	}
	return fmt.Errorf("the request was cut off before this line's end (%v); send this line and those after it again", err)
}
