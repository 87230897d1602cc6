package htmlview

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/conformance"
)

// TestConformanceHostileText: the conformance page shows the
// implementation's name, version and messages (a failure's reason, a
// mismatch, a regression's reason under a baseline, an expected
// failure's) with their controls and format characters visible
// (\x1b, \u202e), as the replay pages show a name: raw, a right-to-left
// override reversed what followed it on the page, and the controls were
// written into the HTML (before 2026-12-07).
func TestConformanceHostileText(t *testing.T) {
	rep := causeReport()
	rep.Impl.Name, rep.Impl.Version = "evil\u202eLIAF\x1b[8m", "1\u2066\x07"
	hostile := "refused \u202essap\x1b]0;t\x07\u0085"
	rep.Results[0].Reason = hostile
	rep.Results[0].Mismatches = []conformance.StepMismatch{{Field: "result", Status: conformance.FlagsDiffer, Want: "playing", Got: "x\u202ey", Text: "also " + hostile}, {Field: "score", Text: "second " + hostile}}
	rep.Results = append(rep.Results, conformance.CaseResult{Case: "core/known", Area: "core", Profile: "classic", Status: conformance.BoardDiverged, Reason: hostile, Expected: "known"})
	rep.Verdict = &conformance.Gate{Baseline: "base\u202e.json", Regressions: []conformance.Change{{Key: "core/big@classic", Before: "pass", After: conformance.ScoreDiverged, Reason: hostile}}}
	var b bytes.Buffer
	if err := Conformance(&b, rep); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, r := range page {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x2066 && r <= 0x2069 || r >= 0x202a && r <= 0x202e {
			t.Fatalf("the page holds %U", r)
		}
	}
	for _, want := range []string{`evil\u202eLIAF\x1b[8m 1\u2066\x07</h1>`, `refused \u202essap\x1b]0;t\x07\u0085`, `base\u202e.json`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %s", want)
		}
	}
}
