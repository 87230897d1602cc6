// Package plain is a deliberately straightforward implementation of the
// tileproof rules and the tp1 RNG, written independently of package engine.
// Tests use it as the oracle for differential tests, and benchmarks as the
// baseline the fast engine is compared against. It favours obviousness over
// speed.
package plain

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// MinSide and MaxSide bound the number of rows and of columns of a board.
const (
	MinSide = 2
	MaxSide = 8
)

// MaxSeedRunes is the largest number of code points a trimmed seed may have.
const MaxSeedRunes = 96

// Cells holds cell values row by row; 0 is an empty cell.
type Cells [][]uint64

// NewBoard returns an empty board of rows x cols cells.
func NewBoard(rows, cols int) Cells {
	b := make(Cells, rows)
	for r := range b {
		b[r] = make([]uint64, cols)
	}
	return b
}

// Clone returns a deep copy of the board.
func (b Cells) Clone() Cells {
	c := make(Cells, len(b))
	for r := range b {
		c[r] = slices.Clone(b[r])
	}
	return c
}

// Equal reports whether two boards have the same shape and the same cells.
func (b Cells) Equal(o Cells) bool { return slices.EqualFunc(b, o, slices.Equal) }

// Max returns the largest cell value on the board (0 for an empty board).
func (b Cells) Max() uint64 {
	var m uint64
	for _, row := range b {
		for _, v := range row {
			m = max(m, v)
		}
	}
	return m
}

// Empty returns the number of empty cells.
func (b Cells) Empty() int {
	n := 0
	for r := range b {
		for c := range b[r] {
			if b[r][c] == 0 {
				n++
			}
		}
	}
	return n
}

// Sum returns the sum of all cell values.
func (b Cells) Sum() uint64 {
	var s uint64
	for r := range b {
		for c := range b[r] {
			s += b[r][c]
		}
	}
	return s
}

