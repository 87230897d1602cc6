package driver

// Checking a decoded answer against the schema: what the reader's types
// cannot say (required and unexpected keys, ranges, tiles, lengths).

import (
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/protocol"
)

// checker checks a decoded answer for what its structs cannot say; the
// first error sticks.
type checker struct{ err error }

func (c *checker) fail(at, msg string) {
	if c.err == nil {
		c.err = &schemaError{at, msg}
	}
}

// keys checks the keys g of an object at at, whose names are names:
// those of required given, no null but for those of nullable, and, when
// only is not "", no key beyond required (only says whose).
func (c *checker) keys(at string, names []string, g given, required, nullable uint16, only string) {
	for i, name := range names {
		switch k := uint16(1) << i; {
		case required&k != 0 && !g.has(k):
			c.fail(at, fmt.Sprintf("missing field %q", name))
		case required&k == 0 && g.has(k) && only != "":
			c.fail(at+"/"+name, "a field "+only+" does not have")
		case g.null&k != 0 && nullable&k == 0:
			c.fail(at+"/"+name, "null, where the schema has a value")
		}
	}
}

// answer checks w, an answer to op whose keys with ok true are okKeys,
// and returns it.
func (c *checker) answer(op string, okKeys uint16, w *answerLine) protocol.Answer {
	a := protocol.Answer{OK: w.OK}
	if !w.has(keyOK) {
		c.fail("", `missing field "ok"`)
		return a
	}
	want := okKeys
	if !a.OK {
		want = keyID | keyOK | keyError | keyMessage
	}
	only := ""
	if w.set&^want != 0 {
		only = fmt.Sprintf("an answer to %s with ok %v", op, a.OK)
	}
	c.keys("", answerNames, w.given, want, keyID|keySpawn, only)
	if c.err != nil {
		return a
	}
	a.ID = int64(c.integer("/id", w.ID, w.value(keyID), 1, engine.MaxSafeInteger))
	a.Error = w.Error
	a.Message = c.str("/message", w.Message, 0, protocol.MaxMessageLength)
	a.Protocol = int(c.integer("/protocol", w.Protocol, w.has(keyProtocol), 1, 1<<31-1))
	if w.has(keyName) {
		a.Name = c.str("/name", w.Name, 1, protocol.MaxNameLength)
	}
	a.Version = c.str("/version", w.Version, 0, protocol.MaxNameLength)
	if w.has(keyProfiles) {
		a.Profiles = c.list("/profiles", w.Profiles, 1, protocol.MaxProfiles, func(at, s string) { c.str(at, s, 1, protocol.MaxProfileLength) })
	}
	if w.has(keyFeatures) {
		a.Features = c.list("/features", w.Features, 0, protocol.MaxFeatures, func(at, s string) {
			if !protocol.KnownFeature(s) {
				c.fail(at, fmt.Sprintf("%q is not a feature of the protocol", safetext.Cut(s, 60)))
			}
		})
	}
	a.Changed = w.Changed
	a.Gained = c.integer("/gained", w.Gained, w.has(keyGained), 0, engine.MaxSafeInteger)
	if s := &w.Spawn; w.value(keySpawn) {
		c.keys("/spawn", spawnNames, s.given, 1<<len(spawnNames)-1, 0, "")
		a.Spawn = &engine.Spawn{
			Row:   int(c.integer("/spawn/row", s.Row, s.value(keyRow), 0, 7)),
			Col:   int(c.integer("/spawn/col", s.Col, s.value(keyCol), 0, 7)),
			Value: c.tile("/spawn/value", s.Value, false),
		}
	}
	if w.has(keyLegal) {
		a.Legal = c.list("/legal", w.Legal, 0, 4, func(at, s string) {
			switch s {
			case "up", "down", "left", "right":
			default:
				c.fail(at, fmt.Sprintf("%q is not up, down, left or right", safetext.Cut(s, 60)))
			}
		})
		for i, dir := range a.Legal {
			if slices.Index(a.Legal, dir) < i {
				c.fail("/legal", fmt.Sprintf("%s is listed twice", dir))
			}
		}
	}
	if w.has(keyState) {
		a.State = c.state(&w.State)
	}
	nullID := w.has(keyID) && !w.value(keyID)
	switch {
	case c.err != nil:
	case a.OK && nullID:
		c.fail("/id", "null, but only an answer with ok false to a line that was not a request has a null id")
	case !a.OK && !protocol.RuleWord(a.Error) && !protocol.ProtocolWord(a.Error):
		c.fail("/error", fmt.Sprintf("%q is not an error word of the protocol", safetext.Cut(a.Error, 60)))
	case !a.OK && nullID && a.Error != protocol.ErrorBadRequest:
		c.fail("/error", fmt.Sprintf("%s, but an answer with a null id is bad-request", a.Error))
	}
	return a
}

