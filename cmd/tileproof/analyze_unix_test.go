//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestAnalyzeReferenceNotRegular: a reference that is a named pipe is
// refused at once, never waited on (a pipe nobody writes to would hang a
// plain read).
func TestAnalyzeReferenceNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "ref.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	code, _, errOut := runCLI(t, "", "analyze", "--reference", fifo, "../../replays/valid/tile-merge-2048.yaml")
	if code != exitBadUsage || !strings.Contains(errOut, "--reference") || !strings.Contains(errOut, "regular") {
		t.Errorf("a named pipe as the reference: exit %d, stderr %q", code, errOut)
	}
}
