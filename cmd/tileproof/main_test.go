package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tileproof/tileproof/replay"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"tileproof": func() { main() },
	})
}

// TestScripts runs the command-line tests in testdata/script: each
// .txtar file runs tileproof and checks its stdout, stderr and exit code.
func TestScripts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			// $ROOT is the repository (for cases/ and testdata), $ADAPTER
			// the reference exec adapter, built once.
			adapter, err := buildAdapter(root)
			env.Setenv("ROOT", root)
			env.Setenv("ADAPTER", adapter)
			return err
		},
	})
}

var (
	adapterOnce sync.Once
	adapterBin  string
	adapterErr  error
)

func buildAdapter(root string) (string, error) {
	adapterOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tileproof-script-adapter")
		if err != nil {
			adapterErr = err
			return
		}
		adapterBin = filepath.Join(dir, "adapter")
		cmd := exec.Command("go", "build", "-o", adapterBin, "./conformance/testdata/adapter")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			adapterErr = fmt.Errorf("building the adapter: %v\n%s", err, out)
		}
	})
	return adapterBin, adapterErr
}

// FuzzLineJSON feeds arbitrary input to the JSON decoder of the line
// command: it must answer or refuse, never panic, and every answer must be
// a line the engine accepts or refuses with an error.
func FuzzLineJSON(f *testing.F) {
	f.Add(`{"lineBeforeSwipe":[2,2,2,2]}`)
	f.Add(`{"lineBeforeSwipe":[2.0,4e0,-0,1]}`)
	f.Add(`{"lineBeforeSwipe":["2"]}`)
	f.Add(`{"lineBeforeSwipe":[1e400]}`)
	f.Add(`{"x":1}`)
	f.Fuzz(func(t *testing.T, in string) {
		cells, err := decodeLineJSON([]byte(in))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if len(cells) > 16 {
			t.Fatalf("decoded %d cells", len(cells))
		}
	})
}

// TestUsageLine checks that a command's usage comes from commands(), a
// subcommand's from its alternative there.
func TestUsageLine(t *testing.T) {
	for name, want := range map[string]string{
		"matrix":           "tileproof matrix REPORT.json...",
		"cases lint":       "tileproof cases lint [DIR]",
		"cases import-pgs": "tileproof cases import-pgs FILE [--name N] [--profile-out FILE] [-o FILE]",
	} {
		if got := usageLine(name); got != want {
			t.Errorf("usageLine(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestSendLines: each non-blank line is a replay named FILE:LINE; a line
// over the limit is an error of its own (and not kept in memory), and the
// lines after it go on.
func TestSendLines(t *testing.T) {
	in := "a\n\n" + strings.Repeat("x", 200000) + "\nb\r\nc"
	out := make(chan replay.Input, 10)
	sendLines("in", strings.NewReader(in), out, 1000)
	close(out)
	var got []string
	for i := range out {
		if i.Err != nil {
			got = append(got, i.Name+" error: "+i.Err.Error())
		} else {
			got = append(got, i.Name+" "+string(i.Data))
		}
	}
	want := []string{"in:1 a", "in:3 error: line longer than 1000 bytes", "in:4 b", "in:5 c"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}
