package driver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/protocol"
)

// The conversation of an Exec with its process: starting it and saying
// hello, writing requests and reading their answers, and the rules of
// docs/protocol.md, "Failures": what fails a request, when the process is
// ended, and when the driver stops.

// ctx is the run's context.
func (e *Exec) ctx() context.Context { return cmp.Or(e.Context, context.Background()) }

// ended returns why the run's context is done, as the driver's error
// (not run, with the cause), or nil while the run goes on. A deadline
// that has passed ends the run even before the context's own timer has
// fired: the reads share the deadline, and may see it first.
func (e *Exec) ended() error {
	ctx := e.ctx()
	if ctx.Err() == nil {
		if dl, ok := ctx.Deadline(); !ok || time.Now().Before(dl) {
			return nil
		}
		<-ctx.Done()
	}
	return e.giveUp(conformance.NotRun, context.Cause(ctx).Error())
}

// answerDeadline is when the wait for an answer ends: the timeout d from
// from, or the run's deadline when that comes first.
func (e *Exec) answerDeadline(from time.Time, d time.Duration) time.Time {
	end := from.Add(d)
	if dl, ok := e.ctx().Deadline(); ok && dl.Before(end) {
		return dl
	}
	return end
}

// giveUp stops the driver for reason: every later request fails, not
// run. It returns that error.
func (e *Exec) giveUp(status conformance.Status, reason string) error {
	if e.stopped == nil {
		e.stopped = &conformance.DriverError{Status: status, Msg: "not run: " + reason}
	}
	return e.stopped
}

// ensure starts the process and says hello, unless it runs; it returns
// the failure, or why the driver has stopped.
func (e *Exec) ensure() error {
	if e.stopped != nil {
		return e.stopped
	}
	if err := e.ended(); err != nil {
		e.kill()
		return err
	}
	if e.proc != nil {
		return nil
	}
	if e.stderr == nil {
		e.stderr = &cappedWriter{w: cmp.Or(e.Stderr, io.Writer(os.Stderr)), prefix: "impl: ", limit: StderrLimit}
	}
	p, err := startProcess(e.Command, e.stderr)
	if err != nil {
		return e.startFailed(&conformance.DriverError{Status: conformance.Crash, Msg: fmt.Sprintf("cannot start %q: %v", e.Command, err)})
	}
	e.proc = p
	// The run's end, a deadline or an interrupt, kills the process
	// whatever the driver is doing: a read or a write under way fails,
	// and is reported as not run.
	p.unwatch = context.AfterFunc(e.ctx(), p.stop)
	var a protocol.Answer
	var refused error
	if _, err := e.exchange([]protocol.Request{{Op: protocol.OpHello, Protocol: protocol.Version}}, func(_ int, got protocol.Answer, err error) { a, refused = got, err }); err != nil {
		return e.startFailed(err)
	}
	if refused != nil {
		return e.startFailed(&conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("hello (request %d): the implementation refused it: %s: %s", e.nextID, a.Error, safetext.Cut(a.Message, 200))})
	}
	if a.Protocol != protocol.Version {
		e.kill()
		return e.giveUp(conformance.ProtocolError, fmt.Sprintf("hello: the implementation speaks protocol %d; this runner speaks %d", a.Protocol, protocol.Version))
	}
	e.failedStarts = 0
	if e.hello == nil {
		e.hello = &conformance.Hello{Name: a.Name, Version: a.Version, Protocol: a.Protocol, Profiles: dedupe(a.Profiles), Features: dedupe(a.Features)}
	}
	return nil
}

// startFailed counts a failed start and returns its error: the driver
// stops after maxFailedStarts in a row.
func (e *Exec) startFailed(err error) error {
	e.kill()
	if e.failedStarts++; e.failedStarts >= maxFailedStarts && e.stopped == nil {
		var de *conformance.DriverError
		if errors.As(err, &de) {
			e.giveUp(de.Status, fmt.Sprintf("the implementation failed to start %d times in a row (the last: %s)", e.failedStarts, de.Msg))
		}
	}
	return err
}

// kill ends the process, if one runs.
func (e *Exec) kill() {
	if e.proc != nil {
		e.proc.unwatch()
		e.proc.stop()
		e.proc = nil
	}
}

