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
// the count's link filters. Without a check the pages are as they were.

// The three outcomes of a check, as the pages name them.
const (
	timesSealed    = "sealed"
	timesNotSealed = "not-sealed"
	timesNone      = "none"
)

// timesState is the outcome of a check: "" when there was none. A replay
// without times (or without a seal: Count 0 when it has no times) has
// none to check.
func timesState(tc *replay.TimesCheck) string {
	switch {
	case tc == nil:
		return ""
	case tc.Sealed:
		return timesSealed
	case tc.Count == 0:
		return timesNone
	}
	return timesNotSealed
}

// notSealedWhat is what the table's "what" of a replay whose times are not
// sealed ends with (after "; "), the reason left to its page so that a
// row stays a few bytes; the summary's count links to the table filtered
// by it.
const notSealedWhat = "think times NOT sealed"

// timesView is the line of a viewer page.
type timesView struct {
	replay.TimesCheck
	State string
	Times string // the count of times, digits grouped
}

// timesViewOf is the line of a viewer page of verdict v; nil when its
// times were not checked.
func timesViewOf(v replay.Verdict) *timesView {
	if v.ThinkTimes == nil {
		return nil
	}
	return &timesView{*v.ThinkTimes, timesState(v.ThinkTimes), grouped(uint64(v.ThinkTimes.Count))}
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
	checked := false
	for _, e := range entries {
		switch timesState(e.Verdict.ThinkTimes) {
		case timesSealed:
			c.Sealed++
		case timesNotSealed:
			c.NotSealed++
		case timesNone:
			c.None++
		default:
			c.Unchecked++
			continue
		}
		checked = true
	}
	if !checked {
		return nil
	}
	c.Filter = "#v?" + url.Values{"f11": {notSealedWhat}}.Encode()
	return &c
}

// timesWhat is what the table's "what" of verdict v gets after it: for
// times not sealed, notSealedWhat; else nothing.
func timesWhat(v replay.Verdict) string {
	if timesState(v.ThinkTimes) != timesNotSealed {
		return ""
	}
	return "; " + notSealedWhat
}