// String renders the board one row per line, cells separated by spaces.
func (b Cells) String() string {
	var sb strings.Builder
	for r := range b {
		for c := range b[r] {
			if c > 0 {
				sb.WriteByte(' ')
			}
			fmt.Fprintf(&sb, "%d", b[r][c])
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// SlideLeft slides one line toward index 0: compress, merge pairs once
// (nearest index 0 first), pad with zeros. The input is not modified.
func SlideLeft(line []uint64) (out []uint64, gained uint64) {
	// Compress: keep the non-empty tiles in order.
	tiles := []uint64{}
	for _, v := range line {
		if v != 0 {
			tiles = append(tiles, v)
		}
	}
	// Merge: walk from index 0; an equal pair becomes one doubled tile and
	// both tiles of the pair are consumed, so the new tile never merges again.
	merged := []uint64{}
	for i := 0; i < len(tiles); i++ {
		if i+1 < len(tiles) && tiles[i] == tiles[i+1] {
			v := tiles[i] * 2
			merged = append(merged, v)
			gained += v
			i++
		} else {
			merged = append(merged, tiles[i])
		}
	}
	// Pad with empties up to the original length.
	out = make([]uint64, len(line))
	copy(out, merged)
	return out, gained
}

// cellPos is one cell's coordinates.
type cellPos struct{ row, col int }

// lines returns, for a move direction, each line of the board as a list of
// cell positions ordered from the edge the tiles move toward: the rows for
// L and R, the columns for U and D.
func lines(rows, cols int, dir byte) [][]cellPos {
	// n lines of m cells; at(i, j) is the j-th cell of line i from that edge.
	n, m := rows, cols
	var at func(i, j int) cellPos
	switch dir {
	case 'L':
		at = func(i, j int) cellPos { return cellPos{i, j} }
	case 'R':
		at = func(i, j int) cellPos { return cellPos{i, cols - 1 - j} }
	case 'U':
		n, m = cols, rows
		at = func(i, j int) cellPos { return cellPos{j, i} }
	case 'D':
		n, m = cols, rows
		at = func(i, j int) cellPos { return cellPos{rows - 1 - j, i} }
	default:
		panic(fmt.Sprintf("plain: invalid move %q", dir))
	}
	ls := make([][]cellPos, n)
	for i := range ls {
		for j := range m {
			ls[i] = append(ls[i], at(i, j))
		}
	}
	return ls
}

// Move applies a move given as one of 'U','D','L','R' and returns the new
// board (the input is not modified), the points gained and whether the board
// changed. It panics on another byte (callers pass valid letters).
func Move(b Cells, dir byte) (next Cells, gained uint64, changed bool) {
	rows := len(b)
	cols := 0
	if rows > 0 {
		cols = len(b[0])
	}
	next = b.Clone()
	for _, l := range lines(rows, cols, dir) {
		line := make([]uint64, len(l))
		for i, p := range l {
			line[i] = b[p.row][p.col]
		}
		out, g := SlideLeft(line)
		gained += g
		for i, p := range l {
			next[p.row][p.col] = out[i]
		}
	}
	changed = !next.Equal(b)
	return next, gained, changed
}

// Directions lists the four move letters in the canonical order.
const Directions = "UDLR"

// CanMove reports whether any of the four moves changes the board.
func CanMove(b Cells) bool {
	return LegalMoves(b) != ""
}

// LegalMoves returns the letters of the moves that change the board, in the
// order "UDLR".
func LegalMoves(b Cells) string {
	s := ""
	for i := 0; i < len(Directions); i++ {
		if _, _, changed := Move(b, Directions[i]); changed {
			s += string(Directions[i])
		}
	}
	return s
}

// Key returns the tp1 key of a seed text (after trimming), or an error for
// invalid UTF-8 or an empty or over-long seed.
func Key(seed string) (uint64, error) {
	if !utf8.ValidString(seed) {
		return 0, errors.New("plain: seed is not valid UTF-8")
	}
	t := strings.TrimSpace(seed)
	n := utf8.RuneCountInString(t)
	if n < 1 {
		return 0, errors.New("plain: seed is empty")
	}
	if n > MaxSeedRunes {
		return 0, fmt.Errorf("plain: seed has %d characters, more than %d", n, MaxSeedRunes)
	}
	sum := sha256.Sum256([]byte(t))
	return binary.BigEndian.Uint64(sum[:8]), nil
}

// SplitMix is SplitMix64.
type SplitMix struct{ State uint64 }

// Next advances the state and returns the next SplitMix64 output.
func (r *SplitMix) Next() uint64 {
	r.State += 0x9E3779B97F4A7C15
	z := r.State
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// Weight is one spawn value with its integer weight.
type Weight struct{ Value, Weight uint64 }

// DefaultWeights are the usual spawn weights: 2 with weight 9, 4 with weight 1.
func DefaultWeights() []Weight {
	return []Weight{{Value: 2, Weight: 9}, {Value: 4, Weight: 1}}
}

// Spawn places one tile as tp1 step 4 specifies, using weights (any order
// given; walk them in ascending Value), returning the row, column and value
// placed. ok is false (and nothing is drawn) when the board has no empty
// cell. It panics if the weights sum to zero.
func Spawn(b Cells, r *SplitMix, weights []Weight) (row, col int, value uint64, ok bool) {
	// Collect the empty cells in row-major order.
	var empties []cellPos
	for i := range b {
		for j := range b[i] {
			if b[i][j] == 0 {
				empties = append(empties, cellPos{i, j})
			}
		}
	}
	if len(empties) == 0 {
		return 0, 0, 0, false
	}

	sorted := slices.Clone(weights)
	slices.SortStableFunc(sorted, func(a, b Weight) int { return cmp.Compare(a.Value, b.Value) })
	var total uint64
	for _, w := range sorted {
		total += w.Weight
	}
	if total == 0 {
		panic("plain: spawn weights sum to zero")
	}

	// First draw: the value.
	x := r.Next() % total
	var running uint64
	for _, w := range sorted {
		running += w.Weight
		if running > x {
			value = w.Value
			break
		}
	}

	// Second draw: the empty cell.
	c := r.Next() % uint64(len(empties))
	p := empties[c]
	b[p.row][p.col] = value
	return p.row, p.col, value, true
}

// Oracle is the plain oracle's whole game: board, score, counted moves, RNG.
type Oracle struct {
	Board   Cells
	Score   uint64
	Moves   int
	RNG     SplitMix
	Weights []Weight
}

// NewOracle returns a game on an empty rows x cols board after start spawns
// from seed. It returns an error for a bad seed, a side outside 2..8, a start
// count outside 0..rows*cols, or weights that are empty, sum to zero,
// overflow, or hold a value that is not a power of two.
func NewOracle(seed string, rows, cols, start int, weights []Weight) (*Oracle, error) {
	key, err := Key(seed)
	if err != nil {
		return nil, err
	}
	if rows < MinSide || rows > MaxSide || cols < MinSide || cols > MaxSide {
		return nil, fmt.Errorf("plain: board %dx%d outside %d..%d", rows, cols, MinSide, MaxSide)
	}
	if start < 0 || start > rows*cols {
		return nil, fmt.Errorf("plain: start tiles %d outside 0..%d", start, rows*cols)
	}
	if len(weights) == 0 {
		return nil, errors.New("plain: no spawn weights")
	}
	var total uint64
	for _, w := range weights {
		if w.Value == 0 || w.Value&(w.Value-1) != 0 {
			return nil, fmt.Errorf("plain: spawn value %d is not a power of two", w.Value)
		}
		if total+w.Weight < total {
			return nil, errors.New("plain: spawn weights overflow")
		}
		total += w.Weight
	}
	if total == 0 {
		return nil, errors.New("plain: spawn weights sum to zero")
	}
	g := &Oracle{
		Board:   NewBoard(rows, cols),
		RNG:     SplitMix{State: key},
		Weights: append([]Weight(nil), weights...),
	}
	for range start {
		Spawn(g.Board, &g.RNG, g.Weights)
	}
	return g, nil
}

// Play applies one move letter; when the board changes it adds the points,
// counts the move and spawns one tile. It reports whether the board changed.
// A move that does not change the board does nothing.
func (g *Oracle) Play(dir byte) bool {
	next, gained, changed := Move(g.Board, dir)
	if !changed {
		return false
	}
	g.Board = next
	g.Score += gained
	g.Moves++
	Spawn(g.Board, &g.RNG, g.Weights)
	return true
}

// Over reports whether no move changes the board.
func (g *Oracle) Over() bool {
	return !CanMove(g.Board)
}
