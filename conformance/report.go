package conformance

import (
	"maps"
	"slices"
)

// AreaSummary counts a report's results by area: passed, failed (unexpected),
// expected failures, skipped, not applicable, and not run (a run cut short). Failures on states no game reaches
// (CaseResult.Unreachable) are counted apart, in Unreachable, and not in
// Failed: the verdict on reachable states stands on its own. The skips
// of cases the profile's own rules rule out (CaseResult.NotApplicable)
// are counted in NotApplicable, not in Skipped: Skipped counts what an
// implementation left unchecked.
type AreaSummary struct {
	Area          string `json:"area"`
	Passed        int    `json:"passed"`
	Failed        int    `json:"failed"`
	Expected      int    `json:"expectedFailures"`
	Skipped       int    `json:"skipped"`
	NotApplicable int    `json:"notApplicable"`
	Unreachable   int    `json:"unreachableFailures"`
	NotRun        int    `json:"notRun"`
}

// Summaries returns one summary per area, sorted, and the total.
func (r *Report) Summaries() (areas []AreaSummary, total AreaSummary) {
	by := map[string]*AreaSummary{}
	total.Area = "total"
	for _, res := range r.Results {
		s := by[res.Area]
		if s == nil {
			s = &AreaSummary{Area: res.Area}
			by[res.Area] = s
		}
		for _, t := range []*AreaSummary{s, &total} {
			switch {
			case res.Status == Pass:
				t.Passed++
			case res.notApplicable():
				t.NotApplicable++
			case res.Status == Skip:
				t.Skipped++
			case res.Status == NotRun:
				t.NotRun++
			case res.Expected != "":
				t.Expected++
			case res.Unreachable != "":
				t.Unreachable++
			default:
				t.Failed++
			}
		}
	}
	for _, a := range slices.Sorted(maps.Keys(by)) {
		areas = append(areas, *by[a])
	}
	return areas, total
}

// UnreachableFailures returns the unexpected failures on states no game
// reaches (CaseResult.Unreachable): reported apart, they fail a run only when
// asked (conform --strict).
func (r *Report) UnreachableFailures() []CaseResult {
	return r.where(func(res CaseResult) bool { return res.Status.Failed() && res.Expected == "" && res.Unreachable != "" })
}

// NotRun returns the checks the run did not reach or did not finish
// ([NotRun]), in order.
func (r *Report) NotRun() []CaseResult {
	return r.where(func(res CaseResult) bool { return res.Status == NotRun })
}

// notApplicable reports whether res is a skip of a case its profile's
// own rules rule out (CaseResult.NotApplicable).
func (res CaseResult) notApplicable() bool { return res.Status == Skip && res.NotApplicable }

// where returns the results that keep keeps, in order.
func (r *Report) where(keep func(CaseResult) bool) []CaseResult {
	return slices.DeleteFunc(slices.Clone(r.Results), func(res CaseResult) bool { return !keep(res) })
}
