package htmlview

import (
	"fmt"
	"strings"
	"testing"
)

// TestMarks checks a long game's moments against its frames: the first
// step each tile from 512 up is on the board, the step of the largest
// score jump; in step order, none past the last step.
func TestMarks(t *testing.T) {
	g := load(t, "valid/tile-merge-4096.yaml")
	var m milestones
	for _, f := range g.Frames {
		m.add(f)
	}
	marks := m.list(len(g.Frames) - 1)
	want := map[string]int{}
	for v := uint64(512); v <= 4096; v *= 2 {
		for i, f := range g.Frames {
			if f.Board.MaxTile() >= v {
				want["first "+grouped(v)] = i
				break
			}
		}
	}
	best := 0
	for i, f := range g.Frames {
		if f.Gained > g.Frames[best].Gained {
			best = i
		}
	}
	want[fmt.Sprintf("largest score jump: +%s", grouped(g.Frames[best].Gained))] = best
	got := map[string]int{}
	for k, mk := range marks {
		if k > 0 && mk.Step < marks[k-1].Step {
			t.Errorf("the marks are out of order: %v", marks)
		}
		if strings.HasPrefix(mk.Label, "closest call") {
			continue
		}
		got[mk.Label] = mk.Step
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("marks %v, want %v", got, want)
	}
	if cut := m.list(1000); len(cut) == 0 || cut[len(cut)-1].Step > 1000 {
		t.Errorf("the marks to step 1000: %v", cut)
	}
}

// TestCompactScript: a page's script loses its indentation, blank lines
// and comment lines, and keeps every other line as it was.
func TestCompactScript(t *testing.T) {
	in := "// a comment\n(function () {\n  \"use strict\";\n\n  // another\n  var a = \"// not a comment\"; // said\n  return a;\n})();\n"
	want := "(function () {\n\"use strict\";\nvar a = \"// not a comment\"; // said\nreturn a;\n})();\n"
	if got := compactScript(in); got != want {
		t.Errorf("compactScript gives\n%s\nwant\n%s", got, want)
	}
	for _, name := range []string{"viewer.js", "report.js", "conform.js"} {
		js := asset(name)
		if c := compactScript(js); len(c) >= len(js) || strings.Count(c, ";") != strings.Count(js, ";")-strings.Count(comments(js), ";") {
			t.Errorf("%s: %d bytes compacted to %d, or a line of code lost", name, len(js), len(c))
		}
	}
}

// comments returns the comment lines of js.
func comments(js string) string {
	var b strings.Builder
	for line := range strings.Lines(js) {
		if strings.HasPrefix(strings.TrimSpace(line), "//") {
			b.WriteString(line)
		}
	}
	return b.String()
}
