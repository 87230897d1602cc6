package main

import (
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// The shims: small C files compiled at start with the C compiler into
// shared objects that the game preloads. shim/nosleep.c (-fast) makes the
// 150 ms pause between frames take no time; shim/clock.c (-clock) gives
// each run of the game the second the adapter chooses. Each object is
// held in an anonymous memory file (memfd) handed to the game as an extra
// file: nothing is left on disk, whatever way the adapter ends.

var (
	//go:embed shim/nosleep.c
	nosleepSource []byte
	//go:embed shim/clock.c
	clockSource []byte
)

// clockVar is the variable clock.c reads the second from.
const clockVar = "TILEPROOF_2048C_CLOCK"

// buildShim compiles a shim's source with cc (or $CC) and returns the
// shared object as a memory file.
func buildShim(name string, source []byte) (*os.File, error) {
	dir, err := os.MkdirTemp("", "2048c-shim-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	src, obj := filepath.Join(dir, name+".c"), filepath.Join(dir, name+".so")
	if err := os.WriteFile(src, source, 0o644); err != nil {
		return nil, err
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	out, err := exec.Command(cc, "-shared", "-fPIC", "-O2", "-o", obj, src).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("cannot compile the shim %s.c with %s: %v %s", name, cc, err, strings.TrimSpace(string(out)))
	}
	so, err := os.ReadFile(obj)
	if err != nil {
		return nil, err
	}
	fd, err := unix.MemfdCreate("2048c-"+name+".so", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("no memory file for the shim %s: %v", name, err)
	}
	f := os.NewFile(uintptr(fd), "2048c-"+name+".so")
	if _, err := f.Write(so); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
