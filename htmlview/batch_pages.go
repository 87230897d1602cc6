package htmlview

import (
	"cmp"
	"encoding/json"
	"slices"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/replay"
)

// Which replays of a batch report get a page: the held ones, their order
// of need, the top scores and the cap, each decided in the batch's order.

// held is a replay kept for its page in the order of need.
type held struct {
	name     string
	data     []byte             // its bytes, until its page is written or it is let go
	atOnce   bool               // its page was written at once
	analysis json.RawMessage    // the verdict's, for its page
	times    *replay.TimesCheck // the verdict's, for its page
	score    uint64
	index    int // its place in the batch: a valid one's set by Add, the others' by writeNeeded
	ordinal  int // a valid one's place among the valid ones that are not atypical
	rank     int // its place in the order of need: heldSuspicious to heldInvalid
}

// The ranks of the held replays: a suspicious, atypical or invalid one's
// page is due whatever the scores.
const (
	heldSuspicious = iota
	heldStrong     // valid, its analysis of band strong
	heldReview
	heldTop
	heldInvalid

	heldAtypicalTop = -1 // an atypical top score's place among the top scores: its page is due as an atypical game's
)

// needRank returns the rank of a replay that needs the operator's eyes
// whatever the scores, and whether it does: a suspicious or invalid one,
// or a valid one whose analysis is of band strong or review.
func needRank(vd replay.Verdict) (int, bool) {
	band, _ := cellsOf(vd.Analysis)
	switch {
	case (!vd.Valid || len(vd.Warnings) > 0) && vd.LegalGame():
		return heldSuspicious, true
	case !vd.Valid || len(vd.Warnings) > 0:
		return heldInvalid, true
	case band == analyze.Strong:
		return heldStrong, true
	case band == analyze.Review:
		return heldReview, true
	}
	return heldTop, false
}

// size is the bytes a held replay keeps.
func (x *held) size() int { return len(x.data) + len(x.analysis) }

// maxHeld is the most bytes of replays held for their pages at once; a
// replay past it has its page written at once instead, to be kept or
// removed as if it had been held.
const maxHeld = 256 << 20

// keep holds a replay for its page, or writes the page at once when
// maxHeld bytes are held already.
func (h *BatchReport) keep(vd replay.Verdict, data []byte, r *replay.Replay, rank int) *held {
	x := &held{name: vd.Name, score: vd.Score, rank: rank}
	h.mu.Lock()
	if h.heldBytes+len(data)+len(vd.Analysis) > maxHeld {
		h.mu.Unlock()
		x.atOnce = true // holds nothing: its page has what the batch added
		h.writePage(vd.Name, r, vd)
		return x
	}
	x.data, x.analysis, x.times = slices.Clone(data), vd.Analysis, vd.ThinkTimes
	h.heldBytes += x.size()
	h.mu.Unlock()
	return x
}

// lowest returns the top score that goes first when a higher one comes:
// the lowest, and of equal ones the last in the batch, as the summary's
// list ranks them. tops is not empty.
func lowest(tops []*held) *held {
	return slices.MinFunc(tops, func(a, b *held) int { return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(b.index, a.index)) })
}

// addValid takes a valid replay, in the batch's order (h.mu held): it
// joins the top scores when it is among them so far, letting the lowest
// go. An atypical one (its analysis of band strong or review) takes its
// place among the top scores as the summary ranks them (needsOf), but
// holds nothing: its page is due as an atypical game's. It returns the
// replay whose page is due now, if one is.
func (h *BatchReport) addValid(name string, score uint64, index int, atypical bool) *held {
	var x *held
	switch {
	case atypical && h.top > 0:
		x = &held{name: name, score: score, index: index, rank: heldAtypicalTop}
	case !atypical:
		if q := h.pending[name]; len(q) > 0 {
			x, h.pending[name] = q[0], q[1:]
			if len(q) == 1 {
				delete(h.pending, name)
			}
			x.index, x.ordinal = index, h.valid
		}
		h.valid++
	}
	switch {
	case x == nil: // Verify held nothing: no top score, and past the others' pages
		return nil
	case len(h.tops) < h.top:
		h.tops = append(h.tops, x)
		return nil
	case h.top > 0 && score > lowest(h.tops).score:
		low := lowest(h.tops)
		h.tops = append(slices.DeleteFunc(h.tops, func(y *held) bool { return y == low }), x)
		x = low
	}
	return h.addOther(x)
}

