package conformance

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Summary counts a report's results by area: passed, failed (unexpected),
// expected failures and skipped.
type Summary struct {
	Area     string `json:"area"`
	Passed   int    `json:"passed"`
	Failed   int    `json:"failed"`
	Expected int    `json:"expectedFailures"`
	Skipped  int    `json:"skipped"`
}

// Summaries returns one summary per area, sorted, and the total.
func (r *Report) Summaries() (areas []Summary, total Summary) {
	by := map[string]*Summary{}
	total.Area = "total"
	for _, res := range r.Results {
		s := by[res.Area]
		if s == nil {
			s = &Summary{Area: res.Area}
			by[res.Area] = s
		}
		for _, t := range []*Summary{s, &total} {
			switch {
			case res.Status == Pass:
				t.Passed++
			case res.Status == Skip:
				t.Skipped++
			case res.Expected != "":
				t.Expected++
			default:
				t.Failed++
			}
		}
	}
	for _, s := range by {
		areas = append(areas, *s)
	}
	sort.Slice(areas, func(i, j int) bool { return areas[i].Area < areas[j].Area })
	return areas, total
}

// WriteText writes a line per failing case with its diff, the unexpected
// passes, and a summary per area. verbose adds the skipped cases.
func (r *Report) WriteText(w io.Writer, verbose bool) {
	for _, res := range r.Results {
		switch {
		case res.Status.Failed() && res.Expected == "":
			fmt.Fprintf(w, "FAIL  %s [%s] %s", res.Case, res.Profile, res.Status)
			if res.Step > 0 {
				fmt.Fprintf(w, " at step %d", res.Step)
			}
			fmt.Fprintf(w, " (%s:%d)\n      %s\n", res.File, res.Line, strings.ReplaceAll(res.Reason, "\n", "\n      "))
			if res.Want != "" && res.Got != "" {
				writeBoards(w, res, "      ")
			} else if res.Diff != "" {
				fmt.Fprintf(w, "      diff (-rules +implementation):\n%s\n", indent(strings.TrimRight(res.Diff, "\n"), "        "))
			}
		case res.Status.Failed() && verbose:
			fmt.Fprintf(w, "xfail %s [%s] %s: %s (expected: %s)\n", res.Case, res.Profile, res.Status, res.Reason, res.Expected)
		case res.Status == Pass && res.Expected != "":
			fmt.Fprintf(w, "XPASS %s [%s]: passes, but the expectations file says it fails: %s\n", res.Case, res.Profile, res.Expected)
		case res.Status == Skip && verbose:
			fmt.Fprintf(w, "skip  %s [%s]: %s\n", res.Case, res.Profile, res.Reason)
		}
	}
	areas, total := r.Summaries()
	fmt.Fprintf(w, "\nconformance of %s %s (profiles %s) to the pack %s %s, rules contract %d\n", r.Impl.Name, r.Impl.Version, strings.Join(r.Impl.Profiles, ", "), r.Pack, r.PackVersion, r.Contract)
	fmt.Fprintf(w, "  %-14s %6s %6s %6s %6s\n", "area", "passed", "failed", "xfail", "skipped")
	for _, s := range append(areas, total) {
		fmt.Fprintf(w, "  %-14s %6d %6d %6d %6d\n", s.Area, s.Passed, s.Failed, s.Expected, s.Skipped)
	}
	fmt.Fprintf(w, "  in %.3fs\n", r.Duration.Seconds())
}

// writeBoards writes a board divergence's boards side by side: the board
// the step started from (when known), the rules' and the
// implementation's, with "<" after each row where the last two differ.
func writeBoards(w io.Writer, res Result, prefix string) {
	var titles []string
	var boards [][]string
	if res.Start != "" {
		titles = append(titles, fmt.Sprintf("before step %d", max(res.Step, 1)))
		boards = append(boards, strings.Split(res.Start, "\n"))
	}
	titles = append(titles, "the rules give", "the implementation")
	want, got := strings.Split(res.Want, "\n"), strings.Split(res.Got, "\n")
	boards = append(boards, want, got)
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
		if strings.Join(strings.Fields(at(want, r)), " ") != strings.Join(strings.Fields(at(got, r)), " ") {
			mark = "  <"
		}
		line(cells, mark)
	}
}

func indent(s, prefix string) string { return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix) }

// WriteJSON writes the report as one JSON document, which --baseline reads
// back.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(r)
}

// ReadReport reads a report written by WriteJSON.
func ReadReport(rd io.Reader) (*Report, error) {
	var r Report
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("not a conformance report: %w", err)
	}
	return &r, nil
}

// Change is a case whose outcome differs from a baseline report.
type Change struct {
	Key    string `json:"key"`
	Before Status `json:"before"`
	After  Status `json:"after"`
	Reason string `json:"reason,omitempty"`
}

// Compare lists the regressions (passing in base, failing now) and the
// fixes (failing in base, passing now) of r against base.
func (r *Report) Compare(base *Report) (regressions, fixes []Change) {
	before := map[string]Status{}
	for _, res := range base.Results {
		before[res.Key()] = res.Status
	}
	for _, res := range r.Results {
		b, ok := before[res.Key()]
		switch {
		case !ok:
			if res.Status.Failed() {
				regressions = append(regressions, Change{res.Key(), "new", res.Status, res.Reason})
			}
		case !b.Failed() && res.Status.Failed():
			regressions = append(regressions, Change{res.Key(), b, res.Status, res.Reason})
		case b.Failed() && res.Status == Pass:
			fixes = append(fixes, Change{res.Key(), b, res.Status, ""})
		}
	}
	return regressions, fixes
}

// The JUnit XML shapes CI systems read.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Name    string       `xml:"name,attr"`
	Tests   int          `xml:"tests,attr"`
	Fails   int          `xml:"failures,attr"`
	Skips   int          `xml:"skipped,attr"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name  string      `xml:"name,attr"`
	Tests int         `xml:"tests,attr"`
	Fails int         `xml:"failures,attr"`
	Skips int         `xml:"skipped,attr"`
	Cases []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// WriteJUnit writes the report as JUnit XML: a test suite per area, a test
// case per case and profile; expected failures are reported as skipped.
func (r *Report) WriteJUnit(w io.Writer) error {
	suites := junitSuites{Name: "tileproof conformance: " + r.Impl.Name}
	index := map[string]int{}
	for _, res := range r.Results {
		i, ok := index[res.Area]
		if !ok {
			i = len(suites.Suites)
			index[res.Area] = i
			suites.Suites = append(suites.Suites, junitSuite{Name: res.Area})
		}
		s := &suites.Suites[i]
		jc := junitCase{Name: res.Case + " [" + res.Profile + "]", Classname: "tileproof." + res.Area}
		switch {
		case res.Status == Skip:
			jc.Skipped = &junitSkipped{res.Reason}
			s.Skips++
		case res.Status.Failed() && res.Expected != "":
			jc.Skipped = &junitSkipped{"expected failure: " + res.Expected}
			s.Skips++
		case res.Status.Failed():
			jc.Failure = &junitFailure{Message: res.Reason, Type: string(res.Status), Text: res.Diff}
			s.Fails++
		}
		s.Tests++
		s.Cases = append(s.Cases, jc)
	}
	for _, s := range suites.Suites {
		suites.Tests, suites.Fails, suites.Skips = suites.Tests+s.Tests, suites.Fails+s.Fails, suites.Skips+s.Skips
	}
	io.WriteString(w, xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(suites); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
