package conformance

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// gateReport is a report with a reachable failure, a failure on a state no
// game reaches and a pass.
func gateReport() *Report {
	return &Report{Impl: Hello{Name: "impl", Version: "1"}, Pack: "p", PackVersion: "1", Contract: 1, Results: []CaseResult{
		{Case: "core/a", Area: "core", Profile: "classic", Status: FlagsDiffer, Step: 1, Reason: "over differs",
			Mismatches: []StepMismatch{{Field: "over", Status: FlagsDiffer}}},
		{Case: "profiles/empty", Area: "profiles", Profile: "classic", Status: FlagsDiffer, Step: 1, Reason: "over is false",
			Unreachable: "no game reaches an empty board", File: "profiles/protocol.yaml", Line: 67},
		{Case: "core/b", Area: "core", Profile: "classic", Status: Pass},
	}}
}

// TestUnreachableApart: a failure on a state no game reaches is counted
// apart in every form, and fails the run only under Strict.
func TestUnreachableApart(t *testing.T) {
	r := gateReport()
	if failed, _ := r.Failures(); len(failed) != 1 || failed[0].Case != "core/a" {
		t.Errorf("Failures: %v, want core/a alone", failed)
	}
	if u := r.UnreachableFailures(); len(u) != 1 || u[0].Case != "profiles/empty" {
		t.Errorf("UnreachableFailures: %v", u)
	}
	_, total := r.Summaries()
	if total.Failed != 1 || total.Unreachable != 1 || total.Passed != 1 {
		t.Errorf("total %+v, want 1 failed, 1 unreachable, 1 passed", total)
	}
	var text strings.Builder
	r.WriteText(&text, false)
	if !strings.Contains(text.String(), "UNREACHABLE  profiles/empty [classic] flags-differ at step 1 (profiles/protocol.yaml:67): ") || strings.Contains(text.String(), "FAIL  profiles/empty") ||
		!strings.Contains(text.String(), "and 1 failed on states no game reaches") {
		t.Errorf("text:\n%s", text.String())
	}
	// Verbose, it is written once, under the unreachable states: not as
	// an expected failure (xfail) with no expectation.
	var verbose strings.Builder
	r.WriteText(&verbose, true)
	if n := strings.Count(verbose.String(), "profiles/empty"); n != 1 || strings.Contains(verbose.String(), "xfail profiles") {
		t.Errorf("verbose text names profiles/empty %d times:\n%s", n, verbose.String())
	}
	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	back, err := ReadReport(&js)
	if err != nil || back.Results[1].Unreachable != "no game reaches an empty board" {
		t.Errorf("JSON round trip: %v, %+v", err, back)
	}
	var junit bytes.Buffer
	if err := r.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`<testsuite name="unreachable-states" tests="1" failures="0" skipped="1">`).Match(junit.Bytes()) ||
		!strings.Contains(junit.String(), `<testsuites name="tileproof conformance: impl" tests="3" failures="1" skipped="1">`) {
		t.Errorf("JUnit:\n%s", junit.String())
	}
	var m strings.Builder
	if err := WriteMatrix(&m, []*Report{r}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.String(), "; 1 on unreachable states") || strings.Contains(m.String(), "profiles/empty") {
		t.Errorf("matrix:\n%s", m.String())
	}
	if g := r.Gate(GateOptions{}); g.Pass || g.Failed != 1 || g.Unreachable != 1 {
		t.Errorf("gate %+v, want a fail on the reachable failure", g)
	}
	// The reachable failure gone, the run passes; --strict fails it.
	r.Results[0].Status, r.Results[0].Mismatches = Pass, nil
	if g := r.Gate(GateOptions{}); !g.Pass {
		t.Errorf("gate %+v, want a pass: the only failure is on an unreachable state", g)
	}
	if g := r.Gate(GateOptions{Strict: true}); g.Pass {
		t.Errorf("strict gate %+v, want a fail", g)
	}
}

// TestGateChanged: a failure that fails in another class, at another step
// or on other fields is changed and fails the gate, unless accepted; the
// same failure is known, and JUnit skips it under the baseline.
func TestGateChanged(t *testing.T) {
	base := gateReport()
	same := gateReport()
	if g := same.Gate(GateOptions{Baseline: base}); !g.Pass || len(g.Changed)+len(g.Regressions)+len(g.Fixes) != 0 || !g.Known("core/a@classic") {
		t.Errorf("the same run: %+v", g)
	}
	var junit bytes.Buffer
	same.WriteJUnit(&junit)
	if strings.Contains(junit.String(), "<failure") || !strings.Contains(junit.String(), "failed the same way in the baseline") {
		t.Errorf("JUnit under a baseline with no change:\n%s", junit.String())
	}
	for name, change := range map[string]func(*CaseResult){
		"class": func(r *CaseResult) { r.Status = BoardDiverged },
		"step":  func(r *CaseResult) { r.Step = 2 },
		"fields": func(r *CaseResult) {
			r.Mismatches = append(r.Mismatches, StepMismatch{Field: "result", Status: FlagsDiffer})
		},
	} {
		now := gateReport()
		change(&now.Results[0])
		g := now.Gate(GateOptions{Baseline: base})
		if g.Pass || len(g.Changed) != 1 || g.Changed[0].Key != "core/a@classic" || g.Known("core/a@classic") {
			t.Errorf("%s changed: %+v", name, g)
		}
		var junit bytes.Buffer
		now.WriteJUnit(&junit)
		if !strings.Contains(junit.String(), `<failure message="over differs"`) {
			t.Errorf("%s changed: JUnit has no failure:\n%s", name, junit.String())
		}
		var js bytes.Buffer
		now.WriteJSON(&js)
		var doc struct {
			Gate struct {
				Pass    bool
				Changed []Change
			}
		}
		if err := json.Unmarshal(js.Bytes(), &doc); err != nil || doc.Gate.Pass || len(doc.Gate.Changed) != 1 {
			t.Errorf("%s changed: the JSON gate %+v, %v", name, doc.Gate, err)
		}
		if g := now.Gate(GateOptions{Baseline: base, AcceptChanged: true}); !g.Pass {
			t.Errorf("%s changed, accepted: %+v", name, g)
		}
	}
	// A failure on an unreachable state does not gate, changed or not.
	now := gateReport()
	now.Results[1].Status = BoardDiverged
	if g := now.Gate(GateOptions{Baseline: base}); !g.Pass || len(g.Changed) != 0 {
		t.Errorf("an unreachable state's change: %+v", g)
	}
}
