package htmlview

import (
	"net/url"

	"github.com/tileproof/tileproof/replay"
)

// The check of a replay's think times against the signed server's key
// (verify --times-key-file, replay.Verdict.ThinkTimes) on the pages: a
// viewer page says whether the game's times are sealed by the server whose
// key was given, not sealed (why, and that the verdict on the game
// stands), or absent; the batch report counts each in its summary and
// tells the games whose times are not sealed in the table's "what", which
// the count's link filters.

// notSealedWhat is what the table's "what" of a replay whose times are not
// sealed ends with (after "; "), the reason left to its page so that a
// row stays a few bytes; the summary's count links to the table filtered
// by it.
const notSealedWhat = "think times NOT sealed"

// timesView is the line of a viewer page: the check (its State among
// them) and the count of times, digits grouped.
type timesView struct {
	replay.TimesCheck
	Times string
}

// timesViewOf is the line of a viewer page of verdict v; nil when its
// times were not checked.
func timesViewOf(v replay.Verdict) *timesView {
	if v.ThinkTimes == nil {
		return nil
	}
	return &timesView{*v.ThinkTimes, grouped(uint64(v.ThinkTimes.Count))}
}

// timesCounts are the report's counts of the checks' outcomes.
type timesCounts struct {
	Sealed, NotSealed, None int
	// Unchecked counts the replays whose times were not checked (those
	// that could not be read).
	Unchecked int
	// Filter is the address of the table filtered to the replays whose
	// times are not sealed.
	Filter string
}

// timesCountsOf counts the entries' checks; nil when none was checked.
func timesCountsOf(entries []Entry) *timesCounts {
	var c timesCounts
	for _, e := range entries {
		switch e.Verdict.ThinkTimes.State() {
		case replay.TimesSealed:
			c.Sealed++
		case replay.TimesNotSealed:
			c.NotSealed++
		case replay.TimesNone:
			c.None++
		default:
			c.Unchecked++
		}
	}
	if c.Unchecked == len(entries) {
		return nil
	}
	c.Filter = "#v?" + url.Values{"f11": {notSealedWhat}}.Encode()
	return &c
}
