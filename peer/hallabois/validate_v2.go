package hallabois

// ValidateV2 plays a second-format recording by the peer's rules: two tiles
// from the seed, then each move in turn. A move must change the board (it
// is invalid on a board with no move left, or when it changes nothing) and
// a tile spawns after it; the end marker (digit 0) changes nothing and a
// tile spawns after it too. A break needs fewer than 3 breaks so far, a
// score of at least its price and a move left on the board; it pays the
// price, clears the tiles below 16, and no tile spawns after it.
func ValidateV2(rec *V2) Validation {
	rules := &ClassicV2
	res := Validation{Valid: true, rules: rules}
	if rec.W < MinSide || rec.W > MaxSide || rec.H < MinSide || rec.H > MaxSide {
		res.Board = NewBoard(0, 0)
		return res.fail(0, "malformed", "a %dx%d board is outside %dx%d to %dx%d", rec.W, rec.H, MinSide, MinSide, MaxSide, MaxSide)
	}
	b, g := Start(rec.W, rec.H, rec.Seed)
	res.Board = b
	var score uint64
	for i, d := range rec.Moves {
		at := i + 1
		switch {
		case d == Break:
			cost := rules.Cost(b.W, b.H)
			switch {
			case res.Breaks >= rules.BreakMax:
				return res.fail(at, "too-many-breaks", "a break after the %d allowed", rules.BreakMax)
			case score < cost:
				return res.fail(at, "break-score", "a break costs %d and the score is %d", cost, score)
			case !b.HasMoves():
				return res.fail(at, "break-over", "a break on a board with no move left")
			}
			b = res.playBreak(at, b, cost)
			score -= cost
		case d == End:
			if c, _ := g.Spawn(b); c >= 0 {
				res.find(at, "end-spawn", "the end marker (digit 0) changes nothing and a tile spawns after it")
			}
		default:
			if !b.HasMoves() {
				return res.fail(at, "no-moves", "the move %s on a board with no move left", d)
			}
			next, gain, changed, err := b.Move(d)
			switch {
			case err != nil:
				return res.fail(at, "overflow", "%v", err)
			case !changed:
				return res.fail(at, "no-effect", "the move %s changes nothing", d)
			}
			b = next
			score += gain
			res.Moves++
			g.Spawn(b)
		}
		res.Score, res.ScoreEnd = max(res.Score, score), score
		res.Board = b
		res.RNG = g.State
	}
	res.RNG = g.State
	res.Won, res.Over = rules.Won(b), !b.HasMoves()
	return res
}