func (c *checker) state(w *stateLine) *protocol.WireState {
	c.keys("/state", stateNames, w.given, (1<<len(stateNames)-1)&^keyResult, 0, "")
	st := &protocol.WireState{Won: w.Won, Over: w.Over, Result: w.Result}
	rows := w.Board
	c.count("/state/board", len(rows), 2, 8)
	st.Board = make([][]uint64, len(rows))
	cells := make([]uint64, 0, 64)
	for r, row := range rows {
		if len(row) < 2 || len(row) > 8 {
			c.count("/state/board/"+strconv.Itoa(r), len(row), 2, 8)
		}
		for i, n := range row {
			if n.isTile(true) {
				cells = append(cells, n.v) // no pointer is worded
				continue
			}
			cells = append(cells, c.tile("/state/board/"+strconv.Itoa(r)+"/"+strconv.Itoa(i), n, true))
		}
		st.Board[r] = cells[len(cells)-len(row):]
	}
	st.Score = c.integer("/state/score", w.Score, w.value(keyScore), 0, engine.MaxSafeInteger)
	st.Moves = int(c.integer("/state/moves", w.Moves, w.value(keyMoves), 0, engine.MaxSafeInteger))
	if w.has(keyResult) && !slices.Contains([]string{"playing", "target-reached", "no-moves", "move-limit", "run-finished"}, st.Result) {
		c.fail("/state/result", fmt.Sprintf("%q is not playing, target-reached, no-moves, move-limit or run-finished", safetext.Cut(st.Result, 60)))
	}
	if w.has(keyResult) && st.Over != (st.Result != "playing") {
		c.fail("/state/over", fmt.Sprintf("%v, but the result is %s", st.Over, st.Result))
	}
	// Beyond the schema: the rows of a board are of one length.
	for r, row := range st.Board {
		if len(row) != len(st.Board[0]) {
			c.fail(fmt.Sprintf("/state/board/%d", r), fmt.Sprintf("%d cells; row 0 has %d", len(row), len(st.Board[0])))
		}
	}
	return st
}

// integer checks that n, at at, is an integer from min to max when
// given.
func (c *checker) integer(at string, n integer, given bool, min, max uint64) uint64 {
	switch {
	case !given:
	case !n.ok:
		c.fail(at, fmt.Sprintf("%s is not an integer from %d to %d", safetext.Cut(n.String(), 40), min, max))
	case n.neg || n.v < min || n.v > max:
		c.fail(at, fmt.Sprintf("%s is not from %d to %d", safetext.Cut(n.String(), 40), min, max))
	}
	return n.v
}

// tile checks a tile at at, a power of two from 2 to 2^52, or 0 when
// empty is true.
func (c *checker) tile(at string, n integer, empty bool) uint64 {
	if n.isTile(empty) {
		return n.v
	}
	c.integer(at, n, true, 0, engine.MaxTile)
	switch v := n.v; {
	case v == 0 && empty, v >= 2 && v&(v-1) == 0:
	case empty:
		c.fail(at, fmt.Sprintf("%d is not 0 or a tile (a power of two, 2 to 2^52)", v))
	default:
		c.fail(at, fmt.Sprintf("%d is not a tile (a power of two, 2 to 2^52)", v))
	}
	return n.v
}

// isTile reports whether n is a tile, a power of two from 2 to 2^52, or
// 0 when empty is true.
func (n integer) isTile(empty bool) bool {
	v := n.v
	return n.ok && !n.neg && v <= engine.MaxTile && (v == 0 && empty || v >= 2 && v&(v-1) == 0)
}

// str checks that s has min to max characters as JSON Schema counts
// them: code points.
func (c *checker) str(at, s string, min, max int) string {
	n := utf8.RuneCountInString(s)
	switch {
	case n < min && min == 1:
		c.fail(at, "an empty string")
	case n < min:
		c.fail(at, fmt.Sprintf("%d characters, fewer than %d", n, min))
	case n > max:
		c.fail(at, fmt.Sprintf("%d characters, more than %d", n, max))
	}
	return s
}

// list checks that l, at at, has min to max items, each by item.
func (c *checker) list(at string, l []string, min, max int, item func(at, s string)) []string {
	c.count(at, len(l), min, max)
	for i, s := range l {
		item(at+"/"+strconv.Itoa(i), s)
	}
	if l == nil {
		l = []string{}
	}
	return l
}

// count checks that an array at at has min to max items.
func (c *checker) count(at string, n, min, max int) {
	switch {
	case n > max:
		c.fail(at, fmt.Sprintf("more than %d items", max))
	case n < min:
		c.fail(at, fmt.Sprintf("%d items, fewer than %d", n, min))
	}
}
