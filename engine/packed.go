package engine

import (
	"math/bits"
	"sync"
)

// packed is a 4x4 board whose exponents are at most 15, in one word:
// cell i (row-major: row i/4, column i%4) holds its exponent in bits 4i
// to 4i+3, so row r is the 16 bits lo>>(16r), column 0 lowest. It is the
// replay loop's board (fastplay.go); a board holding a tile of 2^16 or
// more, and a move that makes one, are left to the generic Board, which
// every game keeps.
//
// Moves look rows up in two precomputed tables (one for left, one for
// right) indexed by the row's 16 bits; columns are rows of the transposed
// board.
type packed struct{ lo uint64 }

const (
	packedMaxExp = 15
	nibbleLSB    = 0x1111111111111111
)

// rowEntry is one row's move in a table: the new row's 16 bits (bits
// 0-15) and the points gained divided by 4 (bits 16-30; merged tiles are
// multiples of 4). Bit 31, rowEscape, marks a move that makes a tile of
// 2^16 or more, which a packed board does not hold. At 4 bytes an entry,
// both tables together fit in a 512 KiB L2 cache.
type rowEntry uint32

const rowEscape rowEntry = 1 << 31

// rowTables are the tables by a direction's (or a move action's) low bit:
// left for up and left, right for down and right. Picking one by index
// rather than by a branch spares a mispredicted branch where the
// direction is hard to predict. They are built at first use (buildTables,
// from Compile: every packed board is a compiled profile's game's), so
// that a command that plays no game does not pay for building
// them (docs/engine.md).
var rowTables [2]*[1 << 16]rowEntry

// buildTables builds rowTables, once.
func buildTables() { tablesOnce.Do(func() { rowTables = buildRowTables() }) }

var tablesOnce sync.Once

// buildRowTables returns the tables for left and right. A row's move
// right is its mirror's move left, mirrored: one slide fills an entry of
// each.
func buildRowTables() [2]*[1 << 16]rowEntry {
	left, right := new([1 << 16]rowEntry), new([1 << 16]rowEntry)
	for row := range 1 << 16 {
		// The cells toward column 0, a tile merging with the one before it
		// when they are equal and that one is not a merge's (slide's rule,
		// written out for four cells).
		var moved, gained uint32
		n, last, mergeable, escape := 0, uint32(0), false, false
		for c := 0; c < 16; c += 4 {
			x := uint32(row>>c) & 15
			switch {
			case x == 0:
			case mergeable && x == last:
				moved += 1 << (4 * (n - 1)) // last+1 in cell n-1
				gained += 2 << x
				mergeable, escape = false, escape || x == 15
			default:
				moved |= x << (4 * n)
				n, last, mergeable = n+1, x, true
			}
		}
		e := rowEntry(moved) | rowEntry(gained>>2)<<16
		mirrored := rowEntry(mirrorRow(uint16(moved))) | rowEntry(gained>>2)<<16
		if escape { // a merge made 2^16, which the low bits do not hold
			e, mirrored = rowEscape, rowEscape
		}
		left[row], right[mirrorRow(uint16(row))] = e, mirrored
	}
	return [2]*[1 << 16]rowEntry{left, right}
}

// mirrorRow reverses the order of a row's four cells.
func mirrorRow(r uint16) uint16 {
	return r<<12 | r>>12 | r<<4&0x0F00 | r>>4&0x00F0
}

// transposeLo swaps the rows and columns of a board's low bits.
func transposeLo(x uint64) uint64 {
	// Swap the off-diagonal nibbles of each 2x2 block, then the off-diagonal
	// 2x2 blocks.
	t := (x ^ x>>12) & 0x0000F0F00000F0F0
	x ^= t ^ t<<12
	t = (x ^ x>>24) & 0x00000000FF00FF00
	return x ^ t ^ t<<24
}

// slide moves the board toward d. ok is false when a merge would make a
// tile of 2^16 or more, which the packed board does not hold.
//
// It takes four table lookups: left and right look the rows up; up and
// down gather each column into a row index with one multiply, and
// transpose the new columns, put together as rows, back (docs/engine.md
// says what else was tried).
func (p packed) slide(d Direction) (q packed, gained uint64, ok bool) {
	table := rowTables[d&1]
	var e0, e1, e2, e3 rowEntry
	if d >= Left {
		e0 = table[uint16(p.lo)]
		e1 = table[uint16(p.lo>>16)]
		e2 = table[uint16(p.lo>>32)]
		e3 = table[uint16(p.lo>>48)]
		q.lo = uint64(e0&0xFFFF) | uint64(e1&0xFFFF)<<16 | uint64(e2&0xFFFF)<<32 | uint64(e3&0xFFFF)<<48
	} else {
		e0 = table[column(p.lo)]
		e1 = table[column(p.lo>>4)]
		e2 = table[column(p.lo>>8)]
		e3 = table[column(p.lo>>12)]
		q.lo = transposeLo(uint64(e0&0xFFFF) | uint64(e1&0xFFFF)<<16 | uint64(e2&0xFFFF)<<32 | uint64(e3&0xFFFF)<<48)
	}
	if (e0|e1|e2|e3)&rowEscape != 0 {
		return packed{}, 0, false
	}
	return q, uint64(e0>>16+e1>>16+e2>>16+e3>>16) << 2, true
}

