package replay

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/tileproof/tileproof/internal/strictjson"
	"github.com/tileproof/tileproof/internal/strictyaml"
)

// A JSON replay is decoded strictly (internal/strictjson: a name given
// twice, an unknown name and invalid UTF-8 are errors, names matched
// exactly where encoding/json ignores case and folds Unicode, so a
// document means one thing to every JSON reader) into the structs below;
// each value is then read as its field's kind by the code every syntax
// shares ([form.setScalar], [form.setRows]).

// The replay's objects, by the keys of the format's tables
// (TestJSONKeys holds them to the tables).
type (
	jsonReplay struct {
		Source         jsonValue `json:"source"`
		Profile        jsonValue `json:"profile"`
		Rules          jsonValue `json:"rules"`
		RNG            jsonValue `json:"rng"`
		Setup          jsonValue `json:"setup"`
		Seed           jsonValue `json:"seed"`
		SeedCommitment jsonValue `json:"seedCommitment"`
		Start          jsonValue `json:"start"`
		Moves          jsonValue `json:"moves"`
		Times          jsonValue `json:"times"`
		TimesSeal      jsonValue `json:"timesSeal"`
		Claim          jsonValue `json:"claim"`
	}
	jsonSetup struct {
		Target    jsonValue `json:"target"`
		OpenEnded jsonValue `json:"openEnded"`
	}
	jsonClaim struct {
		Score   jsonValue `json:"score"`
		MaxTile jsonValue `json:"maxTile"`
		Moves   jsonValue `json:"moves"`
		Board   jsonValue `json:"board"`
		Won     jsonValue `json:"won"`
		Over    jsonValue `json:"over"`
		Result  jsonValue `json:"result"`
	}
)

// values returns the values of v, a pointer to one of the structs above,
// by field: its struct fields are the table's, in order.
func values(v any, fields []field) map[fieldID]*jsonValue {
	s := reflect.ValueOf(v).Elem()
	m := make(map[fieldID]*jsonValue, len(fields))
	for i, fd := range fields {
		m[fd.id] = s.Field(i).Addr().Interface().(*jsonValue)
	}
	return m
}

// jsonValue is a member's value as written: the byte offsets of its key's
// end and of its value's start and end, in the text decoded.
type jsonValue struct {
	set             bool
	keyEnd, at, end int
}

// UnmarshalJSONFrom notes where the value is, and skips it.
func (v *jsonValue) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	v.set, v.keyEnd = true, int(dec.InputOffset())
	raw, err := dec.ReadValue()
	v.end = int(dec.InputOffset())
	v.at = v.end - len(raw)
	return err
}

// structSyntaxError is a document that is not JSON at all: the caller may
// try it as YAML.
type structSyntaxError struct{ list strictyaml.ErrorList }

func (e *structSyntaxError) Error() string { return e.list.Error() }

// readJSONStructs reads a JSON replay document into f. Its errors come in the
// order a reader from the start finds them: not JSON at all first, then a
// name given twice, then the first in the document of a value of the
// wrong kind, an unknown name and data after the replay's object.
func readJSONStructs(name string, data []byte, f *form) error {
	errs := &decodeError{name: name, src: data}
	f.src = data
	var d jsonReplay
	later, err := jsonObject(data, 0, "", &d, errs)
	if err != nil {
		return err
	}
	for _, m := range members(values(&d, replayFields), replayFields, later.before) {
		fd, v := m.fd, m.v
		f.mark(fd.id, pos{off: keyStart(data, v.keyEnd) + 1})
		if fd.kind != kObject {
			jsonField(data, fd, v, f, errs)
			if len(errs.list) > 0 {
				return errs.list
			}
			continue
		}
		var sub any = new(jsonSetup)
		if fd.id == fClaim {
			sub = new(jsonClaim)
		}
		subLater, err := jsonObject(data[v.at:v.end], v.at, paths[fd.id], sub, errs)
		if err != nil {
			return err
		}
		for _, m := range members(values(sub, fd.sub), fd.sub, subLater.before) {
			m.v.keyEnd, m.v.at, m.v.end = m.v.keyEnd+v.at, m.v.at+v.at, m.v.end+v.at
			f.mark(m.fd.id, pos{off: keyStart(data, m.v.keyEnd) + 1})
			jsonField(data, m.fd, m.v, f, errs)
			if len(errs.list) > 0 {
				return errs.list
			}
		}
		if err := subLater.report(errs); err != nil {
			return err
		}
	}
	return later.report(errs)
}

