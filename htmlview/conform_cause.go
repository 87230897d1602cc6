package htmlview

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/safetext"
)

// cause is what the failures of one group on the conformance page have in
// common: the failure class, the field it is decided on (the step's
// first mismatch; the other fields that differ follow from it, as a
// missing spawn makes the board after the step and its legal moves
// differ too; "" for none) and, for a property check, the property (each
// property is a rule of its own; "" for cases). The areas of cases are
// not in it: one fault (a spawn missing after some move) fails cases of
// every area, and is one cause.
type cause struct {
	Status      conformance.Status
	Field, Rule string
}

func causeOf(r conformance.CaseResult) cause {
	c := cause{Status: r.Status}
	if len(r.Mismatches) > 0 {
		c.Field = r.Mismatches[0].Field
	}
	if r.Area == conformance.PropertiesArea {
		c.Rule = r.Case
	}
	return c
}

// Title says the cause: "score-diverged on gained".
func (c cause) Title() string {
	s := string(c.Status)
	if c.Field != "" {
		s += " on " + c.Field
	}
	if c.Rule != "" {
		s += " in " + c.Rule
	}
	return s
}

// causeGroup is the failing cases of one cause on the conformance page.
// The smallest case is shown whole, the rest folded under it.
type causeGroup struct {
	cause
	ID string // the anchor of its section: "cause-1", ... ("unreachable-1", ... apart)
	// Fields are every field that differs in some result of the group,
	// Areas every area of its cases.
	Fields, Areas []string
	Count         int // its cases
	Results       int // the results (a case under a profile) of the group
	Regressions   int // of them, regressions against the baseline
	First         failCase
	Rest          []failCase
}

// groupCauses groups the failing cases by cause: a case's first variant
// decides its group. The groups with regressions come first, then the
// largest. Their anchors are prefix-1, prefix-2, ...
func groupCauses(cases []failCase, prefix string) []causeGroup {
	var out []causeGroup
	for _, m := range groupsOf(cases, func(fc failCase) cause { return causeOf(fc.results[0]) }) {
		g := causeGroup{cause: causeOf(m[0].results[0]), Count: len(m)}
		for _, fc := range m {
			g.Results += len(fc.results)
			if !slices.Contains(g.Areas, fc.Area) {
				g.Areas = append(g.Areas, fc.Area)
			}
			for _, r := range fc.results {
				for _, mm := range r.Mismatches {
					if !slices.Contains(g.Fields, mm.Field) {
						g.Fields = append(g.Fields, mm.Field)
					}
				}
			}
			g.Regressions += fc.Regressions
		}
		// The smallest first: the fewest steps to the failure, then the
		// fewest cells on its boards, then by name.
		slices.SortStableFunc(m, func(a, b failCase) int {
			return cmp.Or(cmp.Compare(a.Step, b.Step), cmp.Compare(a.Cells, b.Cells), cmp.Compare(a.Case, b.Case))
		})
		g.First, g.Rest = m[0], m[1:]
		slices.Sort(g.Areas)
		out = append(out, g)
	}
	slices.SortStableFunc(out, func(a, b causeGroup) int {
		return cmp.Or(-cmp.Compare(min(a.Regressions, 1), min(b.Regressions, 1)), -cmp.Compare(a.Results, b.Results))
	})
	for i := range out {
		out[i].ID = fmt.Sprintf("%s-%d", prefix, i+1)
	}
	return out
}

// stepView is one step of a case on the page.
type stepView struct {
	N             int
	Action, Arrow string
	Spawn         string
	Failed        bool // the failing step
}

// arrow is the sign of an action (a switch, not a map: a map would be
// built when the program starts, TestNoInitWork).
func arrow(action string) string {
	switch action {
	case "up":
		return "↑"
	case "down":
		return "↓"
	case "left":
		return "←"
	case "right":
		return "→"
	case "undo":
		return "↶"
	case "end-run":
		return "■"
	case "keep-playing":
		return "▶"
	case "check":
		return "✓"
	}
	return "·"
}

// stepViews returns a case's steps to the failing one (step, from 1).
func stepViews(info *conformance.CaseInfo, step int) []stepView {
	var out []stepView
	for i, s := range info.Steps {
		out = append(out, stepView{N: i + 1, Action: s.Action, Arrow: arrow(s.Action), Spawn: s.Spawn, Failed: i+1 == step})
	}
	return out
}

// fromLine says how a case starts, from a seed (the empty one too) or
// from the board loaded; "" when its case info gives neither.
func fromLine(info *conformance.CaseInfo) string {
	if seed, ok := strings.CutPrefix(info.From, "seed "); ok {
		return "from seed " + cmp.Or(seed, `"" (the empty seed)`)
	}
	if _, err := engine.ParseBoard(info.From); err != nil {
		return ""
	}
	return "from the board loaded"
}

// rerunCommand is the command line that re-runs one case under its
// profiles against the implementation of the run (rerun, the start of
// the command, [conformance.RunInfo.Rerun]); "" when the report does not
// say how it was run.
func rerunCommand(rerun []string, name string, profiles []string) string {
	if len(rerun) == 0 {
		return ""
	}
	args := append(slices.Clip(rerun), "--run", "^"+regexp.QuoteMeta(name)+"$", "--profile", strings.Join(profiles, ","))
	return safetext.Shell(args)
}
