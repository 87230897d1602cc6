package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Board sizes and tile limits.
const (
	MinSide = 2       // the fewest rows or columns a board has
	MaxSide = 8       // the most rows or columns a board has
	MaxExp  = 52      // the largest tile exponent
	MaxTile = 1 << 52 // the largest tile, 2^52
)

// ErrTileOverflow is returned when a merge would make a tile above [MaxTile].
var ErrTileOverflow = errors.New("a merge would make a tile above 2^52, the largest tile (a safe integer in JavaScript)")

// Board is a rows x cols grid of tiles, 2x2 to 8x8. It is a value: copy it
// by assignment and compare it with ==. The zero Board has no cells; make
// one with [NewBoard], [ParseBoard] or [BoardFromValues].
type Board struct {
	rows, cols uint8
	// cells holds the exponent of each tile in row-major order (stride
	// cols), 0 for an empty cell. Cells past rows*cols stay 0, so that ==
	// compares boards.
	cells [MaxSide * MaxSide]uint8
}

// NewBoard returns an empty board.
func NewBoard(rows, cols int) (Board, error) {
	if rows < MinSide || rows > MaxSide || cols < MinSide || cols > MaxSide {
		return Board{}, fmt.Errorf("a board is %d to %d cells a side, not %dx%d", MinSide, MaxSide, rows, cols)
	}
	return Board{rows: uint8(rows), cols: uint8(cols)}, nil
}

// Rows returns the number of rows.
func (b Board) Rows() int { return int(b.rows) }

// Cols returns the number of columns.
func (b Board) Cols() int { return int(b.cols) }

// Cells returns the number of cells, rows times columns.
func (b Board) Cells() int { return int(b.rows) * int(b.cols) }

// Exp returns the exponent of the tile at row r, column c (0-based): e for
// a tile 2^e, 0 for an empty cell.
func (b Board) Exp(r, c int) int { return int(b.cells[cellIndex(r, c, b.rows, b.cols)]) }

// At returns the tile at row r, column c (0-based), 0 for an empty cell.
func (b Board) At(r, c int) uint64 { return expValue(b.cells[cellIndex(r, c, b.rows, b.cols)]) }

// Set puts tile v (0 to empty the cell) at row r, column c (0-based).
func (b *Board) Set(r, c int, v uint64) error {
	e, err := tileExp(v)
	if err != nil {
		return err
	}
	b.cells[cellIndex(r, c, b.rows, b.cols)] = e
	return nil
}

func cellIndex(r, c int, rows, cols uint8) int {
	if uint(r) >= uint(rows) || uint(c) >= uint(cols) {
		outside(r, c, rows, cols)
	}
	return r*int(cols) + c
}

// outside panics for a cell off the board, out of line so that the
// accessors stay small enough to inline.
func outside(r, c int, rows, cols uint8) {
	panic(fmt.Sprintf("engine: cell (%d, %d) is outside a %dx%d board", r, c, rows, cols))
}

func expValue(e uint8) uint64 {
	if e == 0 {
		return 0
	}
	return 1 << e
}

// tileExp returns the exponent of tile v, or 0 for v == 0.
func tileExp(v uint64) (uint8, error) {
	switch {
	case v == 0:
		return 0, nil
	case v == 1:
		return 0, errors.New("1 is not a tile (tiles are 2, 4, 8, ...)")
	case v&(v-1) != 0:
		return 0, fmt.Errorf("%d is not a power of two", v)
	case v > MaxTile:
		return 0, fmt.Errorf("%d is above 2^52, the largest tile", v)
	}
	return log2(v), nil
}

// log2 returns the exponent of a power of two.
func log2(v uint64) uint8 { return uint8(bits.TrailingZeros64(v)) }

// Empty returns the number of empty cells.
func (b Board) Empty() int { return bytes.Count(b.cells[:b.Cells()], []byte{0}) }

// EmptyMask returns the empty cells as bits: bit i is set when cell i,
// row-major, is empty. It reads eight cells at a time.
func (b Board) EmptyMask() uint64 {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	var mask uint64
	for w := range 8 {
		x := binary.LittleEndian.Uint64(b.cells[8*w:])
		// A byte's high bit is set when the byte is not 0 (exponents are
		// below 0x80, so no byte carries into the next).
		nonzero := ((x & low7) + low7 | x) & high
		zero := ^nonzero & high
		// Gather the eight high bits into a byte, cell 8w+j at bit j.
		mask |= ((zero >> 7) * 0x0102040810204080 >> 56) << (8 * w)
	}
	return mask & (^uint64(0) >> (64 - b.Cells()))
}

// MaxTile returns the largest tile, 0 on an empty board.
func (b Board) MaxTile() uint64 { return expValue(b.maxExp()) }

