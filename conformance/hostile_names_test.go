package conformance

import (
	"encoding/xml"
	"strings"
	"testing"
)

// An implementation names itself and words its messages: each is made
// safe for where the report writes it (issue 25, items 5 and 6).

// hostileImpl is a name that, raw, repaints a terminal's line and sets
// its title, and in Markdown ends its cell, adds a row of passes, and
// comments out the real row.
const hostileImpl = "evil\x1b[2K\rok\x1b]0;t\x07 | ✓ 1 | ✓ 1 |\n| honest 1 | ✓ 1 | ✓ 1 |\n<!--"

func hostileReport() *Report {
	res := matrixResult("core", BoardDiverged)
	res.Profile = "classic\x1b[31m"
	res.Reason = "the board \x1b]52;c;cm0gLXJmIH4=\x07 differs"
	res.Mismatches = []StepMismatch{{Field: "board", Status: BoardDiverged, Text: "got \x1b[1A\x1b[2K ok"}}
	return matrixReport(hostileImpl, "1\x1b[0m", res)
}

// TestTextReportHostileName: conform's text report shows the name, the
// profile and the messages visibly (\x1b), never raw.
func TestTextReportHostileName(t *testing.T) {
	var b strings.Builder
	hostileReport().WriteText(&b, true)
	out := b.String()
	for i := 0; i < len(out); i++ {
		if c := out[i]; c < 0x20 && c != '\n' || c == 0x7f {
			t.Fatalf("byte %#x at %d: %q", c, i, out)
		}
	}
	if !strings.Contains(out, `evil\x1b[2K\x0dok`) || !strings.Contains(out, `\x1b]52;c;`) {
		t.Errorf("the name or the message is not shown:\n%s", out)
	}
}

// TestMatrixHostileName: the hostile name is one row, failing, with its
// text shown escaped; it adds no row and comments nothing out (C14).
func TestMatrixHostileName(t *testing.T) {
	var b strings.Builder
	if err := WriteMatrix(&b, []*Report{hostileReport(), matrixReport("honest", "1", matrixResult("core", Pass))}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	var rows []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| ") {
			rows = append(rows, line)
		}
	}
	if len(rows) != 3 || strings.Contains(out, "<!--") || strings.Contains(out, "\x1b") {
		t.Fatalf("rows %d:\n%s", len(rows), out)
	}
	// The hostile row: its cells split on unescaped pipes are the name,
	// core and total, and it fails.
	cells := strings.Split(strings.ReplaceAll(rows[1], `\|`, ""), "|")
	if len(cells) != 5 || !strings.Contains(cells[2], "✗ 1 of 1") || !strings.HasPrefix(rows[2], "| honest 1 | ✓ 1 |") {
		t.Errorf("rows:\n%s", strings.Join(rows, "\n"))
	}
}

// TestJUnitHostileName: encoding/xml escapes the name and the messages:
// the document parses back to one suite with the name whole, its control
// characters replaced (XML 1.0 has none).
func TestJUnitHostileName(t *testing.T) {
	r := hostileReport()
	r.Impl.Name = `</testsuites><testsuites name="x">` + hostileImpl
	var b strings.Builder
	if err := r.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if !strings.HasPrefix(doc.Name, `tileproof conformance: </testsuites><testsuites name="x">evil`) || len(doc.Suites) != 1 || strings.Contains(b.String(), "\x1b") {
		t.Errorf("name %q, %d suites\n%s", doc.Name, len(doc.Suites), b.String())
	}
}
