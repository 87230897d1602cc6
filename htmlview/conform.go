package htmlview

import (
	"cmp"
	"fmt"
	"html/template"
	"io"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/safetext"
)

// failCase is one failing case on the conformance page: every profile it
// fails in, and its failures, one variant for each different failure (a
// case usually fails the same way in every profile, and is drawn once).
type failCase struct {
	Case, Area string
	File       string
	Line       int
	Profiles   []string
	In         string   // the profiles in words: "classic, pgs", or "all 5 profiles"
	Keys       []string // CASE@PROFILE, an anchor each, for links made before the grouping
	// ID is its section's id: the case, or "unreachable/" and the case
	// for its failures on states no game reaches (a case can have both,
	// under two profiles); Href links to it.
	ID       string
	Href     template.URL
	Variants []variant
	// Step is the first variant's failing step (0: a property check),
	// Cells the cells of its boards: the smaller case of a cause is shown.
	Step, Cells int
	// What the case checks and its source, how it starts and its steps
	// to the failing one, and its YAML (conformance.CaseInfo), when the
	// report carries them.
	Description, Source string
	From                string // fromLine
	Steps               []stepView
	YAML                string
	// Path is the case's file as a path from where the command ran (the
	// repository's cases/ folder for the pack built in), Rerun the
	// command that re-runs it, "" when the report does not say.
	Path, Rerun string
	Regressions int    // its results that are regressions against the baseline
	Unreachable string // why its state is one no game reaches, "" when reachable
	results     []conformance.CaseResult
}

// variant is one failure of a case, the same in each of its profiles.
type variant struct {
	Profiles []string
	In       string // as failCase.In
	Status   conformance.Status
	Step     int  // the failing step, from 1; 0 for a property check
	Property bool // a property check, which has no steps
	// StartCaption captions the board the failure started from
	// (conformance.Result.StartTitle).
	StartCaption string
	Reason       string
	Also         []string
	// Fields are the step's mismatches with what the rules give and what
	// the implementation did, when they say (a whole board diverged is
	// drawn, not listed).
	Fields []conformance.StepMismatch
	// The boards: the one the failing step started from (or the board a
	// property loaded), the rules' and the implementation's, the cells
	// where the last two differ marked (Diffs of them). Start is nil when
	// unknown; Want, where no whole board diverged, is the board the
	// rules give after a case's failing step (rulesBoard), nil when that
	// cannot be told (Got is then the implementation's board after the
	// step, when known).
	Start, Want, Got [][]cell
	Diffs            int
	// GotIn is the profile whose board Got is, when the variant's
	// profiles' boards differ (only where no whole board diverged: in
	// what a spawn placed), "" when they are the same.
	GotIn string
	// WantCaption captions the rules' board when no whole board diverged
	// (rulesBoard), "" when one did.
	WantCaption string
	got         *engine.Board // the board Got draws
}

// At says where the variant failed: "at step 3", or "" for a property.
func (v variant) At() string {
	if v.Property || v.Step == 0 {
		return ""
	}
	return fmt.Sprintf("at step %d", v.Step)
}

// signature identifies a failure's content: results of one case with the
// same signature are one variant. The implementation's board counts only
// where a whole board diverged: elsewhere it is the board after the
// step, with the tile the implementation spawned, which differs from one
// profile to another when nothing else does.
func signature(r conformance.CaseResult) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s\x00%d\x00%s\x00", r.Status, r.Step, r.Reason)
	for _, m := range r.Mismatches {
		fmt.Fprintf(&sb, "%s\x00%s\x00%s\x00%s\x00", m.Field, m.Want, m.Got, m.Text)
	}
	boards := []*engine.Board{r.Start, r.Want}
	if r.Want != nil {
		boards = append(boards, r.Got)
	}
	for _, b := range boards {
		if b != nil {
			sb.WriteString(b.String())
		}
		sb.WriteByte(0)
	}
	return sb.String()
}

