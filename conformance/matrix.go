package conformance

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tileproof/tileproof/internal/safetext"
)

// WriteMatrix writes reports of one pack as a Markdown matrix: a row per
// implementation, a column per case area and the total, each cell what
// passed, failed and was skipped (or did not apply to its profile)
// there. Implementations whose rows are
// identical share one row. Below it, the first cases each implementation
// failed. Reports of different packs or contracts are an error: their
// counts do not compare.
func WriteMatrix(w io.Writer, reports []*Report) error {
	if len(reports) == 0 {
		return fmt.Errorf("no reports")
	}
	first := reports[0]
	var areas []string
	for _, r := range reports {
		if r.Pack != first.Pack || r.PackVersion != first.PackVersion || r.Contract != first.Contract {
			return fmt.Errorf("%s ran the pack %s %s (contract %d), %s ran %s %s (contract %d): the counts do not compare",
				label(first), first.Pack, first.PackVersion, first.Contract, label(r), r.Pack, r.PackVersion, r.Contract)
		}
		for _, res := range r.Results {
			if !slices.Contains(areas, res.Area) {
				areas = append(areas, res.Area)
			}
		}
	}
	slices.Sort(areas)

	// One row per distinct list of cells, in the order of the reports.
	type row struct {
		labels []string
		cells  []string
	}
	var rows []*row
	byCells := map[string]*row{}
	for _, r := range reports {
		sums, total := r.Summaries()
		cells := make([]string, 0, len(areas)+1)
		for _, a := range areas {
			i := slices.IndexFunc(sums, func(s AreaSummary) bool { return s.Area == a })
			if i < 0 {
				cells = append(cells, "–")
				continue
			}
			cells = append(cells, cell(sums[i]))
		}
		cells = append(cells, cell(total))
		key := strings.Join(cells, "\x00")
		if rw := byCells[key]; rw != nil {
			rw.labels = append(rw.labels, label(r))
			continue
		}
		rw := &row{labels: []string{label(r)}, cells: cells}
		byCells[key] = rw
		rows = append(rows, rw)
	}

	// How a cell counts failures on states no game reaches, and checks a
	// run cut short did not run, when a report has one.
	notes := ""
	if slices.ContainsFunc(reports, func(r *Report) bool { return len(r.UnreachableFailures()) > 0 }) {
		notes += " Failures on states no game reaches are counted apart, after a semicolon: they do not make a cell ✗."
	}
	if slices.ContainsFunc(reports, func(r *Report) bool { return slices.ContainsFunc(r.Results, CaseResult.notApplicable) }) {
		notes += " Cases not applicable to their profile (a board size, an undo, End run or keep playing its rules do not have) are counted apart, as n/a in the brackets: they are not skipped."
	}
	if slices.ContainsFunc(reports, func(r *Report) bool { return len(r.NotRun()) > 0 }) {
		notes += " A run cut short (its deadline, an interrupt) left checks not run: a cell with one is never ✓, and says how many of its checks did not run."
	}
	fmt.Fprintf(w, "Pack %s %s, rules contract %d. A cell: ✓ and the cases passed, or ✗ and the cases failed of those run; skipped cases in brackets; skipped where none ran.%s\n\n", safetext.Markdown(first.Pack), safetext.Markdown(first.PackVersion), first.Contract, notes)
	heads := make([]string, len(areas))
	for i, a := range areas {
		heads[i] = safetext.Markdown(a)
	}
	fmt.Fprintf(w, "| implementation | %s | total |\n", strings.Join(heads, " | "))
	fmt.Fprintf(w, "|---|%s---|\n", strings.Repeat("---|", len(areas)))
	for _, rw := range rows {
		fmt.Fprintf(w, "| %s | %s |\n", strings.Join(rw.labels, "<br>"), strings.Join(rw.cells, " | "))
	}

	intro := "\nWhat failed first, case by case (the profiles it failed under):\n\n" // before the first report that failed
	for _, r := range reports {
		failed, _ := r.Failures()
		if len(failed) == 0 {
			continue
		}
		fmt.Fprint(w, intro)
		intro = ""
		var cases []string // in order of first failure
		profiles := map[string][]string{}
		status := map[string]Status{}
		for _, f := range failed {
			if _, seen := profiles[f.Case]; !seen {
				cases = append(cases, f.Case)
				status[f.Case] = f.Status
			}
			profiles[f.Case] = append(profiles[f.Case], safetext.Markdown(f.Profile))
		}
		var first []string
		for _, c := range cases[:min(3, len(cases))] {
			first = append(first, fmt.Sprintf("%s %s (%s)", caseLabel(c), status[c], strings.Join(profiles[c], ", ")))
		}
		more := ""
		if len(cases) > 3 {
			more = fmt.Sprintf("; %d more cases", len(cases)-3)
		}
		fmt.Fprintf(w, "- %s: %s%s\n", label(r), strings.Join(first, "; "), more)
	}
	return nil
}

// label names a report's implementation: its hello's name and version,
// escaped for Markdown (safetext.Markdown): a name cannot end its cell,
// add a row or comment out the rest.
func label(r *Report) string {
	return safetext.Markdown(strings.TrimSpace(r.Impl.Name + " " + r.Impl.Version))
}

// caseLabel is a case's name (AREA/ID) as the matrix writes it: in a
// code span, where it holds only ASCII letters, digits and _.+/- (every
// case of a pack whose areas are so named); escaped (safetext.Markdown)
// otherwise, as a report written by hand may name anything: a backtick
// would end the span and the rest be read as Markdown.
func caseLabel(c string) string {
	if strings.Trim(c, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+/-") != "" {
		return safetext.Markdown(c)
	}
	return "`" + c + "`"
}

// cell is one area's outcome in the matrix. An area with checks not run
// (a run cut short) is never a ✓: it says how many did not run.
func cell(s AreaSummary) string {
	var brackets []string // the skipped, then the cases not applicable
	if s.Skipped > 0 {
		brackets = append(brackets, fmt.Sprint(s.Skipped))
	}
	if s.NotApplicable > 0 {
		brackets = append(brackets, fmt.Sprintf("%d n/a", s.NotApplicable))
	}
	skipped := ""
	if len(brackets) > 0 {
		skipped = " (" + strings.Join(brackets, ", ") + ")"
	}
	if s.Passed+s.Failed+s.Expected+s.NotRun == 0 && len(brackets) > 0 {
		if s.Skipped == 0 {
			return fmt.Sprintf("n/a (%d)", s.NotApplicable) // nothing could apply
		}
		return "skipped" + skipped // nothing ran: not a pass
	}
	var c string
	switch {
	case s.Failed > 0:
		c = fmt.Sprintf("✗ %d of %d", s.Failed, s.Passed+s.Failed+s.Expected+s.NotRun)
		if s.NotRun > 0 {
			c += fmt.Sprintf(", %d not run", s.NotRun)
		}
	case s.NotRun > 0:
		c = fmt.Sprintf("not run: %d of %d", s.NotRun, s.Passed+s.Expected+s.NotRun)
	default:
		c = fmt.Sprintf("✓ %d", s.Passed)
		if s.Expected > 0 {
			c += fmt.Sprintf(", %d known failures", s.Expected)
		}
	}
	c += skipped
	if s.Unreachable > 0 {
		c += fmt.Sprintf("; %d on unreachable states", s.Unreachable)
	}
	return c
}
