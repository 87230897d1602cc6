package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// moveUndoReplay returns a valid online-2048 replay of about size bytes:
// one legal move and its undo, again and again (score 0, no counted move
// in the end), the shape that made a page hold a frame an action
// (docs/security.md).
func moveUndoReplay(t testing.TB, size int) []byte {
	t.Helper()
	p, err := engine.BuiltinProfile("online-2048")
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(p, "1")
	if err != nil {
		t.Fatal(err)
	}
	letter := string(engine.Action(g.LegalMoves()[0]).Letter())
	head := `{"profile":"online-2048","seed":"1","moves":"`
	tail := fmt.Sprintf(`","claim":{"score":0,"maxTile":%d,"moves":0}}`, g.MaxTile())
	pairs := (size - len(head) - len(tail)) / 2
	return []byte(head + strings.Repeat(letter+"Z", pairs) + tail)
}

// childRun runs tileproof's command line in a child process (this test
// binary, TestMemoryChild) and returns its peak resident memory in bytes
// and its exit code.
func childRun(t *testing.T, args ...string) (peak int64, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryChild$")
	cmd.Env = append(os.Environ(), "TILEPROOF_MEMORY_CHILD="+strings.Join(args, "\x1f"))
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil {
		t.Fatalf("%v: %v", args, err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no resource usage on this system")
	}
	if len(out) > 0 {
		t.Logf("%s", strings.TrimSpace(string(out)))
	}
	return ru.Maxrss * 1024, cmd.ProcessState.ExitCode()
}

// TestMemoryChild is the child of childRun: it runs the command line it
// is given and exits with its code. It skips when run as a test.
func TestMemoryChild(t *testing.T) {
	args := os.Getenv("TILEPROOF_MEMORY_CHILD")
	if args == "" {
		t.Skip("run by childRun only")
	}
	c := &cli{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	os.Exit(c.main(strings.Split(args, "\x1f")))
}

// TestPageMemory: a viewer page of a 2 MiB log of move+undo pairs is
// written in at most 150 MB and weighs at most 4 MB (it took 1.29 GB and
// 71 MB when a frame was kept a step); with TILEPROOF_MEASURE set, the 8
// MiB report and the 64 MiB page too, each in memory and a page at most a
// small multiple of the replay (docs/security.md).
func TestPageMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak memory is read from Linux's rusage")
	}
	type tc struct {
		name     string
		size     int
		report   bool
		mem, out int64 // the most memory and page bytes
	}
	cases := []tc{{"2MiB-show", 2 << 20, false, 150 << 20, 4 << 20}}
	if os.Getenv("TILEPROOF_MEASURE") != "" {
		cases = append(cases,
			tc{"8MiB-report", 8 << 20, true, 40 * 8 << 20, 8 * 8 << 20},
			tc{"64MiB-show", 64 << 20, false, 12 * 64 << 20, 2 * 64 << 20})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "undo.json")
			if err := os.WriteFile(in, moveUndoReplay(t, c.size), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "page.html")
			args := []string{"show", "--html", "-o", out, in}
			page := out
			if c.report {
				args = []string{"verify", "--report", out, in}
				page = filepath.Join(dir, "page_files", pageFile(in))
			}
			peak, code := childRun(t, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d", args, code)
			}
			info, err := os.Stat(page)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: a %d-byte replay: peak memory %.1f MB, a page of %d bytes", c.name, c.size, float64(peak)/1e6, info.Size())
			if peak > c.mem {
				t.Errorf("peak memory %d bytes, at most %d", peak, c.mem)
			}
			if info.Size() > c.out {
				t.Errorf("a page of %d bytes, at most %d", info.Size(), c.out)
			}
		})
	}
}