// variantOf returns a failed result as a variant (without its profiles).
func variantOf(res conformance.CaseResult) variant {
	v := variant{Status: res.Status, Step: res.Step, Property: res.Area == conformance.PropertiesArea, StartCaption: res.StartTitle(), Reason: res.Reason, got: res.Got}
	for _, m := range res.Mismatches[min(1, len(res.Mismatches)):] {
		v.Also = append(v.Also, "also "+m.Text)
	}
	for _, m := range res.Mismatches {
		if (m.Want != "" || m.Got != "") && !(m.Field == "board" && res.Want != nil) {
			v.Fields = append(v.Fields, m)
		}
	}
	if res.Start != nil {
		v.Start = boardCells(*res.Start, nil)
	}
	switch {
	case res.Want != nil && res.Got != nil:
		v.Want, v.Got = boardCells(*res.Want, res.Got), boardCells(*res.Got, res.Want)
	case res.Got != nil:
		if want, caption, ok := rulesBoard(res); ok {
			v.Want, v.Got, v.WantCaption = boardCells(want, res.Got), boardCells(*res.Got, &want), caption
		} else {
			v.Got = boardCells(*res.Got, nil)
		}
	}
	for _, row := range v.Got {
		for _, c := range row {
			if c.Mark { // only where there is a board to compare with
				v.Diffs++
			}
		}
	}
	return v
}

// propertyMove returns the move of a property check's failure, which its
// words name ("moving left on the board loaded ...", "after moving up on
// ...", "move up changes nothing on the board loaded ..."), or "".
func propertyMove(reason string) string {
	reason = strings.TrimPrefix(reason, "after ")
	for _, verb := range []string{"moving ", "move "} {
		rest, ok := strings.CutPrefix(reason, verb)
		if !ok {
			continue
		}
		d, tail, _ := strings.Cut(rest, " ")
		if _, err := engine.ParseDirection(d); err == nil && len(d) > 1 && (strings.HasPrefix(tail, "on ") || strings.HasPrefix(tail, "changes ")) {
			return d
		}
	}
	return ""
}

// rulesBoard returns the board the rules give after a failing step on
// which no whole board diverged, to draw beside the implementation's, and
// its caption. The step is a case's (its last step in the result's case
// info) or a property check's one move (named in its words). The board is
// the one before the step (the implementation's, which the rules agreed
// with up to it) where the rules refuse the step or it does not move;
// else that board moved by the rules, with the tile the step forced or,
// failing that, the one tile the implementation placed in a cell the
// slide left empty (none placed: the slide alone). ok is false when it
// cannot say (an undo, End run or keep playing; a check with no move;
// several tiles placed).
func rulesBoard(res conformance.CaseResult) (b engine.Board, caption string, ok bool) {
	if res.Start == nil || res.Got == nil {
		return b, "", false
	}
	before, got := *res.Start, *res.Got
	var action, spawn string
	switch {
	case res.Area == conformance.PropertiesArea:
		if action = propertyMove(res.Reason); action == "" {
			return b, "", false
		}
	case res.Info != nil && res.Step >= 1 && len(res.Info.Steps) == res.Step:
		st := res.Info.Steps[res.Step-1]
		action, spawn = st.Action, st.Spawn
	default:
		return b, "", false
	}
	const rules = "the rules give"
	if action == "check" || strings.Contains(res.Reason, "the rules refuse it") {
		return before, rules, true
	}
	d, err := engine.ParseDirection(action)
	if err != nil {
		return b, "", false
	}
	s, err := before.Slide(d)
	if err != nil || !s.Changed {
		return before, rules, true // an overflow is refused: the board as it was
	}
	b = s.Board
	var sp engine.Spawn
	if _, err := fmt.Sscanf(spawn, "%d at row %d, column %d", &sp.Value, &sp.Row, &sp.Col); err == nil {
		if sp.Row < b.Rows() && sp.Col < b.Cols() && b.At(sp.Row, sp.Col) == 0 {
			b.Set(sp.Row, sp.Col, sp.Value)
		}
		return b, rules, true
	}
	if got.Rows() != b.Rows() || got.Cols() != b.Cols() {
		return b, "", false
	}
	var placed []engine.Spawn
	for r := range b.Rows() {
		for c := range b.Cols() {
			if b.At(r, c) == 0 && got.At(r, c) != 0 {
				placed = append(placed, engine.Spawn{Row: r, Col: c, Value: got.At(r, c)})
			}
		}
	}
	switch len(placed) {
	case 0:
		return b, "the rules' slide", true
	case 1:
		b.Set(placed[0].Row, placed[0].Col, placed[0].Value)
		return b, rules, true
	}
	return b, "", false
}

