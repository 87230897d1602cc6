package driver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// Reading an answer line: docs/protocol.schema.json, transcribed. The
// schema is the protocol's statement of the answers, for anyone to
// validate against; the runner checks every answer with this transcription
// of it, which FuzzExecAnswer and TestAnswerSchema hold to the schema
// (the same verdict on every line), because a JSON Schema validator costs
// some 20 times as much a line (docs/protocol.md, "Costs"), and its
// arithmetic on a number such as 1e999999 much more. Beyond the schema it checks
// what a schema cannot say: a key given twice, invalid UTF-8, the rows of a
// board of one length.

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

// answerFields are the keys an answer may have, in the bit order of
// fieldSet.
var answerFields = []string{"id", "ok", "error", "message", "protocol", "name", "version", "profiles", "features", "changed", "gained", "spawn", "legal", "state"}

// fieldSet is a set of answerFields: bit i is answerFields[i].
type fieldSet uint32

// The bits of fieldSet, in the order of answerFields.
const (
	fieldID fieldSet = 1 << iota
	fieldOK
	fieldError
	fieldMessage
	fieldProtocol
	fieldName
	fieldVersion
	fieldProfiles
	fieldFeatures
	fieldChanged
	fieldGained
	fieldSpawn
	fieldLegal
	fieldState
)

// The keys of each kind of answer: all required.
const (
	refusalFields = fieldID | fieldOK | fieldError | fieldMessage
	helloFields   = fieldID | fieldOK | fieldProtocol | fieldName | fieldVersion | fieldProfiles | fieldFeatures
	stateFields   = fieldID | fieldOK | fieldState
	moveFields    = fieldID | fieldOK | fieldChanged | fieldGained | fieldSpawn | fieldState
	legalFields   = fieldID | fieldOK | fieldLegal
)

// okFields returns the keys of op's answer with ok true.
func okFields(op string) (fieldSet, bool) {
	switch op {
	case protocol.OpHello:
		return helloFields, true
	case protocol.OpNew, protocol.OpLoad, protocol.OpUndo, protocol.OpEndRun, protocol.OpKeepPlaying:
		return stateFields, true
	case protocol.OpMove:
		return moveFields, true
	case protocol.OpLegal:
		return legalFields, true
	}
	return 0, false
}

// readAnswer reads the answer line to a request of op (the line without
// its newline), as docs/protocol.schema.json's answer-to-OP states it.
func readAnswer(op string, line []byte) (protocol.Answer, error) {
	return new(reader).read(op, line)
}

