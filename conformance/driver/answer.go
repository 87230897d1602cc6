package driver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/strictjson"
	"github.com/tileproof/tileproof/protocol"
)

// Reading an answer line: docs/protocol.schema.json's answer-to-OP. The
// line is decoded strictly (internal/strictjson: a key given twice, an
// unknown key, invalid UTF-8 and a value of the wrong kind are refused)
// into the structs below, which say which keys were given; what a struct
// cannot say is checked after: the keys each op's answer has, ranges,
// lengths, words, the rows of a board of one length (which the schema
// cannot say either). FuzzExecAnswer and TestAnswerSchema hold it to the
// schema: the same verdict on every line.

// schemaError is an answer the schema refuses: where, and why.
type schemaError struct {
	Field string // a JSON pointer into the answer, "/state/moves"; "" for the answer itself
	Msg   string
}

func (e *schemaError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + ": " + e.Msg
}

// given is a key of an answer's object: whether it was given, and
// whether as null.
type given[T any] struct {
	V    T
	Set  bool
	Null bool
}

// UnmarshalJSONFrom reads the key's value; null is noted, not refused
// (the two keys that may be null are the answer's id and spawn).
func (g *given[T]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	g.Set = true
	k := dec.PeekKind()
	if k == 'n' {
		g.Null = true
		_, err := dec.ReadToken()
		return err
	}
	// The scalars read here: json.UnmarshalDecode is the general way, and
	// costs more than the rest of a key (docs/protocol.md, "Costs").
	switch v := any(&g.V).(type) {
	case *integer:
		return v.UnmarshalJSONFrom(dec)
	case *bool:
		if k != 't' && k != 'f' {
			return wrongKind{"true or false", k}
		}
		*v = k == 't'
		_, err := dec.ReadToken()
		return err
	case *string:
		if k != '"' {
			return wrongKind{"a string", k}
		}
		t, err := dec.ReadToken()
		*v = t.String()
		return err
	}
	return json.UnmarshalDecode(dec, &g.V)
}

// integer is a JSON Schema integer: a number with no fraction, whatever
// its spelling (3, 3.0 and 0.3e1 alike); its range is checked by
// [integer.outside].
type integer struct {
	set bool
	lit string // as written, when not in plain digits
	v   uint64
	neg bool // below zero (-0 is zero)
	ok  bool // no fraction, and within 64 bits
}

// UnmarshalJSONFrom reads a number.
func (n *integer) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch k := dec.PeekKind(); k {
	case '0':
	case 0:
		_, err := dec.ReadToken()
		return err
	default:
		return wrongKind{"an integer", k}
	}
	lit, err := dec.ReadValue()
	if err != nil {
		return err
	}
	n.set = true
	n.v, n.neg, n.ok = exactInteger(lit)
	if strings.Trim(string(lit), "0123456789") != "" { // no allocation: the conversion does not escape
		n.lit = string(lit)
	}
	return nil
}

// String returns the number as written.
func (n integer) String() string {
	if n.lit != "" {
		return n.lit
	}
	return strconv.FormatUint(n.v, 10)
}

// board is a state's board, rows of cells, read without reflection (the
// general way's slices cost more than the rest of an answer).
type board struct{ rows [][]integer }

// boardError is a board the schema refuses: where in it (row and cell
// -1 for none), and why.
type boardError struct {
	row, cell int
	msg       string
}

func (e boardError) Error() string { return e.msg }

// at returns the pointer to where e is.
func (e boardError) at() string {
	p := "/state/board"
	for _, i := range []int{e.row, e.cell} {
		if i >= 0 {
			p += "/" + strconv.Itoa(i)
		}
	}
	return p
}

