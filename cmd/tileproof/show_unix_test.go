//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestShowRefusesPipe: show opens a named pipe without waiting on it and
// refuses it (issue 25, item 4).
func TestShowRefusesPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "p.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan string, 1)
	go func() {
		_, _, errOut := runCLI(t, "", "show", fifo)
		done <- errOut
	}()
	select {
	case errOut := <-done:
		if !strings.Contains(errOut, "a named pipe; only a regular file is read") {
			t.Errorf("%q", errOut)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("show waits on a named pipe")
	}
}
