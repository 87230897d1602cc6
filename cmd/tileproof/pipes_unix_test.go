//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tileproof/tileproof/engine"
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

// TestAnalyzeTimesKeyPipe: --times-key-file reads a named pipe as serve's
// --key-file does (--times-key-file <(...)): the key written into it is
// read and checked.
func TestAnalyzeTimesKeyPipe(t *testing.T) {
	for _, tc := range []struct {
		key  string
		code int
		want string
	}{
		{"short\n", exitBadUsage, "the key is 5 bytes"},
		{timesKey + "\n", exitOK, "consistent"},
	} {
		fifo := filepath.Join(t.TempDir(), "key")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip(err)
		}
		go func() {
			if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				f.WriteString(tc.key)
				f.Close()
			}
		}()
		code, out, errOut := runCLI(t, "", "analyze", "--times-key-file", fifo, "../../replays/valid/committed-seed.yaml")
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("a key of %q through a named pipe: exit %d, want %d and %q in %s%s", tc.key, code, tc.code, tc.want, out, errOut)
		}
	}
}

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

// TestProfileFileNotRegular: a profile file named on the command line is
// read only if it is a regular file (/dev/zero was read without bound, a
// named pipe waited on), and only up to engine.MaxProfileFile bytes.
func TestProfileFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "p.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, engine.MaxProfileFile+1), 0o666); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"/dev/zero": "only a regular file", fifo: "only a regular file", big: "larger than 1 MiB"} {
		start := time.Now()
		code, _, errOut := runCLI(t, "", "profiles", path)
		if code == exitOK || !strings.Contains(errOut, want) {
			t.Errorf("profiles %s: exit %d, stderr %q, want %q", path, code, errOut, want)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("profiles %s: refused after %v", path, d)
		}
	}
}

// TestExpectFileNotRegular: conform --expect reads only a regular file
// (/dev/zero was read until memory ran out, a named pipe waited on past
// a SIGTERM), and no more than the YAML reader takes.
func TestExpectFileNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "expect.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for _, path := range []string{"/dev/zero", fifo} {
		start := time.Now()
		code, _, errOut := runCLI(t, "", "conform", "--impl", "builtin", "--expect", path)
		if code != exitBadUsage || !strings.Contains(errOut, "only a regular file") {
			t.Errorf("conform --expect %s: exit %d, stderr %q", path, code, errOut)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("conform --expect %s: refused after %v", path, d)
		}
	}
}
