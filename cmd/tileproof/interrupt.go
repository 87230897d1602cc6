package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/tileproof/tileproof/conformance"
)

// interruptible ends the implementation when an interrupt or a
// termination signal comes, then the command (exit 130): an exec adapter
// runs in a session of its own, so the terminal's Ctrl-C does not reach
// it, and without this it would outlive the command. The returned
// function stops the watch.
func (c *cli) interruptible(impl conformance.Impl) (stop func()) {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-signals:
			if in, ok := impl.(interface{ Interrupt() }); ok {
				in.Interrupt() // a request in flight holds Close back
			} else {
				impl.Close()
			}
			fmt.Fprintf(c.stderr, "tileproof: %v: the implementation was stopped\n", sig)
			os.Exit(128 + int(sigNumber(sig)))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(signals)
		close(done)
	}
}

// sigNumber is a signal's number, for the exit status 128+N shells give.
func sigNumber(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return int(s)
	}
	return 2
}
