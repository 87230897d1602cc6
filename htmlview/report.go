package htmlview

import (
	"cmp"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/tileproof/tileproof/analyze"
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
	// Claimed is the score the replay claims; nil when it could not be
	// read.
	Claimed *uint64
	// Played is what the moves of a replay whose claim no game reaches
	// make, replayed for the report (BatchReport.Verify); nil for any
	// other replay. The table's figures of such a replay are these.
	Played *Played
	// Band is the band of the game's analysis
	// (docs/analyze.md: consistent, review, strong or insufficient); ""
	// when it was not analysed. The report has a column of the bands
	// when an entry has one.
	Band string
	// ThinkMs is the median think time, in milliseconds, of the times a
	// game's replay carries (its analysis's think_time, docs/analyze.md),
	// sealed or not: whether a signed server measured them is the times
	// check's to say; nil when it has none. The report has
	// a column of them beside the bands when an entry has one and a band.
	ThinkMs *float64
}

// The four classes of verdict (classes has them in the rows' order): valid, valid but suspicious (its spawns warned the
// plausibility tests; --strict fails it, reason implausible), invalid,
// unreadable.
const (
	kindInvalid    = "invalid"
	kindSuspicious = "suspicious"
	kindUnreadable = "unreadable"
	kindValid      = "valid"
)

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
	// need the operator's eyes holds, beside every suspicious replay and
	// the invalid ones.
	Top int
	// Skipped counts the files inside the batch's directories that it
	// did not read (links, named pipes, devices, hidden files, case
	// packs: verify names each on standard error). SkippedFiles names
	// them, or the first of them: the page lists up to maxListed and
	// says how many more there are.
	Skipped      int
	SkippedFiles []SkippedFile
}

// SkippedFile is a file inside a batch's directory that the batch did not
// read, and why, as verify names it on standard error.
type SkippedFile struct {
	Name string
	Why  string
}

// need is one line of the list of the replays that need the operator's
// eyes.
type need struct {
	Entry
	N    int    // the replay's place in the batch, from 1
	Kind string // kindSuspicious, kindInvalid or kindValid (a top score)
	Top  int    // its place among the top scores, from 1; 0 for none
	Why  string
	// Same is the earlier replay of the batch of the same game as
	// played (sameGames); nil for none. Group is the game of a replay
	// that is the first of several of it; nil for none.
	Same  *sameAs
	Group *gameGroup
	// More, when not 0, makes this a line saying that More more
	// replays of its Kind (kindInvalid, kindUnreadable, or kindValid for
	// the copies listed for that alone) are not listed (capped); the
	// line has no other field.
	More int
}

// sameAs is the first replay, in the batch's order, of a game that the
// batch holds more than once: its place from 1 and its name, with the
// game's replays in the batch and its short id.
type sameAs struct {
	N    int
	Name string
	gameGroup
}

// gameGroup is a game the batch holds more than once: how many replays of
// it, and its short id (gameIDLen hex digits of its gameSha256), which the
// what of each of them carries so that the table's what filter shows them
// all (gameFilter).
type gameGroup struct {
	Count int
	ID    string
}

// gameIDLen is the length of a game's short id: 48 bits, enough to tell
// apart the games of any batch, short enough to type.
const gameIDLen = 12

// Filter is the address of the table filtered to the group's replays.
func (g gameGroup) Filter() string { return "#v?f11=game+" + g.ID }

// sameSet is what sameGames finds: for each replay of a game that an
// earlier replay of the batch has, the place (from 0) of the first; and
// for each first, how many replays of its game the batch holds.
type sameSet struct {
	first map[int]int
	count map[int]int
}

// sameGames returns, for each replay of the batch whose game as played
// (its verdict's gameSha256: a legal game's, valid or made invalid by
// --strict alone, or an invalid one's whose moves keep the rules and whose
// claim alone is false, so that a copy of a game with its claim raised is
// tied to it) is that of an earlier replay, the place (from 0) of the
// first replay of that game, by its place; the first is not in it, but
// counted (sameSet.count). The entries are in the batch's order, so the
// first is the first in the batch whatever the workers: not the first
// submitted, which the batch does not know (its order is that of the
// command line and of the names in each directory). It holds one 32-byte
// hash and its place a distinct game while it runs (docs/viewer-html.md
// gives the cost).
func sameGames(entries []Entry) sameSet {
	first := map[[32]byte]int32{}
	same := sameSet{first: map[int]int{}, count: map[int]int{}}
	for i, e := range entries {
		var h [32]byte
		v := e.Verdict
		if !v.LegalGame() && !v.ClaimAloneFalse() || len(v.GameSHA256) != 2*len(h) {
			continue
		}
		if _, err := hex.Decode(h[:], []byte(v.GameSHA256)); err != nil {
			continue
		}
		if j, ok := first[h]; ok {
			same.first[i] = int(j)
			same.count[int(j)] = max(same.count[int(j)], 1) + 1
		} else {
			first[h] = int32(i)
		}
	}
	return same
}

