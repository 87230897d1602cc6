package main

import (
	"errors"
	"slices"
)

// Boards, directions and the slide of a line: the rules' arithmetic.

type dir int

const (
	up dir = iota
	down
	left
	right
)

var dirNames = [4]string{"up", "down", "left", "right"}

func (d dir) String() string { return dirNames[d] }

// board is rows x cols tiles in row-major order, 0 for an empty cell.
type board struct {
	rows, cols int
	cells      []int64
}

func (b board) clone() board {
	b.cells = slices.Clone(b.cells)
	return b
}

func (b board) values() [][]int64 {
	out := make([][]int64, b.rows)
	for r := range out {
		out[r] = append([]int64(nil), b.cells[r*b.cols:(r+1)*b.cols]...)
	}
	return out
}

func (b board) empties() int {
	n := 0
	for _, v := range b.cells {
		if v == 0 {
			n++
		}
	}
	return n
}

// index returns the board index of cell i of line k when moving toward d;
// cell 0 is at the destination edge.
func (b board) index(d dir, k, i int) int {
	switch d {
	case left:
		return k*b.cols + i
	case right:
		return k*b.cols + b.cols - 1 - i
	case up:
		return i*b.cols + k
	default: // down
		return (b.rows-1-i)*b.cols + k
	}
}

var errOverflow = errors.New("a merge would make a tile above 2^52 (or a score above 2^53-1)")

// slideResult is a slide of the whole board, before any spawn.
type slideResult struct {
	board   board
	gained  int64
	made    []int64 // the tiles merges made
	changed bool
}

// slide moves every line toward d. A merge past the largest tile is an
// error, but the result still says whether the board would change.
func (g *game) slide(d dir) (out slideResult, err error) {
	b := g.board
	out.board = b.clone()
	n, length := b.rows, b.cols // the lines moving toward d, and their length
	if d == up || d == down {
		n, length = length, n
	}
	line := make([]int64, length)
	for k := range n {
		for i := range length {
			line[i] = b.cells[b.index(d, k, i)]
		}
		merged, made := g.slideLine(line)
		for i, v := range merged {
			out.board.cells[b.index(d, k, i)] = v
		}
		for _, v := range made {
			if v > maxTile {
				err = errOverflow
			}
			out.made = append(out.made, v)
			out.gained += g.points(v)
		}
	}
	out.changed = !slices.Equal(out.board.cells, b.cells)
	return out, err
}

// points is what a merge that makes tile v scores.
func (g *game) points(v int64) int64 {
	switch g.mutant {
	case "score-both-tiles": // MUTANT: counts the new tile twice
		return 2 * v
	case "score-old-value": // MUTANT: scores one of the old tiles
		return v / 2
	}
	return v
}

// slideLine slides one line toward index 0: compress the gaps, merge each
// pair of equal neighbours once (the pair nearest index 0 first), pad with
// empties. It returns the new line and the tiles the merges made.
func (g *game) slideLine(line []int64) (out []int64, made []int64) {
	switch g.mutant {
	case "greedy-double-merge": // MUTANT: keeps merging until nothing merges: [2 2 2 2] -> [8]
		out = line
		for {
			var more []int64
			out, more = mergeLine(out, false)
			if len(more) == 0 {
				return out, made
			}
			made = append(made, more...)
		}
	case "merge-chain": // MUTANT: a merged tile merges again with the next equal one: [2 2 4] -> [8]
		return mergeLine(line, true)
	case "merge-priority-reversed": // MUTANT: the pair farthest from the edge merges first: [2 2 2] -> [2 4]
		tiles := slices.Clone(line)
		slices.Reverse(tiles)
		tiles, made = mergeLine(tiles, false)
		tiles = compress(tiles)
		slices.Reverse(tiles)
		return pad(tiles, len(line)), made
	case "no-compress-before-merge": // MUTANT: merges neighbours before closing the gaps: [2 . 2 .] -> [2 2 . .]
		tiles := append([]int64(nil), line...)
		for i := 0; i+1 < len(tiles); i++ {
			if tiles[i] != 0 && tiles[i] == tiles[i+1] {
				tiles[i] *= 2
				made = append(made, tiles[i])
				tiles[i+1] = 0
				i++
			}
		}
		return pad(compress(tiles), len(line)), made
	}
	return mergeLine(line, false)
}

// mergeLine is the merge rule: each tile is placed after the last, or
// merges into it when equal and (unless chain) the last was not made by a
// merge in this move.
func mergeLine(line []int64, chain bool) (out []int64, made []int64) {
	var merged []bool
	for _, v := range compress(line) {
		n := len(out)
		if n > 0 && out[n-1] == v && (chain || !merged[n-1]) {
			out[n-1] *= 2
			merged[n-1] = true
			made = append(made, out[n-1])
			continue
		}
		out = append(out, v)
		merged = append(merged, false)
	}
	return pad(out, len(line)), made
}

func compress(line []int64) []int64 {
	var out []int64
	for _, v := range line {
		if v != 0 {
			out = append(out, v)
		}
	}
	return out
}

func pad(line []int64, n int) []int64 {
	out := make([]int64, n)
	copy(out, line)
	return out
}

// blocked reports whether the game is over: no move changes the board. It
// is true for a full board without equal neighbours, and for an empty one
// in a profile whose rule counts it (emptyOver).
func (g *game) blocked() bool {
	empty := g.board.empties()
	switch {
	case empty == len(g.board.cells):
		return g.p.emptyOver
	case g.mutant == "game-over-when-full": // MUTANT: a full board is over, pairs or not
		return empty == 0
	case empty > 0:
		return false
	}
	dirs := []dir{up, down, left, right}
	if g.mutant == "game-over-ignores-vertical" { // MUTANT: only looks along the rows
		dirs = dirs[2:]
	}
	return !slices.ContainsFunc(dirs, g.changes)
}

// changes reports whether moving toward d changes the board (a move whose
// merge would overflow does, and is refused when made).
func (g *game) changes(d dir) bool {
	s, _ := g.slide(d)
	return s.changed
}
