// Package adaptertest builds the reference adapter (conformance/testdata/
// adapter, an independent implementation of every built-in profile behind
// the exec protocol) for the tests of the packages that drive it, and
// loads the repository's case pack.
package adaptertest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/tileproof/tileproof/conformance"
)

// dir is the conformance folder of the repository.
var dir = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}()

// Build builds the adapter once and returns the path of its binary.
var Build = sync.OnceValues(func() (string, error) {
	tmp, err := os.MkdirTemp("", "tileproof-adapter")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(tmp, "adapter")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join(dir, "testdata", "adapter")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", errors.New(string(out))
	}
	return bin, nil
})

// Command returns the command line that runs the adapter with args
// (--mutant NAME, --features LIST), failing the test when it does not
// build.
func Command(t testing.TB, args ...string) string {
	t.Helper()
	bin, err := Build()
	if err != nil {
		t.Fatalf("building the adapter: %v", err)
	}
	return strings.Join(append([]string{bin}, args...), " ")
}

// Pack loads the repository's case pack (cases/ at its root).
func Pack(t testing.TB) *conformance.Pack {
	t.Helper()
	pack, err := conformance.LoadPack(os.DirFS(filepath.Join(dir, "..", "cases")))
	if err != nil {
		t.Fatal(err)
	}
	return pack
}