// dedupe returns the items of list, each once, in order.
func dedupe(list []string) []string {
	out := make([]string, 0, len(list))
	for _, s := range list {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// exchange numbers reqs and sends them to the running process, reading
// their answers in order and calling got with each: its answer, and err,
// a *RuleError for a refusal by the rules or a *DriverError for an answer
// with a protocol word. With more than one request, a goroutine writes
// them, at most window ahead of the answers. At the first request that
// gets no proper answer it ends the process and returns that failure and
// the request's index; n is len(reqs) when every request was answered.
//
// Each answer has the timeout from the later of the answer before it and
// the write of its request: the implementation is never charged for a
// request the runner had not yet written, however far behind its window
// it is. A write that stalls for the timeout, the implementation reading
// nothing and answering nothing meanwhile, is a timeout too.
func (e *Exec) exchange(reqs []protocol.Request, got func(i int, a protocol.Answer, err error)) (n int, err error) {
	p := e.proc
	for i := range reqs {
		e.nextID++
		reqs[i].ID = e.nextID
	}
	d := cmp.Or(e.Timeout, defaultTimeout)
	if reqs[0].Op == protocol.OpHello {
		d = max(d, cmp.Or(e.StartTimeout, StartTimeout)) // hello's answer waits on the start too
	}
	o := &outbox{p: p, reqs: reqs, wait: d, at: make(chan time.Time, len(reqs))}
	o.limit, _ = e.ctx().Deadline()
	o.answered.Store(time.Now().UnixNano())
	if len(reqs) > 1 {
		o.slots = make(chan struct{}, window)
	}
	written := make(chan struct{})
	if o.slots == nil {
		e.out = o.run(e.out)
		close(written)
	} else {
		go func() {
			defer close(written)
			o.run(nil)
		}()
	}
	defer func() {
		if err != nil {
			if end := e.ended(); end != nil {
				err = end // the run ended under the request: it is not run
			}
			e.kill()
		}
		<-written
	}()
	last := time.Now() // the answer before, or the start
	for i, req := range reqs {
		what := requestName{req.Op, req.ID} // named only in an error
		from, werr := o.written()
		switch {
		case errors.Is(werr, errWriteStalled):
			if err := e.ended(); err != nil {
				return i, err
			}
			return i, e.countTimeout(&conformance.DriverError{Status: conformance.Timeout, Msg: fmt.Sprintf("%s: the implementation has not read its input for %s", what, d)}, what)
		case werr != nil:
			from = time.Now() // the pipe has closed: the read tells how it ended
		}
		if last.After(from) {
			from = last
		}
		data, rerr := p.readLine(e.answerDeadline(from, d))
		if rerr != nil {
			if err := e.ended(); err != nil {
				return i, err
			}
		}
		switch {
		case errors.Is(rerr, os.ErrDeadlineExceeded) && p.exited():
			return i, &conformance.DriverError{Status: conformance.Crash, Msg: fmt.Sprintf("%s: the implementation %s without answering%s", what, p.ended(), p.saidLast())}
		case errors.Is(rerr, os.ErrDeadlineExceeded):
			msg := fmt.Sprintf("%s: no answer within %s", what, d)
			if what.op == protocol.OpHello {
				// Most often an answer written and never flushed.
				msg += " (an answer written to stdout waits in the implementation's buffer until it is flushed: flush after each line)"
			}
			return i, e.countTimeout(&conformance.DriverError{Status: conformance.Timeout, Msg: msg}, what)
		case errors.Is(rerr, errLineTooLong):
			return i, &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%s: the answer is longer than %d bytes", what, protocol.MaxLine)}
		case rerr != nil:
			msg := fmt.Sprintf("%s: the implementation %s without answering", what, p.ended())
			if len(data) > 0 {
				msg += fmt.Sprintf(" (it wrote %q without a newline)", safetext.Cut(string(data), 120))
			}
			msg += p.saidLast()
			return i, &conformance.DriverError{Status: conformance.Crash, Msg: msg}
		}
		o.answered.Store(time.Now().UnixNano())
		if o.slots != nil {
			<-o.slots // this request's: the writer took it before writing the request
		}
		a, err := readAnswer(req.Op, data)
		switch {
		case err != nil:
			return i, &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%s: the answer %s is not the protocol's: %v", what, safetext.Cut(string(data), 120), err)}
		case a.ID == 0: // null: the answer to a line that was not a request
			return i, &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%s: the implementation could not read the request: %s: %s", what, a.Error, safetext.Cut(a.Message, 200))}
		case a.ID != int64(req.ID):
			return i, &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%s: the answer is to request %d, not %d: %s", what, a.ID, req.ID, safetext.Cut(string(data), 120))}
		}
		if req.Op != protocol.OpHello {
			e.timeouts = 0
		}
		got(i, a, refusal(what, a))
		last = time.Now()
	}
	return len(reqs), nil
}

// countTimeout counts a timeout other than the run's end and returns
// its error err; the driver stops after MaxTimeouts in a row.
func (e *Exec) countTimeout(err error, what requestName) error {
	e.timeouts++
	if e.timeouts >= cmp.Or(e.MaxTimeouts, 3) {
		e.giveUp(conformance.Timeout, fmt.Sprintf("the implementation timed out on %d requests in a row (the last: %s); the driver stopped", e.timeouts, what))
	}
	return err
}

// requestName names a request in an error: "move (request 17)".
type requestName struct {
	op string
	id int
}

func (r requestName) String() string { return fmt.Sprintf("%s (request %d)", r.op, r.id) }

// refusal returns an answer's ok: false as an error: a *RuleError for a
// rules word, a *DriverError (protocol-error) for a protocol word; nil
// for ok: true.
func refusal(what requestName, a protocol.Answer) error {
	switch {
	case a.OK:
		return nil
	case protocol.RuleWord(a.Error):
		return &conformance.RuleError{Code: a.Error, Message: a.Message}
	case what.op == protocol.OpLegal && a.Error == protocol.ErrorUnsupportedOp:
		return fmt.Errorf("%s: %w (%s)", what, conformance.ErrNoLegal, safetext.Cut(a.Message, 200))
	}
	return &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%s: the implementation answered %s: %s", what, a.Error, safetext.Cut(a.Message, 200))}
}
