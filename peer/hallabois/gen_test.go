package hallabois

// A small deterministic player that makes the longer test recordings of
// testdata (the ones with breaks), so that they can be made again and
// checked to be what it makes: go test -run TestTestdataGenerated -update.

// played is one step of a generated game: the board before it, the
// direction, and for a move the tile that spawned after it.
type played struct {
	before Grid
	dir    Dir
	cell   int // -1: none
	value  uint64
}

// plan says when a generated game breaks: before a move, given the board,
// the score and the breaks so far.
type plan func(b Grid, score uint64, breaks int) bool

// playGame plays from the seed's start on a w x h board with the greedy
// player (the move that scores most, then leaves most empty cells; ties
// to down, left, right, up) until no move is left or after maxMoves
// moves, breaking whenever brk says so; a break the rules refuse for its
// count or its price ends the game. It returns the steps and the board at
// the end.
func playGame(w, h int, seed uint32, rules *Ruleset, maxMoves int, brk plan) ([]played, Grid) {
	b, g := Start(w, h, seed)
	var steps []played
	var score uint64
	breaks, moves := 0, 0
	for moves < maxMoves {
		if brk != nil && brk(b, score, breaks) {
			steps = append(steps, played{b.Clone(), Break, -1, 0})
			if breaks >= rules.BreakMax || score < rules.Cost(w, h) {
				break
			}
			score -= rules.Cost(w, h)
			breaks++
			b = rules.clearBelow(b)
			continue
		}
		best, bestKey := Dir(0), int64(-1)
		for _, d := range []Dir{Down, Left, Right, Up} {
			next, gain, changed, _ := b.Move(d)
			if !changed {
				continue
			}
			if key := int64(gain)*64 + int64(next.Empty()); key > bestKey {
				best, bestKey = d, key
			}
		}
		if bestKey < 0 {
			break
		}
		next, gain, _, _ := b.Move(best)
		before := b
		b = next
		score += gain
		cell, value := g.Spawn(b)
		steps = append(steps, played{before, best, cell, value})
		moves++
	}
	return steps, b
}

// toV2 writes generated steps as a second-format recording.
func toV2(w, h int, seed uint32, steps []played) *V2 {
	r := &V2{W: w, H: h, Seed: seed}
	for _, s := range steps {
		r.Moves = append(r.Moves, s.dir)
	}
	return r
}

// toV1 writes generated steps as a first-format recording, as the peer's
// game records one: each move's entry holds the board before it, its
// spawn and its direction; a break is no entry of its own, the entry
// after it starts from the cleared board; the last entry is the final
// board with the end marker.
func toV1(w, h int, steps []played, final Grid) *V1 {
	r := &V1{W: w, H: h, Sized: true}
	for _, s := range steps {
		if s.dir == Break {
			continue
		}
		e := V1Entry{Board: s.before, Dir: s.dir}
		if s.cell >= 0 {
			e.Spawn = &RecordedSpawn{s.cell % w, s.cell / w, s.value}
		}
		r.Entries = append(r.Entries, e)
	}
	r.Entries = append(r.Entries, V1Entry{Board: final, Dir: End})
	return r
}
