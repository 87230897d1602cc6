package driver

import (
	"encoding/json"
	"errors"
	"os"
	"sync/atomic"
	"time"

	"github.com/tileproof/tileproof/protocol"
)

// An outbox is the writing side of one exchange: the requests written to
// the process so far and when each was, which the reader waits on before
// it reads that request's answer, so that an answer's time never counts
// a request the runner still held (docs/protocol.md, "Pipelining").
type outbox struct {
	p     *process
	reqs  []protocol.Request
	slots chan struct{} // a batch's requests written and not yet answered; nil for one request
	wait  time.Duration // how long a write may stall with no sign of the implementation reading
	limit time.Time     // the run's end; zero: none

	answered atomic.Int64 // when the reader last read an answer (UnixNano): progress for a stalled write

	// at gets when each request was written in full, in order, and is
	// closed when the writer has finished or given up; err is why it
	// gave up: errWriteStalled, or the end of the pipe.
	at  chan time.Time
	err error
}

// errWriteStalled is a write that made no progress for the timeout: the
// implementation does not read its input.
var errWriteStalled = errors.New("the implementation does not read its input")

// run writes the requests, taking a slot for each when there are slots
// (the reader frees one an answer) and flushing whenever it would wait
// for one; buf is reused.
func (o *outbox) run(buf []byte) []byte {
	defer close(o.at)
	buf = buf[:0]
	from := 0 // the first request in buf
	flush := func(to int) bool {
		if len(buf) == 0 {
			return true
		}
		o.err = o.write(buf)
		buf = buf[:0]
		for now := time.Now(); from < to && o.err == nil; from++ {
			o.at <- now
		}
		return o.err == nil
	}
	for i := range o.reqs {
		if o.slots != nil {
			select {
			case o.slots <- struct{}{}:
			default:
				if !flush(i) {
					return buf
				}
				select {
				case o.slots <- struct{}{}:
				case <-o.p.quit:
					return buf
				}
			}
		}
		buf = append(appendRequest(buf, &o.reqs[i]), '\n')
		if len(buf) >= 32<<10 && !flush(i+1) {
			return buf
		}
	}
	flush(len(o.reqs))
	return buf
}

// write writes b whole. A write that stalls for o.wait fails with
// errWriteStalled, unless the implementation showed it was reading
// meanwhile: part of b went, or an answer came.
func (o *outbox) write(b []byte) error {
	for len(b) > 0 {
		start := time.Now()
		end := start.Add(o.wait)
		if !o.limit.IsZero() && o.limit.Before(end) {
			end = o.limit
		}
		o.p.stdin.SetWriteDeadline(end)
		n, err := o.p.stdin.Write(b)
		b = b[n:]
		switch {
		case err == nil:
		case !errors.Is(err, os.ErrDeadlineExceeded):
			return err // the process has gone: its stdout tells how
		case !o.limit.IsZero() && !time.Now().Before(o.limit):
			return errWriteStalled
		case n == 0 && o.answered.Load() < start.UnixNano():
			return errWriteStalled
		}
	}
	return nil
}

// written waits until the next request is written, and returns when it
// was; or, when the writer gave up before it, why.
func (o *outbox) written() (time.Time, error) {
	at, ok := <-o.at
	switch {
	case ok:
		return at, nil
	case o.err == nil:
		return time.Time{}, errors.New("the request was not written") // the process was stopped
	}
	return time.Time{}, o.err
}

// appendRequest appends a request's line (without its newline) to b, as
// encoding/json writes protocol.Request.
func appendRequest(b []byte, r *protocol.Request) []byte {
	line, _ := json.Marshal(r) // a plain struct: no error
	return append(b, line...)
}
