package replay

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tileproof/tileproof/engine"
)

// ParseSpawnLog reads the move log of a spawn-recorded replay: each move
// letter followed by the tile that appeared, as CELL:VALUE with CELL the
// row-major index on a board of cols columns ("L14:2" is a left move after
// which a 2 appeared in cell 14); Z, E, K and B (a break, after which no
// tile appears) stand alone. White space is ignored.
func ParseSpawnLog(log string, cols int) ([]engine.Action, []engine.Spawn, error) {
	return appendParsedSpawnLog(nil, nil, log, cols)
}

// MaxSpawnLogActions bounds the actions of a spawn-recorded log, far
// beyond the longest game recorded, so that the memory verifying one
// takes is bounded whatever the file's size (docs/security.md has the
// figures).
const MaxSpawnLogActions = 1 << 22

// appendParsedSpawnLog is [ParseSpawnLog] appending to actions and
// spawns, whose room it reuses; on an error it returns them as they were.
func appendParsedSpawnLog(actions []engine.Action, spawns []engine.Spawn, log string, cols int) ([]engine.Action, []engine.Spawn, error) {
	actions0, spawns0 := actions, spawns
	// A cell's row without a division a move: for a cell below 64 (checked
	// below) and cols from 1 to 8, cell*ceil(2^16/cols)>>16 is cell/cols,
	// the rounding up adding less than 64/2^16 to a fraction at most 7/8.
	recip := (1<<16 + cols - 1) / cols
	for i := 0; i < len(log); {
		c := log[i]
		a, ok := engine.ActionOf(c)
		if !ok {
			if isSpace(c) {
				i++
				continue
			}
			return actions0, spawns0, &engine.ActionError{Offset: i, Char: rune(c)}
		}
		at := i
		i++
		var s engine.Spawn
		if a <= engine.MoveRight {
			var cell, value uint64
			switch {
			// The common tokens first: a one-digit value after a one- or
			// two-digit cell ("L3:2", "L14:2"), with something after it.
			// (A one-digit cell is on every board, which has 16 cells or
			// more; a two-digit one is checked.)
			case i+3 < len(log) && log[i+1] == ':' && log[i]-'0' < 10 && log[i+2]-'0' < 10 && log[i+3]-'0' >= 10:
				cell, value, i = uint64(log[i]-'0'), uint64(log[i+2]-'0'), i+3
			case i+4 < len(log) && log[i+2] == ':' && log[i]-'0' < 10 && log[i+1]-'0' < 10 && log[i+3]-'0' < 10 && log[i+4]-'0' >= 10 &&
				uint64(log[i]-'0')*10+uint64(log[i+1]-'0') < uint64(cols)*engine.MaxSide:
				cell, value, i = uint64(log[i]-'0')*10+uint64(log[i+1]-'0'), uint64(log[i+3]-'0'), i+4
			default:
				cell, i, ok = readDecimal(log, i)
				if ok && i < len(log) && log[i] == ':' {
					value, i, ok = readDecimal(log, i+1)
				} else {
					ok = false
				}
				if !ok {
					return actions0, spawns0, &logError{at, fmt.Sprintf("move %q needs its spawn as CELL:VALUE, like %c14:2", c, c)}
				}
				if cell >= uint64(cols)*engine.MaxSide {
					return actions0, spawns0, &logError{at, fmt.Sprintf("move %q spawns in cell %d, outside any board of %d columns (cells count from 0, row by row)", c, cell, cols)}
				}
			}
			row := int(cell) * recip >> 16
			s = engine.Spawn{Row: row, Col: int(cell) - row*cols, Value: value}
		}
		if len(actions) == cap(actions) {
			// Out of room (fresh slices, or reused ones shorter than this
			// log): room for every action left, counted, so that the
			// slices grow once, not by quarters (a spawn takes 24 bytes).
			n := 1 + countActions(log[i:])
			if len(actions)+n > MaxSpawnLogActions {
				return actions0, spawns0, fmt.Errorf("%d actions; a spawn-recorded log holds at most %d (each takes some 34 bytes to verify)", len(actions)+n, MaxSpawnLogActions)
			}
			actions, spawns = slices.Grow(actions, n), slices.Grow(spawns, n)
		}
		actions = append(actions, a)
		spawns = append(spawns, s)
		if i < len(log) && log[i] == ' ' {
			i++ // the space between tokens, as the writers put it, at once
		}
	}
	return actions, spawns, nil
}

// logError is a token of a spawn-recorded log that is not one, at byte
// offset at of the log.
type logError struct {
	at  int
	msg string
}

func (e *logError) Error() string { return fmt.Sprintf("character %d: %s", e.at+1, e.msg) }

