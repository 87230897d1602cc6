package engine

import (
	"fmt"
	"math"
	"math/bits"
)

// MaxSafeInteger is 2^53-1, the largest integer JavaScript (and so a JSON
// reader in a browser) represents exactly. No tile and no score may exceed it.
const MaxSafeInteger = 1<<53 - 1

// MaxMoves is the largest move count a game reaches: MaxSafeInteger where
// int has 64 bits, 2^31-1 where it has 32 (386, arm). A move past it is
// refused as overflow ([ErrMovesOverflow]), never counted by wrapping.
const MaxMoves = min(MaxSafeInteger, math.MaxInt)

// MaxLine is the longest line [MergeLine] accepts.
const MaxLine = 16

// slide compresses line toward index 0, merges each pair of equal neighbours
// once (the pair nearest index 0 first; a merged cell never merges again),
// and pads with zeros, in place. A cell holds a code: 0 is empty and two equal
// codes c merge into c+1. Bit i of merged is set when output cell i was made
// by a merge. It is the one statement of the merge rule in the engine: the
// boards, the packed tables and [MergeLine] are all built on it.
func slide(line []uint8) (merged uint32) {
	n := 0 // cells written so far
	for _, c := range line {
		if c == 0 {
			continue
		}
		if n > 0 && line[n-1] == c && merged&(1<<(n-1)) == 0 {
			line[n-1] = c + 1
			merged |= 1 << (n - 1)
			continue
		}
		line[n] = c
		n++
	}
	clear(line[n:])
	return merged
}

// LineResult is the outcome of [MergeLine], named as in the Merge-line
// tool (docs/sources.md).
type LineResult struct {
	// Line is the line after a left swipe, as long as the input.
	Line []int64
	// Score is the sum of the tiles made by merges.
	Score int64
	// Changed reports whether any cell's value changed.
	Changed bool
}

// LineError is an input error of [MergeLine]. Index is the 0-based cell it
// concerns, or -1 when it concerns the whole line.
type LineError struct {
	Index int
	Msg   string
}

// Error returns the fault, with its cell when it has one.
func (e *LineError) Error() string {
	if e.Index < 0 {
		return e.Msg
	}
	return fmt.Sprintf("cell %d: %s", e.Index, e.Msg)
}

// MergeLine applies a left swipe to one line, as the merge-line tool of seed
// 004 does: scan the non-zero cells from the left, merge disjoint equal pairs,
// pad with zeros to the original length. The line holds 1 to 16 cells, each 0
// or a power of two up to 2^52 (1 = 2^0 included). A merged tile or a score
// above [MaxSafeInteger] is an input error, as are negative values and
// values that are not powers of two; errors are [*LineError].
func MergeLine(line []int64) (LineResult, error) {
	if len(line) == 0 || len(line) > MaxLine {
		return LineResult{}, &LineError{-1, fmt.Sprintf("a line holds 1 to %d cells, not %d", MaxLine, len(line))}
	}
	var codes [MaxLine]uint8
	for i, v := range line {
		switch {
		case v < 0:
			return LineResult{}, &LineError{i, fmt.Sprintf("%d is negative", v)}
		case v&(v-1) != 0:
			return LineResult{}, &LineError{i, fmt.Sprintf("%d is not 0 or a power of two", v)}
		case v > 1<<52:
			return LineResult{}, &LineError{i, fmt.Sprintf("%d is above 2^52", v)}
		}
		codes[i] = uint8(bits.Len64(uint64(v))) // 0 -> 0, 2^k -> k+1
	}
	merged := slide(codes[:len(line)])
	res := LineResult{Line: make([]int64, len(line))}
	for i, c := range codes[:len(line)] {
		var v int64
		if c > 0 {
			if c-1 > 52 {
				return LineResult{}, &LineError{-1, fmt.Sprintf("merging makes 2^%d = %d, above the safe-integer limit 2^53-1", c-1, uint64(1)<<(c-1))}
			}
			v = 1 << (c - 1)
		}
		res.Line[i] = v
		if merged&(1<<i) != 0 {
			res.Score += v
		}
		res.Changed = res.Changed || v != line[i]
	}
	if res.Score > MaxSafeInteger {
		return LineResult{}, &LineError{-1, fmt.Sprintf("the merge score %d is above the safe-integer limit 2^53-1", res.Score)}
	}
	return res, nil
}
