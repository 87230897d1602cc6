package htmlview

import (
	"path"
	"slices"
	"time"

	"github.com/tileproof/tileproof/conformance"
)

// describeCases completes the failing cases with what the report says of
// them: their case info (from the first result of each that carries it),
// their file as a path from where the command ran, the command that
// re-runs them, their regressions (by CASE@PROFILE) and whether their
// state is reachable.
func describeCases(cases []failCase, results []conformance.CaseResult, rep *conformance.Report, regressed map[string]bool) []failCase {
	byCase := map[string][]conformance.CaseResult{}
	for _, r := range results {
		byCase[r.Case] = append(byCase[r.Case], r)
	}
	for i := range cases {
		fc := &cases[i]
		rs := byCase[fc.Case]
		if len(fc.Variants) > 0 {
			v := fc.Variants[0]
			fc.Step = v.Step
			for _, b := range [][][]cell{v.Start, v.Want, v.Got} {
				if len(b) > 0 {
					fc.Cells += len(b) * len(b[0])
				}
			}
		}
		for _, r := range rs {
			if r.Info != nil && fc.YAML == "" {
				fc.Description, fc.Source, fc.YAML = r.Info.Description, r.Info.Source, r.Info.YAML
				fc.From, fc.Steps = fromOf(r.Info), stepViews(r.Info, r.Step)
			}
			if regressed[r.Key()] {
				fc.Regressions++
			}
			if fc.Unreachable == "" {
				fc.Unreachable = r.Unreachable
			}
		}
		if fc.File != "" {
			fc.Path = fc.File
			if rep.CasesDir != "" {
				fc.Path = path.Join(rep.CasesDir, fc.File)
			}
		}
		fc.Rerun = rerunCommand(rep.Rerun, fc.Case, fc.Profiles)
	}
	return cases
}

// runView is when and how a run was made, in words.
type runView struct {
	Date, Took, Command string
}

func runViewOf(rep *conformance.Report) runView {
	var v runView
	if !rep.Date.IsZero() {
		v.Date = rep.Date.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	if rep.Duration > 0 {
		v.Took = rep.Duration.Round(time.Millisecond).String()
	}
	if len(rep.Command) > 0 {
		v.Command = shellQuote(rep.Command)
	}
	return v
}

// skipReason is one reason cases were skipped for, and the cases, each
// with its profiles.
type skipReason struct {
	Reason string
	Runs   int
	Cases  []listed
}

// skipReasons groups the skipped results by reason, the most frequent
// first.
func skipReasons(skipped []conformance.CaseResult) []skipReason {
	var out []skipReason
	by := map[string][]conformance.CaseResult{}
	var order []string
	for _, r := range skipped {
		if _, ok := by[r.Reason]; !ok {
			order = append(order, r.Reason)
		}
		by[r.Reason] = append(by[r.Reason], r)
	}
	for _, reason := range order {
		out = append(out, skipReason{Reason: reason, Runs: len(by[reason]), Cases: listResults(by[reason])})
	}
	slices.SortStableFunc(out, func(a, b skipReason) int { return b.Runs - a.Runs })
	return out
}
