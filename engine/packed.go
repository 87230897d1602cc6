package engine

import "math/bits"

// packed is a 4x4 board in 80 bits, the fast path for the standard board.
// Cell i (row-major: row i/4, column i%4) holds the exponent
// lo>>(4i)&15 | (hi>>i&1)<<4, so exponents 0..31 are representable: every
// tile a 4x4 game can reach (2^17 = 131072 with 2s and 4s) and more. Row r
// is the 16 bits lo>>(16r) and the 4 bits hi>>(4r), column 0 lowest.
//
// Moves look rows up in two precomputed tables (one for left, one for
// right) indexed by the 16 low bits; columns are rows of the transposed
// board. A row holding a tile of 2^16 or more (a set hi bit) is rare and is
// computed with slide instead.
type packed struct {
	lo uint64
	hi uint16
}

const (
	packedMaxExp = 31
	nibbleLSB    = 0x1111111111111111
)

// rowEntry packs a row's move: the new row's 16 low bits (bits 0-15), its
// 4 high bits (bits 16-19) and the points gained (bits 20 and up).
type rowEntry uint64

var leftTable, rightTable = buildRowTables()

func buildRowTables() (left, right *[1 << 16]rowEntry) {
	left, right = new([1 << 16]rowEntry), new([1 << 16]rowEntry)
	for row := range 1 << 16 {
		left[row] = rowMove(uint16(row), 0, false)
		right[row] = rowMove(uint16(row), 0, true)
	}
	return left, right
}

// rowMove slides one packed row toward column 0, or toward column 3 when
// reverse is set. ok is false when a merge would make a tile above
// 2^packedMaxExp.
func rowMoveOK(lo, hi uint16, reverse bool) (e rowEntry, ok bool) {
	var line [4]uint8
	for c := range 4 {
		i := c
		if reverse {
			i = 3 - c
		}
		line[c] = uint8(lo>>(4*i)&15 | (hi>>i&1)<<4)
	}
	merged := slide(line[:])
	var nlo, nhi uint16
	var gained uint64
	for c, x := range line {
		if x > packedMaxExp {
			return 0, false
		}
		if merged&(1<<c) != 0 {
			gained += 1 << x
		}
		i := c
		if reverse {
			i = 3 - c
		}
		nlo |= uint16(x&15) << (4 * i)
		nhi |= uint16(x>>4) << i
	}
	return rowEntry(nlo) | rowEntry(nhi)<<16 | rowEntry(gained)<<20, true
}

func rowMove(lo, hi uint16, reverse bool) rowEntry {
	e, _ := rowMoveOK(lo, hi, reverse) // the tables' rows have exponents below 16 and cannot overflow
	return e
}

// toPacked converts a 4x4 board whose exponents are at most packedMaxExp.
func toPacked(b Board) packed {
	var p packed
	for i, e := range b.cells[:16] {
		p.set(i, e)
	}
	return p
}

func (p packed) board() Board {
	b := Board{rows: 4, cols: 4}
	for i := range 16 {
		b.cells[i] = p.exp(i)
	}
	return b
}

func (p packed) exp(i int) uint8 {
	return uint8(p.lo>>(4*i)&15) | uint8(p.hi>>i&1)<<4
}

// set puts exponent e in empty cell i.
func (p *packed) set(i int, e uint8) {
	p.lo |= uint64(e&15) << (4 * i)
	p.hi |= uint16(e>>4) << i
}

// transpose swaps rows and columns.
func (p packed) transpose() packed {
	x := p.lo
	// Swap the off-diagonal nibbles of each 2x2 block, then the off-diagonal
	// 2x2 blocks.
	t := (x ^ x>>12) & 0x0000F0F00000F0F0
	x ^= t ^ t<<12
	t = (x ^ x>>24) & 0x00000000FF00FF00
	x ^= t ^ t<<24
	h := p.hi
	u := (h ^ h>>3) & 0x0A0A
	h ^= u ^ u<<3
	u = (h ^ h>>6) & 0x00CC
	h ^= u ^ u<<6
	return packed{x, h}
}

