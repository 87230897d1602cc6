package driver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/tileproof/tileproof/internal/strictjson"
	"github.com/tileproof/tileproof/protocol"
)

// Reading an answer line: docs/protocol.schema.json's answer-to-OP. The
// line is read strictly (internal/strictjson: a key given twice, invalid
// UTF-8 and data after the object are refused) token by token into the
// structs below, which say which keys were given; an unknown key, a value
// of the wrong kind and a list past its most are refused as they are
// read, so that an answer costs little whatever its line holds. What the
// structs cannot say is checked after: the keys each op's answer has,
// ranges, lengths, words, the rows of a board of one length (which the
// schema cannot say either). FuzzExecAnswer and TestAnswerSchema hold it
// to the schema: the same verdict on every line.

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

// integer is a JSON Schema integer: a number with no fraction, whatever
// its spelling (3, 3.0 and 0.3e1 alike); its range is checked by
// [checker.integer].
type integer struct {
	lit string // as written, when FormatUint(v) is not
	v   uint64
	neg bool // below zero (-0 is zero)
	ok  bool // no fraction, and within 64 bits
}

// String returns the number as written.
func (n integer) String() string {
	if n.lit != "" {
		return n.lit
	}
	return strconv.FormatUint(n.v, 10)
}

// given says which keys of an object were given, and which as null: bit
// i for the object's key i.
type given struct{ set, null uint16 }

// has reports whether key k (a bit) was given; value, whether not as
// null.
func (g given) has(k uint16) bool   { return g.set&k != 0 }
func (g given) value(k uint16) bool { return g.set&^g.null&k != 0 }

// The answer's objects, key by key as the schema has them: the names of
// their keys, in order, and their values.
var (
	answerNames = []string{"id", "ok", "error", "message", "protocol", "name", "version", "profiles", "features", "changed", "gained", "spawn", "legal", "state"}
	spawnNames  = []string{"row", "col", "value"}
	stateNames  = []string{"board", "score", "moves", "won", "over", "result"}
)

// The answer's keys, as bits of a [given].
const (
	keyID = 1 << iota
	keyOK
	keyError
	keyMessage
	keyProtocol
	keyName
	keyVersion
	keyProfiles
	keyFeatures
	keyChanged
	keyGained
	keySpawn
	keyLegal
	keyState
)

// The spawn's and the state's keys, as bits of their [given]s, in the
// order of spawnNames and stateNames.
const (
	keyRow = 1 << iota
	keyCol
	keyValue
)

const (
	keyBoard = 1 << iota
	keyScore
	keyMoves
	keyWon
	keyOver
	keyResult
)

type (
	answerLine struct {
		given
		ID                 integer
		OK                 bool
		Error, Message     string
		Protocol           integer
		Name, Version      string
		Profiles, Features []string
		Changed            bool
		Gained             integer
		Spawn              spawnLine
		Legal              legalList
		State              stateLine
	}
	legalList []string // of at most mostLegal items
	spawnLine struct {
		given
		Row, Col, Value integer
	}
	stateLine struct {
		given
		Board     [][]integer
		Score     integer
		Moves     integer
		Won, Over bool
		Result    string
	}
)

// The most items of the answer's lists.
const (
	mostCells   = 8 // a board's rows, a row's cells
	mostLegal   = 4
	mostStrings = max(protocol.MaxProfiles, protocol.MaxFeatures) // profiles, features
)

// UnmarshalJSONFrom reads an answer's object.
func (w *answerLine) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return reader{dec}.object(answerNames, &w.given, &w.ID, &w.OK, &w.Error, &w.Message, &w.Protocol, &w.Name, &w.Version, &w.Profiles, &w.Features, &w.Changed, &w.Gained, &w.Spawn, &w.Legal, &w.State)
}

// reader reads an answer's values from dec.
type reader struct{ dec *jsontext.Decoder }

// next returns the JSON pointer of the value about to be read: item i of
// a list, or the value of the key just read when i is negative.
func (r reader) next(i int) string {
	p := r.dec.StackPointer()
	if i < 0 {
		return string(p)
	}
	if i > 0 {
		p = p.Parent()
	}
	return string(p) + "/" + strconv.Itoa(i)
}

// start reads the first token of a value whose kind must be one of want
// (named wantName): an object, a list, true or false. It reports false
// for null, which json's decoding takes as an object of no keys or a
// list of no items.
func (r reader) start(wantName string, want ...jsontext.Kind) (jsontext.Token, bool, error) {
	tok, err := r.dec.ReadToken()
	switch k := tok.Kind(); {
	case err != nil:
		return tok, false, err
	case slices.Contains(want, k):
		return tok, true, nil
	case k == 'n' && want[0] != 't':
		return tok, false, nil
	case r.dec.StackPointer() == "": // the answer itself
		return tok, false, &schemaError{"", "the answer is " + strictjson.KindName(k) + ", not a JSON object"}
	}
	return tok, false, &schemaError{string(r.dec.StackPointer()), "want " + wantName + ", not " + strictjson.KindName(tok.Kind())}
}

// object reads an object whose keys are names into g: null is noted (and
// refused after, but for the answer's id and spawn), any other value read
// into the field of the key's index in names.
func (r reader) object(names []string, g *given, fields ...any) error {
	if _, ok, err := r.start("an object", '{'); !ok {
		return err
	}
	for r.dec.PeekKind() != '}' {
		name, err := r.dec.ReadValue()
		if err != nil {
			return err
		}
		name = unquote(name)
		i := slices.IndexFunc(names, func(n string) bool { return n == string(name) })
		switch {
		case i < 0:
			return &schemaError{string(r.dec.StackPointer()), "unknown field"}
		case r.dec.PeekKind() == 'n':
			g.null |= 1 << i
			_, err = r.dec.ReadToken()
		default:
			err = r.value(fields[i])
		}
		if err != nil {
			return err
		}
		g.set |= 1 << i
	}
	_, err := r.dec.ReadToken()
	return err
}

