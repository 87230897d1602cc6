package conformance

import (
	"encoding/xml"
	"io"
	"slices"
	"strings"

	"github.com/tileproof/tileproof/internal/safetext"
)

// The JUnit XML shapes CI systems read.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Name    string       `xml:"name,attr"`
	Tests   int          `xml:"tests,attr"`
	Fails   int          `xml:"failures,attr"`
	Errors  int          `xml:"errors,attr,omitempty"`
	Skips   int          `xml:"skipped,attr"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name   string      `xml:"name,attr"`
	Tests  int         `xml:"tests,attr"`
	Fails  int         `xml:"failures,attr"`
	Errors int         `xml:"errors,attr,omitempty"`
	Skips  int         `xml:"skipped,attr"`
	Cases  []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
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

// unreachableSuite is the JUnit test suite of the cases on states no game
// reaches (CaseResult.Unreachable), kept apart from the areas' suites.
const unreachableSuite = "unreachable-states"

// WriteJUnit writes the report as JUnit XML: a test suite per area, a test
// case per case and profile; expected failures are reported as skipped.
// The cases on states no game reaches are in a suite of their own
// (unreachable-states), a failure there skipped with its words, as the
// run's verdict does not count it. Under a baseline ([Report.Gate]) a
// failure the baseline has, unchanged, is skipped too, so that the
// failures are the gate's: regressions and changed failures. A case not
// applicable to its profile (CaseResult.NotApplicable) is skipped too,
// its message saying so (JUnit has no other word for it). A check the
// run did not reach or finish ([NotRun]) is an error of type not-run,
// with why: not a failure of the implementation, and not a skip, which
// CI systems count as no harm.
func (r *Report) WriteJUnit(w io.Writer) error {
	suites := junitSuites{Name: "tileproof conformance: " + safetext.Terminal(r.Impl.Name)}
	for _, res := range r.Results {
		suite := res.Area
		if res.Unreachable != "" {
			suite = unreachableSuite
		}
		i := slices.IndexFunc(suites.Suites, func(s junitSuite) bool { return s.Name == suite })
		if i < 0 {
			i = len(suites.Suites)
			suites.Suites = append(suites.Suites, junitSuite{Name: suite})
		}
		s := &suites.Suites[i]
		jc := junitCase{Name: res.Case + " [" + safetext.Terminal(res.Profile) + "]", Classname: "tileproof." + res.Area}
		// The implementation's messages show their controls and format
		// characters as a terminal does (\x1b, \u202e): XML holds no
		// control, and a CI's page of the results would act on a
		// right-to-left override.
		reason := safetext.TerminalLines(res.Reason)
		switch {
		case res.Status == Skip:
			jc.Skipped = &junitSkipped{reason}
			s.Skips++
		case res.Status == NotRun:
			jc.Error = &junitFailure{Message: reason, Type: string(NotRun)}
			s.Errors++
		case res.Status.Failed() && res.Expected != "":
			jc.Skipped = &junitSkipped{"expected failure: " + res.Expected}
			s.Skips++
		case res.Status.Failed() && r.Verdict.Known(res.Key()):
			jc.Skipped = &junitSkipped{"failed the same way in the baseline " + safetext.Terminal(r.Verdict.Baseline) + ": " + string(res.Status) + ": " + reason}
			s.Skips++
		case res.Status.Failed() && res.Unreachable != "":
			jc.Skipped = &junitSkipped{"fails on a state no game reaches (" + res.Unreachable + "): " + string(res.Status) + ": " + reason}
			s.Skips++
		case res.Status.Failed():
			// The detail, as the text report has it: the case's file and
			// step, every mismatch, the boards, the source.
			var text strings.Builder
			writeFailure(&text, "", res)
			jc.Failure = &junitFailure{Message: reason, Type: string(res.Status), Text: text.String()}
			s.Fails++
		}
		s.Tests++
		s.Cases = append(s.Cases, jc)
	}
	for _, s := range suites.Suites {
		suites.Tests, suites.Fails, suites.Skips = suites.Tests+s.Tests, suites.Fails+s.Fails, suites.Skips+s.Skips
		suites.Errors += s.Errors
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