// UnmarshalJSONFrom reads at most 8 rows of at most 8 cells.
func (b *board) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	list := func(row int, item func(i int) error) error {
		switch k := dec.PeekKind(); k {
		case '[':
		case 0:
			_, err := dec.ReadToken()
			return err
		default:
			return boardError{row, -1, wrongKind{"an array", k}.Error()}
		}
		dec.ReadToken()
		for i := 0; dec.PeekKind() != ']'; i++ {
			if i == 8 {
				return boardError{row, -1, "more than 8 items"}
			}
			if err := item(i); err != nil {
				return err
			}
		}
		_, err := dec.ReadToken()
		return err
	}
	return list(-1, func(r int) error {
		var row []integer
		err := list(r, func(c int) error {
			var n integer
			err := n.UnmarshalJSONFrom(dec)
			if wk, ok := err.(wrongKind); ok {
				return boardError{r, c, wk.Error()}
			}
			row = append(row, n)
			return err
		})
		b.rows = append(b.rows, row)
		return err
	})
}

// wrongKind is a value of another kind than the schema's.
type wrongKind struct {
	want string
	got  jsontext.Kind
}

func (e wrongKind) Error() string { return "want " + e.want + ", not " + strictjson.KindName(e.got) }

// The answer's objects, key by key as the schema has them.
type (
	answerLine struct {
		ID       given[integer]   `json:"id"`
		OK       given[bool]      `json:"ok"`
		Error    given[string]    `json:"error"`
		Message  given[string]    `json:"message"`
		Protocol given[integer]   `json:"protocol"`
		Name     given[string]    `json:"name"`
		Version  given[string]    `json:"version"`
		Profiles given[[]string]  `json:"profiles"`
		Features given[[]string]  `json:"features"`
		Changed  given[bool]      `json:"changed"`
		Gained   given[integer]   `json:"gained"`
		Spawn    given[spawnLine] `json:"spawn"`
		Legal    given[[]string]  `json:"legal"`
		State    given[stateLine] `json:"state"`
	}
	spawnLine struct {
		Row   given[integer] `json:"row"`
		Col   given[integer] `json:"col"`
		Value given[integer] `json:"value"`
	}
	stateLine struct {
		Board  given[board]   `json:"board"`
		Score  given[integer] `json:"score"`
		Moves  given[integer] `json:"moves"`
		Won    given[bool]    `json:"won"`
		Over   given[bool]    `json:"over"`
		Result given[string]  `json:"result"`
	}
)

// The keys of each kind of answer, all required: a refusal's, and those
// of each op's answer with ok true.
var (
	refusalKeys = []string{"id", "ok", "error", "message"}
	helloKeys   = []string{"id", "ok", "protocol", "name", "version", "profiles", "features"}
	stateKeys   = []string{"id", "ok", "state"}
	moveKeys    = []string{"id", "ok", "changed", "gained", "spawn", "state"}
	legalKeys   = []string{"id", "ok", "legal"}
)

// answerKeys returns the keys of op's answer with ok true.
func answerKeys(op string) ([]string, bool) {
	switch op {
	case protocol.OpHello:
		return helloKeys, true
	case protocol.OpNew, protocol.OpLoad, protocol.OpUndo, protocol.OpEndRun, protocol.OpKeepPlaying:
		return stateKeys, true
	case protocol.OpMove:
		return moveKeys, true
	case protocol.OpLegal:
		return legalKeys, true
	}
	return nil, false
}

// answerNames are answerLine's keys, in its order.
var answerNames = []string{"id", "ok", "error", "message", "protocol", "name", "version", "profiles", "features", "changed", "gained", "spawn", "legal", "state"}

// key is a [given] of any type.
type key interface{ given() (set, null bool) }

func (g *given[T]) given() (set, null bool) { return g.Set, g.Null }

// reader reads answer lines; the exec driver keeps one.
type reader struct{}

// readAnswer reads the answer line to a request of op (the line without
// its newline), as docs/protocol.schema.json's answer-to-OP states it.
func readAnswer(op string, line []byte) (protocol.Answer, error) {
	return reader{}.read(op, line)
}