// member is a value given, with its field.
type member struct {
	fd field
	v  *jsonValue
}

// members returns the values given of an object's fields that start
// before offset before, in the order of the document.
func members(values map[fieldID]*jsonValue, fields []field, before int) []member {
	var ms []member
	for _, fd := range fields {
		if v := values[fd.id]; v.set && v.at < before {
			ms = append(ms, member{fd, v})
		}
	}
	slices.SortFunc(ms, func(a, b member) int { return cmp.Compare(a.v.at, b.v.at) })
	return ms
}

// pending is an error of an object reported once its values before
// offset before are read without one: an unknown name, data after the
// replay.
type pending struct {
	before int
	at     pos
	msg    string
	syntax bool // not JSON: the caller may try it as YAML
}

func (p pending) report(errs *decodeError) error {
	if p.msg == "" {
		return nil
	}
	errs.add(p.at, "%s", p.msg)
	if p.syntax {
		return &structSyntaxError{errs.list}
	}
	return errs.list
}

// jsonObject decodes data, the object at path ("" for the replay) found
// at byte offset base of the document, into v, reporting what the strict
// decoding refuses: an error at once, or one pending its values.
func jsonObject(data []byte, base int, path string, v any, errs *decodeError) (pending, error) {
	if path != "" && data[0] != '{' { // the replay's own kind is the decoder's to find
		wrong(data, base, path, "an object", errs)
		return pending{}, errs.list
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); path == "" && bytes.HasPrefix(t, []byte("null")) {
		wrong(t, base+len(data)-len(t), path, "an object", errs) // null decodes into a struct as nothing
		return pending{}, errs.list
	}
	err := json.Unmarshal(data, v, strictjson.Options())
	if err == nil {
		return pending{before: len(data)}, nil
	}
	at := func(off int64) pos { return pos{off: base + int(min(max(off, 0), int64(len(data)))) + 1} }
	if se, ok := errors.AsType[*json.SemanticError](err); ok {
		switch _, serr := jsontext.NewDecoder(bytes.NewReader(data)).ReadValue(); {
		case serr != nil:
			err = serr // not JSON at all says so first
		case errors.Is(err, json.ErrUnknownName):
			json.Unmarshal(data, v, strictjson.Options(), json.RejectUnknownMembers(false))
			return pending{int(se.ByteOffset), at(se.ByteOffset), "unknown field " + strictyaml.Echo(se.JSONPointer.LastToken()), false}, nil
		default:
			wrong(data[se.ByteOffset:], base+int(se.ByteOffset), path, "an object", errs)
			return pending{}, errs.list
		}
	}
	se, ok := errors.AsType[*jsontext.SyntacticError](err)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		errs.add(at(int64(len(data))), "invalid JSON: the document ends inside a value")
	case ok && errors.Is(err, jsontext.ErrDuplicateName):
		errs.add(at(se.ByteOffset), "the field %s again; a field is given once", strings.TrimPrefix(path+string(se.JSONPointer), "/"))
		return pending{}, errs.list
	case ok && se.JSONPointer == "" && strings.HasSuffix(se.Err.Error(), "after top-level value"):
		json.Unmarshal(data[:se.ByteOffset], v, strictjson.Options())
		rest := jsontext.NewDecoder(bytes.NewReader(data[se.ByteOffset:]))
		if _, terr := rest.ReadToken(); terr == nil { // placed after that token, as a reader of tokens finds it
			return pending{len(data), at(se.ByteOffset + rest.InputOffset()), "data after the replay's object", false}, nil
		}
		return pending{len(data), at(se.ByteOffset), "invalid JSON: " + strings.TrimPrefix(se.Err.Error(), "jsontext: "), true}, nil
	case ok:
		errs.add(at(se.ByteOffset), "invalid JSON: %s", strings.TrimPrefix(se.Err.Error(), "jsontext: "))
	default:
		errs.add(at(0), "invalid JSON: %v", err)
	}
	return pending{}, &structSyntaxError{errs.list}
}

