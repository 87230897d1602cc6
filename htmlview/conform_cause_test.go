package htmlview

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tileproof/tileproof/conformance"
)

// causeReport is a run of four cases failing on gained (the largest
// with 3 steps, the smallest with 1), one on a spawn, and one on a state
// no game reaches; its case info holds markup.
func causeReport() *conformance.Report {
	rep := &conformance.Report{Impl: conformance.Hello{Name: "x<b>", Profiles: []string{"classic"}}, Pack: "p"}
	rep.CasesDir, rep.Rerun = "cases", []string{"tileproof", "conform", "--impl", "exec:./my adapter"}
	gained := []conformance.StepMismatch{{Field: "gained", Status: conformance.ScoreDiverged, Want: "4", Got: "8", Text: "gained 8, want 4"}}
	add := func(name string, status conformance.Status, step int, ms []conformance.StepMismatch, unreachable string) {
		info := &conformance.CaseInfo{Description: "<script>alert(1)</script> " + name, Source: "src & <i>", From: "seed abc", YAML: "id: <x>\n"}
		for i := range step {
			info.Steps = append(info.Steps, conformance.StepInfo{Action: []string{"left", "right", "up"}[i%3]})
		}
		rep.Results = append(rep.Results, conformance.CaseResult{Case: name, Area: strings.Split(name, "/")[0], Profile: "classic", Status: status, Step: step,
			Reason: "r", Mismatches: ms, File: "core/x.yaml", Line: 3, Info: info, Unreachable: unreachable})
	}
	add("core/big", conformance.ScoreDiverged, 3, gained, "")
	add("line/small", conformance.ScoreDiverged, 1, gained, "")
	add("core/mid", conformance.ScoreDiverged, 2, gained, "")
	add("core/spawn", conformance.SpawnWrong, 1, []conformance.StepMismatch{{Field: "spawn", Want: "a spawn", Got: "none"}}, "")
	add("profiles/empty", conformance.FlagsDiffer, 1, []conformance.StepMismatch{{Field: "over", Want: "true", Got: "false"}}, "an empty board")
	// A case that fails on a state one profile's games reach and another's
	// do not: in both places, each with ids of its own.
	add("core/both", conformance.ScoreDiverged, 2, gained, "")
	add("core/both", conformance.ScoreDiverged, 2, gained, "not under rosetta")
	rep.Results[len(rep.Results)-1].Profile = "rosetta"
	return rep
}