// read is readAnswer, reusing the reader's buffers.
func (d *reader) read(op string, line []byte) (protocol.Answer, error) {
	var a protocol.Answer
	want, known := okFields(op)
	if !known {
		return a, &schemaError{"", fmt.Sprintf("%q is not an op of the protocol", op)}
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return a, &schemaError{"", "an empty line, not a JSON object"}
	}
	d.src.Reset(line)
	// The decoder checks the syntax and UTF-8; a key given twice the
	// reader finds itself, by the keys it has seen.
	if d.dec == nil {
		d.dec = jsontext.NewDecoder(&d.src, jsontext.AllowDuplicateNames(true))
	} else {
		d.dec.Reset(&d.src, jsontext.AllowDuplicateNames(true))
	}
	d.err, d.path = nil, d.path[:0]
	if k := d.peek(); k != '{' {
		if d.err == nil {
			d.fail("the answer is " + kindName(k) + ", not a JSON object")
		}
		return a, d.err
	}
	d.token()
	var seen fieldSet
	var idNull, okSet, stateSet bool
	for d.err == nil && d.peek() == '"' {
		t := d.token()
		if d.err != nil {
			break
		}
		name := t.String()
		i := slices.Index(answerFields, name)
		d.in(name)
		switch {
		case i < 0:
			d.fail("unknown field")
		case seen&(1<<i) != 0:
			d.fail("a key given twice")
		}
		if d.err != nil {
			break
		}
		seen |= 1 << i
		switch name {
		case "id":
			if d.peek() == 'n' {
				d.token()
				idNull = true
			} else {
				a.ID = int64(d.integer(1, engine.MaxSafeInteger))
			}
		case "ok":
			a.OK, okSet = d.boolean(), true
		case "error":
			a.Error = d.str(0, -1)
		case "message":
			a.Message = d.str(0, protocol.MaxMessageLength)
		case "protocol":
			a.Protocol = int(d.integer(1, 1<<31-1))
		case "name":
			a.Name = d.str(1, protocol.MaxNameLength)
		case "version":
			a.Version = d.str(0, protocol.MaxNameLength)
		case "profiles":
			a.Profiles = d.strings(1, protocol.MaxProfiles, func(s string) { d.lengthIn(s, 1, protocol.MaxProfileLength) })
		case "features":
			a.Features = d.strings(0, protocol.MaxFeatures, d.feature)
		case "changed":
			a.Changed = d.boolean()
		case "gained":
			a.Gained = d.integer(0, engine.MaxSafeInteger)
		case "spawn":
			if d.peek() == 'n' {
				d.token()
			} else {
				a.Spawn = d.spawn()
			}
		case "legal":
			a.Legal = d.strings(0, 4, d.direction)
			for i, dir := range a.Legal {
				if slices.Index(a.Legal, dir) < i {
					d.fail(fmt.Sprintf("%s is listed twice", dir))
				}
			}
		case "state":
			a.State, stateSet = d.state(), true
		}
		d.out()
	}
	if d.err == nil {
		d.end()
	}
	if d.err != nil {
		return a, d.err
	}
	if !okSet {
		return a, &schemaError{"", `missing field "ok"`}
	}
	if !a.OK {
		want = refusalFields
	}
	for i, name := range answerFields {
		switch bit := fieldSet(1) << i; {
		case want&bit != 0 && seen&bit == 0:
			return a, &schemaError{"", fmt.Sprintf("missing field %q", name)}
		case want&bit == 0 && seen&bit != 0:
			return a, &schemaError{"/" + name, fmt.Sprintf("a field an answer to %s with ok %v does not have", op, a.OK)}
		}
	}
	switch {
	case a.OK && idNull:
		return a, &schemaError{"/id", "null, but only an answer with ok false to a line that was not a request has a null id"}
	case !a.OK && !protocol.RuleWord(a.Error) && !protocol.ProtocolWord(a.Error):
		return a, &schemaError{"/error", fmt.Sprintf("%q is not an error word of the protocol", truncate(a.Error, 60))}
	case !a.OK && idNull && a.Error != protocol.ErrorBadRequest:
		return a, &schemaError{"/error", fmt.Sprintf("%s, but an answer with a null id is bad-request", a.Error)}
	}
	if stateSet {
		// Beyond the schema: the rows of a board are of one length.
		for r, row := range a.State.Board {
			if len(row) != len(a.State.Board[0]) {
				return a, &schemaError{fmt.Sprintf("/state/board/%d", r), fmt.Sprintf("%d cells; row 0 has %d", len(row), len(a.State.Board[0]))}
			}
		}
	}
	return a, nil
}

// reader reads an answer's JSON; the first error sticks, and every read
// after it returns a zero value.
type reader struct {
	src  bytes.Reader
	dec  *jsontext.Decoder
	err  error
	path []step // where the reader is: the keys and indexes from the top
}

// step is a key of an object, or when key is "" an index of an array.
type step struct {
	key   string
	index int
}

func (d *reader) in(key string)   { d.path = append(d.path, step{key: key}) }
func (d *reader) at(index int)    { d.path = append(d.path, step{index: index}) }
func (d *reader) out()            { d.path = d.path[:len(d.path)-1] }
func (d *reader) pointer() string { return pointer(d.path) }

// pointer writes a path as a JSON pointer (RFC 6901).
func pointer(path []step) string {
	var sb strings.Builder
	for _, s := range path {
		sb.WriteByte('/')
		if s.key == "" {
			sb.WriteString(strconv.Itoa(s.index))
		} else {
			sb.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(truncate(s.key, 60)))
		}
	}
	return sb.String()
}

// fail records an answer the schema refuses where the reader is (the
// first reason given).
func (d *reader) fail(msg string) {
	if d.err == nil {
		d.err = &schemaError{d.pointer(), msg}
	}
}

// syntax records a line that is not JSON, or not one JSON value.
func (d *reader) syntax(err error) {
	if d.err != nil {
		return
	}
	var se *jsontext.SyntacticError
	switch {
	case errors.As(err, &se):
		d.err = &schemaError{d.pointer(), "not JSON: " + se.Err.Error() + " at byte " + strconv.FormatInt(se.ByteOffset, 10)}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		d.err = &schemaError{"", "not JSON: the line ends inside a value"}
	default:
		d.err = &schemaError{"", "not JSON: " + err.Error()}
	}
}