// sameOf returns the first replay of the game of entries[i], nil when
// it is the first or has none.
func sameOf(entries []Entry, same sameSet, i int) *sameAs {
	j, ok := same.first[i]
	if !ok {
		return nil
	}
	return &sameAs{N: j + 1, Name: entries[j].Verdict.Name, gameGroup: groupOf(entries, same, j)}
}

// firstOf returns the group of the game of entries[i] when it is the
// first of several replays of its game, nil otherwise.
func firstOf(entries []Entry, same sameSet, i int) *gameGroup {
	if _, ok := same.count[i]; !ok {
		return nil
	}
	g := groupOf(entries, same, i)
	return &g
}

// groupOf is the group of the game whose first replay is entries[j].
func groupOf(entries []Entry, same sameSet, j int) gameGroup {
	return gameGroup{Count: same.count[j], ID: entries[j].Verdict.GameSHA256[:gameIDLen]}
}

// sameWhat and firstWhat end the what of a replay of a game the batch
// holds more than once (rowsJSON; the list says the same, with links).
func sameWhat(name string, s *sameAs) string {
	return fmt.Sprintf("the same game as %s (#%d), the first of the game's %d replays in the batch's order (game %s)", name, s.N, s.Count, s.ID)
}

func firstWhat(g *gameGroup) string {
	return fmt.Sprintf("the first of %d replays of this game in the batch's order (game %s)", g.Count, g.ID)
}

// needsOf returns the replays that need the operator's eyes, in the order
// of need: the suspicious (they would be published), the valid games whose
// analysis is of band strong, then review, the
// top scores, highest first, then the invalid; each in the batch's order.
// The why of one whose think times were checked and are not sealed says
// so (the list takes no replay for it).
// A top score is among the valid replays without warnings; one that is
// atypical is listed once, with the atypical, its place among the top
// scores in its why. The atypical are listed up to maxAtypicalNeeds, the
// most atypical first; unlisted counts the others (the table's band filter
// lists them all). A replay of the same game as an earlier one
// (sameGames) says so after its why, the first's name and place in it;
// one listed for nothing else comes after the top scores, before the
// invalid. The unreadable come last, their error their why: a truncated
// upload, a file past the size bound or a profile this verifier does not
// know is a submission to answer too. The suspicious, the copies so
// listed, the invalid and the unreadable are listed up to maxListed
// each, the first in the batch's order (which do not depend on the
// workers), then a line of how many more (capped). same is the batch's
// sameGames.
func needsOf(entries []Entry, top int, same sameSet) (needs []need, unlisted int) {
	var sus, atypical, tops, copies, bad, unread []need
	for i, e := range entries {
		v := e.Verdict
		n := need{Entry: e, N: i + 1, Kind: kindOf(v), Same: sameOf(entries, same, i), Group: firstOf(entries, same, i)}
		switch n.Kind {
		case kindSuspicious:
			n.Why = strings.Join(v.Warnings, "; ")
			sus = append(sus, n)
		case kindInvalid:
			n.Why = v.Reason.Describe()
			if ex := v.Explain(); ex.Says != "" || ex.Gives != "" {
				n.Why = "the replay says " + ex.Says + "; the rules give " + ex.Gives
			}
			if e.Played != nil {
				n.Why += "; " + e.Played.what()
			}
			bad = append(bad, n)
		case kindUnreadable:
			n.Why = what(v) // the error, the name in it shown as the names are
			unread = append(unread, n)
		case kindValid:
			tops = append(tops, n)
		}
	}
	slices.SortStableFunc(tops, func(a, b need) int { return cmp.Compare(b.Verdict.Score, a.Verdict.Score) })
	for i := range tops {
		if i < top {
			tops[i].Top = i + 1
			tops[i].Why = fmt.Sprintf("top score #%d", i+1)
		}
		switch n := tops[i]; {
		case flagged(n.Band):
			n.Why = strings.TrimSuffix("analysis: "+analyze.BandText(n.Band)+"; "+n.Why, "; ")
			atypical = append(atypical, n)
		case i >= top && n.Same != nil:
			copies = append(copies, n)
		}
	}
	slices.SortStableFunc(copies, func(a, b need) int { return cmp.Compare(a.N, b.N) })
	tops = slices.DeleteFunc(tops[:min(top, len(tops))], func(n need) bool { return flagged(n.Band) })
	slices.SortStableFunc(atypical, func(a, b need) int {
		return cmp.Or(cmp.Compare(bandRank(b.Band), bandRank(a.Band)), cmp.Compare(a.N, b.N))
	})
	if len(atypical) > maxAtypicalNeeds {
		unlisted = len(atypical) - maxAtypicalNeeds
		atypical = atypical[:maxAtypicalNeeds]
	}
	needs = slices.Concat(capped(sus, kindSuspicious), atypical, tops, capped(copies, kindValid), capped(bad, kindInvalid), capped(unread, kindUnreadable))
	for i, n := range needs {
		if n.Verdict.ThinkTimes.State() == replay.TimesNotSealed {
			needs[i].Why = strings.TrimPrefix(n.Why+"; "+notSealedWhat+": "+n.Verdict.ThinkTimes.Reason, "; ")
		}
	}
	return needs, unlisted
}

