package htmlview

import (
	"slices"
	"time"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/internal/safetext"
)

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
		v.Command = safetext.Shell(rep.Command)
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
	for _, g := range groupsOf(skipped, func(r conformance.CaseResult) string { return r.Reason }) {
		out = append(out, skipReason{Reason: g[0].Reason, Runs: len(g), Cases: listResults(g)})
	}
	slices.SortStableFunc(out, func(a, b skipReason) int { return b.Runs - a.Runs })
	return out
}
