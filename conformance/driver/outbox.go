package driver

import (
	"encoding/json"
	"errors"
	"os"
	"sync"
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

	mu      sync.Mutex
	n       int         // requests written in full
	at      []time.Time // when each of the first n was
	done    bool        // the writer has finished or given up
	err     error       // why it gave up: errWriteStalled, or the end of the pipe
	changed chan struct{}
}

// errWriteStalled is a write that made no progress for the timeout: the
// implementation does not read its input.
var errWriteStalled = errors.New("the implementation does not read its input")

func newOutbox(p *process, reqs []protocol.Request, slots chan struct{}, wait time.Duration, limit time.Time) *outbox {
	o := &outbox{p: p, reqs: reqs, slots: slots, wait: wait, limit: limit, at: make([]time.Time, len(reqs)), changed: make(chan struct{}, 1)}
	o.answered.Store(time.Now().UnixNano())
	return o
}

// run writes the requests, taking a slot for each when there are slots
// (the reader frees one an answer) and flushing whenever it would wait
// for one; buf is reused.
func (o *outbox) run(buf []byte) []byte {
	buf = buf[:0]
	from := 0 // the first request in buf
	flush := func(to int) bool {
		if len(buf) == 0 {
			return true
		}
		err := o.write(buf)
		buf = buf[:0]
		o.mu.Lock()
		if err == nil {
			now := time.Now()
			for k := from; k < to; k++ {
				o.at[k] = now
			}
			o.n, from = to, to
		} else {
			o.err, o.done = err, true
		}
		o.mu.Unlock()
		o.signal()
		return err == nil
	}
	defer func() {
		o.mu.Lock()
		o.done = true
		o.mu.Unlock()
		o.signal()
	}()
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

func (o *outbox) signal() {
	select {
	case o.changed <- struct{}{}:
	default:
	}
}

// written waits until request i is written, and returns when it was; or,
// when the writer gave up before it, why.
func (o *outbox) written(i int) (time.Time, error) {
	for {
		o.mu.Lock()
		n, done, err := o.n, o.done, o.err
		var at time.Time
		if i < n {
			at = o.at[i]
		}
		o.mu.Unlock()
		switch {
		case i < n:
			return at, nil
		case done && err == nil:
			return time.Time{}, errors.New("the request was not written") // not reached: the writer writes all or fails
		case done:
			return time.Time{}, err
		}
		<-o.changed
	}
}

// appendRequest appends a request's line (without its newline) to b, as
// encoding/json writes protocol.Request.
func appendRequest(b []byte, r *protocol.Request) []byte {
	line, _ := json.Marshal(r) // a plain struct: no error
	return append(b, line...)
}
