package conformance

import (
	"fmt"
	"io"
	"strings"

	"github.com/tileproof/tileproof/internal/safetext"
)

// WriteText writes a line per failing case with its diff, the unexpected
// passes, and a summary per area. verbose adds the skipped cases (those
// not applicable to their profile among them, their reason saying so).
func (r *Report) WriteText(w io.Writer, verbose bool) {
	for _, res := range r.Results {
		switch {
		case res.Status.Failed() && res.Expected == "" && res.Unreachable == "":
			writeFailure(w, "FAIL  ", res)
		case res.Status.Failed() && res.Expected != "" && verbose:
			fmt.Fprintf(w, "xfail %s [%s] %s: %s (expected: %s)\n", safetext.Terminal(res.Case), safetext.Terminal(res.Profile), res.Status, safetext.TerminalLines(res.Reason), res.Expected)
		case res.Status == Pass && res.Expected != "":
			fmt.Fprintf(w, "XPASS %s [%s]: passes, but the expectations file says it fails: %s\n", safetext.Terminal(res.Case), safetext.Terminal(res.Profile), res.Expected)
		case res.Status == Skip && verbose:
			fmt.Fprintf(w, "skip  %s [%s]: %s\n", safetext.Terminal(res.Case), safetext.Terminal(res.Profile), safetext.TerminalLines(res.Reason))
		}
	}
	if unreachable := r.UnreachableFailures(); len(unreachable) > 0 {
		fmt.Fprintf(w, "\nOn states no game reaches (reported apart; they fail the run only with --strict):\n")
		for _, res := range unreachable {
			writeHead(w, "UNREACHABLE  ", res)
			fmt.Fprintf(w, ": %s\n      (%s)\n", safetext.TerminalLines(res.summary("      ")), res.Unreachable)
		}
	}
	notRun := r.NotRun()
	if len(notRun) > 0 {
		fmt.Fprintf(w, "\nNOT RUN  %s: the run was cut short: %s\n", count(len(notRun), "check", "checks"), safetext.TerminalLines(strings.TrimPrefix(notRun[0].Reason, "not run: ")))
		if verbose {
			for _, res := range notRun {
				fmt.Fprintf(w, "not-run  %s [%s]\n", safetext.Terminal(res.Case), safetext.Terminal(res.Profile))
			}
		}
	}
	areas, total := r.Summaries()
	fmt.Fprintf(w, "\nconformance of %s %s (profiles %s) to the pack %s %s, rules contract %d\n", safetext.Terminal(r.Impl.Name), safetext.Terminal(r.Impl.Version), safetext.Terminal(strings.Join(r.Impl.Profiles, ", ")), safetext.Terminal(r.Pack), safetext.Terminal(r.PackVersion), r.Contract)
	// The n/a column is there when a case did not apply to its profile
	// (CaseResult.NotApplicable), the not-run column when a check did
	// not run: a run cut short (its deadline, an interrupt).
	row := func(cells ...any) {
		line := fmt.Sprintf("  %-14v %6v %6v %6v %7v", cells[:5]...)
		if total.NotApplicable > 0 {
			line += fmt.Sprintf(" %6v", cells[5])
		}
		if total.NotRun > 0 {
			line += fmt.Sprintf(" %7v", cells[6])
		}
		fmt.Fprintln(w, line)
	}
	row("area", "passed", "failed", "xfail", "skipped", "n/a", "not-run")
	for _, s := range append(areas, total) {
		row(s.Area, s.Passed, s.Failed, s.Expected, s.Skipped, s.NotApplicable, s.NotRun)
	}
	if total.Unreachable > 0 {
		fmt.Fprintf(w, "  and %d failed on states no game reaches, not counted above\n", total.Unreachable)
	}
	if r.LegalUncompared() {
		fmt.Fprintf(w, "  the legal moves the cases state were not compared: the implementation does not list them (legal: unsupported-op)\n")
	}
	fmt.Fprintf(w, "  in %.3fs\n", r.Duration.Seconds())
}

// writeFailure writes a failure whole, as the text report and the
// JUnit report show it: its head, its mismatches, its boards, the spawn
// the failing step forced and the source the case or property check
// cites for the rule.
func writeFailure(w io.Writer, tag string, res CaseResult) {
	writeHead(w, tag, res)
	fmt.Fprintf(w, "\n      %s\n", safetext.TerminalLines(res.summary("      ")))
	if res.Got != nil {
		writeBoards(w, res, "      ")
	}
	if info := res.Info; info != nil {
		if n := len(info.Steps); res.Step > 0 && n >= res.Step && info.Steps[res.Step-1].Spawn != "" {
			fmt.Fprintf(w, "      the step forces the spawn %s\n", safetext.Terminal(info.Steps[res.Step-1].Spawn))
		}
		if info.Source != "" {
			fmt.Fprintf(w, "      source: %s\n", safetext.TerminalLines(info.Source))
		}
	}
}

// writeHead writes a failure's first words after tag: CASE [PROFILE]
// STATUS, the step and the case's file (a property check has none).
func writeHead(w io.Writer, tag string, res CaseResult) {
	fmt.Fprintf(w, "%s%s [%s] %s", tag, safetext.Terminal(res.Case), safetext.Terminal(res.Profile), res.Status)
	if res.Step > 0 {
		fmt.Fprintf(w, " at step %d", res.Step)
	}
	if res.File != "" {
		fmt.Fprintf(w, " (%s:%d)", safetext.Terminal(res.File), res.Line)
	}
}

// writeBoards writes a failure's boards side by side: the board the step
// started from (when known), the rules' (when a whole board diverged) and
// the implementation's, with "<" after each row where the last two
// differ.
func writeBoards(w io.Writer, res CaseResult, prefix string) {
	var titles []string
	var boards [][]string
	if res.Start != nil {
		titles = append(titles, res.StartTitle())
		boards = append(boards, strings.Split(res.Start.String(), "\n"))
	}
	var want []string
	if res.Want != nil {
		want = strings.Split(res.Want.String(), "\n")
		titles, boards = append(titles, "the rules give"), append(boards, want)
	}
	got := strings.Split(res.Got.String(), "\n")
	titles, boards = append(titles, "the implementation"), append(boards, got)
	widths := make([]int, len(boards))
	rows := 0
	for i, b := range boards {
		widths[i] = len(titles[i])
		for _, line := range b {
			widths[i] = max(widths[i], len(line))
		}
		rows = max(rows, len(b))
	}
	line := func(cells []string, mark string) {
		var sb strings.Builder
		sb.WriteString(prefix)
		for i, c := range cells {
			if i > 0 {
				sb.WriteString("   ")
			}
			sb.WriteString(c + strings.Repeat(" ", widths[i]-len(c)))
		}
		fmt.Fprintln(w, strings.TrimRight(sb.String()+mark, " "))
	}
	line(titles, "")
	at := func(b []string, r int) string {
		if r < len(b) {
			return b[r]
		}
		return ""
	}
	for r := range rows {
		cells := make([]string, len(boards))
		for i, b := range boards {
			cells[i] = at(b, r)
		}
		mark := ""
		if want != nil && strings.Join(strings.Fields(at(want, r)), " ") != strings.Join(strings.Fields(at(got, r)), " ") {
			mark = "  <"
		}
		line(cells, mark)
	}
}
