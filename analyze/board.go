package analyze

import (
	"sync"

	"github.com/tileproof/tileproof/engine"
)

// bitboard is a 4x4 board, 4 bits a cell in row-major order (cell i at
// bits 4i), each nibble a tile's exponent (0 for an empty cell). It holds
// tiles up to 2^15; a move that would merge two 2^15 tiles is refused
// (see slide), so analysis stops before a game's first 2^16.
type bitboard uint64

// maxBitExp is the largest exponent a bitboard holds.
const maxBitExp = 15

// rowMoves are the results of sliding each 16-bit row toward column 0
// (side 0, left) and toward column 3 (side 1, right), rowOverflow for a
// move that would make a tile of 2^16.
type rowMoves [2][1 << 16]uint16

// rowOverflow is no slid row: an empty cell before a tile toward either
// side.
const rowOverflow = 0x0010

var (
	movesOnce sync.Once
	moves     *rowMoves
)

func rowTable() *rowMoves {
	movesOnce.Do(func() {
		m := new(rowMoves)
		for row := range 1 << 16 {
			var line [4]uint8
			for c := range line {
				line[c] = uint8(row >> (4 * c) & 15)
			}
			l, okL := slideLine(line)
			r, okR := slideLine([4]uint8{line[3], line[2], line[1], line[0]})
			m[0][row], m[1][row] = rowOverflow, rowOverflow
			if okL {
				m[0][row] = packRow(l)
			}
			if okR {
				m[1][row] = packRow([4]uint8{r[3], r[2], r[1], r[0]})
			}
		}
		moves = m
	})
	return moves
}

// slideLine slides a line toward its first cell by the tile-merge rule:
// equal neighbours (skipping empty cells) merge once. ok is false when a
// merge would make a tile above 2^15.
func slideLine(line [4]uint8) (out [4]uint8, ok bool) {
	n, mergeable := 0, false
	for _, x := range line {
		switch {
		case x == 0:
		case mergeable && out[n-1] == x:
			if x >= maxBitExp {
				return out, false
			}
			out[n-1]++
			mergeable = false
		default:
			out[n] = x
			n, mergeable = n+1, true
		}
	}
	return out, true
}

func packRow(l [4]uint8) uint16 {
	return uint16(l[0]) | uint16(l[1])<<4 | uint16(l[2])<<8 | uint16(l[3])<<12
}

// transpose swaps rows and columns.
func (b bitboard) transpose() bitboard {
	x := uint64(b)
	t := (x ^ x>>12) & 0x0000F0F00000F0F0
	x ^= t ^ t<<12
	t = (x ^ x>>24) & 0x00000000FF00FF00
	return bitboard(x ^ t ^ t<<24)
}

// slide moves the board toward d; ok is false when the move would make a
// tile of 2^16, which the bitboard cannot hold.
func (b bitboard) slide(d engine.Direction) (bitboard, bool) {
	x := b
	if d == engine.Up || d == engine.Down {
		x = b.transpose()
	}
	table := &rowTable()[0]
	if d == engine.Right || d == engine.Down {
		table = &rowTable()[1]
	}
	var out uint64
	for r := range 4 {
		row := table[uint16(uint64(x)>>(16*r))]
		if row == rowOverflow {
			return 0, false
		}
		out |= uint64(row) << (16 * r)
	}
	if d == engine.Up || d == engine.Down {
		return bitboard(out).transpose(), true
	}
	return bitboard(out), true
}

// exp returns cell i's exponent.
func (b bitboard) exp(i int) uint8 { return uint8(uint64(b) >> (4 * i) & 15) }

// with returns b with exponent e in cell i (which must be empty).
func (b bitboard) with(i int, e uint8) bitboard { return b | bitboard(uint64(e)<<(4*i)) }

// empties returns the number of empty cells.
func (b bitboard) empties() int {
	n := 0
	for i := range 16 {
		if b.exp(i) == 0 {
			n++
		}
	}
	return n
}

// toBitboard converts an engine board: ok is false unless it is 4x4 with
// every tile below 2^16.
func toBitboard(e engine.Board) (bitboard, bool) {
	if e.Rows() != 4 || e.Cols() != 4 {
		return 0, false
	}
	var b bitboard
	for r := range 4 {
		for c := range 4 {
			x := e.Exp(r, c)
			if x > maxBitExp {
				return 0, false
			}
			b = b.with(4*r+c, uint8(x))
		}
	}
	return b, true
}