// column gathers the nibbles at bits 0, 16, 32 and 48 of x (column 0 of a
// packed board, rows 0 to 3) into a 16-bit row, row 0 lowest.
func column(x uint64) uint16 {
	return uint16((x & 0x000F000F000F000F) * 0x0001001001001000 >> 48)
}

// zeroNibbles returns bit 4i set for every nibble i of x that is 0.
func zeroNibbles(x uint64) uint64 {
	return ^(x | x>>1 | x>>2 | x>>3) & nibbleLSB
}

// nibbleBits gathers bit 4i of x into bit i, for the 16 nibbles of x
// whose only bits are bit 0 (as zeroNibbles gives them).
func nibbleBits(x uint64) uint64 {
	x = (x | x>>3) & 0x0303030303030303
	x = (x | x>>6) & 0x000f000f000f000f
	x = (x | x>>12) & 0x000000ff000000ff
	return (x | x>>24) & 0xffff
}

// blocked reports whether no move changes the board: it is full and no two
// neighbours are equal, or it is empty.
func (p packed) blocked() bool {
	if e := zeroNibbles(p.lo); e != 0 { // bit 4i for each empty cell i
		return e == nibbleLSB
	}
	const notLastCol = 0x0111011101110111
	const notLastRow = 0x0000111111111111
	// Cells i and i+1 (same row) are equal when their nibbles are;
	// likewise cells i and i+4.
	h := zeroNibbles(p.lo^p.lo>>4) & notLastCol
	v := zeroNibbles(p.lo^p.lo>>16) & notLastRow
	return h|v == 0
}

// emptyPrefix returns the running counts of the empty-cell bits e (bit 4i
// for cell i, at most 15 cells): nibble i counts the empty cells 0 to i,
// so the top nibble counts them all. One multiply, where a population
// count would be a call on CPUs Go does not assume have the instruction.
func emptyPrefix(e uint64) uint64 { return e * nibbleLSB }

// emptyCount returns the number of empty cells of a prefix from
// emptyPrefix.
func emptyCount(prefix uint64) uint32 { return uint32(prefix >> 60) }

// spawnShift returns where the nibble starts (4 times the cell) of the
// cell a spawn's cell draw x picks on a packed board whose empty-cell bits
// are empty (1 to 15 cells): empty cell number x mod E, E the empty cells.
// x mod E is x mod 720720 (the least common multiple of 1..16, a constant
// the compiler divides by multiplying) mod E: a 32-bit division, shorter
// than a 64-bit one on the path from one move to the next.
func spawnShift(empty, x uint64) uint {
	prefix := emptyPrefix(empty)
	return nthEmptyShift(prefix, int(uint32(x%720720)%emptyCount(prefix)))
}

// nthEmpty returns the index of empty cell number n (0-based, row-major),
// given the running counts prefix = emptyPrefix(e) of 1 to 15 empty cells
// and n below their number (otherwise the answer is 15, and
// nthEmptyShift's 63). It is branch-free: with a loop, the unpredictable
// number of steps cost a mispredicted branch a spawn.
func nthEmpty(prefix uint64, n int) int { return int(nthEmptyShift(prefix, n) >> 2) }

// nthEmptyShift is 4 times nthEmpty: where the cell's nibble starts.
func nthEmptyShift(prefix uint64, n int) uint {
	// The counts never fall from one cell to the next, so the cells whose
	// count is above n are the wanted cell and every cell after it: the
	// wanted cell is the first of them. Even and odd cells' counts go in
	// bytes of their own, where adding 15-n sets bit 4 of a count above
	// n; moved back to bit 4i for cell i, the lowest set bit is 4 times
	// the answer. (Bit 63 is only there to tell the compiler the word is not
	// 0: cell 15, counting every empty cell, is always above n.)
	const bytes, ones, fours = 0x0F0F0F0F0F0F0F0F, 0x0101010101010101, 0x1010101010101010
	add := 15*ones - uint64(n)*ones // (15-n)*ones, in a form the compiler adds to the counts in one step less
	even := (prefix&bytes + add) & fours
	odd := (prefix>>4&bytes + add) & fours
	return uint(bits.TrailingZeros64(even>>4 | odd | 1<<63))
}