// maxAtypicalNeeds bounds the atypical games the list holds, so that a
// batch of many keeps the list one to read.
const maxAtypicalNeeds = 100

// maxListed bounds the suspicious and the invalid replays the list of
// the replays that need the operator's eyes holds, the copies listed for
// that alone apart, and the skipped files the page names. The table
// holds every replay, and a flood of bad submissions (docs/viewer-html.md
// measures 50,000) made the list the most of a page a browser took tens
// of seconds to load. Two of the table's pages of rows: enough to see
// what a flood is made of, some 100 to 200 KB at most.
const maxListed = 200

// capped returns the first maxListed of list, and past them a line
// saying how many more replays of kind (kindSuspicious, kindInvalid,
// kindUnreadable, or kindValid for the copies listed for that alone) are
// not listed (need.More).
func capped(list []need, kind string) []need {
	if len(list) <= maxListed {
		return list
	}
	return append(list[:maxListed:maxListed], need{Kind: kind, More: len(list) - maxListed})
}

// reasonCount is one line of the reasons table.
type reasonCount struct {
	Reason string
	Kind   string
	Count  int
	Note   string
	Part   string // what in the submission the reason finds false (partOf)
}

// partOf says what in a submission a reason finds false, so that an
// inflated claim (the moves a game of the rules, its claimed figures not
// theirs) is told from a game whose moves break the rules and from a
// file that could not be judged.
func partOf(r replay.Reason) string {
	if r.ClaimMismatch() {
		return "the claim: the moves are a game of the rules, replayed to the end; its figures are not the claimed ones"
	}
	switch r {
	case replay.ImpossibleClaim:
		return "the claim: no game reaches it (what its moves make, replayed for this report, is in its row)"
	case replay.SeedCommitment:
		return "the seed: not the one committed to"
	case replay.IllegalMove, replay.AfterEnd, replay.BadAction, replay.Overflow:
		return "the moves: they break the rules"
	case replay.BadSpawn, replay.BadStart:
		return "the tiles recorded: the rules never place them there"
	case replay.Implausible:
		return "nothing against the rules: the spawns are unlikely"
	case replay.Malformed:
		return "the file: not judged"
	case replay.Refused:
		return "the file's rules: not judged"
	}
	return ""
}

// Report writes the summary page of a batch of verified replays to w
// with the default options ([ReportWith]).
func Report(w io.Writer, title string, entries []Entry) error {
	return ReportWith(w, title, entries, ReportOptions{Top: 10})
}

