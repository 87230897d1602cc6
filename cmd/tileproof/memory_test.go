package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/internal/testkit/games"
)

// moveUndoReplay returns a valid online-2048 replay of about size bytes:
// one legal move and its undo, again and again (score 0, no counted move
// in the end), the shape that made a page hold a frame an action
// (docs/security.md).
func moveUndoReplay(size int) []byte {
	return games.MoveUndo((size - len(games.MoveUndo(0))) / 2)
}

// childRun runs tileproof's command line in a child process (this test
// binary, TestMemoryChild) and returns its peak resident memory in bytes
// and its exit code. The peak is the child's own, VmHWM of its
// /proc/self/status as it ends: the rusage of a child started by
// os/exec counts the parent's high-water mark too (Linux records the
// forking process's at exec), so a test process grown by other tests
// would be charged to the command.
func childRun(t *testing.T, args ...string) (peak int64, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryChild$")
	cmd.Env = append(os.Environ(), "TILEPROOF_MEMORY_CHILD="+strings.Join(args, "\x1f"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if cmd.ProcessState == nil {
		t.Fatalf("%v: %v", args, err)
	}
	if len(out) > 0 {
		t.Logf("%s", strings.TrimSpace(string(out)))
	}
	for line := range strings.Lines(stderr.String()) {
		if kb, ok := strings.CutPrefix(line, childPeakPrefix); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(kb), 10, 64)
			if err != nil {
				t.Fatalf("the child's peak %q: %v", line, err)
			}
			peak = n * 1024
		} else {
			t.Logf("%s", strings.TrimSpace(line))
		}
	}
	if peak == 0 {
		t.Fatalf("%v: the child did not report its peak memory", args)
	}
	return peak, cmd.ProcessState.ExitCode()
}

// childPeakPrefix starts the line on which TestMemoryChild reports its
// peak resident memory, in kB.
const childPeakPrefix = "tileproof-test-peak-kB: "

// TestMemoryChild is the child of childRun: it runs the command line it
// is given and exits with its code. It skips when run as a test.
func TestMemoryChild(t *testing.T) {
	args := os.Getenv("TILEPROOF_MEMORY_CHILD")
	if args == "" {
		t.Skip("run by childRun only")
	}
	c := &cli{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	code := c.main(strings.Split(args, "\x1f"))
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(status)) {
		if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			fmt.Fprintf(os.Stderr, "%s%s\n", childPeakPrefix, strings.TrimSuffix(strings.TrimSpace(kb), " kB"))
		}
	}
	os.Exit(code)
}

// TestPageMemory: a viewer page of a 2 MiB log of move+undo pairs is
// written in at most 150 MB and weighs at most 4 MB (it took 1.29 GB and
// 71 MB when a frame was kept a step); with TILEPROOF_MEASURE set, the 8
// MiB report and the 64 MiB page too, each in memory and a page at most a
// small multiple of the replay (docs/security.md).
func TestPageMemory(t *testing.T) {
	t.Parallel()
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
			if err := os.WriteFile(in, moveUndoReplay(c.size), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "page.html")
			args := []string{"show", "--html", "-o", out, in}
			page := out
			if c.report {
				args = []string{"verify", "--report", out, in}
			}
			peak, code := childRun(t, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d", args, code)
			}
			if c.report {
				pages, _ := filepath.Glob(filepath.Join(dir, "page_files", "undo.json-*.html"))
				if len(pages) != 1 {
					t.Fatalf("pages %q, want one", pages)
				}
				page = pages[0]
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

// TestShowMemory: show on a terminal, or printing one step, holds a
// bounded number of frames whatever the game's length: an 8 MiB log of
// move+undo pairs (4 million steps) took 1.2 GB, a 64 MiB one 9.3 GB (a
// frame held for every action); now about the file and its decoded log.
func TestShowMemory(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("peak memory is read from Linux's rusage")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "undo.json")
	if err := os.WriteFile(in, moveUndoReplay(8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"show", in}, {"show", "--step", "3", in}} {
		peak, code := childRun(t, args...)
		t.Logf("%v: peak memory %.1f MB", args, float64(peak)/1e6)
		if code != 0 || peak > 200<<20 {
			t.Errorf("%v: exit %d, peak memory %d bytes, at most %d", args, code, peak, 200<<20)
		}
	}
}
