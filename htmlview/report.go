package htmlview

import (
	"cmp"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/tileproof/tileproof/replay"
)

// Entry is one replay of a batch report: its verdict, and the URLs,
// relative to the report, of its viewer page and of its file ("" when
// there is none: a replay that could not be replayed has no viewer page,
// one read from standard input no file).
type Entry struct {
	Verdict replay.Verdict
	Page    string
	Source  string
}

// The kinds of verdict, in the order the report lists them: the replays
// to look at first come first.
// The four classes: valid, valid but suspicious (its spawns warned the
// plausibility tests; --strict fails it, reason implausible), invalid,
// unreadable.
const (
	kindInvalid    = "invalid"
	kindSuspicious = "suspicious"
	kindUnreadable = "unreadable"
	kindValid      = "valid"
)

// kindRank is a kind's place in the report's order.
func kindRank(kind string) int {
	switch kind {
	case kindSuspicious:
		return 1
	case kindUnreadable:
		return 2
	case kindValid:
		return 3
	}
	return 0
}

func kindOf(v replay.Verdict) string {
	switch {
	case v.Valid && len(v.Warnings) > 0, v.Reason == replay.Implausible:
		return kindSuspicious
	case v.Valid:
		return kindValid
	case v.Reason.Unreadable():
		return kindUnreadable
	}
	return kindInvalid
}

// ReportOptions shape a batch report.
type ReportOptions struct {
	// Top is how many of the top scores the list of the replays that
	// need the operator's eyes holds, beside every suspicious and invalid
	// replay.
	Top int
}

// need is one line of the list of the replays that need the operator's
// eyes.
type need struct {
	Entry
	N    int    // the replay's place in the batch, from 1
	Kind string // kindSuspicious, kindInvalid or kindValid (a top score)
	Top  int    // its place among the top scores, from 1; 0 for none
	Why  string
}

// needsOf returns the replays that need the operator's eyes, in the order
// of need: the suspicious (they would be published), the top scores,
// highest first, then the invalid; each in the batch's order. A top score
// is among the valid replays without warnings.
func needsOf(entries []Entry, top int) []need {
	var sus, tops, bad []need
	for i, e := range entries {
		v := e.Verdict
		n := need{Entry: e, N: i + 1, Kind: kindOf(v)}
		switch n.Kind {
		case kindSuspicious:
			n.Why = strings.Join(v.Warnings, "; ")
			sus = append(sus, n)
		case kindInvalid:
			n.Why = v.Reason.Describe()
			if ex := v.Explain(); ex.Says != "" || ex.Gives != "" {
				n.Why = "the replay says " + ex.Says + "; the rules give " + ex.Gives
			}
			bad = append(bad, n)
		case kindValid:
			tops = append(tops, n)
		}
	}
	slices.SortStableFunc(tops, func(a, b need) int { return cmp.Compare(b.Verdict.Score, a.Verdict.Score) })
	tops = tops[:min(top, len(tops))]
	for i := range tops {
		tops[i].Top = i + 1
		tops[i].Why = fmt.Sprintf("top score #%d", i+1)
	}
	return slices.Concat(sus, tops, bad)
}

// reportRow is one row of the replays table.
type reportRow struct {
	Entry
	N      int    // the replay's place in the batch, from 1
	Kind   string // kindInvalid, kindUnreadable or kindValid
	Anchor string // the id of the first row of a reason ("reason-illegal-move"), "" for the others
	// KindAnchor is the id of a mark in the first row of a kind
	// ("kind-invalid"), "" in the others.
	KindAnchor string
	// Where, Says, Gives and Also are the verdict told to people
	// (replay.Verdict.Explain): where the replay left the rules, what it
	// says there and what the rules give, the other figures that differ.
	Where, Says, Gives string
	Also               []string
}

// reasonCount is one line of the reasons table.
type reasonCount struct {
	Reason string
	Kind   string
	Count  int
	Note   string
}