// logPlace returns where in doc, a YAML document, the character of the
// move log that err names is, when the log is written as a literal block
// ("moves: |", one line of the log a line of the file): its own line and
// column, where the key's line (at) told only the block's start. A log in
// another form keeps the key's place (ok false).
func logPlace(doc []byte, at pos, log string, err error) (pos, bool) {
	off := -1
	var ae *engine.ActionError
	var le *logError
	switch {
	case errors.As(err, &ae):
		off = ae.Offset
	case errors.As(err, &le):
		off = le.at
	}
	if off < 0 || off >= len(log) || at.line == 0 {
		return pos{}, false
	}
	// The character's line of the log, counted in lines that are not
	// blank, and its place after that line's indentation.
	start := strings.LastIndexByte(log[:off], '\n') + 1
	k := 0
	for l := range strings.Lines(log[:start]) {
		if strings.Trim(l, " \t\r\n") != "" {
			k++
		}
	}
	c := off - start - (len(log[start:off]) - len(strings.TrimLeft(log[start:off], " \t")))
	// The lines of doc one at a time (a split of the whole would take 24
	// bytes a line: 1.6 GB for 64 MiB of newlines).
	n := 0
	for l := range bytes.Lines(doc) {
		n++
		l = bytes.TrimRight(l, "\r\n")
		switch {
		case n < at.line:
		case n == at.line:
			v, ok := bytes.CutPrefix(bytes.TrimRight(l, " \t"), []byte("moves:"))
			if v = bytes.TrimLeft(v, " \t"); !ok || string(v) != "|" && string(v) != "|-" && string(v) != "|+" {
				return pos{}, false
			}
		case len(bytes.TrimSpace(l)) == 0:
		case k > 0:
			k--
		default:
			col := len(l) - len(bytes.TrimLeft(l, " ")) + c
			if col >= len(l) || l[col] != log[off] {
				return pos{}, false // not where it was looked for: the key's place, then
			}
			return pos{line: n, col: col + 1}, true
		}
	}
	return pos{}, false
}

// countActions returns the number of action letters in a move log: at
// least the number of actions it holds.
func countActions(log string) int {
	n := 0
	for i := 0; i < len(log); i++ {
		if isLogLetter(log[i]) {
			n++
		}
	}
	return n
}

// readDecimal reads the decimal digits of s from i: their value and the
// index after them. ok is false when there is no digit, or more than a
// uint64 holds.
func readDecimal(s string, i int) (v uint64, next int, ok bool) {
	j := i
	for ; j < len(s) && '0' <= s[j] && s[j] <= '9'; j++ {
		v = v*10 + uint64(s[j]-'0')
	}
	if j-i > 19 { // 19 digits always fit; 20 may not
		v, err := strconv.ParseUint(s[i:j], 10, 64)
		return v, j, err == nil
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
	texts := logTexts()
	cellTexts, valueTexts := &texts.cells, &texts.values
	for i, a := range actions {
		if spaced && i > 0 {
			b = append(b, ' ')
		}
		t := logText{uint64(a.Letter()), 1}
		if _, isMove := a.Direction(); isMove {
			s := spawns[i]
			cell, v := s.Row*cols+s.Col, s.Value
			var value logText
			if v >= 2 && v&(v-1) == 0 && v <= engine.MaxTile {
				value = valueTexts[bits.TrailingZeros64(v)]
			}
			if uint(cell) >= uint(len(cellTexts)) || value.n == 0 || t.n+cellTexts[cell].n+value.n > 8 {
				// The few spawns whose token takes more than 8 bytes, or
				// that no game has (kept as they are).
				b = append(b, a.Letter())
				b = strconv.AppendUint(b, uint64(cell), 10)
				b = append(b, ':')
				b = strconv.AppendUint(b, v, 10)
				continue
			}
			t = t.then(cellTexts[cell]).then(value)
		}
		b = t.appendTo(b)
	}
	return b
}

// logText is a piece of a move log's text of at most 8 bytes, packed
// little-endian, so that a token is written with one store.
type logText struct {
	text uint64
	n    int
}

func logTextOf(s string) logText {
	var t logText
	for i := len(s) - 1; i >= 0; i-- {
		t.text = t.text<<8 | uint64(s[i])
	}
	t.n = len(s)
	return t
}

// then returns t followed by u; they take at most 8 bytes together.
func (t logText) then(u logText) logText {
	return logText{t.text | u.text<<(8*t.n&63), t.n + u.n}
}

func (t logText) appendTo(b []byte) []byte {
	b = slices.Grow(b, 8)
	n := len(b)
	binary.LittleEndian.PutUint64(b[n:n+8], t.text)
	return b[:n+t.n]
}

// logTexts returns the spawn log writer's tables, made at first use.
func logTexts() *spawnTexts {
	spawnTextsOnce.Do(func() {
		t := &theSpawnTexts
		for c := range t.cells {
			t.cells[c] = logTextOf(strconv.Itoa(c) + ":")
		}
		for e := 1; e < len(t.values); e++ {
			if s := strconv.FormatUint(1<<e, 10); len(s) <= 8 {
				t.values[e] = logTextOf(s)
			}
		}
	})
	return &theSpawnTexts
}

// spawnTexts are the pieces of a spawn's token: its cell and colon,
// "14:", by cell, and the tiles' texts by exponent, for those of at most
// 8 digits (n is 0 for the others).
type spawnTexts struct {
	cells  [engine.MaxSide * engine.MaxSide]logText
	values [engine.MaxExp + 1]logText
}

var (
	spawnTextsOnce sync.Once
	theSpawnTexts  spawnTexts
)

// MoveLog returns the move log as it is written in the replay: letters
// for a seeded replay, tokens with spawns for a spawn-recorded one.
func (r *Replay) MoveLog() string { return string(r.appendMoveLog(nil, true)) }

// appendMoveLog appends the move log to b, a spawn-recorded one's tokens
// separated by spaces when spaced.
func (r *Replay) appendMoveLog(b []byte, spaced bool) []byte {
	if r.Start != nil {
		return appendSpawnLog(b, r.Actions, r.Spawns, r.Start.Cols(), spaced)
	}
	return engine.AppendActions(b, r.Actions)
}