// read is readAnswer.
func (reader) read(op string, line []byte) (protocol.Answer, error) {
	okKeys, known := answerKeys(op)
	if !known {
		return protocol.Answer{}, &schemaError{"", fmt.Sprintf("%q is not an op of the protocol", op)}
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return protocol.Answer{}, &schemaError{"", "an empty line, not a JSON object"}
	}
	var w answerLine
	if err := json.Unmarshal(line, &w, strictjson.Options()); err != nil {
		return protocol.Answer{}, decodeError(err)
	}
	c := checker{}
	a := c.answer(op, okKeys, &w)
	if c.err != nil {
		return protocol.Answer{}, c.err
	}
	return a, nil
}

// decodeError words what the strict decoding refused.
func decodeError(err error) error {
	if se, ok := errors.AsType[*jsontext.SyntacticError](err); ok {
		if errors.Is(err, jsontext.ErrDuplicateName) {
			return &schemaError{string(se.JSONPointer), "a key given twice"}
		}
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			return &schemaError{string(se.JSONPointer.Parent()), "not JSON: " + strings.TrimPrefix(se.Err.Error(), "jsontext: ") + " at byte " + strconv.FormatInt(se.ByteOffset, 10)}
		}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &schemaError{"", "not JSON: the line ends inside a value"}
	}
	se, ok := errors.AsType[*json.SemanticError](err)
	if !ok {
		return &schemaError{"", "not JSON: " + err.Error()}
	}
	ptr := string(se.JSONPointer)
	var wk wrongKind
	var be boardError
	switch {
	case errors.As(err, &be):
		return &schemaError{be.at(), be.msg}
	case errors.Is(err, json.ErrUnknownName):
		return &schemaError{ptr, "unknown field"}
	case errors.As(err, &wk):
		return &schemaError{ptr, wk.Error()}
	case ptr == "":
		return &schemaError{"", "the answer is " + strictjson.KindName(se.JSONKind) + ", not a JSON object"}
	}
	return &schemaError{ptr, wrongKind{want(se.GoType), se.JSONKind}.Error()}
}

// want names what a value of Go type t is in the schema.
func want(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "an array"
	}
	return "an object"
}

// checker checks a decoded answer for what its structs cannot say; the
// first error sticks.
type checker struct {
	err error
}

func (c *checker) fail(at, msg string) {
	if c.err == nil {
		c.err = &schemaError{at, msg}
	}
}

