package replay

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/tileproof/tileproof/internal/strictyaml"
)

// A JSON replay is read token by token with jsontext, which is strict
// where encoding/json is lenient: a name given twice and invalid UTF-8
// are errors. Names are matched exactly (encoding/json matches them
// ignoring case, and by Unicode folding), so a document means one thing
// to every JSON reader.

// jsonSyntaxError is a document that is not JSON at all: the caller may
// try it as YAML.
type jsonSyntaxError struct{ list strictyaml.ErrorList }

func (e *jsonSyntaxError) Error() string { return e.list.Error() }

// jsonDecoders keeps decoders for reuse: each has buffers of its own.
var jsonDecoders = sync.Pool{New: func() any { return jsontext.NewDecoder(new(bytes.Buffer)) }}

// jsonReader reads one JSON document into a form.
type jsonReader struct {
	data []byte
	dec  *jsontext.Decoder
	errs *decodeError
}

// readJSON reads a JSON replay document into f.
func readJSON(name string, data []byte, f *form) error {
	dec := jsonDecoders.Get().(*jsontext.Decoder)
	dec.Reset(bytes.NewBuffer(data)) // a bytes.Buffer's contents are read in place, not copied
	defer jsonDecoders.Put(dec)
	jr := &jsonReader{data: data, dec: dec, errs: &decodeError{name: name, src: data}}
	f.src = data
	if err := jr.object("", replayFields, f); err != nil {
		if errors.Is(err, errReported) {
			// A wrong value was found before the end: a document that is
			// not JSON at all says so first.
			whole := jsontext.NewDecoder(bytes.NewBuffer(data))
			if _, serr := whole.ReadValue(); serr != nil {
				jr.errs.list = nil
				return jr.fail(serr)
			}
			if linesAfter(data, whole.InputOffset()) {
				jr.errs.add(pos{}, "another object follows on a later line; %s", linesHint)
			}
		}
		return jr.fail(err)
	}
	end := dec.InputOffset()
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			msg := "data after the replay's object"
			if linesAfter(data, end) {
				msg += "; " + linesHint
			}
			jr.errs.add(jr.pos(dec.InputOffset()), "%s", msg)
			return jr.errs.list
		}
		return jr.fail(err)
	}
	if len(jr.errs.list) > 0 {
		return jr.errs.list
	}
	return nil
}

// linesHint is said of JSON Lines read as one replay.
const linesHint = "several replays, one a line, are JSON Lines: a .jsonl file, or application/jsonl over HTTP"

// linesAfter reports whether another JSON object starts on a line after
// the one where the value ending at data[end] ends: JSON Lines read as
// one replay.
func linesAfter(data []byte, end int64) bool {
	rest := bytes.TrimLeft(data[end:], " \t\r")
	return len(rest) > 0 && rest[0] == '\n' && bytes.HasPrefix(bytes.TrimLeft(rest, " \t\r\n"), []byte("{"))
}

// fail turns a syntax error into the document's errors.
func (jr *jsonReader) fail(err error) error {
	var se *jsontext.SyntacticError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		jr.errs.add(jr.pos(int64(len(jr.data))), "invalid JSON: the document ends inside a value")
		return &jsonSyntaxError{jr.errs.list}
	case errors.As(err, &se):
		msg := strings.TrimPrefix(se.Err.Error(), "jsontext: ")
		if errors.Is(err, jsontext.ErrDuplicateName) {
			// The name the decoder reports is the member's.
			msg = "the field " + strings.TrimPrefix(string(se.JSONPointer), "/") + " again; a field is given once"
			jr.errs.add(jr.pos(se.ByteOffset), "%s", msg)
			return jr.errs.list
		}
		jr.errs.add(jr.pos(se.ByteOffset), "invalid JSON: %s", msg)
		return &jsonSyntaxError{jr.errs.list}
	case errors.Is(err, errReported):
		return jr.errs.list
	}
	jr.errs.add(jr.pos(jr.dec.InputOffset()), "invalid JSON: %v", err)
	return &jsonSyntaxError{jr.errs.list}
}

// errReported stops reading after an error that is already in the list.
var errReported = errors.New("reported")

// pos returns the place of byte offset off (its line and column are found
// when a message needs them).
func (jr *jsonReader) pos(off int64) pos {
	return pos{off: int(min(max(off, 0), int64(len(jr.data)))) + 1}
}

// here is where the next token starts.
func (jr *jsonReader) here() pos {
	off := jr.dec.InputOffset()
	for off < int64(len(jr.data)) && strings.IndexByte(" \t\r\n,:", jr.data[off]) >= 0 {
		off++
	}
	return jr.pos(off)
}

