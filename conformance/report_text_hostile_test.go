package conformance

import (
	"strings"
	"testing"
)

// TestWriteTextNamesShown: the text report shows a report's pack, case
// and file names as text, escape sequences escaped, whatever wrote the
// report (a report read back, or a pack read by a program through its own
// fs.FS): before 2026-12-08 it wrote them raw.
func TestWriteTextNamesShown(t *testing.T) {
	evil := "x\x1b]0;pwned\x07\u202e"
	r := &Report{Pack: evil, PackVersion: evil, Results: []CaseResult{
		{Case: "core/" + evil, Area: "core", Profile: "classic", Status: BoardDiverged, Step: 1, File: "core/" + evil + ".yaml", Line: 3, Reason: "r"},
		{Case: "core/" + evil, Area: "core", Profile: "classic", Status: Skip, Reason: "r"},
	}}
	var b strings.Builder
	r.WriteText(&b, true)
	if out := b.String(); strings.ContainsAny(out, "\x1b\x07\u202e") || !strings.Contains(out, `core/x\x1b]0;pwned\x07\u202e.yaml:3`) {
		t.Errorf("the names are not shown as text:\n%q", out)
	}
}