func sameBoard(a, b *engine.Board) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// profilesIn writes profiles in words: every profile of all (the
// implementation's) as "all N profiles", others listed.
func profilesIn(profiles, all []string) string {
	if len(all) > 1 && len(profiles) == len(all) && !slices.ContainsFunc(all, func(p string) bool { return !slices.Contains(profiles, p) }) {
		return fmt.Sprintf("all %d profiles", len(all))
	}
	return strings.Join(profiles, ", ")
}

// groupsOf groups items by key, the groups in the order of their first
// items, each group's items in their order.
func groupsOf[T any, K comparable](items []T, key func(T) K) [][]T {
	var groups [][]T
	index := map[K]int{}
	for _, x := range items {
		k := key(x)
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], x)
	}
	return groups
}

// failingCases groups failed results by case, in the order of the areas,
// then of the results, and completes each case with what the report says
// of it: its case info (from the first result that carries it), its file
// as a path from where the command ran, the command that re-runs it, its
// regressions (by CASE@PROFILE) and whether its state is reachable.
func failingCases(failed []conformance.CaseResult, rep *conformance.Report, regressed map[string]bool, idPrefix string) []failCase {
	var out []failCase
	for _, rs := range groupsOf(failed, func(r conformance.CaseResult) string { return r.Case }) {
		// The href is "#" and the id as it is: a case is AREA/ID, and
		// "/" needs no escape in a fragment.
		id := idPrefix + rs[0].Case
		fc := failCase{Case: rs[0].Case, Area: rs[0].Area, File: rs[0].File, Line: rs[0].Line, ID: id, Href: template.URL("#" + id), results: rs}
		for _, vs := range groupsOf(rs, signature) {
			v := variantOf(vs[0])
			for _, res := range vs {
				if v.GotIn == "" && !sameBoard(v.got, res.Got) {
					v.GotIn = v.Profiles[0]
				}
				v.Profiles = append(v.Profiles, res.Profile)
			}
			v.In = profilesIn(v.Profiles, rep.Impl.Profiles)
			fc.Variants = append(fc.Variants, v)
		}
		for _, res := range rs {
			fc.Profiles = append(fc.Profiles, res.Profile)
			fc.Keys = append(fc.Keys, res.Key())
			if res.Info != nil && fc.YAML == "" {
				fc.Description, fc.Source, fc.YAML = res.Info.Description, res.Info.Source, res.Info.YAML
				fc.From, fc.Steps = fromLine(res.Info), stepViews(res.Info, res.Step)
			}
			if regressed[res.Key()] {
				fc.Regressions++
			}
			if fc.Unreachable == "" {
				fc.Unreachable = res.Unreachable
			}
		}
		fc.In = profilesIn(fc.Profiles, rep.Impl.Profiles)
		v := fc.Variants[0]
		fc.Step = v.Step
		for _, b := range [][][]cell{v.Start, v.Want, v.Got} {
			if len(b) > 0 {
				fc.Cells += len(b) * len(b[0])
			}
		}
		if fc.Path = fc.File; fc.File != "" && rep.CasesDir != "" {
			fc.Path = path.Join(rep.CasesDir, fc.File)
		}
		fc.Rerun = rerunCommand(rep.Rerun, fc.Case, fc.Profiles)
		out = append(out, fc)
	}
	slices.SortStableFunc(out, func(a, b failCase) int { return cmp.Compare(a.Area, b.Area) })
	return out
}

