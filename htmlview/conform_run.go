package htmlview

import (
	"slices"

	"github.com/tileproof/tileproof/conformance"
)

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