// object reads the object at path ("" for the replay) of the given
// fields.
func (jr *jsonReader) object(path string, fields []field, f *form) error {
	start := jr.here()
	tok, err := jr.dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '{' {
		return jr.wrong(path, tok, start, "an object")
	}
	for jr.dec.PeekKind() != '}' {
		keyAt := jr.here()
		// The name, read raw: a name without escapes is matched without
		// making a string of it.
		raw, err := jr.dec.ReadValue()
		if err != nil {
			return err
		}
		key := rawScalar(raw, keyAt).text
		fd, ok := lookup(fields, key)
		if !ok {
			jr.errs.add(keyAt, "unknown field %s", strictyaml.Echo(key))
			return errReported
		}
		f.mark(fd.id, keyAt)
		if err := jr.value(fd, f); err != nil {
			return err
		}
	}
	_, err = jr.dec.ReadToken()
	return err
}

// value reads the value of field fd.
func (jr *jsonReader) value(fd field, f *form) error {
	at := jr.here()
	switch fd.kind {
	case kObject:
		return jr.object(paths[fd.id], fd.sub, f)
	case kBoard:
		if jr.dec.PeekKind() == '[' {
			rows, err := jr.rows(paths[fd.id])
			if err != nil {
				return err
			}
			f.setRows(fd, at, rows, jr.errs)
			return jr.stop()
		}
	}
	s, err := jr.scalar(paths[fd.id])
	if err != nil {
		return err
	}
	f.setScalar(fd, s, jr.errs)
	return jr.stop()
}

// stop returns errReported once an error is listed: one is enough.
func (jr *jsonReader) stop() error {
	if len(jr.errs.list) > 0 {
		return errReported
	}
	return nil
}

// scalar reads a string, number, true, false or null, the value at path.
func (jr *jsonReader) scalar(path string) (scalar, error) {
	at := jr.here()
	switch jr.dec.PeekKind() {
	case '{', '[':
		tok, err := jr.dec.ReadToken()
		if err != nil {
			return scalar{}, err
		}
		return scalar{}, jr.wrong(path, tok, at, "a single value")
	}
	// Read raw, so that a string without escapes becomes a string in one
	// copy and a number or a literal in none.
	raw, err := jr.dec.ReadValue()
	if err != nil {
		return scalar{}, err
	}
	return rawScalar(raw, at), nil
}

// rawScalar reads a string, number, true, false or null from its valid
// JSON text raw, found at at.
func rawScalar(raw []byte, at pos) scalar {
	s := scalar{at: at}
	switch raw[0] {
	case '"':
		s.kind = sString
		if bytes.IndexByte(raw, '\\') < 0 {
			s.text = string(raw[1 : len(raw)-1])
		} else {
			text, _ := jsontext.AppendUnquote(nil, raw) // valid: the decoder read it
			s.text = string(text)
		}
	case 't':
		s.text, s.kind = "true", sBool
	case 'f':
		s.text, s.kind = "false", sBool
	case 'n':
		s.text, s.kind = "null", sNull
	default:
		s.text = string(raw)
		s.kind = classifyNumber(s.text)
	}
	return s
}

// rows reads the board at path as an array of rows, each an array of
// cells.
func (jr *jsonReader) rows(path string) ([][]scalar, error) {
	if _, err := jr.dec.ReadToken(); err != nil { // [
		return nil, err
	}
	var rows [][]scalar
	for jr.dec.PeekKind() != ']' {
		at := jr.here()
		tok, err := jr.dec.ReadToken()
		if err != nil {
			return nil, err
		}
		if tok.Kind() != '[' {
			return nil, jr.wrong(path, tok, at, "a row (a list of cells)")
		}
		var row []scalar
		for jr.dec.PeekKind() != ']' {
			if len(row) >= 64 || len(rows) >= 64 {
				jr.errs.add(at, "%s: a board has at most 8 rows of 8 cells", path)
				return nil, errReported
			}
			cell, err := jr.scalar(path)
			if err != nil {
				return nil, err
			}
			row = append(row, cell)
		}
		if _, err := jr.dec.ReadToken(); err != nil { // ]
			return nil, err
		}
		rows = append(rows, row)
	}
	_, err := jr.dec.ReadToken()
	return rows, err
}

// wrong reports a token of the wrong kind for the value at path.
func (jr *jsonReader) wrong(path string, tok jsontext.Token, at pos, want string) error {
	what := map[jsontext.Kind]string{'{': "an object", '[': "a list", '}': "the end of an object", ']': "the end of a list", 'n': "null"}[tok.Kind()]
	switch {
	case what != "":
	case tok.Kind() == '"':
		what = "the string " + strictyaml.Echo(tok.String())
	case strictyaml.Echoable(tok.String()):
		what = tok.String()
	default:
		what = strictyaml.Echo(tok.String())
	}
	if path == "" {
		path = "the replay"
	}
	jr.errs.add(at, "%s: %s where %s goes", path, what, want)
	return errReported
}
