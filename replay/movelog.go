package replay

import (
	"fmt"
	"math/bits"
	"strconv"

	"github.com/tileproof/tileproof/engine"
)

// ParseSpawnLog reads the move log of a spawn-recorded replay: each move
// letter followed by the tile that appeared, as CELL:VALUE with CELL the
// row-major index on a board of cols columns ("L14:2" is a left move after
// which a 2 appeared in cell 14); Z, E, K and B (a break, after which no
// tile appears) stand alone. White space is ignored.
func ParseSpawnLog(log string, cols int) ([]engine.Action, []engine.Spawn, error) {
	n := 0 // the actions: one letter each
	for i := 0; i < len(log); i++ {
		if isLogLetter(log[i]) {
			n++
		}
	}
	actions, spawns := make([]engine.Action, 0, n), make([]engine.Spawn, 0, n)
	// A cell's row without a division a move: for a cell below 64 (checked
	// below) and cols from 1 to 8, cell*ceil(2^16/cols)>>16 is cell/cols,
	// the rounding up adding less than 64/2^16 to a fraction at most 7/8.
	recip := (1<<16 + cols - 1) / cols
	for i := 0; i < len(log); {
		c := log[i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			i++
			continue
		}
		at := i
		a, ok := engine.ActionOf(c)
		if !ok {
			return nil, nil, &engine.ActionError{Offset: at, Char: rune(c)}
		}
		i++
		var s engine.Spawn
		if _, isMove := a.Direction(); isMove {
			var cell, value uint64
			cell, i, ok = readDecimal(log, i)
			if ok && i < len(log) && log[i] == ':' {
				value, i, ok = readDecimal(log, i+1)
			} else {
				ok = false
			}
			if !ok {
				return nil, nil, fmt.Errorf("character %d: move %q needs its spawn as CELL:VALUE, like %c14:2", at+1, c, c)
			}
			if cell >= uint64(cols)*engine.MaxSide {
				return nil, nil, fmt.Errorf("character %d: move %q spawns in cell %d, outside any board of %d columns (cells count from 0, row by row)", at+1, c, cell, cols)
			}
			row := int(cell) * recip >> 16
			s = engine.Spawn{Row: row, Col: int(cell) - row*cols, Value: value}
		}
		actions = append(actions, a)
		spawns = append(spawns, s)
	}
	return actions, spawns, nil
}

// readDecimal reads the decimal digits of s from i: their value and the
// index after them. ok is false when there is no digit, or more than a
// uint64 holds.
func readDecimal(s string, i int) (v uint64, next int, ok bool) {
	j := i
	for ; j < len(s) && '0' <= s[j] && s[j] <= '9'; j++ {
		d := uint64(s[j] - '0')
		if v > (1<<64-1-d)/10 {
			return 0, j, false
		}
		v = v*10 + d
	}
	return v, j, j > i
}

// FormatSpawnLog writes a spawn-recorded move log, the inverse of
// [ParseSpawnLog], tokens separated by spaces.
func FormatSpawnLog(actions []engine.Action, spawns []engine.Spawn, cols int) string {
	return string(appendSpawnLog(make([]byte, 0, 8*len(actions)), actions, spawns, cols, true))
}

// appendSpawnLog appends a spawn-recorded move log to b, its tokens
// separated by spaces when spaced (the canonical form has none).
func appendSpawnLog(b []byte, actions []engine.Action, spawns []engine.Spawn, cols int, spaced bool) []byte {
	for i, a := range actions {
		if spaced && i > 0 {
			b = append(b, ' ')
		}
		b = append(b, a.Letter())
		if _, isMove := a.Direction(); isMove {
			b = strconv.AppendUint(b, uint64(spawns[i].Row*cols+spawns[i].Col), 10)
			b = append(b, ':')
			if v := spawns[i].Value; v != 0 && v&(v-1) == 0 && v <= engine.MaxTile {
				b = append(b, tileTexts[bits.TrailingZeros64(v)]...)
			} else {
				b = strconv.AppendUint(b, v, 10)
			}
		}
	}
	return b
}

// tileTexts are the tiles' decimal texts by exponent.
var tileTexts = func() (t [engine.MaxExp + 1]string) {
	for e := range t {
		t[e] = strconv.FormatUint(1<<e, 10)
	}
	return t
}()

// MoveLog returns the move log as it is written in the replay: letters
// for a seeded replay, tokens with spawns for a spawn-recorded one.
func (r *Replay) MoveLog() string {
	if r.Start != nil {
		return FormatSpawnLog(r.Actions, r.Spawns, r.Start.Cols())
	}
	return engine.FormatActions(r.Actions)
}
