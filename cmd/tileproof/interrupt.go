package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// stopSignals returns the signals that stop a run of an implementation
// (a function: os.Interrupt is a variable, so a list of it would be made
// at start).
func stopSignals() []os.Signal { return []os.Signal{os.Interrupt, syscall.SIGTERM} }

// A run is the context of a command that drives an implementation: done
// when an interrupt or a termination signal comes, or when its deadline
// (--run-timeout) passes, each with its cause. The drivers are bound to
// it: when it is done they kill the implementation's processes, and the
// runner reports what it did not reach as not run; the command then
// writes its reports as usual. After the first signal the signals are no
// longer caught: a second one ends the command at once.
type run struct {
	context.Context
	signalled context.Context // done by a signal (or by stop)
	stop      func()
}

// newRun returns the run of a command; runTimeout bounds it (0: no
// bound). The caller calls its stop when the run is over.
func newRun(parent context.Context, runTimeout time.Duration) *run {
	sig, stopSig := signal.NotifyContext(parent, stopSignals()...)
	context.AfterFunc(sig, stopSig) // a second signal is not caught
	ctx, cancel := context.Context(sig), context.CancelFunc(func() {})
	if runTimeout > 0 {
		ctx, cancel = context.WithTimeoutCause(sig, runTimeout, fmt.Errorf("the run's deadline (--run-timeout %s) has passed", runTimeout))
	}
	return &run{Context: ctx, signalled: sig, stop: func() { cancel(); stopSig() }}
}

// interrupted returns the exit status of a run a signal stopped, 128 plus
// the signal's number as shells give it, after saying so on stderr; 0
// when no signal came.
func (c *cli) interrupted(r *run, command string) int {
	cause := context.Cause(r.signalled)
	if cause == nil || cause == context.Canceled { // no signal: running, or stopped
		return 0
	}
	fmt.Fprintf(c.stderr, "tileproof: %s: %v: the run was stopped and the implementation ended\n", command, cause)
	for _, s := range stopSignals() {
		if n, ok := s.(syscall.Signal); ok && cause.Error() == s.String()+" signal received" {
			return 128 + int(n)
		}
	}
	return 128 + int(syscall.SIGINT)
}
