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

// causeGroup is the failing cases of one cause on the conformance page:
// the same signature ([causeOf]). The smallest case is shown whole, the
// rest folded under it.
type causeGroup struct {
	ID     string             // the anchor of its section: "cause-1", ... ("unreachable-1", ... apart)
	Status conformance.Status // the failure class
	Field  string             // the field the class is decided on (the first mismatch's), "" for none
	Rule   string             // a property check's name (each property is a rule of its own), "" for cases
	// Fields are every field that differs in some result of the group,
	// Areas every area of its cases.
	Fields, Areas []string
	Count         int // its cases
	Results       int // the results (a case under a profile) of the group
	Regressions   int // of them, regressions against the baseline
	First         failCase
	Rest          []failCase
}

// Title says the group's cause: "score-diverged on gained".
func (g causeGroup) Title() string {
	s := string(g.Status)
	if g.Field != "" {
		s += " on " + g.Field
	}
	if g.Rule != "" {
		s += " in " + g.Rule
	}
	return s
}

// causeOf returns the signature of a failed result: its class, the
// field the class is decided on (the step's first mismatch; the other
// fields that differ follow from it, as a missing spawn makes the board
// after the step and its legal moves differ too) and, for a property
// check, the property (its rule). The areas of cases are not in it:
// one fault (a spawn missing after some move) fails cases of every
// area, and is one cause.
func causeOf(r conformance.CaseResult) string {
	sig := string(r.Status)
	if len(r.Mismatches) > 0 {
		sig += "\x00" + r.Mismatches[0].Field
	}
	if r.Area == conformance.PropertiesArea {
		sig += "\x00" + r.Case
	}
	return sig
}

// caseSize orders the cases of a group, the smallest first: the fewest
// steps to the failure, then the fewest cells on its boards, then by
// name.
func caseSize(a, b failCase) int {
	return cmp.Or(cmp.Compare(a.Step, b.Step), cmp.Compare(a.Cells, b.Cells), cmp.Compare(a.Case, b.Case))
}

// groupCauses groups the failing cases by cause: a case's first variant
// decides its group. The groups with regressions come first, then the
// largest. Their anchors are prefix-1, prefix-2, ...
func groupCauses(cases []failCase, prefix string) []causeGroup {
	var out []causeGroup
	for _, m := range groupsOf(cases, func(fc failCase) string { return causeOf(fc.results[0]) }) {
		first := m[0].results[0]
		g := causeGroup{Status: first.Status, Count: len(m)}
		if len(first.Mismatches) > 0 {
			g.Field = first.Mismatches[0].Field
		}
		if first.Area == conformance.PropertiesArea {
			g.Rule = first.Case
		}
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
		slices.SortStableFunc(m, caseSize)
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

// fromView is how a case starts: a seed, or the board loaded.
type fromView struct {
	Seed  string
	Board [][]cell
}

func fromOf(info *conformance.CaseInfo) *fromView {
	if info == nil || info.From == "" {
		return nil
	}
	if seed, ok := strings.CutPrefix(info.From, "seed "); ok {
		return &fromView{Seed: seed}
	}
	b, err := engine.ParseBoard(info.From)
	if err != nil {
		return nil
	}
	return &fromView{Board: boardCells(b, nil)}
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