// keyStart returns the offset of the opening quote of the name that ends
// at offset end of data.
func keyStart(data []byte, end int) int {
	for i := end - 2; i >= 0; i-- {
		if data[i] != '"' {
			continue
		}
		n := 0 // the backslashes before it: an odd number escapes it
		for i-n-1 >= 0 && data[i-n-1] == '\\' {
			n++
		}
		if n%2 == 0 {
			return i
		}
	}
	return 0
}

// jsonField reads the value v of field fd into f.
func jsonField(data []byte, fd field, v *jsonValue, f *form, errs *decodeError) {
	raw := data[v.at:v.end]
	if fd.kind != kBoard || raw[0] != '[' {
		if raw[0] == '{' || raw[0] == '[' {
			wrong(raw, v.at, paths[fd.id], "a single value", errs)
			return
		}
		f.setScalar(fd, rawScalar(raw, pos{off: v.at + 1}), errs)
		return
	}
	// A board of rows: a list of lists of single values, at most 64 each
	// (BoardFromValues words the bounds).
	after := func(off int) int { // the offset of the next value after off
		return v.at + off + len(raw[off:]) - len(bytes.TrimLeft(raw[off:], " \t\r\n,"))
	}
	var rows [][]scalar
	dec := jsontext.NewDecoder(bytes.NewReader(raw))
	dec.ReadToken()
	for dec.PeekKind() != ']' {
		start := after(int(dec.InputOffset()))
		if dec.PeekKind() != '[' {
			wrong(data[start:], start, paths[fd.id], "a row (a list of cells)", errs)
			return
		}
		dec.ReadToken()
		var row []scalar
		for dec.PeekKind() != ']' {
			at := after(int(dec.InputOffset()))
			cell, _ := dec.ReadValue() // valid: the decoder read the whole value
			if len(row) >= 64 || len(rows) >= 64 {
				errs.add(pos{off: start + 1}, "%s: a board has at most 8 rows of 8 cells", paths[fd.id])
				return
			}
			if cell[0] == '{' || cell[0] == '[' {
				wrong(cell, at, paths[fd.id], "a single value", errs)
				return
			}
			row = append(row, rawScalar(cell, pos{off: at + 1}))
		}
		dec.ReadToken()
		rows = append(rows, row)
	}
	f.setRows(fd, pos{off: v.at + 1}, rows, errs)
}

// wrong reports the value at the start of raw, found at byte offset at,
// as of the wrong kind for the value at path.
func wrong(raw []byte, at int, path, want string, errs *decodeError) {
	var what string
	switch raw[0] {
	case '{':
		what = "an object"
	case '[':
		what = "a list"
	case 'n':
		what = "null"
	case '"':
		v, _ := jsontext.NewDecoder(bytes.NewReader(raw)).ReadValue()
		text, _ := jsontext.AppendUnquote(nil, v)
		what = "the string " + strictyaml.Echo(string(text))
	default:
		v, _ := jsontext.NewDecoder(bytes.NewReader(raw)).ReadValue()
		what = string(v)
		if !strictyaml.Echoable(what) {
			what = strictyaml.Echo(what)
		}
	}
	if path == "" {
		path = "the replay"
	}
	errs.add(pos{off: at + 1}, "%s: %s where %s goes", path, what, want)
}