// Report writes the summary page of a batch of verified replays to w:
// the verdict counts, the reasons of the invalid and unreadable ones
// (each linked to its replays), the score distribution of the valid games
// (an SVG histogram), the spawn plausibility of each spawn-recorded game,
// and a row for each replay linking to its page. entries are in the
// batch's order; the rows put the invalid replays first, then the
// unreadable, each reason's together in the order of the reasons table,
// then the valid, and an inline script sorts and filters them (the order
// holds without it). title names the batch.
func Report(w io.Writer, title string, entries []Entry) error {
	return ReportWith(w, title, entries, ReportOptions{Top: 10})
}

// ReportWith is [Report] with options: above everything, the list of the
// replays that need the operator's eyes (needsOf), each with its page.
func ReportWith(w io.Writer, title string, entries []Entry, opt ReportOptions) error {
	type plaus struct {
		Entry
		P *replay.Plausibility
	}
	counts := map[replay.Reason]int{}
	kinds := map[string]int{}
	var scores []uint64
	var plausible []plaus
	for _, e := range entries {
		v := e.Verdict
		k := kindOf(v)
		kinds[k]++
		switch k {
		case kindValid, kindSuspicious:
			if v.Replayed {
				scores = append(scores, v.Score)
			}
		default:
			counts[v.Reason]++
		}
		if v.Plausibility != nil {
			plausible = append(plausible, plaus{e, v.Plausibility})
		}
	}
	var reasons []reasonCount
	for r, n := range counts {
		reasons = append(reasons, reasonCount{string(r), kindOf(replay.Verdict{Reason: r}), n, r.Describe()})
	}
	slices.SortFunc(reasons, func(a, b reasonCount) int {
		return cmp.Or(cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)), cmp.Compare(b.Count, a.Count), cmp.Compare(a.Reason, b.Reason))
	})
	rows := reportRows(entries, reasons)
	bins := histogram(scores, 20)
	var stats string
	if len(scores) > 0 {
		s := slices.Clone(scores)
		slices.Sort(s)
		stats = fmt.Sprintf("%d valid games: lowest %d, median %d, highest %d", len(s), s[0], s[len(s)/2], s[len(s)-1])
	}
	page := struct {
		Title                                  string
		Total                                  int
		Valid, Suspicious, Invalid, Unreadable int
		Needs                                  []need
		Top                                    int
		Reasons                                []reasonCount
		Histogram                              template.HTML
		Stats                                  string
		Plausible                              []plaus
		Rows                                   []reportRow
		WarnBelow                              float64
	}{title, len(entries), kinds[kindValid], kinds[kindSuspicious], kinds[kindInvalid], kinds[kindUnreadable], needsOf(entries, opt.Top), opt.Top, reasons, histogramSVG(bins), stats, plausible, rows, replay.WarnBelow}
	return pages().ExecuteTemplate(w, "report.html", page)
}

// reportRows returns the rows of the replays table in the order to triage
// them: the invalid replays, then the unreadable, each reason's rows
// together in the order of reasons, then the valid ones; within a reason,
// and among the valid, the batch's order.
func reportRows(entries []Entry, reasons []reasonCount) []reportRow {
	rank := map[string]int{}
	for i, r := range reasons {
		rank[r.Reason] = i
	}
	rows := make([]reportRow, len(entries))
	for i, e := range entries {
		v := e.Verdict
		row := reportRow{Entry: e, N: i + 1, Kind: kindOf(v)}
		if !v.Valid {
			ex := v.Explain()
			row.Says, row.Gives, row.Also = ex.Says, ex.Gives, ex.Also
			if d := v.Divergence; d != nil && d.Action > 0 {
				row.Where = fmt.Sprintf("action %d, after %d counted moves", d.Action, d.Move)
			}
		}
		rows[i] = row
	}
	slices.SortStableFunc(rows, func(a, b reportRow) int {
		if c := cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)); c != 0 || a.Kind == kindValid {
			return c
		}
		return cmp.Compare(rank[string(a.Verdict.Reason)], rank[string(b.Verdict.Reason)])
	})
	seen := map[string]bool{}
	for i := range rows {
		if k := rows[i].Kind; !seen[k] {
			seen[k] = true
			rows[i].KindAnchor = "kind-" + k
		}
		if r := "reason-" + string(rows[i].Verdict.Reason); rows[i].Kind != kindValid && !seen[r] {
			seen[r] = true
			rows[i].Anchor = r
		}
	}
	return rows
}
