//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tileproof/tileproof/conformance"
)

// slowAdapter returns an exec command that runs the reference adapter
// with each answer held back by delay: an implementation that answers
// correctly, but slowly. The wrapper writes its process id into pidFile
// once it runs.
func slowAdapter(t *testing.T, delay, pidFile string) string {
	t.Helper()
	adapter := refAdapter(t)
	return fmt.Sprintf(`exec:echo $$ > %s; %s | while IFS= read -r line; do sleep %s; printf '%%s\n' "$line"; done`, pidFile, adapter, delay)
}

// readReport reads a JSON report conform wrote, and counts its results
// by status.
func readReport(t *testing.T, data string) (*conformance.Report, map[conformance.Status]int) {
	t.Helper()
	rep, err := conformance.ReadReport(strings.NewReader(data))
	if err != nil {
		t.Fatalf("%v: %.300s", err, data)
	}
	by := map[conformance.Status]int{}
	for _, r := range rep.Results {
		by[r.Status]++
	}
	return rep, by
}

// gone reports whether the process of the pid in file has ended.
func gone(t *testing.T, file string) bool {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return syscall.Kill(pid, 0) != nil
}

// TestConformRunTimeout: an implementation that answers every request
// correctly but slowly is cut by --run-timeout, at once: the checks not
// reached are not-run, none a failure and none a pass, the report is
// written, the run fails, and the implementation's processes are ended.
func TestConformRunTimeout(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	impl := slowAdapter(t, "0.05", pidFile)
	start := time.Now()
	// Without the deadline the run takes many minutes: a watchdog stops it
	// (as Ctrl-C would) so the test fails soon.
	watchdog := time.AfterFunc(30*time.Second, func() { syscall.Kill(os.Getpid(), syscall.SIGINT) })
	code, stdout, stderr := runCLI(t, "", "conform", "--impl", impl, "--profile", "classic", "--run-timeout", "3s", "--json")
	watchdog.Stop()
	elapsed := time.Since(start)
	if code != exitFailed {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitFailed, stderr)
	}
	if elapsed > 10*time.Second {
		t.Errorf("the run took %v under --run-timeout 3s", elapsed)
	}
	rep, by := readReport(t, stdout)
	if by[conformance.Pass] == 0 || by[conformance.NotRun] == 0 || by[conformance.NotRun]+by[conformance.Pass] != len(rep.Results) {
		t.Errorf("results by status: %v; want passes, then not-run, nothing else", by)
	}
	for _, r := range rep.Results {
		if r.Status == conformance.NotRun && r.Reason != "not run: the run's deadline (--run-timeout 3s) has passed" {
			t.Errorf("%s: not run, saying %q", r.Key(), r.Reason)
			break
		}
	}
	if g := rep.Verdict; g == nil || g.Pass || g.NotRun != by[conformance.NotRun] {
		t.Errorf("the gate: %+v; want a failure counting %d not run", g, by[conformance.NotRun])
	}
	if !gone(t, pidFile) {
		t.Error("the implementation still runs after the run")
	}
}

// TestConformDefaultRunTimeout: --help states the default deadline,
// which is 30 minutes.
func TestConformDefaultRunTimeout(t *testing.T) {
	_, stdout, _ := runCLI(t, "", "conform", "--help")
	if !regexp.MustCompile(`--run-timeout DURATION +the most \(a DURATION\) the whole run may take`).MatchString(stdout) || !strings.Contains(stdout, "(default 30m0s)") {
		t.Errorf("--help does not state the run's deadline:\n%s", stdout)
	}
}

// TestConformInterrupt: Ctrl-C (SIGINT) stops the run: the
// implementation is ended at once, the report of what ran is still
// written, the checks left are not-run, and the exit status is 130.
func TestConformInterrupt(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	impl := slowAdapter(t, "0.05", pidFile)
	page := filepath.Join(dir, "page.html")
	go func() {
		// Once the implementation runs, the command catches the signal.
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(pidFile); err == nil {
				time.Sleep(time.Second)
				syscall.Kill(os.Getpid(), syscall.SIGINT)
				return
			}
		}
	}()
	start := time.Now()
	code, stdout, stderr := runCLI(t, "", "conform", "--impl", impl, "--profile", "classic", "--json", "--html", page)
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("the run ended %v after it began, the interrupt 1s after the implementation started", elapsed)
	}
	if code != 130 {
		t.Errorf("exit %d, want 130; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "interrupt signal received: the run was stopped") {
		t.Errorf("stderr does not say the run was interrupted:\n%s", stderr)
	}
	rep, by := readReport(t, stdout)
	if by[conformance.NotRun] == 0 || by[conformance.NotRun]+by[conformance.Pass] != len(rep.Results) {
		t.Errorf("results by status: %v; want passes, then not-run, nothing else", by)
	}
	if data, err := os.ReadFile(page); err != nil || !strings.Contains(string(data), `<h2 id="not-run">Not run</h2>`) {
		t.Errorf("the page lists no check not run (%v)", err)
	}
	if !gone(t, pidFile) {
		t.Error("the implementation still runs after the interrupt")
	}
}

// TestConformObserveWritesNothing: conform --observe without
// --observe-out, in an empty working directory, a divergence found,
// leaves the directory empty.
func TestConformObserveWritesNothing(t *testing.T) {
	adapter := refAdapter(t)
	t.Chdir(t.TempDir())
	code, stdout, stderr := runCLI(t, "", "conform", "--impl", "exec:"+adapter+" --profiles classic --features keep-playing --mutant game-over-when-full", "--properties=false", "--observe", "3")
	if code != exitFailed || !strings.Contains(stdout, "DIVERGENCE") {
		t.Fatalf("exit %d, no divergence found:\n%s\n%s", code, stdout, stderr)
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("the run wrote %s into the working directory", e.Name())
	}
	if !strings.Contains(stdout, "not written (--observe-out DIR writes it") {
		t.Errorf("the report does not say how to get the game:\n%s", stdout)
	}
}

// The JSON report of a run cut short keeps its not-run results when read
// back, as --baseline reads it.
func TestNotRunRoundTrip(t *testing.T) {
	rep := &conformance.Report{Results: []conformance.CaseResult{{Case: "core/a", Area: "core", Profile: "classic", Status: conformance.NotRun, Reason: "not run: x"}}}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	back, by := readReport(t, string(data))
	if by[conformance.NotRun] != 1 || back.Results[0].Reason != "not run: x" {
		t.Errorf("read back: %+v", back.Results)
	}
}
