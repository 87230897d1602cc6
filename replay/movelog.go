package replay

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tileproof/tileproof/engine"
)

// ParseSpawnLog reads the move log of a spawn-recorded replay: each move
// letter followed by the tile that appeared, as CELL:VALUE with CELL the
// row-major index on a board of cols columns ("L14:2" is a left move after
// which a 2 appeared in cell 14); Z, E, K and B (a break, after which no
// tile appears) stand alone. White space is ignored.
func ParseSpawnLog(log string, cols int) ([]engine.Action, []engine.Spawn, error) {
	var actions []engine.Action
	var spawns []engine.Spawn
	i := 0
	skip := func() {
		for i < len(log) && strings.IndexByte(" \t\r\n", log[i]) >= 0 {
			i++
		}
	}
	number := func() (uint64, bool) {
		j := i
		for i < len(log) && '0' <= log[i] && log[i] <= '9' {
			i++
		}
		v, err := strconv.ParseUint(log[j:i], 10, 64)
		return v, err == nil
	}
	for skip(); i < len(log); skip() {
		at := i
		a, ok := engine.ActionOf(log[i])
		if !ok {
			return nil, nil, &engine.ActionError{Offset: at, Char: rune(log[i])}
		}
		i++
		var s engine.Spawn
		if _, isMove := a.Direction(); isMove {
			cell, ok := number()
			if ok && i < len(log) && log[i] == ':' {
				i++
				var value uint64
				value, ok = number()
				s.Value = value
			} else {
				ok = false
			}
			if !ok {
				return nil, nil, fmt.Errorf("character %d: move %q needs its spawn as CELL:VALUE, like %c14:2", at+1, log[at], log[at])
			}
			if cell >= uint64(cols)*engine.MaxSide {
				return nil, nil, fmt.Errorf("character %d: move %q spawns in cell %d, outside any board of %d columns (cells count from 0, row by row)", at+1, log[at], cell, cols)
			}
			s.Row, s.Col = int(cell)/cols, int(cell)%cols
		}
		actions = append(actions, a)
		spawns = append(spawns, s)
	}
	return actions, spawns, nil
}

// FormatSpawnLog writes a spawn-recorded move log, the inverse of
// [ParseSpawnLog], tokens separated by spaces. (Appends, not fmt: the
// canonical form of every spawn-recorded replay writes one.)
func FormatSpawnLog(actions []engine.Action, spawns []engine.Spawn, cols int) string {
	b := make([]byte, 0, 8*len(actions))
	for i, a := range actions {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, a.Letter())
		if _, isMove := a.Direction(); isMove {
			b = strconv.AppendInt(b, int64(spawns[i].Row*cols+spawns[i].Col), 10)
			b = strconv.AppendUint(append(b, ':'), spawns[i].Value, 10)
		}
	}
	return string(b)
}

// MoveLog returns the move log as it is written in the replay: letters
// for a seeded replay, tokens with spawns for a spawn-recorded one.
func (r *Replay) MoveLog() string {
	if r.Start != nil {
		return FormatSpawnLog(r.Actions, r.Spawns, r.Start.Cols())
	}
	return engine.FormatActions(r.Actions)
}
