//go:build unix

package main

import (
	"os"
	"syscall"
)

// resizeSignals are the signals that tell a full-screen view the window
// changed size.
var resizeSignals = []os.Signal{syscall.SIGWINCH}
