package engine

import "math/bits"

// playSeeded is the replay loop of a seeded 4x4 game, the case a verifier
// spends nearly all its time in: a move log with spawns from tp1, on a
// board without a tile of 2^16 or more, before the win tile (or after it,
// in a profile that plays on). It keeps the whole state in a few local
// variables, slides with the row tables written out in the loop, and
// leaves every uncommon event to the general paths: it stops before an
// action that is not a move, a move that changes nothing, or one that
// makes a tile of 2^16 or more or might make the win tile; and it takes
// nothing when the log is long enough for the score to pass 2^53-1.
//
// It returns the number of actions done, and retry: whether it may take
// actions after the one it stopped before. With retry false it takes no
// action in this game's present state (the profile, a large tile, a
// finished run), so run or move must.
func (g *Game) playSeeded(actions []Action) (n int, retry bool) {
	r, st := g.r, &g.st
	stops := g.p.Win.Then != Continue && !st.keep
	if !g.seeded || !r.seededFast || !st.packed || st.pb.hi != 0 || st.result != Playing || st.won && stops {
		return 0, false
	}
	// guard: the loop stops before a move whose table entries' points
	// (a quarter of the points gained) add up to guard or more. A table
	// entry for a row that makes a tile of 2^16 or more (rowEscape)
	// counts 2^15 there, so the guard is at most 2^15; a move gaining
	// 2^17 without one is left to the general path too, which is rare and
	// harmless. A move gaining the win tile's value might make it, which
	// changes won and may end the run: the guard is at most that too.
	guard := uint32(rowEscape >> 16)
	if r.winValue != 0 && !st.won {
		if st.maxExp >= r.winExp {
			return 0, false
		}
		guard = uint32(min(r.winValue/4, uint64(guard)))
	}
	// Every action the loop takes is a counted move, so the move limit is
	// a bound on n; and a move the loop takes gains at most 2^18 (four
	// rows, each at most two merges making tiles below 2^16), so a score
	// that cannot pass 2^53-1 within the log needs no check a move.
	stop := len(actions)
	if limit := g.p.MoveLimit; limit != 0 && limit-st.moves <= stop {
		stop = limit - st.moves
	}
	if stop <= 0 || uint64(stop) > MaxSafeInteger>>18 || st.score > MaxSafeInteger-uint64(stop)<<18 || uint64(st.moves) > MaxSafeInteger-uint64(stop) {
		return 0, false
	}
	lo, score, rs := st.pb.lo, st.score, st.rng.state
	// The board before move n goes to boards[n&1], for the undo state. An
	// array with an index that varies is kept in memory: one variable
	// would take a register, and the loop has more values than amd64 has
	// registers already (what Go spills, it reloads on the path between
	// moves). One slot would do as well as two, but would be a variable.
	var boards [2]uint64
	spawnExp, total := &r.spawnTable, r.spawnTotal
	blocked := false
	actions = actions[:stop]
loop:
	for ; n < len(actions); n++ {
		// The slide: four row-table lookups (see packed.slide).
		var q uint64
		var e0, e1, e2, e3 rowEntry
		a := actions[n]
		t := rowTables[a&1]
		switch a {
		case MoveLeft, MoveRight:
			e0, e1, e2, e3 = t[uint16(lo)], t[uint16(lo>>16)], t[uint16(lo>>32)], t[uint16(lo>>48)]
			q = uint64(e0&0xFFFF) | uint64(e1&0xFFFF)<<16 | uint64(e2&0xFFFF)<<32 | uint64(e3&0xFFFF)<<48
		case MoveUp, MoveDown:
			e0, e1, e2, e3 = t[column(lo)], t[column(lo>>4)], t[column(lo>>8)], t[column(lo>>12)]
			q = transposeLo(uint64(e0&0xFFFF) | uint64(e1&0xFFFF)<<16 | uint64(e2&0xFFFF)<<32 | uint64(e3&0xFFFF)<<48)
		default:
			break loop
		}
		quarter := uint32(e0>>16 + e1>>16 + e2>>16 + e3>>16)
		if q == lo || quarter >= guard {
			break
		}
		// The spawn, as tp1 draws it: the value, then the cell.
		empty := zeroNibbles(q)
		rs += rngGamma
		v := weightDraw(splitMix(rs), total)
		rs += rngGamma
		shift := spawnShift(empty, splitMix(rs))
		boards[n&1] = lo
		lo = q | uint64(spawnExp[v&63])<<(shift&63) // &63: the compiler need not check the shift
		score += uint64(quarter) << 2
		if empty&(empty-1) == 0 && (packed{lo: lo}).blocked() {
			blocked = true
			n++
			break
		}
	}
	// The loop stops before any move that makes the win tile, and the move
	// limit bounds n, so the finishing rule applies as after any move.
	result := r.finished(st.won, st.keep, st.moves+n, blocked)
	if n == 0 {
		return 0, true
	}
	// Write the state back, with the state before the last move for undo.
	if g.p.Undo {
		prev := packed{lo: boards[(n-1)&1]}
		_, lastGained, _ := prev.slide(Direction(actions[n-1]))
		g.prev = *st
		g.prev.pb, g.prev.score, g.prev.moves, g.prev.result = prev, score-lastGained, st.moves+n-1, Playing
		g.prev.rng, g.prev.maxExp = RNG{rs - rngGamma - rngGamma}, prev.maxExp()
		g.canUndo = true
	}
	st.pb, st.score, st.moves, st.rng, st.result = packed{lo: lo}, score, st.moves+n, RNG{rs}, result
	st.maxExp = st.pb.maxExp()
	return n, true
}

