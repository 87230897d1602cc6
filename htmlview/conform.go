package htmlview

import (
	"io"

	"github.com/tileproof/tileproof/conformance"
)

// caseView is one failure on the conformance page: the result, and its
// boards when a whole board diverged (the step's start, the rules', the
// implementation's, with the cells where the last two differ marked).
type caseView struct {
	conformance.Result
	Start, Want, Got [][]cell
}

// caseFailure returns a failed result for the page, with its boards when
// it carries them.
func caseFailure(res conformance.Result) caseView {
	cv := caseView{Result: res}
	if res.Want == nil || res.Got == nil {
		return cv
	}
	cv.Want, cv.Got = boardCells(*res.Want, res.Got), boardCells(*res.Got, res.Want)
	if res.Start != nil {
		cv.Start = boardCells(*res.Start, nil)
	}
	return cv
}

// Conformance writes the page of a conformance run's failures to w: the
// summary per area, then each failing case with its reason and, where a
// board diverged, the board it started from, the rules' board and the
// implementation's side by side, the differing cells marked; other
// failures show their diff. Expected failures and unexpected passes are
// listed after.
func Conformance(w io.Writer, rep *conformance.Report) error {
	failed, xpass := rep.Failures()
	var views []caseView
	for _, res := range failed {
		views = append(views, caseFailure(res))
	}
	var expected []conformance.Result
	for _, res := range rep.Results {
		if res.Status.Failed() && res.Expected != "" {
			expected = append(expected, res)
		}
	}
	areas, total := rep.Summaries()
	page := struct {
		R        *conformance.Report
		Areas    []conformance.Summary
		Total    conformance.Summary
		Failed   []caseView
		Expected []conformance.Result
		XPass    []conformance.Result
	}{rep, areas, total, views, expected, xpass}
	return pages.ExecuteTemplate(w, "conform.html", page)
}
