package hallabois

import (
	"fmt"
	"strings"
)

// FirstBoardMax is the peer's check of a first-format recording's first
// board (validate_first_move, which its tests assert before validating):
// its tiles add up to less than this.
const FirstBoardMax = 17

// ValidateV1 plays a first-format recording by the peer's rules. From the
// first recorded board, each entry's move is played (a move that changes
// nothing, or any move on a board with no move left, leaves the board as it
// is and scores nothing), its spawn is put on its cell, and the result must
// be the next entry's board. When it is not, the peer sees a break if the
// next board's tiles add up to less and a break is allowed (fewer than 3 so
// far, a score of at least 1000): the score pays 1000, the tiles below 16
// go, and play goes on from that board, whatever the next entry records.
// An end marker needs only the same sum on the next board. The last entry's
// move is scored but not checked against anything.
func ValidateV1(rec *V1) Validation {
	rules := &ClassicV1
	res := Validation{Valid: true, rules: rules}
	n := len(rec.Entries)
	if n == 0 {
		return res.fail(0, "empty", "the recording has no entries")
	}
	if at, msg := rec.check(); msg != "" {
		return res.fail(at, "malformed", "%s", msg)
	}
	start := rec.Entries[0].Board
	res.Board = start
	if s := start.Sum(); s >= FirstBoardMax {
		return res.fail(1, "start", "the first board's tiles add up to %d; the peer allows less than %d", s, FirstBoardMax)
	}
	checkStart(&res, start)
	var score uint64
	cur := start
	for i, e := range rec.Entries {
		at := i + 1
		pred, gain, changed, err := playV1(cur, e.Dir)
		if err != nil {
			return res.fail(at, "overflow", "%v", err)
		}
		score += gain
		res.Score, res.ScoreEnd = max(res.Score, score), score
		switch {
		case changed:
			res.Moves++
		case e.Dir.IsMove() || e.Dir == Break:
			res.find(at, "unchanged", "the move %s changes nothing; the peer passes over it", e.Dir)
		}
		if e.Dir == Break {
			res.find(at, "break-move", "the direction %q (break) is played as a move left by the peer's move procedure", e.DirText)
		}
		if i == n-1 {
			if changed {
				res.find(at, "last-move", "the last entry's move %s scores %d, and nothing checks the board after it", e.Dir, gain)
			}
			break
		}
		next := rec.Entries[i+1].Board
		if sp := e.Spawn; sp != nil {
			if sp.Value > 4 {
				return res.fail(at, "spawn", "a spawned %d; the peer allows at most 4", sp.Value)
			}
			c := sp.Y*pred.W + sp.X
			switch {
			case pred.Cells[c] != 0:
				res.find(at, "spawn-occupied", "the spawn at (%d,%d) replaces a %d", sp.X, sp.Y, pred.Cells[c])
			case !changed:
				res.find(at, "spawn-unchanged", "a tile spawns after a move that changed nothing")
			}
			if sp.Value != 2 && sp.Value != 4 {
				res.find(at, "spawn-value", "a spawned %d; tiles spawn as 2 or 4", sp.Value)
			}
			pred.Cells[c] = sp.Value
		} else if changed && pred.Empty() > 0 {
			res.find(at, "no-spawn", "no tile spawns after the move %s", e.Dir)
		}
		if e.Dir == End {
			res.find(at, "end", "an end marker before the last entry; the peer checks only that the next board's tiles add up to the same")
		}
		switch {
		case pred.Equal(next), e.Dir == End && pred.Sum() == next.Sum():
		case pred.Sum() > next.Sum() && res.Breaks < rules.BreakMax && score >= rules.Cost(pred.W, pred.H):
			cost := rules.Cost(pred.W, pred.H)
			if !pred.HasMoves() {
				res.find(at, "break-over", "a break on a board with no move left, which the second format refuses")
			}
			pred = res.playBreak(at, pred, cost)
			score -= cost
			if !pred.Equal(next) {
				res.find(at+1, "break-board", "the board recorded after the break is not the board with the tiles below %d cleared; the peer plays on from the cleared board", rules.BreakBelow)
			}
		default:
			return res.fail(at+1, "board", "the board is not what entry %d's move %s and its spawn give%s:\nrecorded:\n%sexpected:\n%s",
				at, e.Dir, breakNote(rules, &res, pred, next, score), next, pred)
		}
		cur = pred
		res.Board = cur
		res.ScoreEnd = score
	}
	last := rec.Entries[n-1].Board
	if last.HasMoves() {
		for _, d := range []Dir{Up, Right, Down, Left} {
			if _, gain, _, err := last.Move(d); err == nil {
				res.Margin = max(res.Margin, gain)
			}
		}
	}
	res.Won, res.Over = rules.Won(res.Board), !res.Board.HasMoves()
	return res
}

// playV1 plays one first-format entry's direction as the peer's move
// procedure does: the end marker leaves the board, a break is a move left
// (the procedure reads its direction as no step in x and none in y), and a
// move on a board with no move left, or one that changes nothing, leaves
// the board and scores nothing.
func playV1(b Grid, d Dir) (Grid, uint64, bool, error) {
	switch {
	case d == End:
		return b.Clone(), 0, false, nil
	case d == Break:
		d = Left
	}
	if !b.HasMoves() {
		return b.Clone(), 0, false, nil
	}
	next, gain, changed, err := b.Move(d)
	if err != nil || !changed {
		return b.Clone(), 0, false, err
	}
	return next, gain, true, nil
}

// breakNote says why a smaller next board was not taken for a break.
func breakNote(rules *Ruleset, res *Validation, pred, next Grid, score uint64) string {
	if pred.Sum() <= next.Sum() {
		return ""
	}
	if res.Breaks >= rules.BreakMax {
		return fmt.Sprintf(" (fewer tiles, but the %d breaks are used)", rules.BreakMax)
	}
	return fmt.Sprintf(" (fewer tiles, but a break costs %d and the score is %d)", rules.Cost(pred.W, pred.H), score)
}

// checkStart notes a start board that is not two tiles of 2 or 4, which is
// what a tileproof game starts from.
func checkStart(res *Validation, b Grid) {
	var tiles []string
	ok := true
	for _, v := range b.Cells {
		if v != 0 {
			tiles = append(tiles, fmt.Sprint(v))
			ok = ok && (v == 2 || v == 4)
		}
	}
	if !ok || len(tiles) != 2 {
		res.find(1, "start-tiles", "the first board holds %d tiles (%s); a game starts with two tiles of 2 or 4", len(tiles), strings.Join(tiles, " "))
	}
}

// check reports what ParseV1 would not have let through in a recording
// built in code: a board size outside the readers' range, an entry whose
// board is not that size, a spawn off the board.
func (r *V1) check() (at int, msg string) {
	if r.W < MinSide || r.W > MaxSide || r.H < MinSide || r.H > MaxSide {
		return 0, fmt.Sprintf("a %dx%d board is outside %dx%d to %dx%d", r.W, r.H, MinSide, MinSide, MaxSide, MaxSide)
	}
	for i, e := range r.Entries {
		if e.Board.W != r.W || e.Board.H != r.H || len(e.Board.Cells) != r.W*r.H {
			return i + 1, fmt.Sprintf("the board is not %dx%d", r.W, r.H)
		}
		if s := e.Spawn; s != nil && (s.X < 0 || s.Y < 0 || s.X >= r.W || s.Y >= r.H) {
			return i + 1, fmt.Sprintf("the spawn (%d,%d) is off the board", s.X, s.Y)
		}
	}
	return 0, ""
}