func (d *reader) peek() jsontext.Kind {
	if d.err != nil {
		return 0
	}
	k := d.dec.PeekKind()
	if k == 0 {
		_, err := d.dec.ReadToken()
		d.syntax(err)
	}
	return k
}

func (d *reader) token() jsontext.Token {
	if d.err != nil {
		return jsontext.Token{}
	}
	t, err := d.dec.ReadToken()
	if err != nil {
		d.syntax(err)
	}
	return t
}

// end reads the end of the top-level object and checks nothing follows.
func (d *reader) end() {
	if d.token(); d.err != nil {
		return
	}
	if _, err := d.dec.ReadToken(); err != io.EOF {
		if err == nil {
			d.fail("more than one JSON value on the line")
		} else {
			d.syntax(err)
		}
	}
}

func kindName(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "a boolean"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	return "nothing"
}

// want records a value of another kind than the schema's (the answer is
// then refused, so its value is not read).
func (d *reader) want(what string, got jsontext.Kind) {
	d.fail(fmt.Sprintf("%s, not %s", what, kindName(got)))
}

func (d *reader) boolean() bool {
	switch k := d.peek(); k {
	case 't', 'f':
		if t := d.token(); d.err == nil {
			return t.Bool()
		}
	case 0:
	default:
		d.want("want true or false", k)
	}
	return false
}

// str reads a string of min to max characters (max < 0: no limit), as
// JSON Schema counts them: code points.
func (d *reader) str(min, max int) string {
	k := d.peek()
	if k != '"' {
		if k != 0 {
			d.want("want a string", k)
		}
		return ""
	}
	t := d.token()
	if d.err != nil {
		return ""
	}
	s := t.String()
	d.lengthIn(s, min, max)
	return s
}

func (d *reader) lengthIn(s string, min, max int) {
	n := utf8.RuneCountInString(s)
	switch {
	case n < min && min == 1:
		d.fail("an empty string")
	case n < min:
		d.fail(fmt.Sprintf("%d characters, fewer than %d", n, min))
	case max >= 0 && n > max:
		d.fail(fmt.Sprintf("%d characters, more than %d", n, max))
	}
}

// integer reads an integer from min to max. JSON Schema's integers are
// numbers with no fraction, whatever their spelling: 3, 3.0 and 0.3e1
// alike.
func (d *reader) integer(min, max uint64) uint64 {
	k := d.peek()
	if k != '0' {
		if k != 0 {
			d.want("want an integer", k)
		}
		return 0
	}
	lit, err := d.dec.ReadValue()
	if err != nil {
		d.syntax(err)
		return 0
	}
	v, neg, ok := exactInteger(lit)
	switch {
	case !ok:
		d.fail(fmt.Sprintf("%s is not an integer from %d to %d", truncate(string(lit), 40), min, max))
	case neg || v < min || v > max:
		d.fail(fmt.Sprintf("%s is not from %d to %d", truncate(string(lit), 40), min, max))
	}
	return v
}

