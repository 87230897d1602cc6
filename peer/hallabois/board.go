package hallabois

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Grid is a game board of W columns and H rows, its cells row by row
// (the cell at column x, row y is Cells[y*W+x]); 0 is an empty cell. The
// peer's coordinates are the same: x the column from the left, y the row
// from the top.
type Grid struct {
	W, H  int
	Cells []uint64
}

// NewBoard returns an empty board of w columns and h rows.
func NewBoard(w, h int) Grid { return Grid{w, h, make([]uint64, w*h)} }

// Clone returns a copy of b that shares no memory with it.
func (b Grid) Clone() Grid {
	return Grid{b.W, b.H, slices.Clone(b.Cells)}
}

// At returns the tile at column x, row y.
func (b Grid) At(x, y int) uint64 { return b.Cells[y*b.W+x] }

// Equal reports whether two boards have the same size and the same cells.
func (b Grid) Equal(o Grid) bool {
	return b.W == o.W && b.H == o.H && slices.Equal(b.Cells, o.Cells)
}

// Sum returns the sum of the tiles: what the peer's first-format validator
// compares to see a break.
func (b Grid) Sum() uint64 {
	var s uint64
	for _, v := range b.Cells {
		s += v
	}
	return s
}

// Max returns the largest tile.
func (b Grid) Max() uint64 {
	var m uint64
	for _, v := range b.Cells {
		m = max(m, v)
	}
	return m
}

// Empty returns the number of empty cells.
func (b Grid) Empty() int {
	n := 0
	for _, v := range b.Cells {
		if v == 0 {
			n++
		}
	}
	return n
}

// String writes the board one row a line, "." for an empty cell.
func (b Grid) String() string {
	var sb strings.Builder
	for y := range b.H {
		for x := range b.W {
			if x > 0 {
				sb.WriteByte(' ')
			}
			if v := b.At(x, y); v == 0 {
				sb.WriteByte('.')
			} else {
				fmt.Fprint(&sb, v)
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// HasMoves is the peer's test for a move being possible: an empty cell, or
// two equal tiles side by side. (It differs from "some move changes the
// board" only on an empty board.)
func (b Grid) HasMoves() bool {
	for y := range b.H {
		for x := range b.W {
			v := b.At(x, y)
			if v == 0 {
				return true
			}
			if x+1 < b.W && b.At(x+1, y) == v || y+1 < b.H && b.At(x, y+1) == v {
				return true
			}
		}
	}
	return false
}

// errOverflow is a merge whose tile would not fit in 64 bits.
var errOverflow = errors.New("a merge would make a tile above 2^64")

// Move slides every line toward the edge of d and merges each pair of equal
// neighbours once, the pair nearest that edge first; each merge scores the
// tile it makes. It returns the new board (b is not changed), the points
// and whether the board changed. d must be one of the four moves.
func (b Grid) Move(d Dir) (next Grid, gain uint64, changed bool, err error) {
	next = b.Clone()
	n := b.W // cells in a line
	lines := b.H
	if d == Up || d == Down {
		n, lines = b.H, b.W
	}
	line := make([]uint64, n)
	for l := range lines {
		// cell returns the index of the line's i-th cell counted from the
		// edge the tiles move toward.
		cell := func(i int) int {
			switch d {
			case Left:
				return l*b.W + i
			case Right:
				return l*b.W + b.W - 1 - i
			case Up:
				return i*b.W + l
			default: // Down
				return (b.H-1-i)*b.W + l
			}
		}
		// Compress: the line's tiles in order from the edge.
		tiles := line[:0]
		for i := range n {
			if v := b.Cells[cell(i)]; v != 0 {
				tiles = append(tiles, v)
			}
		}
		// Merge and pad: a pair becomes one tile of twice the value and
		// both are used up, so the new tile merges no further.
		out := 0
		for i := 0; i < len(tiles); i++ {
			v := tiles[i]
			if i+1 < len(tiles) && tiles[i+1] == v {
				if v > math.MaxUint64/2 {
					return b, 0, false, errOverflow
				}
				v *= 2
				if gain+v < gain {
					return b, 0, false, errOverflow
				}
				gain += v
				i++
			}
			next.Cells[cell(out)] = v
			out++
		}
		for ; out < n; out++ {
			next.Cells[cell(out)] = 0
		}
	}
	return next, gain, !next.Equal(b), nil
}
