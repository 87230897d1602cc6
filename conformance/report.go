package conformance

import (
	"sort"
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