// exactInteger reads a JSON number's text as an exact integer: ok is
// false when it has a fraction, or does not fit 64 bits; neg is true for
// an integer below zero (-0 is zero). It never computes more than 20
// digits, whatever the exponent.
func exactInteger(lit []byte) (v uint64, neg, ok bool) {
	if len(lit) > 0 && lit[0] == '-' {
		neg, lit = true, lit[1:]
	}
	plain := true
	for _, c := range lit {
		if c < '0' || c > '9' {
			plain = false
			break
		}
	}
	if plain && len(lit) <= 19 { // the common case: no fraction, no exponent, no overflow
		for _, c := range lit {
			v = v*10 + uint64(c-'0')
		}
		return v, neg && v != 0, true
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

// strings reads an array of min to max strings, checking each with check.
func (d *reader) strings(min, max int, check func(s string)) []string {
	out := []string{}
	d.array(min, max, func() {
		s := d.str(0, -1)
		if d.err == nil {
			check(s)
		}
		out = append(out, s)
	})
	return out
}

func (d *reader) feature(s string) {
	if !protocol.KnownFeature(s) {
		d.fail(fmt.Sprintf("%q is not a feature of the protocol", truncate(s, 60)))
	}
}

func (d *reader) direction(s string) {
	switch s {
	case "up", "down", "left", "right":
		return
	}
	d.fail(fmt.Sprintf("%q is not up, down, left or right", truncate(s, 60)))
}

// object reads an object of the given keys (each at most once), calling
// member for each; it returns the keys seen, as bits of keys.
func (d *reader) object(keys []string, member func(key string)) (seen uint32) {
	k := d.peek()
	if k != '{' {
		if k != 0 {
			d.want("want an object", k)
		}
		return 0
	}
	d.token()
	for d.err == nil && d.peek() == '"' {
		t := d.token()
		if d.err != nil {
			break
		}
		key := t.String()
		i := slices.Index(keys, key)
		d.in(key)
		switch {
		case i < 0:
			d.fail("unknown field")
		case seen&(1<<i) != 0:
			d.fail("a key given twice")
		}
		if d.err != nil {
			return seen
		}
		seen |= 1 << i
		member(key)
		d.out()
	}
	d.token()
	return seen
}

// require records the first of keys (in the order object took them)
// missing from seen.
func (d *reader) require(keys []string, seen uint32, n int) {
	for i, k := range keys[:n] {
		if d.err == nil && seen&(1<<i) == 0 {
			d.fail(fmt.Sprintf("missing field %q", k))
		}
	}
}

var spawnKeys = []string{"row", "col", "value"}

func (d *reader) spawn() *engine.Spawn {
	var sp engine.Spawn
	seen := d.object(spawnKeys, func(key string) {
		switch key {
		case "row":
			sp.Row = int(d.integer(0, 7))
		case "col":
			sp.Col = int(d.integer(0, 7))
		case "value":
			sp.Value = d.tile(false)
		}
	})
	d.require(spawnKeys, seen, 3)
	return &sp
}

// tile reads a tile, a power of two from 2 to 2^52, or 0 when empty is
// true.
func (d *reader) tile(empty bool) uint64 {
	v := d.integer(0, engine.MaxTile)
	if d.err == nil && !(v == 0 && empty) && (v < 2 || v&(v-1) != 0) {
		if empty {
			d.fail(fmt.Sprintf("%d is not 0 or a tile (a power of two, 2 to 2^52)", v))
		} else {
			d.fail(fmt.Sprintf("%d is not a tile (a power of two, 2 to 2^52)", v))
		}
	}
	return v
}

func (d *reader) board() [][]uint64 {
	rows := make([][]uint64, 0, 8)
	d.array(2, 8, func() {
		row := make([]uint64, 0, 8)
		d.array(2, 8, func() { row = append(row, d.tile(true)) })
		rows = append(rows, row)
	})
	return rows
}

// array reads an array of min to max items, each read by item.
func (d *reader) array(min, max int, item func()) {
	k := d.peek()
	if k != '[' {
		if k != 0 {
			d.want("want an array", k)
		}
		return
	}
	d.token()
	n := 0
	for ; d.err == nil && d.peek() != ']'; n++ {
		if n == max {
			d.fail(fmt.Sprintf("more than %d items", max))
			return
		}
		d.at(n)
		item()
		d.out()
	}
	d.token()
	if d.err == nil && n < min {
		d.fail(fmt.Sprintf("%d items, fewer than %d", n, min))
	}
}

var (
	results   = []string{"playing", "target-reached", "no-moves", "move-limit", "run-finished"}
	stateKeys = []string{"board", "score", "moves", "won", "over", "result"} // the first five required
)

func (d *reader) state() *protocol.State {
	var st protocol.State
	seen := d.object(stateKeys, func(key string) {
		switch key {
		case "board":
			st.Board = d.board()
		case "score":
			st.Score = d.integer(0, engine.MaxSafeInteger)
		case "moves":
			st.Moves = int(d.integer(0, engine.MaxSafeInteger))
		case "won":
			st.Won = d.boolean()
		case "over":
			st.Over = d.boolean()
		case "result":
			st.Result = d.str(0, -1)
			if d.err == nil && !slices.Contains(results, st.Result) {
				d.fail(fmt.Sprintf("%q is not playing, target-reached, no-moves, move-limit or run-finished", truncate(st.Result, 60)))
			}
		}
	})
	d.require(stateKeys, seen, 5)
	if d.err == nil && seen&(1<<5) != 0 && st.Over != (st.Result != "playing") {
		d.in("over")
		d.fail(fmt.Sprintf("%v, but the result is %s", st.Over, st.Result))
		d.out()
	}
	return &st
}
