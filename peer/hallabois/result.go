package hallabois

import "fmt"

// Validation is the plain validator's verdict on one recording: valid or not
// as the peer's validator says, with its figures and, for an invalid one,
// the first problem. Entries and moves are numbered from 1 (the peer counts
// from 0).
type Validation struct {
	Valid   bool
	Problem *Problem // the first problem of an invalid recording; nil when valid

	// Score is the highest score of the game, which the peer reports as
	// its score (score_max); ScoreEnd is the score at the end, after the
	// breaks were paid for (score_current). For an invalid recording they
	// are the figures where the problem was found.
	Score, ScoreEnd uint64
	// Margin (first format) is the most one more move from the last
	// recorded board would score: the peer's score_margin, which its
	// tests allow a score to exceed their figure by.
	Margin uint64
	Breaks int
	// BreakAt are the breaks: the moves of a second-format recording; in
	// the first, the entries whose move and spawn each break follows (the
	// peer's break_positions, plus one).
	BreakAt []int
	Moves   int // the moves that changed the board
	// Board is the last board of the peer's reconstruction, and Won and
	// Over its game state there: a tile of at least 2048, no move left.
	// (A first-format game's last entry scores its move, but the board
	// after it is not part of the reconstruction.) For an invalid
	// recording, the board where the problem was found.
	Board     Grid
	Won, Over bool
	RNG       uint32 // second format: the generator's state at the end

	// Findings are what the peer's validator lets pass and tileproof's
	// rules do not, in the order found (at most MaxFindings).
	Findings []Finding

	rules *Ruleset
}

// Problem is what makes a recording invalid: where (the 1-based entry or
// move), a kind for programs and a message for people.
type Problem struct {
	At   int
	Kind string
	Msg  string
}

// Error says the problem: its kind, where and what.
func (p *Problem) Error() string { return fmt.Sprintf("%s at %d: %s", p.Kind, p.At, p.Msg) }

// Finding is something in a recording the peer's validator accepts that
// tileproof's rules would not: where, a kind (see docs/peers.md) and a
// message, the fields of a [Problem].
type Finding Problem

// MaxFindings bounds the findings a result keeps.
const MaxFindings = 100

func (r *Validation) find(at int, kind, format string, args ...any) {
	if len(r.Findings) < MaxFindings {
		r.Findings = append(r.Findings, Finding{at, kind, fmt.Sprintf(format, args...)})
	}
}

func (r *Validation) fail(at int, kind, format string, args ...any) Validation {
	r.Valid = false
	r.Won, r.Over = r.rules.Won(r.Board), !r.Board.HasMoves()
	r.Problem = &Problem{at, kind, fmt.Sprintf(format, args...)}
	return *r
}

// playBreak counts a break at entry at on board b, which costs cost, and
// returns b with the tiles below the rules' BreakBelow cleared; a break
// that clears none is a finding.
func (r *Validation) playBreak(at int, b Grid, cost uint64) Grid {
	r.Breaks++
	r.BreakAt = append(r.BreakAt, at)
	cleared := r.rules.clearBelow(b)
	if cleared.Equal(b) {
		r.find(at, "break-empty", "a break that clears no tile (none is below %d) still costs %d", r.rules.BreakBelow, cost)
	}
	return cleared
}
