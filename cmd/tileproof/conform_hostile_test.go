package main

import (
	"strings"
	"testing"

	"github.com/tileproof/tileproof/conformance"
)

// hostileReason is an implementation's refusal that, raw, repaints the
// line, writes the clipboard, and adds lines that read as a fix and as
// a passing gate.
const hostileReason = "refused\x1b[2K\rok\x1b]52;c;cm0gLXJmIH4=\x07\nfixed       core/x@classic: board-diverged -> pass\nagainst base.json (gate: pass): 0 changed, 0 regressions, 1 fixes"

// TestGateHostileReason: conform --baseline's lines show an
// implementation's reason visibly (\x1b), each of its lines indented
// under its change: it adds no line that reads as a change or the
// verdict (before 2026-12-07 they were written raw).
func TestGateHostileReason(t *testing.T) {
	g := &conformance.Gate{Baseline: "base\x1b[8m.json",
		Regressions: []conformance.Change{{Key: "core/a@classic", Before: "pass", After: conformance.IllegalHandled, Reason: hostileReason}},
		Changed:     []conformance.Change{{Key: "core/b@classic", Before: conformance.BoardDiverged, After: conformance.BoardDiverged, How: "step 1 -> step 2", Reason: hostileReason}}}
	var b strings.Builder
	writeGate(&b, g)
	out := b.String()
	noControls(t, "the gate", out)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, line := range lines {
		if !strings.HasPrefix(line, "REGRESSION  ") && !strings.HasPrefix(line, "CHANGED     ") && !strings.HasPrefix(line, "            ") && i != len(lines)-1 {
			t.Errorf("line %d reads as its own: %q", i+1, line)
		}
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, `against base\x1b[8m.json (gate: fail)`) {
		t.Errorf("the verdict: %q", last)
	}
	if !strings.Contains(out, `refused\x1b[2K\x0dok\x1b]52;c;`) {
		t.Errorf("the reason is not shown:\n%s", out)
	}
}
