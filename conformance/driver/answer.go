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
	"sync"
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
	V         T
	Set, Null bool
}

// UnmarshalJSONFrom reads the key's value; null is noted, and refused
// after but for the answer's id and spawn.
func (g *given[T]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	g.Set = true
	if dec.PeekKind() == 'n' {
		g.Null = true
		_, err := dec.ReadToken()
		return err
	}
	return json.UnmarshalDecode(dec, &g.V)
}

func (g *given[T]) given() (set, null bool) { return g.Set, g.Null }

// key is a [given] of any type.
type key interface{ given() (set, null bool) }

// integer is a JSON Schema integer: a number with no fraction, whatever
// its spelling (3, 3.0 and 0.3e1 alike); its range is checked by
// [checker.integer].
type integer struct {
	lit string // as written, when FormatUint(v) is not
	v   uint64
	neg bool // below zero (-0 is zero)
	ok  bool // no fraction, and within 64 bits
}

// UnmarshalJSONFrom reads a number.
func (n *integer) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if k := dec.PeekKind(); k != '0' && k != 0 {
		return wrongKind("an integer", k)
	}
	lit, err := dec.ReadValue()
	if err != nil {
		return err
	}
	n.v, n.neg, n.ok = exactInteger(lit)
	if !n.ok || strings.Trim(string(lit), "0123456789") != "" { // no allocation: the conversion does not escape
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

// upTo is a JSON array of at most N's items (a board's rows, a row's
// cells, the lists of strings): a longer one is refused as it is read, so
// that an answer costs little whatever its line holds.
type upTo[T any, N most] []T

// most is how many items an [upTo] takes.
type most interface{ most() int }

type (
	eight struct{} // a board's rows, a row's cells
	four  struct{} // the legal moves
	many  struct{} // profiles, features (protocol.MaxProfiles, protocol.MaxFeatures)
)

func (eight) most() int { return 8 }
func (four) most() int  { return 4 }
func (many) most() int  { return max(protocol.MaxProfiles, protocol.MaxFeatures) }

// UnmarshalJSONFrom reads the array.
func (l *upTo[T, N]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() != '[' {
		return json.UnmarshalDecode(dec, (*[]T)(l)) // the error of a value of another kind
	}
	dec.ReadToken()
	for n := (*new(N)).most(); dec.PeekKind() != ']'; {
		if len(*l) == n {
			return refused(fmt.Sprintf("more than %d items", n))
		}
		*l = append(*l, *new(T))
		if err := json.UnmarshalDecode(dec, &(*l)[len(*l)-1]); err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	return err
}

// refused is what the decoding of a value refused, said as the schema
// would.
type refused string

func (r refused) Error() string { return string(r) }

// wrongKind is a value of kind got where the schema wants want.
func wrongKind(want string, got jsontext.Kind) refused {
	return refused("want " + want + ", not " + strictjson.KindName(got))
}

// The answer's objects, key by key as the schema has them.
type (
	answerLine struct {
		ID       given[integer]            `json:"id"`
		OK       given[bool]               `json:"ok"`
		Error    given[string]             `json:"error"`
		Message  given[string]             `json:"message"`
		Protocol given[integer]            `json:"protocol"`
		Name     given[string]             `json:"name"`
		Version  given[string]             `json:"version"`
		Profiles given[upTo[string, many]] `json:"profiles"`
		Features given[upTo[string, many]] `json:"features"`
		Changed  given[bool]               `json:"changed"`
		Gained   given[integer]            `json:"gained"`
		Spawn    given[spawnLine]          `json:"spawn"`
		Legal    given[upTo[string, four]] `json:"legal"`
		State    given[stateLine]          `json:"state"`
	}
	spawnLine struct {
		Row   given[integer] `json:"row"`
		Col   given[integer] `json:"col"`
		Value given[integer] `json:"value"`
	}
	stateLine struct {
		Board  given[upTo[upTo[integer, eight], eight]] `json:"board"`
		Score  given[integer]                           `json:"score"`
		Moves  given[integer]                           `json:"moves"`
		Won    given[bool]                              `json:"won"`
		Over   given[bool]                              `json:"over"`
		Result given[string]                            `json:"result"`
	}
)

// answerKeys returns the keys of op's answer with ok true, all required.
func answerKeys(op string) ([]string, bool) {
	switch op {
	case protocol.OpHello:
		return []string{"id", "ok", "protocol", "name", "version", "profiles", "features"}, true
	case protocol.OpNew, protocol.OpLoad, protocol.OpUndo, protocol.OpEndRun, protocol.OpKeepPlaying:
		return []string{"id", "ok", "state"}, true
	case protocol.OpMove:
		return []string{"id", "ok", "changed", "gained", "spawn", "state"}, true
	case protocol.OpLegal:
		return []string{"id", "ok", "legal"}, true
	}
	return nil, false
}

// readAnswer reads the answer line to a request of op (the line without
// its newline), as docs/protocol.schema.json's answer-to-OP states it.
func readAnswer(op string, line []byte) (protocol.Answer, error) {
	okKeys, known := answerKeys(op)
	if !known {
		return protocol.Answer{}, &schemaError{"", fmt.Sprintf("%q is not an op of the protocol", op)}
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return protocol.Answer{}, &schemaError{"", "an empty line, not a JSON object"}
	}
	var w answerLine
	if !readPlain(line, &w) {
		w = answerLine{}
		if err := json.Unmarshal(line, &w, strictjson.Options()); err != nil {
			return protocol.Answer{}, decodeError(err)
		}
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
	r, isRefused := errors.AsType[refused](err)
	switch {
	case errors.Is(err, json.ErrUnknownName):
		return &schemaError{ptr, "unknown field"}
	case isRefused:
		return &schemaError{ptr, string(r)}
	case ptr == "":
		return &schemaError{"", "the answer is " + strictjson.KindName(se.JSONKind) + ", not a JSON object"}
	}
	want := "an object"
	switch se.GoType.Kind() {
	case reflect.Bool:
		want = "true or false"
	case reflect.String:
		want = "a string"
	case reflect.Slice:
		want = "an array"
	}
	return &schemaError{ptr, string(wrongKind(want, se.JSONKind))}
}

// checker checks a decoded answer for what its structs cannot say; the
// first error sticks.
type checker struct{ err error }

func (c *checker) fail(at, msg string) {
	if c.err == nil {
		c.err = &schemaError{at, msg}
	}
}

// keys checks the keys of obj, a pointer to one of the structs above, at
// at: those of required given, no null but for the names in nullable,
// and, when only is not "", no key beyond required (only says whose).
func (c *checker) keys(at string, obj any, required []string, only string, nullable ...string) {
	v := reflect.ValueOf(obj).Elem()
	names := keyNames(v.Type())
	for i := range v.NumField() {
		name := names[i]
		set, null := v.Field(i).Addr().Interface().(key).given()
		switch wanted := slices.Contains(required, name); {
		case wanted && !set:
			c.fail(at, fmt.Sprintf("missing field %q", name))
		case !wanted && set && only != "":
			c.fail(at+"/"+name, "a field "+only+" does not have")
		case null && !slices.Contains(nullable, name):
			c.fail(at+"/"+name, "null, where the schema has a value")
		}
	}
}

// keyNames returns the JSON keys of struct type t's fields, in order,
// read from their tags once a type.
func keyNames(t reflect.Type) []string {
	if names, ok := keyNamesByType.Load(t); ok {
		return names.([]string)
	}
	names := make([]string, t.NumField())
	for i := range names {
		names[i] = t.Field(i).Tag.Get("json")
	}
	keyNamesByType.Store(t, names)
	return names
}

var keyNamesByType sync.Map // reflect.Type to []string

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
		want = []string{"id", "ok", "error", "message"}
	}
	c.keys("", w, want, fmt.Sprintf("an answer to %s with ok %v", op, a.OK), "id", "spawn")
	if c.err != nil {
		return a
	}
	if !w.ID.Null {
		a.ID = int64(c.integer("/id", w.ID, 1, engine.MaxSafeInteger))
	}
	a.Error = w.Error.V
	a.Message = c.str("/message", w.Message.V, 0, protocol.MaxMessageLength)
	a.Protocol = int(c.integer("/protocol", w.Protocol, 1, 1<<31-1))
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
	a.Gained = c.integer("/gained", w.Gained, 0, engine.MaxSafeInteger)
	if s := &w.Spawn.V; w.Spawn.Set && !w.Spawn.Null {
		c.keys("/spawn", s, []string{"row", "col", "value"}, "")
		a.Spawn = &engine.Spawn{
			Row:   int(c.integer("/spawn/row", s.Row, 0, 7)),
			Col:   int(c.integer("/spawn/col", s.Col, 0, 7)),
			Value: c.tile("/spawn/value", s.Value.V, false),
		}
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

func (c *checker) state(w *stateLine) *protocol.WireState {
	c.keys("/state", w, []string{"board", "score", "moves", "won", "over"}, "")
	st := &protocol.WireState{Won: w.Won.V, Over: w.Over.V, Result: w.Result.V}
	rows := w.Board.V
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
	st.Score = c.integer("/state/score", w.Score, 0, engine.MaxSafeInteger)
	st.Moves = int(c.integer("/state/moves", w.Moves, 0, engine.MaxSafeInteger))
	if w.Result.Set && !slices.Contains([]string{"playing", "target-reached", "no-moves", "move-limit", "run-finished"}, st.Result) {
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

// integer checks that g, at at, is an integer from min to max when
// given.
func (c *checker) integer(at string, g given[integer], min, max uint64) uint64 {
	n := g.V
	switch {
	case !g.Set || g.Null:
	case !n.ok:
		c.fail(at, fmt.Sprintf("%s is not an integer from %d to %d", truncate(n.String(), 40), min, max))
	case n.neg || n.v < min || n.v > max:
		c.fail(at, fmt.Sprintf("%s is not from %d to %d", truncate(n.String(), 40), min, max))
	}
	return n.v
}

// tile checks a tile at at, a power of two from 2 to 2^52, or 0 when
// empty is true.
func (c *checker) tile(at string, n integer, empty bool) uint64 {
	if n.isTile(empty) {
		return n.v
	}
	c.integer(at, given[integer]{V: n, Set: true}, 0, engine.MaxTile)
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