// addOther takes a valid replay that is no top score and never will be
// (h.mu held). Of the valid replays that are not, the first maxPages get a
// page: one among the first maxPages valid ones surely does, and its page
// is due now (returned); one among the next top may, as Finish will know.
func (h *BatchReport) addOther(x *held) *held {
	switch {
	case x.rank == heldAtypicalTop: // its page is due as an atypical game's
	case x.ordinal < h.maxPages:
		return x
	case x.ordinal < h.maxPages+h.top:
		h.maybe = append(h.maybe, x)
		return nil
	}
	h.release(x)
	return nil
}

// keepOrdinary keeps the pages of the first maxPages valid replays that
// need no one's eyes and are not top scores, in the batch's order,
// writing those Add left to it, and counts the others.
func (h *BatchReport) keepOrdinary() {
	tops := map[int]bool{}
	for _, x := range h.tops {
		tops[x.index] = true
	}
	maybe := map[int]*held{}
	for _, x := range h.maybe {
		maybe[x.index] = x
	}
	kept := 0
	for i, e := range h.entries {
		if kindOf(e.Verdict) != kindValid || flagged(e.Band) || tops[i] {
			continue
		}
		if kept == h.maxPages {
			h.unpaged++
			continue
		}
		kept++
		if x := maybe[i]; x != nil {
			h.writeHeld(x)
		}
		h.keepPage(e.Verdict.Name)
	}
	for _, x := range h.maybe {
		h.release(x)
	}
	h.maybe = nil
}

// release lets a held replay's bytes go (h.mu held).
func (h *BatchReport) release(x *held) {
	h.heldBytes -= x.size()
	x.data, x.analysis, x.times = nil, nil, nil
}

// keepPage keeps the page written for the replay name, if one was (h.mu
// held): the summary links to it, and Finish does not remove it. A page
// that could not be written fails the report.
func (h *BatchReport) keepPage(name string) {
	page := pageFile(name)
	switch pw := h.writes[page]; {
	case pw == nil:
	case pw.done:
		h.pages[name] = h.dirURL + "/" + uriComponent(page)
		h.files[page] = true
	case pw.err != nil && h.err == nil:
		h.err = pw.err
	}
}

// writeNeeded writes the pages of the replays held, in the order of need:
// the suspicious, the atypical (strong, then review), the top scores
// (highest first), then the invalid, each in the batch's order
// (ReportWith lists them so), at most maxPages of them; the others are
// left without a page. A replay named twice is held twice, each in its
// place in the batch.
func (h *BatchReport) writeNeeded() {
	places := map[string][]int{} // each name's places in the batch, for the held ones to take in turn
	for i, e := range h.entries {
		places[e.Verdict.Name] = append(places[e.Verdict.Name], i)
	}
	for _, x := range h.needs {
		x.index = len(h.entries) // verified but not added (the batch cut short): last
		if p := places[x.name]; len(p) > 0 {
			x.index, places[x.name] = p[0], p[1:]
		}
	}
	all := slices.Concat(h.needs, slices.DeleteFunc(slices.Clone(h.tops), func(x *held) bool { return x.rank == heldAtypicalTop }))
	slices.SortStableFunc(all, func(a, b *held) int {
		c := cmp.Compare(a.rank, b.rank)
		if c == 0 && a.rank == heldTop {
			c = cmp.Compare(b.score, a.score)
		}
		return cmp.Or(c, cmp.Compare(a.index, b.index))
	})
	for i, x := range all {
		if i < h.maxPages {
			if x.data != nil {
				h.writeHeld(x)
			}
			h.keepPage(x.name)
		} else {
			h.unpaged++
		}
		h.release(x)
	}
	h.needs, h.tops = nil, nil
}