// slideRows moves every row toward column 0 (table left) or column 3
// (table right). ok is false when a merge would make a tile above
// 2^packedMaxExp.
func (p packed) slideRows(table *[1 << 16]rowEntry, reverse bool) (q packed, gained uint64, ok bool) {
	if p.hi == 0 {
		e0 := table[uint16(p.lo)]
		e1 := table[uint16(p.lo>>16)]
		e2 := table[uint16(p.lo>>32)]
		e3 := table[uint16(p.lo>>48)]
		q.lo = uint64(e0&0xFFFF) | uint64(e1&0xFFFF)<<16 | uint64(e2&0xFFFF)<<32 | uint64(e3&0xFFFF)<<48
		q.hi = uint16(e0>>16&15 | (e1>>16&15)<<4 | (e2>>16&15)<<8 | (e3>>16&15)<<12)
		return q, uint64(e0>>20 + e1>>20 + e2>>20 + e3>>20), true
	}
	for r := range 4 {
		lo, hi := uint16(p.lo>>(16*r)), p.hi>>(4*r)&15
		e := table[lo]
		if hi != 0 {
			if e, ok = rowMoveOK(lo, hi, reverse); !ok {
				return packed{}, 0, false
			}
		}
		q.lo |= uint64(e&0xFFFF) << (16 * r)
		q.hi |= uint16(e>>16&15) << (4 * r)
		gained += uint64(e >> 20)
	}
	return q, gained, true
}

// slide moves the board toward d.
func (p packed) slide(d Direction) (q packed, gained uint64, ok bool) {
	switch d {
	case Left:
		return p.slideRows(leftTable, false)
	case Right:
		return p.slideRows(rightTable, true)
	case Up:
		q, gained, ok = p.transpose().slideRows(leftTable, false)
	default:
		q, gained, ok = p.transpose().slideRows(rightTable, true)
	}
	return q.transpose(), gained, ok
}

// spread16 moves bit i of x to bit 4i.
func spread16(x uint16) uint64 {
	v := uint64(x)
	v = (v | v<<24) & 0x000000FF000000FF
	v = (v | v<<12) & 0x000F000F000F000F
	v = (v | v<<6) & 0x0303030303030303
	v = (v | v<<3) & nibbleLSB
	return v
}

// zeroNibbles returns bit 4i set for every nibble i of x that is 0.
func zeroNibbles(x uint64) uint64 {
	return ^(x | x>>1 | x>>2 | x>>3) & nibbleLSB
}

// empties returns bit 4i set for every empty cell i.
func (p packed) empties() uint64 {
	z := zeroNibbles(p.lo)
	if p.hi != 0 {
		z &^= spread16(p.hi)
	}
	return z
}

// blocked reports whether no move changes the board: it is full and no two
// neighbours are equal, or it is empty.
func (p packed) blocked() bool {
	if e := p.empties(); e != 0 {
		return e == nibbleLSB
	}
	const notLastCol = 0x0111011101110111
	const notLastRow = 0x0000111111111111
	// Cells i and i+1 (same row) are equal when both their nibbles and their
	// high bits are; likewise cells i and i+4.
	h := zeroNibbles(p.lo^p.lo>>4) & notLastCol
	v := zeroNibbles(p.lo^p.lo>>16) & notLastRow
	if p.hi != 0 {
		h &^= spread16(p.hi ^ p.hi>>1)
		v &^= spread16(p.hi ^ p.hi>>4)
	}
	return h|v == 0
}

// maxExp returns the largest exponent on the board.
func (p packed) maxExp() uint8 {
	var m uint8
	for i := range 16 {
		m = max(m, p.exp(i))
	}
	return m
}

// nthEmpty returns the index of empty cell number n (0-based, row-major) of
// the empty-cell bits e.
func nthEmpty(e uint64, n int) int {
	for ; n > 0; n-- {
		e &= e - 1
	}
	return bits.TrailingZeros64(e) / 4
}
