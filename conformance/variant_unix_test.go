//go:build unix

package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tileproof/tileproof/engine"
)

// TestProfileFileHostile: a path an implementation declares is never
// opened: /dev/zero (read without bound before) and a FIFO (which hung
// the run) are refused at once with a clear error. Named by the user,
// they are refused too, as not regular files, never read nor waited on;
// so is a directory, and a file over engine.MaxProfileFile.
func TestProfileFileHostile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, engine.MaxProfileFile+1), 0o666); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub.yaml")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", fifo} {
		_, err := Run(t.Context(), loadRepoPack(t), declaresFile{&Builtin{}, path}, Options{})
		if err == nil || !strings.Contains(err.Error(), "the implementation declares the profile file") {
			t.Errorf("%s declared: %v", path, err)
		}
	}
	for path, want := range map[string]string{
		"/dev/zero": "/dev/zero: a device; only a regular file is read",
		fifo:        fifo + ": a named pipe; only a regular file is read",
		sub:         sub + ": a directory; only a regular file is read",
		big:         big + ": larger than 1 MiB",
	} {
		done := make(chan error, 1)
		go func() {
			_, err := Run(t.Context(), loadRepoPack(t), declaresFile{&Builtin{}, path}, Options{Profiles: []string{path}})
			done <- err
		}()
		select {
		case err := <-done:
			if want = "the profile file asked for: " + want; err == nil || err.Error() != want {
				t.Errorf("%s asked for: %v, want %q", path, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s asked for: not refused after 10 s", path)
		}
	}
}