// ReportWith writes the summary page of a batch of verified replays to
// w: the counts of the four classes, the list of the replays that need
// the operator's eyes (needsOf), each with its page, the reasons of the
// invalid and unreadable ones (each linked to its replays), the spread of
// the scores (quantiles and a histogram on a log scale), and the table of
// every replay, carried as compact JSON (rows.go) and drawn a page of
// rows at a time by the page's script, which sorts, filters and exports
// it. entries are in the batch's order; title names the batch.
func ReportWith(w io.Writer, title string, entries []Entry, opt ReportOptions) error {
	counts := map[replay.Reason]int{}
	kinds := map[string]int{}
	var scores []uint64
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
	}
	var reasons []reasonCount
	for r, n := range counts {
		reasons = append(reasons, reasonCount{string(r), kindOf(replay.Verdict{Reason: r}), n, r.Describe(), partOf(r)})
	}
	slices.SortFunc(reasons, func(a, b reasonCount) int {
		return cmp.Or(cmp.Compare(slices.Index(classes, a.Kind), slices.Index(classes, b.Kind)), cmp.Compare(b.Count, a.Count), cmp.Compare(a.Reason, b.Reason))
	})
	same := sameGames(entries)
	rows, err := rowsJSON(entries, same)
	if err != nil {
		return err
	}
	needs, unlisted := needsOf(entries, opt.Top, same)
	cut := 0
	if slices.ContainsFunc(needs, func(n need) bool { return n.More > 0 }) {
		cut = maxListed
	}
	copies := 0 // the valid replays of a game earlier in the batch, the table's filter's
	for i, e := range entries {
		if _, ok := same.first[i]; ok && kindOf(e.Verdict) == kindValid {
			copies++
		}
	}
	skipped := opt.SkippedFiles[:min(len(opt.SkippedFiles), maxListed)]
	page := struct {
		Title                                  string
		Total                                  int
		Valid, Suspicious, Invalid, Unreadable int
		Needs                                  []need
		// Unlisted counts the atypical games past maxAtypicalNeeds.
		Unlisted  int
		Top       int
		Reasons   []reasonCount
		Histogram []bar
		Stats     string
		Rows      template.JS
		// Bands are the counts of the bands of the analysis, most
		// atypical first; nil when no game was analysed
		// (the table has then no column of them).
		Bands    []bandCount
		Analysed bool // the page carries the analysis's style
		// Times are the counts of the checks of the think times; nil
		// when none was checked (times.go).
		Times *timesCounts
		// Think is whether the table has the column of the median think
		// times (analysis_think.go).
		Think bool
		// Copies counts the valid replays of a game earlier in the batch,
		// CopiesFilter is the address of the table filtered to them.
		Copies       int
		CopiesFilter string
		// Skipped counts the files not read, SkippedFiles names those
		// listed, SkippedMore counts the others.
		Skipped      int
		SkippedFiles []SkippedFile
		SkippedMore  int
		// Cut is maxListed when the list was cut (capped), else 0.
		Cut int
		// Profiles are the profiles of the batch with their counts,
		// for the verdict filter's choices; nil for a batch of one.
		Profiles []profileCount
	}{title, len(entries), kinds[kindValid], kinds[kindSuspicious], kinds[kindInvalid], kinds[kindUnreadable],
		needs, unlisted, opt.Top, reasons, histogramBars(logHistogram(scores)), quantiles(scores), template.JS(rows),
		bandCounts(entries), hasBands(entries), timesCountsOf(entries), hasThink(entries),
		copies, copiesFilter, opt.Skipped, skipped, max(0, opt.Skipped-len(skipped)), cut, profileCounts(entries)}
	return pages().ExecuteTemplate(w, "report.html", page)
}

// profileCount is a profile of the batch and how many replays were
// verified under it.
type profileCount struct {
	Name  string
	Count int
}

// profileCounts returns the batch's profiles, in order, with their
// counts; nil when it holds fewer than two (a filter of one choice is
// none).
func profileCounts(entries []Entry) []profileCount {
	names, of := profilesOf(entries)
	if len(names) < 2 {
		return nil
	}
	counts := make([]profileCount, len(names))
	for i, n := range names {
		counts[i].Name = n
	}
	for _, k := range of {
		if k > 0 {
			counts[k-1].Count++
		}
	}
	return counts
}

// copiesFilter is the address of the table filtered to the valid
// replays of a game earlier in the batch: valid, and the what saying so
// (rowsJSON); a valid replay's what holds no name but a copy's.
const copiesFilter = "#v?f11=the+same+game+as&f2=kind%3Avalid"

// quantiles says the spread of the scores: lowest, the quartiles, the
// 90th percentile and the highest, digits grouped; the median of an even
// count is the mean of the middle two.
func quantiles(scores []uint64) string {
	if len(scores) == 0 {
		return ""
	}
	s := slices.Clone(scores)
	slices.Sort(s)
	q := func(f float64) string {
		x := f * float64(len(s)-1)
		i := int(x)
		if i+1 >= len(s) {
			return grouped(s[len(s)-1])
		}
		v := float64(s[i]) + (x-float64(i))*float64(s[i+1]-s[i])
		return grouped(uint64(v + 0.5))
	}
	return fmt.Sprintf("%s valid games (the suspicious among them): lowest %s, 25%% %s, median %s, 75%% %s, 90%% %s, highest %s",
		grouped(uint64(len(s))), grouped(s[0]), q(0.25), q(0.5), q(0.75), q(0.9), grouped(s[len(s)-1]))
}
