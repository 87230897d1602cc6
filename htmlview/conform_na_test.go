package htmlview

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/conformance"
)

// TestConformNotApplicable: the page counts a case not applicable to its
// profile apart from the skips, as the gate does: its own column and
// list, the verdict's --strict note naming only the skips, and a
// --strict pass when it is the only one.
func TestConformNotApplicable(t *testing.T) {
	na := conformance.CaseResult{Case: "core/size-3x3", Area: "core", Profile: "online-2048", Status: conformance.Skip, NotApplicable: true,
		Reason: "not applicable: profile online-2048 plays only 4x4 boards (the case needs size:3x3)"}
	skip := conformance.CaseResult{Case: "tp1/seed", Area: "tp1", Profile: "online-2048", Status: conformance.Skip, Reason: "needs seed-tp1"}
	pass := conformance.CaseResult{Case: "core/a", Area: "core", Profile: "online-2048", Status: conformance.Pass}
	page := func(strict bool, results ...conformance.CaseResult) string {
		t.Helper()
		rep := &conformance.Report{Impl: conformance.Hello{Name: "x", Profiles: []string{"online-2048"}}, Results: results}
		rep.Gate(conformance.GateOptions{Strict: strict})
		var b bytes.Buffer
		if err := Conformance(&b, rep); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	p := page(false, pass, na, skip)
	for _, want := range []string{
		`no unexpected failure: 1 passed, 0 expected failures, 1 skipped, 1 not applicable <span class="sub">(with --strict, 1 skipped and 0 unexpected passes fail the run)</span>`,
		`<th class="n">skipped</th><th class="n">not applicable</th>`,
		`<td>core</td><td class="n">1</td><td class="n">0</td><td class="n">0</td><td class="n">0</td><td class="n">0</td><td class="n"><a href="#not-applicable">1</a></td>`,
		`<h2 id="not-applicable">Not applicable</h2>`,
		`<b>not applicable: profile online-2048 plays only 4x4 boards (the case needs size:3x3)</b>`,
		`<h2 id="skipped">Skipped</h2>`,
	} {
		if !strings.Contains(p, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Count(p, "core/size-3x3") != 1 {
		t.Errorf("the case not applicable is listed %d times, want once", strings.Count(p, "core/size-3x3"))
	}
	// Under --strict, the case not applicable alone: a pass, no skip.
	p = page(true, pass, na)
	if !strings.Contains(p, `<span class="verdict valid big">PASS</span>`) || strings.Contains(p, `id="skipped"`) || !strings.Contains(p, `id="not-applicable"`) {
		t.Errorf("--strict with a case not applicable alone: not a pass with it listed apart")
	}
	// Without one, no column.
	if p = page(false, pass, skip); strings.Contains(p, "not applicable") {
		t.Errorf("a page with no case not applicable mentions it")
	}
}
