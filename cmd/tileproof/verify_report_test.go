package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportKeptWhenListingFails: a second verify --report into the same
// file whose inputs cannot be listed (a path mistyped) fails without
// touching the earlier report: the summary is written over only when the
// new one is complete. Before 2026-12-07 the earlier summary was emptied
// when the run began and removed when the listing failed, its pages left
// behind without it. A report that did not exist is still not left
// behind, empty.
func TestReportKeptWhenListingFails(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "r.html")
	if code, _, stderr := runCLI(t, "", "verify", "--report", report, "../../replays/minimal.yaml"); code != exitOK {
		t.Fatalf("the first run: exit %d: %s", code, stderr)
	}
	before, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "no-such-dir")
	code, _, stderr := runCLI(t, "", "verify", "--report", report, "../../replays/valid", missing)
	if code != exitBadUsage || !strings.Contains(stderr, "no-such-dir") {
		t.Fatalf("the second run: exit %d, stderr %q; want %d naming the missing input", code, stderr, exitBadUsage)
	}
	after, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("the earlier report: %v", err)
	}
	if string(after) != string(before) {
		t.Errorf("the earlier report changed: %d bytes, were %d", len(after), len(before))
	}
	fresh := filepath.Join(dir, "fresh.html")
	if code, _, _ := runCLI(t, "", "verify", "--report", fresh, missing); code != exitBadUsage {
		t.Fatalf("a fresh report of a missing input: exit %d", code)
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Errorf("%s left behind by a run that could not list its inputs", fresh)
	}
}

// TestReportWrittenOverShorter: a report written over a longer earlier
// one is the new report alone, byte for byte what it is written fresh.
func TestReportWrittenOverShorter(t *testing.T) {
	fresh, again := filepath.Join(t.TempDir(), "r.html"), filepath.Join(t.TempDir(), "r.html")
	if code, _, stderr := runCLI(t, "", "verify", "--report", again, "../../replays/valid"); code != exitOK {
		t.Fatalf("the earlier report: exit %d: %s", code, stderr)
	}
	for _, report := range []string{fresh, again} {
		if code, _, stderr := runCLI(t, "", "verify", "--report", report, "../../replays/minimal.yaml"); code != exitOK {
			t.Fatalf("%s: exit %d: %s", report, code, stderr)
		}
	}
	want, err := os.ReadFile(fresh)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(again)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("written over an earlier report: %d bytes, fresh %d", len(got), len(want))
	}
}
