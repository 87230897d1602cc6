//go:build unix

package batchfiles

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenInRoot: a file found in a directory is opened only if it is a
// regular file: a link (even to a regular file) and a named pipe are
// refused, the pipe at once, without waiting for a writer.
func TestOpenInRoot(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "a.yaml")
	if err := os.WriteFile(regular, []byte("x"), 0o666); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(regular, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	openRegular := func(path string) (*os.File, error) { return openInRoot(root, filepath.Base(path)) }
	f, err := openRegular(regular)
	if err != nil {
		t.Fatalf("a regular file: %v", err)
	}
	f.Close()
	if f, err := openRegular(link); err == nil {
		f.Close()
		t.Errorf("a link was opened")
	}
	done := make(chan error, 1)
	go func() {
		f, err := openRegular(fifo)
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "a named pipe") {
			t.Errorf("a named pipe: error %v, want one that says it is a named pipe", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("opening a named pipe blocked")
	}
}
