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
// they are refused too, unopened, as not regular files; so is a file
// over engine.MaxProfileFile.
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
	for _, path := range []string{"/dev/zero", fifo} {
		start := time.Now()
		_, err := Run(t.Context(), loadRepoPack(t), declaresFile{&Builtin{}, path}, Options{})
		if err == nil || !strings.Contains(err.Error(), "the implementation declares the profile file") {
			t.Errorf("%s declared: %v", path, err)
		}
		_, err = Run(t.Context(), loadRepoPack(t), declaresFile{&Builtin{}, path}, Options{Profiles: []string{path}})
		if err == nil || !strings.Contains(err.Error(), "is not a regular file") {
			t.Errorf("%s asked for: %v", path, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: refused after %v", path, d)
		}
	}
	_, err := Run(t.Context(), loadRepoPack(t), declaresFile{&Builtin{}, big}, Options{Profiles: []string{big}})
	if err == nil || !strings.Contains(err.Error(), "a profile file is at most") {
		t.Errorf("a file over the bound: %v", err)
	}
}
