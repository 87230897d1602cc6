package htmlview

import (
	"fmt"
	"html/template"
	"io"
	"sort"

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

// Report writes the summary page of a batch of verified replays to w:
// the verdict counts, the reasons of the invalid and unreadable ones, the
// score distribution of the valid games (an SVG histogram), the spawn
// plausibility of each spawn-recorded game, and a row for each replay
// linking to its page. title names the batch.
func Report(w io.Writer, title string, entries []Entry) error {
	type reason struct {
		Reason string
		Count  int
		Note   string
	}
	type plaus struct {
		Entry
		P *replay.Plausibility
	}
	var valid, invalid, unreadable int
	var scores []uint64
	counts := map[replay.Reason]int{}
	var plausible []plaus
	for _, e := range entries {
		v := e.Verdict
		switch {
		case v.Valid:
			valid++
			scores = append(scores, v.Score)
		case v.Reason.Unreadable():
			unreadable++
			counts[v.Reason]++
		default:
			invalid++
			counts[v.Reason]++
		}
		if v.Plausibility != nil {
			plausible = append(plausible, plaus{e, v.Plausibility})
		}
	}
	var reasons []reason
	for r, n := range counts {
		reasons = append(reasons, reason{string(r), n, r.Describe()})
	}
	sort.Slice(reasons, func(i, j int) bool {
		if reasons[i].Count != reasons[j].Count {
			return reasons[i].Count > reasons[j].Count
		}
		return reasons[i].Reason < reasons[j].Reason
	})
	bins := histogram(scores, 20)
	var stats string
	if len(scores) > 0 {
		s := append([]uint64(nil), scores...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		stats = fmt.Sprintf("%d valid games: lowest %d, median %d, highest %d", len(s), s[0], s[len(s)/2], s[len(s)-1])
	}
	page := struct {
		Title                      string
		Total                      int
		Valid, Invalid, Unreadable int
		Reasons                    []reason
		Histogram                  template.HTML
		Stats                      string
		Plausible                  []plaus
		Entries                    []Entry
		WarnBelow                  float64
	}{title, len(entries), valid, invalid, unreadable, reasons, histogramSVG(bins), stats, plausible, entries, replay.WarnBelow}
	return pages.ExecuteTemplate(w, "report.html", page)
}