func (b Board) maxExp() uint8 {
	var m uint8
	for _, e := range b.cells[:b.Cells()] {
		m = max(m, e)
	}
	return m
}

// Potential returns the sum of the tiles' [TilePotential]s: the score a
// board would have if every tile had been made by merges from 2s. A move
// raises it by exactly the points it gains, a spawned 2 leaves it as it
// is and a spawned 4 adds 4.
func (b Board) Potential() uint64 { return b.sum(expPotential) }

// TilePotential returns the points tile v would have earned if it had
// been built up from 2s: a tile 2^e counts (e-1) * 2^e (0 for an empty
// cell and for a 2). A merge of two 2^e tiles raises the sum over a board
// by 2^(e+1), exactly the points the merge earns.
func TilePotential(v uint64) uint64 {
	if v < 2 || v&(v-1) != 0 {
		return 0
	}
	return expPotential(log2(v))
}

func expPotential(e uint8) uint64 {
	if e == 0 {
		return 0
	}
	return uint64(e-1) << e
}

// Sum returns the sum of the tiles.
func (b Board) Sum() uint64 { return b.sum(expValue) }

// sum adds up f of each cell's exponent.
func (b Board) sum(f func(uint8) uint64) (s uint64) {
	for _, e := range b.cells[:b.Cells()] {
		s += f(e)
	}
	return s
}

// Slide is the outcome of sliding a board in one direction, before any spawn.
type Slide struct {
	Board   Board  // the board after the slide
	Gained  uint64 // the points gained: the sum of the tiles made by merges
	Changed bool   // whether any tile moved or merged
	made    uint64 // bit e is set when a merge made a tile 2^e
}

// Made reports whether a merge in the slide made tile v.
func (s Slide) Made(v uint64) bool {
	return v&(v-1) == 0 && s.made&v != 0
}

// lineWalk describes line k of a board moving in direction d: the index of
// its cell at the destination edge, the index step toward the far edge and
// the line's length; lines is the number of lines.
func (b Board) lineWalk(d Direction, k int) (start, step, length, lines int) {
	rows, cols := int(b.rows), int(b.cols)
	switch d {
	case Left:
		return k * cols, 1, cols, rows
	case Right:
		return k*cols + cols - 1, -1, cols, rows
	case Up:
		return k, cols, rows, cols
	default: // Down
		return (rows-1)*cols + k, -cols, rows, cols
	}
}

// Slide slides every line toward d: compress out the gaps, merge each pair
// of equal neighbours once (the pair nearest the destination edge first),
// pad with empties. It returns [ErrTileOverflow] if a merge would make a
// tile above [MaxTile].
func (b Board) Slide(d Direction) (Slide, error) {
	out := Slide{Board: b}
	var line [MaxSide]uint8
	_, _, n, lines := b.lineWalk(d, 0)
	for k := range lines {
		start, step, _, _ := b.lineWalk(d, k)
		for i := range n {
			line[i] = b.cells[start+i*step]
		}
		merged := slide(line[:n])
		for i, e := range line[:n] {
			out.Board.cells[start+i*step] = e
			if merged&(1<<i) == 0 {
				continue
			}
			if e > MaxExp {
				return Slide{}, ErrTileOverflow
			}
			out.Gained += 1 << e
			out.made |= 1 << e
		}
	}
	out.Changed = out.Board != b
	return out, nil
}

// Legal reports whether moving toward d changes the board (a merge past
// [MaxTile] counts: the tiles would move).
func (b Board) Legal(d Direction) bool {
	s, err := b.Slide(d)
	return err != nil || s.Changed
}

// LegalMoves returns the directions that change the board, in the order of
// [Directions].
func (b Board) LegalMoves() []Direction {
	var legal []Direction
	for _, d := range Directions {
		if b.Legal(d) {
			legal = append(legal, d)
		}
	}
	return legal
}

// Blocked reports whether no move changes the board: it is full and no two
// equal tiles are neighbours across a row or a column (or it is empty).
func (b Board) Blocked() bool {
	rows, cols := int(b.rows), int(b.cols)
	if b.Empty() == b.Cells() {
		return true
	}
	for r := range rows {
		for c := range cols {
			e := b.cells[r*cols+c]
			if e == 0 ||
				c+1 < cols && b.cells[r*cols+c+1] == e ||
				r+1 < rows && b.cells[(r+1)*cols+c] == e {
				return false
			}
		}
	}
	return true
}