// areaFailures is one area of the table of contents.
type areaFailures struct {
	Area  string
	Cases []failCase
}

// listed is a result of the lists after the failures (expected failures,
// unexpected passes), one line a case and reason.
type listed struct {
	Case, Reason, Expected string
	Status                 conformance.Status
	Profiles               []string
}

func listResults(results []conformance.CaseResult) []listed {
	var out []listed
	for _, g := range groupsOf(results, func(r conformance.CaseResult) [4]string {
		return [4]string{r.Case, r.Reason, r.Expected, string(r.Status)}
	}) {
		l := listed{Case: g[0].Case, Reason: g[0].Reason, Expected: g[0].Expected, Status: g[0].Status}
		for _, r := range g {
			l.Profiles = append(l.Profiles, r.Profile)
		}
		out = append(out, l)
	}
	return out
}

// areaRow is a line of the summary table.
type areaRow struct {
	conformance.AreaSummary
	XPass int // unexpected passes (counted as passed in the summary)
}

// Conformance writes the page of a conformance run's failures to w:
// the verdict first, as the command gave it (the report's gate,
// [conformance.Report.Gate]; a report not yet gated is gated on its own,
// without a baseline); when and how the run was made; the summary per
// area; then the failures grouped by cause (the class, the field it is
// decided on, a property's name), the smallest case of each cause shown
// whole and the others folded under it. A case shows what it checks and
// its source, its steps from the start with the failing one marked, the
// boards of the failing step (the one it started from, the rules' and
// the implementation's) side by side, the command that re-runs it and
// its YAML. Failures on states no game reaches are apart; expected
// failures, unexpected passes, the skipped cases (with why) and those
// not applicable to their profile (with why) follow.
// Every string of the report is written as text (html/template).
func Conformance(w io.Writer, rep *conformance.Report) error {
	rep = shownReport(rep)
	v := rep.Verdict
	if v == nil {
		v = rep.Gate(conformance.GateOptions{})
	}
	failed, xpass := rep.Failures()
	regressed := map[string]bool{}
	for _, ch := range v.Regressions {
		regressed[ch.Key] = true
	}
	groups, apart := failingCases(failed, rep, regressed, ""), failingCases(rep.UnreachableFailures(), rep, regressed, "unreachable/")
	var toc []areaFailures
	failedAreas := map[string]bool{}
	for _, g := range groupsOf(slices.Concat(groups, apart), func(c failCase) string { return c.Area }) {
		toc = append(toc, areaFailures{g[0].Area, g})
		failedAreas[g[0].Area] = true
	}
	slices.SortStableFunc(toc, func(a, b areaFailures) int { return cmp.Compare(a.Area, b.Area) })
	var expected, skipped, notApplicable []conformance.CaseResult
	for _, res := range rep.Results {
		switch {
		case res.Status.Failed() && res.Expected != "":
			expected = append(expected, res)
		case res.Status == conformance.Skip && res.NotApplicable:
			notApplicable = append(notApplicable, res)
		case res.Status == conformance.Skip:
			skipped = append(skipped, res)
		}
	}
	areas, total := rep.Summaries()
	xpassBy := map[string]int{}
	for _, r := range xpass {
		xpassBy[r.Area]++
	}
	rows := make([]areaRow, len(areas))
	for i, a := range areas {
		rows[i] = areaRow{a, xpassBy[a.Area]}
	}
	var statuses []string
	for _, g := range groupsOf(failed, func(r conformance.CaseResult) conformance.Status { return r.Status }) {
		statuses = append(statuses, fmt.Sprintf("%s %d", g[0].Status, len(g)))
	}
	slices.Sort(statuses)
	page := struct {
		R        *conformance.Report
		V        *conformance.Gate
		Failed   bool                                 // the run failed: exit status 1
		Run      struct{ Date, Took, Command string } // when and how the run was made, in words
		Areas    []areaRow
		Total    areaRow
		Failures int
		Known    int // failures the baseline has, unchanged
		Statuses string
		TOC      []areaFailures
		Cases    int
		Causes   []causeGroup
		Apart    []causeGroup
		Expected []listed
		XPass    []listed
		Skipped  []skipReason
		// NotApplicable are the cases the profile's own rules rule out,
		// by reason as the skipped.
		NotApplicable []skipReason
		NotRun        []skipReason // the checks a run cut short did not run, by reason as the skipped
		FailedAreas   map[string]bool
		// LegalUncompared: the implementation lists no legal moves, so
		// none the cases state were compared.
		LegalUncompared bool
	}{LegalUncompared: rep.LegalUncompared(), R: rep, V: v, Failed: !v.Pass, Areas: rows, Total: areaRow{total, len(xpass)}, Failures: len(failed),
		Statuses: strings.Join(statuses, ", "), TOC: toc, Cases: len(groups) + len(apart),
		Causes: groupCauses(groups, "cause"), Apart: groupCauses(apart, "unreachable"),
		Expected: listResults(expected), XPass: listResults(xpass), Skipped: skipReasons(skipped), NotApplicable: skipReasons(notApplicable), NotRun: skipReasons(rep.NotRun()), FailedAreas: failedAreas}
	for _, r := range failed {
		if v.Known(r.Key()) {
			page.Known++
		}
	}
	if !rep.Date.IsZero() {
		page.Run.Date = rep.Date.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	if rep.Duration > 0 {
		page.Run.Took = rep.Duration.Round(time.Millisecond).String()
	}
	if len(rep.Command) > 0 {
		page.Run.Command = safetext.Shell(rep.Command)
	}
	return pages().ExecuteTemplate(w, "conform.html", page)
}

// shownReport returns a copy of rep whose text from outside, the
// implementation's name, version and messages (in the results' reasons
// and mismatches, the gate's reasons), the baseline's file name, and the
// case pack's name, version and words (a failing case's description,
// source, seed and YAML), is
// shown as a terminal shows it: its controls and format characters as
// \x1b, \u202e, so that a right-to-left override cannot reverse what
// follows it on the page, nor a control be written into it. The
// profiles and cases are left as they are: they make the page's ids.
func shownReport(rep *conformance.Report) *conformance.Report {
	r := *rep
	r.Impl.Name, r.Impl.Version = safetext.Terminal(r.Impl.Name), safetext.Terminal(r.Impl.Version)
	r.Results = slices.Clone(rep.Results)
	for i := range r.Results {
		res := &r.Results[i]
		res.Reason = safetext.TerminalLines(res.Reason)
		res.Mismatches = slices.Clone(res.Mismatches)
		for j := range res.Mismatches {
			m := &res.Mismatches[j]
			m.Text, m.Want, m.Got = safetext.TerminalLines(m.Text), safetext.Terminal(m.Want), safetext.Terminal(m.Got)
		}
		if in := res.Info; in != nil {
			// The case's words, its seed and its YAML come from the case
			// pack, which --cases names: any text.
			info := *in
			info.Description, info.Source = safetext.Terminal(in.Description), safetext.Terminal(in.Source)
			info.From, info.YAML = safetext.TerminalLines(in.From), safetext.TerminalLines(in.YAML)
			res.Info = &info
		}
	}
	r.Pack, r.PackVersion = safetext.Terminal(r.Pack), safetext.Terminal(r.PackVersion)
	if rep.Verdict != nil {
		g := *rep.Verdict
		g.Baseline = safetext.Terminal(g.Baseline)
		g.Regressions, g.Changed, g.Fixes = shownChanges(g.Regressions), shownChanges(g.Changed), shownChanges(g.Fixes)
		r.Verdict = &g
	}
	return &r
}

// shownChanges returns a copy of changes, each reason and how shown as
// shownReport shows a result's.
func shownChanges(changes []conformance.Change) []conformance.Change {
	changes = slices.Clone(changes)
	for i := range changes {
		changes[i].Reason, changes[i].How = safetext.TerminalLines(changes[i].Reason), safetext.Terminal(changes[i].How)
	}
	return changes
}
