// Package adaptertest builds the reference adapter (conformance/testdata/
// adapter, an independent implementation of every built-in profile behind
// the exec protocol) for the tests of the packages that drive it, and
// loads the repository's case pack.
package adaptertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/internal/testkit"
)

// Build builds the adapter once a process (through testkit, which
// shares the build with the other tests of the process) and returns the
// path of its binary.
func Build() (string, error) { return testkit.BuildBinary("./conformance/testdata/adapter") }

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
	pack, err := conformance.LoadPack(os.DirFS(filepath.Join(testkit.Root, "cases")))
	if err != nil {
		t.Fatal(err)
	}
	return pack
}