// TestConformanceCauses: failures grouped by cause across areas, the
// smallest case shown first and the rest folded; the steps with the
// failing one marked; the re-run command quoted for a shell; the case
// info escaped; a state no game reaches apart.
func TestConformanceCauses(t *testing.T) {
	var b bytes.Buffer
	if err := Conformance(&b, causeReport()); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if strings.Contains(html, "<script>alert") || strings.Contains(html, "<i>") || strings.Contains(html, "x<b>") || strings.Contains(html, "id: <x>") {
		t.Error("a case's info is not escaped")
	}
	i := strings.Index(html, `<section class="cause" id="cause-1">`)
	j := strings.Index(html, `<section class="cause" id="cause-2">`)
	if i < 0 || j < i {
		t.Fatalf("no causes:\n%s", html)
	}
	first := html[i:j]
	if !strings.Contains(first, "<h3>score-diverged on gained</h3>") || !strings.Contains(first, "4 cases") || !strings.Contains(first, "in core, line") {
		t.Errorf("the first cause:\n%s", first)
	}
	small, fold := strings.Index(first, `id="line/small"`), strings.Index(first, `<details class="more">`)
	if small < 0 || fold < small || strings.Index(first, `id="core/mid"`) < fold || strings.Index(first, `id="core/big"`) < strings.Index(first, `id="core/mid"`) {
		t.Errorf("the smallest case is not shown first, the others folded in size order:\n%s", first)
	}
	big := section(t, html, "core/big")
	if strings.Count(big, "<li") != 4 || strings.Count(big, `class="failed"`) != 1 || !strings.Contains(big, `<li class="failed" aria-current="step"><span class="arrow" aria-hidden="true">↑</span>3 up`) {
		t.Errorf("the steps of core/big:\n%s", big)
	}
	if !strings.Contains(big, `<code>tileproof conform --impl &#39;exec:./my adapter&#39; --run &#39;^core/big$&#39; --profile classic</code>`) ||
		!strings.Contains(big, "cases/core/x.yaml:3") {
		t.Errorf("the re-run command or the file of core/big:\n%s", big)
	}
	apart := html[strings.Index(html, `<h2 id="unreachable">`):]
	if !strings.Contains(apart, `id="unreachable/profiles/empty"`) || strings.Contains(html[:strings.Index(html, `<h2 id="unreachable">`)], `<section class="case" id="unreachable/profiles/empty"`) {
		t.Error("the unreachable state's failure is not apart")
	}
	// Every id once, and every link of the page to one that is there.
	ids := map[string]int{}
	for _, m := range regexp.MustCompile(` id="([^"]*)"`).FindAllStringSubmatch(html, -1) {
		ids[m[1]]++
	}
	for id, n := range ids {
		if n > 1 {
			t.Errorf("id %q is on %d elements", id, n)
		}
	}
	for _, m := range regexp.MustCompile(` href="#([^"]*)"`).FindAllStringSubmatch(html, -1) {
		if ids[m[1]] == 0 {
			t.Errorf("a link to #%s, which no element has", m[1])
		}
	}
	if ids["unreachable-1"] != 1 || ids["unreachable/core/both"] != 1 || ids["core/both"] != 1 {
		t.Errorf("the failures apart have no ids of their own: %v", ids)
	}
}

// TestFromLine: a case's first step says how it starts: from its seed
// (the empty one named so), or from the board loaded; nothing when its
// start is neither a seed nor a board.
func TestFromLine(t *testing.T) {
	for from, want := range map[string]string{
		"seed 7":                             "from seed 7",
		"seed ":                              `from seed "" (the empty seed)`,
		". 2 . .\n. . . .\n. . . .\n. . . 4": "from the board loaded",
		"":                                   "",
		"a board, not one":                   "",
	} {
		if got := fromLine(&conformance.CaseInfo{From: from}); got != want {
			t.Errorf("fromLine(%q) = %q, want %q", from, got, want)
		}
	}
}

// TestArrow: each action a case's step can name has its sign; anything
// else a dot.
func TestArrow(t *testing.T) {
	for action, want := range map[string]string{"up": "↑", "down": "↓", "left": "←", "right": "→",
		"undo": "↶", "end-run": "■", "keep-playing": "▶", "check": "✓", "break": "·", "": "·"} {
		if got := arrow(action); got != want {
			t.Errorf("arrow(%q) = %q, want %q", action, got, want)
		}
	}
}

// TestConformanceRunLine: the page says when the run was made (in UTC),
// how long it took (to the millisecond) and its command, as a shell
// takes it; a report that says none of them has the line empty.
func TestConformanceRunLine(t *testing.T) {
	rep := causeReport()
	var b bytes.Buffer
	if err := Conformance(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<p class="sub run"></p>`) {
		t.Errorf("a report without its run's date, time and command: %s", regexp.MustCompile(`<p class="sub run">.*`).FindString(b.String()))
	}
	rep.Date = time.Date(2026, 12, 7, 14, 0, 0, 0, time.FixedZone("CET", 3600))
	rep.Duration = 1234567 * time.Microsecond
	rep.Command = []string{"tileproof", "conform", "--impl", "exec:./my adapter"}
	b.Reset()
	if err := Conformance(&b, rep); err != nil {
		t.Fatal(err)
	}
	if want := `<p class="sub run">run 2026-12-07 13:00:00 UTC, took 1.235s<br><code>tileproof conform --impl &#39;exec:./my adapter&#39;</code></p>`; !strings.Contains(b.String(), want) {
		t.Errorf("the run's line %s, want %s", regexp.MustCompile(`<p class="sub run">.*`).FindString(b.String()), want)
	}
}
