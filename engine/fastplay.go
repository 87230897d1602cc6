package engine

import "math/bits"

// fastPlay is the replay loop behind [Game.Play] and [Game.PlayRecorded],
// the case a verifier spends nearly all its time in: a 4x4 move log, its
// spawns drawn by tp1 (spawns nil) or given (spawns[n] after actions[n]),
// on a board without a tile of 2^16 or more, before the win tile (or after
// it, in a profile that plays on). It packs the board into a word (cell i
// in bits 4i to 4i+3), keeps the whole state in a few local variables,
// slides it by the row tables (packed.slide), and writes the state back
// when it stops. It leaves every uncommon event to move and
// Do: it stops before an action that is not a move, a move that changes
// nothing, one that makes a tile of 2^16 or more or might make the win
// tile, and a given spawn the rules refuse (which move then words); and it
// takes nothing when the log is long enough for the score to pass 2^53-1.
// When open is not nil, open[n] gets the cells the slide left empty, bit
// row*4+col for each ([Game.PlayRecorded]).
//
// It returns the number of actions done: every one a counted move.
func (g *Game) fastPlay(actions []Action, spawns []Spawn, open []uint64) (n int) {
	r, st := g.r, &g.st
	given := spawns != nil
	switch {
	case given && !r.recordedFast, !given && (!r.seededFast || !g.seeded || g.gen != TP1):
		return 0 // not a 4x4 profile the loop plays
	case st.maxExp > 15 || st.result != Playing || r.stops(st.won, st.keep):
		return 0
	}
	// guard: the loop stops before a move gaining guard points or more. A
	// move gaining the win tile's value might make it, which changes won
	// and may end the run.
	guard := ^uint64(0)
	if r.p.Win.Tile != 0 && !st.won {
		if st.maxExp >= r.winExp {
			return 0
		}
		guard = r.p.Win.Tile
	}
	// Every action the loop takes is a counted move, so the move limit is
	// a bound on n; and a move the loop takes gains at most 2^18 (four
	// rows, each at most two merges making tiles below 2^16), so a score
	// that cannot pass 2^53-1 within the log needs no check a move.
	stop := len(actions)
	if limit := g.r.p.MoveLimit; limit != 0 && limit-st.moves <= stop {
		stop = limit - st.moves
	}
	if stop <= 0 || uint64(stop) > MaxSafeInteger>>18 || st.score > MaxSafeInteger-uint64(stop)<<18 || st.moves > MaxMoves-stop {
		return 0
	}
	actions = actions[:stop]
	if given {
		spawns = spawns[:stop]
	}
	if open != nil {
		open = open[:stop]
	}
	lo, score, rs := packCells(&st.b), st.score, st.rng.state
	// The board before move n goes to boards[n&1], for the undo state. An
	// array with an index that varies is kept in memory: one variable
	// would take a register, and the loop has more values than amd64 has
	// registers already (what Go spills, it reloads on the path between
	// moves). One slot would do as well as two, but would be a variable.
	var boards [2]uint64
	spawnExp, total, mask := &r.spawnTable, r.spawnTotal, r.spawnMask
	blocked := false
	for ; n < len(actions); n++ {
		d, isMove := actions[n].Direction()
		if !isMove {
			break
		}
		p, gained, ok := packed{lo}.slide(d)
		if !ok || p.lo == lo || gained >= guard {
			break
		}
		q := p.lo
		empty := zeroNibbles(q)
		if given {
			// In a cell the slide left empty, of a value the profile
			// spawns (a power of two whose exponent is in mask; 0 has
			// none, its trailing zeros being 64).
			s := &spawns[n]
			shift := uint(s.Row)*16 + uint(s.Col)*4
			v := s.Value
			exp := uint(bits.TrailingZeros64(v))
			if uint(s.Row)|uint(s.Col) >= 4 || empty>>shift&1 == 0 || v&(v-1) != 0 || mask>>exp&1 == 0 {
				break
			}
			if open != nil {
				open[n] = nibbleBits(empty)
			}
			boards[n&1] = lo
			lo = q | uint64(exp)<<shift
		} else {
			// As tp1 draws it: the value, then the cell.
			rs += rngGamma
			v := splitMix(rs) % total
			rs += rngGamma
			shift := spawnShift(empty, splitMix(rs))
			boards[n&1] = lo
			lo = q | uint64(spawnExp[v&63])<<(shift&63) // &63: the compiler need not check the shift
		}
		score += gained
		if empty&(empty-1) == 0 && (packed{lo: lo}).blocked() {
			blocked = true
			n++
			break
		}
	}
	if n == 0 {
		return 0
	}
	// The loop stops before any move that makes the win tile, and the move
	// limit bounds n, so the finishing rule applies as after any move.
	result := r.finished(st.won, st.keep, st.moves+n, blocked)
	// Write the state back, with the state before the last move for undo.
	if g.r.p.Undo {
		prev := packed{lo: boards[(n-1)&1]}
		_, lastGained, _ := prev.slide(Direction(actions[n-1]))
		g.prev = *st
		unpackCells(&g.prev.b, prev.lo)
		g.prev.score, g.prev.moves, g.prev.result, g.prev.maxExp = score-lastGained, st.moves+n-1, Playing, g.prev.b.maxExp()
		if !given {
			g.prev.rng = RNG{rs - rngGamma - rngGamma}
		}
		g.canUndo = true
	}
	unpackCells(&st.b, lo)
	st.score, st.moves, st.rng, st.result = score, st.moves+n, RNG{rs}, result
	st.maxExp = st.b.maxExp()
	return n
}

// packCells returns the cells of a 4x4 board whose exponents are at most
// 15 as nibbles, cell i in bits 4i to 4i+3.
func packCells(b *Board) (lo uint64) {
	for i, e := range b.cells[:16] {
		lo |= uint64(e) << (4 * i)
	}
	return lo
}

// unpackCells sets the cells of the 4x4 board b to the nibbles of lo, as
// packCells reads them.
func unpackCells(b *Board, lo uint64) {
	for i := range 16 {
		b.cells[i] = uint8(lo>>(4*i)) & 15
	}
}