// answer checks w, an answer to op whose keys with ok true are okKeys,
// and returns it.
func (c *checker) answer(op string, okKeys []string, w *answerLine) protocol.Answer {
	a := protocol.Answer{OK: w.OK.V}
	if !w.OK.Set {
		c.fail("", `missing field "ok"`)
		return a
	}
	want := okKeys
	if !a.OK {
		want = refusalKeys
	}
	for i, g := range []key{&w.ID, &w.OK, &w.Error, &w.Message, &w.Protocol, &w.Name, &w.Version, &w.Profiles, &w.Features, &w.Changed, &w.Gained, &w.Spawn, &w.Legal, &w.State} {
		name := answerNames[i]
		set, null := g.given()
		switch wanted := slices.Contains(want, name); {
		case wanted && !set:
			c.fail("", fmt.Sprintf("missing field %q", name))
		case !wanted && set:
			c.fail("/"+name, fmt.Sprintf("a field an answer to %s with ok %v does not have", op, a.OK))
		case null && name != "id" && name != "spawn":
			c.fail("/"+name, "null, where the schema has a value")
		}
	}
	if c.err != nil {
		return a
	}
	if !w.ID.Null {
		a.ID = int64(c.integer("/id", w.ID.V, 1, engine.MaxSafeInteger))
	}
	a.Error = w.Error.V
	a.Message = c.str("/message", w.Message.V, 0, protocol.MaxMessageLength)
	if w.Protocol.Set {
		a.Protocol = int(c.integer("/protocol", w.Protocol.V, 1, 1<<31-1))
	}
	if w.Name.Set {
		a.Name = c.str("/name", w.Name.V, 1, protocol.MaxNameLength)
	}
	a.Version = c.str("/version", w.Version.V, 0, protocol.MaxNameLength)
	if w.Profiles.Set {
		a.Profiles = c.list("/profiles", w.Profiles.V, 1, protocol.MaxProfiles, func(at, s string) { c.str(at, s, 1, protocol.MaxProfileLength) })
	}
	if w.Features.Set {
		a.Features = c.list("/features", w.Features.V, 0, protocol.MaxFeatures, func(at, s string) {
			if !protocol.KnownFeature(s) {
				c.fail(at, fmt.Sprintf("%q is not a feature of the protocol", truncate(s, 60)))
			}
		})
	}
	a.Changed = w.Changed.V
	a.Gained = c.integer("/gained", w.Gained.V, 0, engine.MaxSafeInteger)
	if w.Spawn.Set && !w.Spawn.Null {
		a.Spawn = c.spawn(&w.Spawn.V)
	}
	if w.Legal.Set {
		a.Legal = c.list("/legal", w.Legal.V, 0, 4, func(at, s string) {
			switch s {
			case "up", "down", "left", "right":
			default:
				c.fail(at, fmt.Sprintf("%q is not up, down, left or right", truncate(s, 60)))
			}
		})
		for i, dir := range a.Legal {
			if slices.Index(a.Legal, dir) < i {
				c.fail("/legal", fmt.Sprintf("%s is listed twice", dir))
			}
		}
	}
	if w.State.Set {
		a.State = c.state(&w.State.V)
	}
	switch {
	case c.err != nil:
	case a.OK && w.ID.Null:
		c.fail("/id", "null, but only an answer with ok false to a line that was not a request has a null id")
	case !a.OK && !protocol.RuleWord(a.Error) && !protocol.ProtocolWord(a.Error):
		c.fail("/error", fmt.Sprintf("%q is not an error word of the protocol", truncate(a.Error, 60)))
	case !a.OK && w.ID.Null && a.Error != protocol.ErrorBadRequest:
		c.fail("/error", fmt.Sprintf("%s, but an answer with a null id is bad-request", a.Error))
	}
	return a
}

// integer checks that n, at at, is an integer from min to max.
func (c *checker) integer(at string, n integer, min, max uint64) uint64 {
	if msg := n.outside(min, max); msg != "" {
		c.fail(at, msg)
	}
	return n.v
}

