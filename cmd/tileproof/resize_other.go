//go:build !unix

package main

import "os"

// resizeSignals: none here; the view fits itself to the window at the
// next key.
var resizeSignals []os.Signal
