package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// cancelsAfter is the engine, which ends the run's context at its nth
// move: a run interrupted part way.
type cancelsAfter struct {
	*Builtin
	n      int
	moves  *atomic.Int32
	cancel context.CancelCauseFunc
}

func (c cancelsAfter) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	if int(c.moves.Add(1)) == c.n {
		c.cancel(errors.New("interrupt signal received"))
	}
	return c.Builtin.Move(d, spawn)
}

// TestRunCutShort: once the run's context is done no check begins: every
// check after it is not-run with the context's cause, none is a pass or
// a failure, and the checks before it keep their results.
func TestRunCutShort(t *testing.T) {
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	impl := cancelsAfter{&Builtin{}, 40, new(atomic.Int32), cancel}
	rep, err := Run(ctx, loadRepoPack(t), impl, Options{Properties: true, Profiles: []string{"classic"}})
	if err != nil {
		t.Fatal(err)
	}
	by := map[Status]int{}
	seenNotRun := false
	for _, r := range rep.Results {
		by[r.Status]++
		switch {
		case r.Status == NotRun:
			seenNotRun = true
			if r.Reason != "not run: interrupt signal received" {
				t.Errorf("%s: not run saying %q", r.Key(), r.Reason)
			}
		case seenNotRun && r.Status != Skip:
			t.Errorf("%s after a check not run: %s", r.Key(), r.Status)
		case r.Status.Failed():
			t.Errorf("%s: %s: %s", r.Key(), r.Status, r.Reason)
		}
	}
	if by[Pass] == 0 || by[NotRun] < len(rep.Results)/2 {
		t.Errorf("results by status %v (of %d)", by, len(rep.Results))
	}
	if g := rep.Gate(GateOptions{}); g.Pass || g.NotRun != by[NotRun] {
		t.Errorf("gate %+v: a run cut short passed", g)
	}
}

// TestRunContextDone: a run whose context is done before it begins runs
// nothing and says why.
func TestRunContextDone(t *testing.T) {
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(errors.New("the run's deadline has passed"))
	if _, err := Run(ctx, loadRepoPack(t), &Builtin{}, Options{}); err == nil || !strings.Contains(err.Error(), "the run's deadline has passed") {
		t.Errorf("got %v", err)
	}
}

// notRunReport is a report with a pass, a failure, an expected failure
// and two checks not run.
func notRunReport() *Report {
	return &Report{Impl: Hello{Name: "impl", Version: "1"}, Pack: "p", PackVersion: "1", Contract: 1, Results: []CaseResult{
		{Case: "core/a", Area: "core", Profile: "classic", Status: Pass},
		{Case: "core/b", Area: "core", Profile: "classic", Status: NotRun, Reason: "not run: the run's deadline (--run-timeout 2s) has passed"},
		{Case: "line/c", Area: "line", Profile: "classic", Status: NotRun, Reason: "not run: the run's deadline (--run-timeout 2s) has passed"},
	}}
}

// TestNotRunReported: checks not run are counted in every form of the
// report, never as passes, and they fail the gate, with a baseline or
// without, and with an expectations file.
func TestNotRunReported(t *testing.T) {
	r := notRunReport()
	if s := NotRun; s.Failed() {
		t.Error("not-run counts as a failure of the implementation")
	}
	_, total := r.Summaries()
	if total.Passed != 1 || total.NotRun != 2 || total.Failed != 0 {
		t.Errorf("total %+v, want 1 passed, 2 not run", total)
	}

	var text strings.Builder
	r.WriteText(&text, false)
	for _, want := range []string{"NOT RUN  2 checks: the run was cut short: the run's deadline (--run-timeout 2s) has passed",
		"not-run\n", "  total               1      0      0       0       2\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text: no %q in\n%s", want, text.String())
		}
	}

	for _, o := range []GateOptions{{}, {Baseline: notRunBaseline(), BaselineFile: "base.json"}, {Strict: true}} {
		g := r.Gate(o)
		if g.Pass || g.NotRun != 2 || !strings.Contains(g.Line(), "2 checks not run (the run was cut short)") {
			t.Errorf("gate %+v (%s): a run with checks not run passed, or did not say so", g, g.Line())
		}
	}
	// Checks expected to fail (--expect) that did not run do not pass.
	r2 := notRunReport()
	r2.Results[1].Expected = "known"
	if g := r2.Gate(GateOptions{}); g.Pass {
		t.Errorf("with an expectation, a check not run passed the gate")
	}

	r.Gate(GateOptions{})
	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Results []struct{ Status string }
		Gate    struct {
			NotRun int
			Pass   bool
		}
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Results[1].Status != "not-run" || back.Gate.NotRun != 2 || back.Gate.Pass {
		t.Errorf("JSON: %v %+v", err, back)
	}

	var junit bytes.Buffer
	if err := r.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`errors="2"`, `<error message="not run: the run&#39;s deadline (--run-timeout 2s) has passed" type="not-run"></error>`} {
		if !strings.Contains(junit.String(), want) {
			t.Errorf("JUnit: no %s in\n%s", want, junit.String())
		}
	}
	if strings.Contains(junit.String(), "<skipped") {
		t.Errorf("JUnit: a check not run is skipped (CI counts a skip as no harm):\n%s", junit.String())
	}

	var md bytes.Buffer
	if err := WriteMatrix(&md, []*Report{r}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| impl 1 | not run: 1 of 2 | not run: 1 of 1 | not run: 2 of 3 |", "a cell with one is never ✓"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("matrix: no %q in\n%s", want, md.String())
		}
	}
}

// notRunBaseline is a baseline in which every check of notRunReport
// passed.
func notRunBaseline() *Report {
	b := notRunReport()
	for i := range b.Results {
		b.Results[i].Status, b.Results[i].Reason = Pass, ""
	}
	return b
}