// value reads a key's value into p, by p's type.
func (r reader) value(p any) (err error) {
	switch p := p.(type) {
	case *integer:
		*p, err = r.integer(-1)
	case *bool:
		*p, err = r.boolean()
	case *string:
		*p, err = r.str(-1)
	case *[]string:
		*p, err = r.strings(mostStrings)
	case *legalList:
		*p, err = r.strings(mostLegal)
	case *[][]integer:
		*p, err = r.board()
	case *spawnLine:
		err = r.object(spawnNames, &p.given, &p.Row, &p.Col, &p.Value)
	case *stateLine:
		err = r.object(stateNames, &p.given, &p.Board, &p.Score, &p.Moves, &p.Won, &p.Over, &p.Result)
	}
	return err
}

// list reads a list of at most most items, each by item; a longer one is
// refused at its item past the most. A null is a list of no items, as
// json's decoding takes it.
func (r reader) list(most int, item func(i int) error) error {
	if _, ok, err := r.start("an array", '['); !ok {
		return err
	}
	for n := 0; r.dec.PeekKind() != ']'; n++ {
		if n == most {
			return &schemaError{string(r.dec.StackPointer().Parent()), fmt.Sprintf("more than %d items", most)}
		}
		if err := item(n); err != nil {
			return err
		}
	}
	_, err := r.dec.ReadToken()
	return err
}

// strings reads a list of at most most strings.
func (r reader) strings(most int) (l []string, err error) {
	err = r.list(most, func(i int) error {
		s, err := r.str(i)
		l = append(l, s)
		return err
	})
	return l, err
}

// str reads a string (item i, or a key's value). A value of another kind
// is read before it is refused; null is the empty string, as json's
// decoding takes it.
func (r reader) str(i int) (string, error) {
	k := r.dec.PeekKind()
	v, err := r.dec.ReadValue()
	switch {
	case err != nil:
		return "", err
	case k == 'n':
		return "", nil
	case k != '"':
		return "", &schemaError{string(r.dec.StackPointer()), "want a string, not " + strictjson.KindName(k)}
	}
	return string(unquote(v)), nil
}

// unquote returns the text of a string the decoder has read (so valid),
// its escapes undone.
func unquote(v []byte) []byte {
	if bytes.IndexByte(v, '\\') < 0 {
		return v[1 : len(v)-1]
	}
	b, _ := jsontext.AppendUnquote(nil, v)
	return b
}

func (r reader) boolean() (bool, error) {
	tok, _, err := r.start("true or false", 't', 'f')
	return err == nil && tok.Bool(), err
}

// integer reads an integer (item i, or a key's value): its value and
// whether it is one, its range being checked after.
func (r reader) integer(i int) (integer, error) {
	if k := r.dec.PeekKind(); k != '0' {
		if k == 0 {
			_, err := r.dec.ReadValue()
			return integer{}, err
		}
		return integer{}, &schemaError{r.next(i), "want an integer, not " + strictjson.KindName(k)}
	}
	lit, err := r.dec.ReadValue()
	if err != nil {
		return integer{}, err
	}
	if v, err := strconv.ParseUint(string(lit), 10, 64); err == nil {
		return integer{v: v, ok: true}, nil // plain digits, the way adapters write them
	}
	var n integer
	n.v, n.neg, n.ok = exactInteger(lit)
	n.lit = string(lit)
	return n, nil
}

// board reads a board's rows, each a list of cells.
func (r reader) board() (rows [][]integer, err error) {
	err = r.list(mostCells, func(int) error {
		var row []integer
		err := r.list(mostCells, func(j int) error {
			if row == nil {
				row = make([]integer, 0, mostCells)
			}
			n, err := r.integer(j)
			row = append(row, n)
			return err
		})
		if rows == nil {
			rows = make([][]integer, 0, mostCells)
		}
		rows = append(rows, row)
		return err
	})
	return rows, err
}

// answerKeys returns the keys of op's answer with ok true, all required.
func answerKeys(op string) (uint16, bool) {
	switch op {
	case protocol.OpHello:
		return keyID | keyOK | keyProtocol | keyName | keyVersion | keyProfiles | keyFeatures, true
	case protocol.OpNew, protocol.OpLoad, protocol.OpUndo, protocol.OpEndRun, protocol.OpKeepPlaying:
		return keyID | keyOK | keyState, true
	case protocol.OpMove:
		return keyID | keyOK | keyChanged | keyGained | keySpawn | keyState, true
	case protocol.OpLegal:
		return keyID | keyOK | keyLegal, true
	}
	return 0, false
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
	if err := json.Unmarshal(line, &w, strictjson.Options()); err != nil {
		err = decodeError(err)
		if bytes.TrimSpace(line)[0] != '{' {
			// Most often a line of the implementation's own: a log,
			// a banner, a prompt.
			err = fmt.Errorf("%w (stdout carries the protocol's answers alone, a JSON object a line: write anything else to stderr)", err)
		}
		return protocol.Answer{}, err
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
	if se, ok := errors.AsType[*schemaError](err); ok {
		return se
	}
	return &schemaError{"", "not JSON: " + err.Error()}
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
