package replay

import (
	"strings"
)

// Explanation is a verdict told to people, the same in every view (the
// command's text, the terminal viewer, the HTML pages): its headline and,
// for a replay that left the rules, what the replay says and what the
// rules give there, then the other claimed figures that differ.
type Explanation struct {
	Headline string // see [Verdict.Headline]
	Says     string // what the replay says at the divergence; "" for a valid or unreadable replay
	Gives    string // what the rules give there
	Also     []string
}

// Explain returns the verdict's explanation. Each line of Says, Gives and
// Also is one line: a board in them is left to the views that draw it.
func (vd Verdict) Explain() Explanation {
	e := Explanation{Headline: vd.Headline()}
	d := vd.Divergence
	if d == nil {
		return e
	}
	e.Says, e.Gives = oneLine(d.Says()), oneLine(d.Gives())
	for _, m := range vd.Mismatches[min(1, len(vd.Mismatches)):] {
		if m.Field == "board" {
			continue // the views draw boards
		}
		e.Also = append(e.Also, "the replay says "+oneLine(m.words(m.Claimed))+", the rules give "+oneLine(m.words(m.Found)))
	}
	return e
}

// oneLine joins a text's lines, and its runs of white space, with single
// spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
