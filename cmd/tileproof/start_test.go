package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/internal/testkit"
)

// goBuild builds the Go package or file src into dir/name and returns its
// path; it skips tb when there is no go command.
func goBuild(tb testing.TB, dir, name, src string) string {
	tb.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		tb.Skip("no go command to build with")
	}
	bin := filepath.Join(dir, name)
	if out, err := exec.Command(goCmd, "build", "-o", bin, src).CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", src, err, out)
	}
	return bin
}

// TestNoInitWork holds the command to doing no work at start in its own
// packages: a table, a map, a regular expression or a template is made at
// first use, or written as data the compiler lays out, so that a command
// pays only for what it uses.
func TestNoInitWork(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := testkit.Binary(t, "./cmd/tileproof")
	cmd := exec.Command(bin, "line", "2", "2")
	cmd.Env = append(cmd.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "init" {
			continue
		}
		if pkg := f[1]; pkg == "main" || strings.HasPrefix(pkg, "github.com/tileproof/tileproof/") {
			t.Errorf("%s does work at start: %s", pkg, line)
		}
	}
}