// BoardFromValues makes a board from rows of tile values, 0 for an empty
// cell: the nested-list form of the PGS document, with null read as 0.
//
// It is not inlined: inlined into a caller of another package, its call
// of the generic boardFrom counts as letting values escape, which moves a
// caller's rows on the stack (replay's JSON reader) to the heap.
//
//go:noinline
func BoardFromValues(values [][]uint64) (Board, error) {
	return boardFrom(values, tileExp)
}

// boardFrom makes a board from rows of cells, each cell's exponent read by
// exp: as many rows as the board has, all as long as the first.
func boardFrom[T any](rows [][]T, exp func(T) (uint8, error)) (Board, error) {
	cols := 0
	if len(rows) > 0 {
		cols = len(rows[0])
	}
	b, err := NewBoard(len(rows), cols)
	if err != nil {
		return Board{}, err
	}
	return fillBoard(b, rows, exp)
}

// fillBoard sets b's cells from rows, each cell's exponent read by exp:
// the rows must all have b's columns.
func fillBoard[T any](b Board, rows [][]T, exp func(T) (uint8, error)) (Board, error) {
	cols := int(b.cols)
	for r, row := range rows {
		if len(row) != cols {
			return Board{}, &BoardError{Row: r + 1, Msg: fmt.Sprintf("has %d cells; row 1 has %d", len(row), cols)}
		}
		for c, v := range row {
			e, err := exp(v)
			if err != nil {
				return Board{}, &BoardError{Row: r + 1, Col: c + 1, Msg: err.Error()}
			}
			b.cells[r*cols+c] = e
		}
	}
	return b, nil
}

// Values returns the board as rows of tile values, 0 for an empty cell.
func (b Board) Values() [][]uint64 {
	out := make([][]uint64, b.rows)
	for r := range out {
		out[r] = make([]uint64, b.cols)
		for c := range out[r] {
			out[r][c] = b.At(r, c)
		}
	}
	return out
}

// BoardError is an error in a board's text or values. Row and Col are
// 1-based; 0 means the error is not about one row or column.
type BoardError struct {
	Row, Col int
	Msg      string
}

// Error returns the fault, with its row and column when known.
func (e *BoardError) Error() string {
	switch {
	case e.Row > 0 && e.Col > 0:
		return fmt.Sprintf("board row %d, column %d: %s", e.Row, e.Col, e.Msg)
	case e.Row > 0:
		return fmt.Sprintf("board row %d: %s", e.Row, e.Msg)
	}
	return "board: " + e.Msg
}

// ParseBoard reads a board written as a text grid: one row a line (or rows
// separated by "/"), cells separated by spaces, "." or "0" for an empty
// cell, for example
//
//	2 2 . .
//	. 4 . .
//	. . . .
//	. . . 8
//
// Blank lines before and after the grid are ignored. Errors are
// [*BoardError], with 1-based rows counted from the first row of the grid.
func ParseBoard(text string) (Board, error) {
	lines := strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '/' })
	var rows [][]string
	for _, line := range lines {
		if f := strings.Fields(line); len(f) > 0 || len(rows) > 0 {
			rows = append(rows, f)
		}
	}
	for len(rows) > 0 && len(rows[len(rows)-1]) == 0 {
		rows = rows[:len(rows)-1]
	}
	if len(rows) < MinSide || len(rows) > MaxSide {
		return Board{}, &BoardError{Msg: fmt.Sprintf("%d rows; a board has %d to %d", len(rows), MinSide, MaxSide)}
	}
	cols := len(rows[0])
	if cols < MinSide || cols > MaxSide {
		return Board{}, &BoardError{Row: 1, Msg: fmt.Sprintf("%d cells; a row has %d to %d", cols, MinSide, MaxSide)}
	}
	return fillBoard(Board{rows: uint8(len(rows)), cols: uint8(cols)}, rows, parseCell)
}

func parseCell(s string) (uint8, error) {
	if s == "." {
		return 0, nil
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a tile (a power of two) or \".\"", s)
	}
	return tileExp(v)
}

// String writes the board as the text grid [ParseBoard] reads, one row a
// line, cells right-aligned, "." for an empty cell.
func (b Board) String() string {
	width := 1
	for _, e := range b.cells[:b.Cells()] {
		width = max(width, len(strconv.FormatUint(expValue(e), 10)))
	}
	return strings.TrimSuffix(b.grid(width), "\n")
}

// grid writes the board's rows, each ended by a newline, with the cells
// right-aligned to width and "." for an empty cell.
func (b Board) grid(width int) string {
	var sb strings.Builder
	for r := range b.Rows() {
		for c := range b.Cols() {
			cell := "."
			if v := b.At(r, c); v != 0 {
				cell = strconv.FormatUint(v, 10)
			}
			if c > 0 {
				sb.WriteByte(' ')
			}
			fmt.Fprintf(&sb, "%*s", width, cell)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