// outside says why n is not an integer from min to max; "" when it is,
// or was not given.
func (n integer) outside(min, max uint64) string {
	switch {
	case !n.set:
	case !n.ok:
		return fmt.Sprintf("%s is not an integer from %d to %d", truncate(n.String(), 40), min, max)
	case n.neg || n.v < min || n.v > max:
		return fmt.Sprintf("%s is not from %d to %d", truncate(n.String(), 40), min, max)
	}
	return ""
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

func (c *checker) spawn(w *spawnLine) *engine.Spawn {
	c.require("/spawn", "row", w.Row.Set, "col", w.Col.Set, "value", w.Value.Set)
	return &engine.Spawn{
		Row:   int(c.integer("/spawn/row", w.Row.V, 0, 7)),
		Col:   int(c.integer("/spawn/col", w.Col.V, 0, 7)),
		Value: c.tile("/spawn/value", w.Value.V, false),
	}
}

// require records the first of the keys (name, given pairs) not given.
func (c *checker) require(at string, keys ...any) {
	for i := 0; i < len(keys); i += 2 {
		if !keys[i+1].(bool) {
			c.fail(at, fmt.Sprintf("missing field %q", keys[i]))
		}
	}
}

// tile checks a tile at at, a power of two from 2 to 2^52, or 0 when
// empty is true.
func (c *checker) tile(at string, n integer, empty bool) uint64 {
	if msg := n.notTile(empty); msg != "" {
		c.fail(at, msg)
	}
	return n.v
}

// notTile says why n is not a tile (or 0, when empty is true); "" when it
// is one.
func (n integer) notTile(empty bool) string {
	switch v := n.v; {
	case n.outside(0, engine.MaxTile) != "":
		return n.outside(0, engine.MaxTile)
	case v == 0 && empty, v >= 2 && v&(v-1) == 0:
		return ""
	case empty:
		return fmt.Sprintf("%d is not 0 or a tile (a power of two, 2 to 2^52)", v)
	}
	return fmt.Sprintf("%d is not a tile (a power of two, 2 to 2^52)", n.v)
}

var results = []string{"playing", "target-reached", "no-moves", "move-limit", "run-finished"}

func (c *checker) state(w *stateLine) *protocol.WireState {
	c.require("/state", "board", w.Board.Set, "score", w.Score.Set, "moves", w.Moves.Set, "won", w.Won.Set, "over", w.Over.Set)
	for i, g := range []key{&w.Board, &w.Score, &w.Moves, &w.Won, &w.Over, &w.Result} {
		if _, null := g.given(); null {
			c.fail("/state/"+[]string{"board", "score", "moves", "won", "over", "result"}[i], "null, where the schema has a value")
		}
	}
	st := &protocol.WireState{Won: w.Won.V, Over: w.Over.V, Result: w.Result.V}
	rows := w.Board.V.rows
	c.count("/state/board", len(rows), 2, 8)
	st.Board = make([][]uint64, len(rows))
	cells := make([]uint64, 0, 64)
	for r, row := range rows {
		if len(row) < 2 {
			c.count(boardError{r, -1, ""}.at(), len(row), 2, 8)
		}
		for i, n := range row {
			if msg := n.notTile(true); msg != "" {
				c.fail(boardError{r, i, ""}.at(), msg)
			}
			cells = append(cells, n.v)
		}
		st.Board[r] = cells[len(cells)-len(row):]
	}
	st.Score = c.integer("/state/score", w.Score.V, 0, engine.MaxSafeInteger)
	st.Moves = int(c.integer("/state/moves", w.Moves.V, 0, engine.MaxSafeInteger))
	if w.Result.Set && !slices.Contains(results, st.Result) {
		c.fail("/state/result", fmt.Sprintf("%q is not playing, target-reached, no-moves, move-limit or run-finished", truncate(st.Result, 60)))
	}
	if w.Result.Set && st.Over != (st.Result != "playing") {
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

// exactInteger reads a JSON number's text as an exact integer: ok is
// false when it has a fraction, or does not fit 64 bits; neg is true for
// an integer below zero (-0 is zero). It never computes more than 20
// digits, whatever the exponent.
func exactInteger(lit []byte) (v uint64, neg, ok bool) {
	if len(lit) > 0 && lit[0] == '-' {
		neg, lit = true, lit[1:]
	}
	mant, exp := lit, 0
	if i := bytes.IndexAny(lit, "eE"); i >= 0 {
		mant = lit[:i]
		e := lit[i+1:]
		sign := 1
		if len(e) > 0 && (e[0] == '+' || e[0] == '-') {
			if e[0] == '-' {
				sign = -1
			}
			e = e[1:]
		}
		for _, c := range e {
			exp = min(exp*10+int(c-'0'), 1<<20) // saturates far beyond any exponent that matters
		}
		exp *= sign
	}
	digits := string(mant)
	if i := strings.IndexByte(digits, '.'); i >= 0 {
		exp -= len(digits) - i - 1
		digits = digits[:i] + digits[i+1:]
	}
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return 0, false, true // zero, in any spelling
	}
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	if exp < 0 || len(digits)+exp > 20 {
		return 0, neg, false // a fraction, or at least 10^20
	}
	v, err := strconv.ParseUint(digits+strings.Repeat("0", exp), 10, 64)
	if err != nil {
		return 0, neg, false
	}
	return v, neg && v != 0, true
}
