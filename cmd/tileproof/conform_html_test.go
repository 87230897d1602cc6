package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/internal/testkit"
)

// TestConformCaseInfo: a failing result of conform --json carries its
// case's description, source, steps to the failing one and YAML; the
// report its date, command line, the folder of its case files (a real
// folder of the repository for the pack built in) and the command that
// re-runs one case, which runs that case alone and fails it the same
// way; the page written with --html under --baseline gives the command's
// verdict.
func TestConformCaseInfo(t *testing.T) {
	root := testkit.Root
	adapter := refAdapter(t)
	impl := "exec:" + adapter + " --mutant score-both-tiles"
	code, out, errOut := runCLI(t, "", "conform", "--impl", impl, "--run", "^core/", "--properties=false", "--json")
	if code != exitFailed {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep conformance.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Date.IsZero() || strings.Join(rep.Command, " ") != "tileproof conform --impl "+impl+" --run ^core/ --properties=false --json" ||
		strings.Join(rep.Rerun, "\x00") != "tileproof\x00conform\x00--impl\x00"+impl || rep.CasesDir != "cases" {
		t.Errorf("the run info: %v %q %q %q", rep.Date, rep.Command, rep.Rerun, rep.CasesDir)
	}
	var failed *conformance.CaseResult
	for i, r := range rep.Results {
		switch {
		case r.Status.Failed() && r.Info == nil:
			t.Errorf("%s: a failure without its case's info", r.Key())
		case !r.Status.Failed() && r.Info != nil:
			t.Errorf("%s: a %s with case info", r.Key(), r.Status)
		case r.Status.Failed() && r.Step > 1 && failed == nil:
			failed = &rep.Results[i]
		}
	}
	if failed == nil {
		t.Fatal("no failure after step 1")
	}
	info := failed.Info
	if info.Description == "" || info.Source == "" || len(info.Steps) != failed.Step || info.Steps[0].Action == "" ||
		!strings.Contains(info.YAML, "id: "+strings.TrimPrefix(failed.Case, "core/")) || info.From == "" {
		t.Errorf("%s's info: %+v", failed.Key(), info)
	}
	if _, err := os.Stat(filepath.Join(root, rep.CasesDir, failed.File)); err != nil {
		t.Errorf("the case's file is not the repository's: %v", err)
	}

	// The re-run command: that case alone, failing the same way.
	args := append(rep.Rerun[1:], "--run", "^"+regexp.QuoteMeta(failed.Case)+"$", "--profile", failed.Profile, "--json")
	code, out, errOut = runCLI(t, "", args...)
	var again conformance.Report
	if err := json.Unmarshal([]byte(out), &again); err != nil || code != exitFailed {
		t.Fatalf("the re-run: exit %d, %v: %s", code, err, errOut)
	}
	if len(again.Results) != 1 || again.Results[0].Key() != failed.Key() || again.Results[0].Status != failed.Status || again.Results[0].Step != failed.Step {
		t.Errorf("the re-run of %s: %+v", failed.Key(), again.Results)
	}

	// Against itself as the baseline: no regression, exit 0, and the page
	// says PASS with the command's line.
	dir := t.TempDir()
	base, page := filepath.Join(dir, "base.json"), filepath.Join(dir, "p.html")
	if err := os.WriteFile(base, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	args = append(args[:len(args)-1], "--baseline", base, "--html", page)
	code, out, errOut = runCLI(t, "", args...)
	html, err := os.ReadFile(page)
	if err != nil || code != exitOK {
		t.Fatalf("against the baseline: exit %d, %v: %s", code, err, errOut)
	}
	line := strings.TrimSpace(out)
	if !strings.Contains(string(html), `<span class="verdict valid big">PASS</span> `+line) {
		t.Errorf("the page does not say %q", line)
	}
}