// playRecorded is playSeeded's loop for a spawn-recorded 4x4 game: each
// counted move's tile is given, spawns[n] after actions[n], and checked
// (a cell the slide left empty, a value the profile spawns) instead of
// drawn; when open is not nil, open[n] gets the cells the slide left
// empty ([Game.PlayRecorded]). It stops where playSeeded stops, and before
// a given spawn it refuses, which move then words; it returns as
// playSeeded does.
//
// It repeats playSeeded's bounds, slide and write-back rather than share
// them: as functions (the slide is too large to inline), they cost either
// loop 2 to 4% (BenchmarkReplay, BenchmarkLongSpawnRecorded, the two
// builds run in turn).
func (g *Game) playRecorded(actions []Action, spawns []Spawn, open []uint64) (n int, retry bool) {
	r, st := g.r, &g.st
	stops := g.p.Win.Then != Continue && !st.keep
	if !r.recordedFast || !st.packed || st.pb.hi != 0 || st.result != Playing || st.won && stops {
		return 0, false
	}
	guard := uint32(rowEscape >> 16) // as in playSeeded
	if r.winValue != 0 && !st.won {
		if st.maxExp >= r.winExp {
			return 0, false
		}
		guard = uint32(min(r.winValue/4, uint64(guard)))
	}
	stop := len(actions)
	if limit := g.p.MoveLimit; limit != 0 && limit-st.moves <= stop {
		stop = limit - st.moves
	}
	if stop <= 0 || uint64(stop) > MaxSafeInteger>>18 || st.score > MaxSafeInteger-uint64(stop)<<18 || uint64(st.moves) > MaxSafeInteger-uint64(stop) {
		return 0, false
	}
	actions, spawns = actions[:stop], spawns[:stop]
	if open != nil {
		open = open[:stop]
	}
	lo, score, mask := st.pb.lo, st.score, r.spawnMask
	var boards [2]uint64 // as in playSeeded
	blocked := false
loop:
	for ; n < len(actions); n++ {
		var q uint64
		var e0, e1, e2, e3 rowEntry
		a := actions[n]
		t := rowTables[a&1]
		switch a {
		case MoveLeft, MoveRight:
			e0, e1, e2, e3 = t[uint16(lo)], t[uint16(lo>>16)], t[uint16(lo>>32)], t[uint16(lo>>48)]
			q = uint64(e0&0xFFFF) | uint64(e1&0xFFFF)<<16 | uint64(e2&0xFFFF)<<32 | uint64(e3&0xFFFF)<<48
		case MoveUp, MoveDown:
			e0, e1, e2, e3 = t[column(lo)], t[column(lo>>4)], t[column(lo>>8)], t[column(lo>>12)]
			q = transposeLo(uint64(e0&0xFFFF) | uint64(e1&0xFFFF)<<16 | uint64(e2&0xFFFF)<<32 | uint64(e3&0xFFFF)<<48)
		default:
			break loop
		}
		quarter := uint32(e0>>16 + e1>>16 + e2>>16 + e3>>16)
		if q == lo || quarter >= guard {
			break
		}
		// The spawn: in a cell the slide left empty, of a value the
		// profile spawns (a power of two whose exponent is in mask; 0
		// has none, its trailing zeros being 64).
		s := &spawns[n]
		empty := zeroNibbles(q)
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
		score += uint64(quarter) << 2
		if empty&(empty-1) == 0 && (packed{lo: lo}).blocked() {
			blocked = true
			n++
			break
		}
	}
	result := r.finished(st.won, st.keep, st.moves+n, blocked)
	if n == 0 {
		return 0, true
	}
	if g.p.Undo {
		prev := packed{lo: boards[(n-1)&1]}
		_, lastGained, _ := prev.slide(Direction(actions[n-1]))
		g.prev = *st
		g.prev.pb, g.prev.score, g.prev.moves, g.prev.result = prev, score-lastGained, st.moves+n-1, Playing
		g.prev.maxExp = prev.maxExp()
		g.canUndo = true
	}
	st.pb, st.score, st.moves, st.result = packed{lo: lo}, score, st.moves+n, result
	st.maxExp = st.pb.maxExp()
	return n, true
}
