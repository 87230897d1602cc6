// Package strictyaml decodes YAML (and so JSON) documents strictly, the way
// every tileproof data file is read: an unknown field, a repeated key, a
// second document or a value of the wrong type is an error, and every error
// names the file and line it is about, as "file:line: message" (with the
// column, "file:line:col: message", where it is known).
//
// A YAML library spends hundreds of bytes on every node it parses, and
// compares every key of a mapping with every other, so before it sees a
// document [Parse] and [Decode] check it against [Limits]: its size, an
// upper bound of its nodes counted from its bytes, and the keys of each
// mapping. Memory and time are then bounded whatever the document's shape.
package strictyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Error is one decoding error, at a line of a file (Line 0: the whole file)
// and, where it is known, a column (1-based; 0 when unknown).
type Error struct {
	File string
	Line int
	Col  int
	Msg  string
}

// Error returns the error as FILE:LINE:COL: MESSAGE (without the parts
// that are unknown).
func (e *Error) Error() string {
	switch {
	case e.Line == 0:
		return e.File + ": " + e.Msg
	case e.Col == 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// ErrorList is every error found in one document, in the order found.
type ErrorList []*Error

// Error returns the errors, one a line.
func (l ErrorList) Error() string {
	if len(l) == 0 {
		return "no errors"
	}
	return errors.Join(l.Unwrap()...).Error()
}

// Unwrap returns the errors of the list.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// Limits bound a document before the YAML library parses it.
type Limits struct {
	Bytes int // the document's size
	// Nodes bounds the nodes the document can hold, as [CountNodes]
	// counts them from its bytes (an upper bound, so a document under it
	// never parses into more).
	Nodes int
	Keys  int // the keys of one mapping
}

// DefaultLimits are the limits of [Decode]: far above any case file,
// profile or expectations file, far below what exhausts a machine
// (docs/security.md has what a document at the limits costs).
var DefaultLimits = Limits{Bytes: 8 << 20, Nodes: 200_000, Keys: 1000}

// CountNodes returns an upper bound of the nodes of a YAML document: one,
// plus two for each byte that can begin others (a flow indicator, a key's
// colon, a block sequence's dash, a complex key's question mark: each may
// bring a key or an entry and the empty value beside it) and one for each
// line that holds more than spaces and tabs (a blank line begins no node).
// It counts those bytes inside scalars and comments too, so it can only
// count too many.
func CountNodes(data []byte) int {
	n, blank := 1, true
	for _, c := range data {
		switch c {
		case ',', '[', '{', ':', '-', '?':
			n += 2
		case '\n':
			if !blank {
				n++
			}
			blank = true
			continue
		case ' ', '\t', '\r':
			continue
		}
		blank = false
	}
	if !blank { // the last line, without a line break
		n++
	}
	return n
}

// Parse parses the document in data and returns its root node (the
// document's content, not the document node). Before the YAML library
// sees it, it refuses a document larger than lim, with more nodes than lim
// allows ([CountNodes]), of invalid UTF-8, or with a control character
// (which YAML does not allow either) other than tab, line feed and
// carriage return; after, a mapping that repeats a key or has more than
// lim.Keys keys. An empty document is an error. Errors are an
// [ErrorList].
func Parse(file string, data []byte, lim Limits) (*yaml.Node, error) {
	if len(data) > lim.Bytes {
		return nil, ErrorList{{File: file, Msg: fmt.Sprintf("%d bytes; this document may have at most %d", len(data), lim.Bytes)}}
	}
	if n := CountNodes(data); n > lim.Nodes {
		return nil, ErrorList{{File: file, Msg: fmt.Sprintf("as many as %d YAML nodes (counted from the indicators and lines); this document may have at most %d", n, lim.Nodes)}}
	}
	line, col := 1, 0
	for i, r := range string(data) {
		col++
		switch {
		case r == '\n':
			line, col = line+1, 0
		case r < ' ' && r != '\t' && r != '\r', r == 0x7f:
			return nil, ErrorList{{File: file, Line: line, Col: col, Msg: fmt.Sprintf("the control character %U; a YAML document holds none", r)}}
		case r == utf8.RuneError && !bytes.HasPrefix(data[i:], []byte("\uFFFD")):
			return nil, ErrorList{{File: file, Line: line, Col: col, Msg: fmt.Sprintf("the byte %#02x is not valid UTF-8", data[i])}}
		}
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	err := dec.Decode(&doc)
	if err == io.EOF {
		return nil, ErrorList{{File: file, Msg: "empty document"}}
	}
	if err != nil {
		return nil, convert(file, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		if err != nil {
			return nil, convert(file, err)
		}
		return nil, ErrorList{{File: file, Line: extra.Line, Col: extra.Column, Msg: "a second document; a file holds one"}}
	}
	if len(doc.Content) == 0 {
		return nil, ErrorList{{File: file, Msg: "empty document"}}
	}
	root := doc.Content[0]
	if err := checkKeys(file, root, lim.Keys); err != nil {
		return nil, err
	}
	return root, nil
}

// checkKeys walks the tree and reports the first mapping with a repeated
// key or more than max keys, in time linear in the tree.
func checkKeys(file string, n *yaml.Node, max int) error {
	switch n.Kind {
	case yaml.MappingNode:
		seen := make(map[string]*yaml.Node, min(len(n.Content)/2, max+1))
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.ScalarNode {
				if first, ok := seen[k.Value]; ok {
					return ErrorList{{File: file, Line: k.Line, Col: k.Column, Msg: fmt.Sprintf("the key %s again (first at line %d)", Echo(k.Value), first.Line)}}
				}
				seen[k.Value] = k
			}
			if err := checkKeys(file, n.Content[i+1], max); err != nil {
				return err
			}
		}
		if len(n.Content)/2 > max {
			return ErrorList{{File: file, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf("a mapping of %d keys; at most %d", len(n.Content)/2, max)}}
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			if err := checkKeys(file, c, max); err != nil {
				return err
			}
		}
	}
	return nil
}

// located turns a message of the yaml library, "line N: msg", into an Error.
func located(file, msg string) *Error {
	if line, col, rest, ok := cutLine(msg); ok {
		if name, ok := unknownField(rest); ok {
			return &Error{File: file, Line: line, Col: col, Msg: "unknown field " + Echo(name)}
		}
		return &Error{File: file, Line: line, Col: col, Msg: rest}
	}
	return &Error{File: file, Msg: strings.TrimPrefix(msg, "yaml: ")}
}

// cutLine splits a message of the yaml library, "line N: msg" after an
// optional "yaml: ", or of [Fail], "line N:C: msg", into N, C (0 when
// absent) and msg, a single line. It is written out, not a regular
// expression, so that the package costs nothing to start.
func cutLine(msg string) (line, col int, rest string, ok bool) {
	s, found := strings.CutPrefix(strings.TrimPrefix(msg, "yaml: "), "line ")
	at, rest, cut := strings.Cut(s, ": ")
	l, c, hasCol := strings.Cut(at, ":")
	if !found || !cut || !digits(l) || hasCol && !digits(c) || strings.Contains(rest, "\n") {
		return 0, 0, "", false
	}
	line, _ = strconv.Atoi(l)
	col, _ = strconv.Atoi(c)
	return line, col, rest, true
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// unknownField returns the field NAME of the yaml library's message
// "field NAME not found in type TYPE".
func unknownField(msg string) (name string, ok bool) {
	const space = " \t\n\f\r" // a regular expression's \s
	s, found := strings.CutPrefix(msg, "field ")
	end := strings.IndexAny(s, space)
	if !found || end <= 0 {
		return "", false
	}
	typ, found := strings.CutPrefix(s[end:], " not found in type ")
	if !found || typ == "" || strings.ContainsAny(typ, space) {
		return "", false
	}
	return s[:end], true
}

// Decode decodes the single YAML or JSON document in data into v, within
// [DefaultLimits]. Fields that v does not have, and keys given twice, are
// errors. The errors are an [ErrorList] whose entries name file, a line
// and, once the document has parsed, a column: the key of an unknown
// field, the value that does not fit, the node an UnmarshalYAML method
// failed on ([Fail]), or else the first node of the line.
func Decode(file string, data []byte, v any) error {
	_, err := decode(file, data, v)
	return err
}

// DecodeAt decodes as [Decode] does and returns, from the same parse,
// the place of every mapping key and sequence item of the document by
// dotted path: "win.tile" for key tile under key win, "cases.2" for the
// third item of the list under cases. Callers place the errors they find
// after decoding with it ([At]).
func DecodeAt(file string, data []byte, v any) (map[string]Pos, error) {
	root, err := decode(file, data, v)
	if err != nil {
		return nil, err
	}
	return positions(root), nil
}

// decode decodes data into v and returns the document's root node.
func decode(file string, data []byte, v any) (*yaml.Node, error) {
	// The document is parsed twice: once into nodes, to check its keys in
	// linear time (the YAML library's own check is quadratic and reports
	// every pair), then into v with unknown fields refused, which a node's
	// Decode cannot do.
	root, err := Parse(file, data, DefaultLimits)
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		err = convert(file, err)
		if list, ok := err.(ErrorList); ok {
			for _, e := range list {
				placeColumn(e, root)
				e.Msg = wrongKind(e.Msg, reflect.TypeOf(v))
			}
		}
		return nil, err
	}
	return root, nil
}

// placeColumn gives e, at a line of the document under root, a column
// when it has none: the unknown field's key, the value the library could
// not decode, or the first node on the line.
func placeColumn(e *Error, root *yaml.Node) {
	if e.Line == 0 || e.Col != 0 {
		return
	}
	key, isKey := strings.CutPrefix(e.Msg, "unknown field ")
	if isKey {
		key, _ = strconv.Unquote(key)
	}
	value, isValue := undecodedValue(e.Msg)
	var first *yaml.Node
	var walk func(n *yaml.Node, isKeyNode bool) bool
	walk = func(n *yaml.Node, isKeyNode bool) bool {
		if n.Line == e.Line {
			switch {
			case isKey && isKeyNode && n.Value == key,
				isValue && !isKeyNode && n.Kind == yaml.ScalarNode && strings.HasPrefix(n.Value, value):
				e.Col = n.Column
				return true
			case first == nil || n.Column < first.Column:
				first = n
			}
		}
		for i, c := range n.Content {
			if walk(c, n.Kind == yaml.MappingNode && i%2 == 0) {
				return true
			}
		}
		return false
	}
	if !walk(root, false) && first != nil {
		e.Col = first.Column
	}
}

// undecodedValue returns the value of the YAML library's message
// "cannot unmarshal !!TAG `VALUE` into TYPE", without the "..." the
// library puts in place of a long value's end.
func undecodedValue(msg string) (string, bool) {
	_, rest, tagged := strings.Cut(msg, "cannot unmarshal !!")
	_, rest, quoted := strings.Cut(rest, " `")
	value, _, into := strings.Cut(rest, "` into ")
	return strings.TrimSuffix(value, "..."), tagged && quoted && into
}

// wrongKind puts the YAML library's "cannot unmarshal !!TAG `VALUE` into
// TYPE", which names a Go type, in a reader's words: "`VALUE` where a
// mapping goes" (a list, a whole number, ...: the kind of the type of
// that name that t reaches), the value echoed only when [Echoable] ("a
// text" otherwise: a file of secrets read as YAML shows none of it).
// Any other message, or a type t does not reach, is left as it is.
func wrongKind(msg string, t reflect.Type) string {
	rest, ok := strings.CutPrefix(msg, "cannot unmarshal !!")
	found, name, into := strings.Cut(rest, " into ")
	want := kindWords(typeNamed(t, name, map[reflect.Type]bool{}))
	if !ok || !into || want == "" {
		return msg
	}
	tag, value, quoted := strings.Cut(found, " `")
	value = strings.TrimSuffix(value, "`")
	switch {
	case quoted && Echoable(value) && !strings.HasSuffix(value, "..."):
		found = "`" + value + "`"
	case quoted:
		found = "a text"
	case tag == "seq":
		found = "a list"
	case tag == "map":
		found = "a mapping"
	}
	return found + " where " + want + " goes"
}

// typeNamed returns the type named name (as reflect writes it) among t
// and the types it reaches through pointers, lists, maps and fields, or
// nil.
func typeNamed(t reflect.Type, name string, seen map[reflect.Type]bool) reflect.Type {
	if t == nil || seen[t] {
		return nil
	}
	seen[t] = true
	if t.String() == name {
		return t
	}
	var reached []reflect.Type
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		reached = []reflect.Type{t.Elem()}
	case reflect.Map:
		reached = []reflect.Type{t.Key(), t.Elem()}
	case reflect.Struct:
		for i := range t.NumField() {
			reached = append(reached, t.Field(i).Type)
		}
	}
	for _, r := range reached {
		if found := typeNamed(r, name, seen); found != nil {
			return found
		}
	}
	return nil
}

// kindWords says what a value of type t is written as; "" for a nil t or
// a kind YAML does not write.
func kindWords(t reflect.Type) string {
	if t == nil {
		return ""
	}
	switch k := t.Kind(); {
	case k == reflect.Struct || k == reflect.Map:
		return "a mapping"
	case k == reflect.Slice || k == reflect.Array:
		return "a list"
	case k >= reflect.Int && k <= reflect.Uint64:
		return "a whole number"
	case k == reflect.Float32 || k == reflect.Float64:
		return "a number"
	case k == reflect.String:
		return "text"
	case k == reflect.Bool:
		return "true or false"
	}
	return ""
}

func convert(file string, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		list := make(ErrorList, len(te.Errors))
		for i, msg := range te.Errors {
			list[i] = located(file, msg)
		}
		return list
	}
	return ErrorList{located(file, err.Error())}
}

// Fail returns the error an UnmarshalYAML method reports for node n: it is
// collected with the other errors of the document, at n's line and (when
// n has one) its column.
func Fail(n *yaml.Node, format string, args ...any) error {
	at := fmt.Sprintf("line %d: ", n.Line)
	if n.Column > 0 {
		at = fmt.Sprintf("line %d:%d: ", n.Line, n.Column)
	}
	return &yaml.TypeError{Errors: []string{at + fmt.Sprintf(format, args...)}}
}

// Quote returns s quoted as Go quotes it (%q), cut to at most max bytes of
// s with the length of the rest said, so that a message never echoes a
// long value whole.
func Quote(s string, max int) string {
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes in all)", strconv.Quote(s[:cut]), len(s))
}

// maxEcho is the longest input text a message repeats as it is.
const maxEcho = 32

// Echo returns input text for a message: quoted when it could be a field
// name or a plain value ([Echoable]), otherwise only its size ("a text
// of 42 bytes"). A message shown to the person who submitted a file must
// not repeat the file: a replay path pointing at a secret, read as a
// replay, is refused without a line of it in the error.
func Echo(s string) string {
	if !Echoable(s) {
		return fmt.Sprintf("a text of %d bytes", len(s))
	}
	return strconv.Quote(s)
}

// Echoable reports whether a message may repeat input text s as it is: at
// most 32 bytes of letters, digits and "-_.+", as a field name or a
// number is written.
func Echoable(s string) bool {
	if s == "" || len(s) > maxEcho {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("-_.+", r) {
			return false
		}
	}
	return true
}

// Pos is a place in a document: a line and a column, both 1-based.
type Pos struct{ Line, Col int }

// positions returns the place of every mapping key and sequence item
// under root, by dotted path ([DecodeAt]).
func positions(root *yaml.Node) map[string]Pos {
	pos := map[string]Pos{}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				p := join(path, k.Value)
				pos[p] = Pos{k.Line, k.Column}
				walk(n.Content[i+1], p)
			}
		case yaml.SequenceNode:
			for i, item := range n.Content {
				p := join(path, strconv.Itoa(i))
				pos[p] = Pos{item.Line, item.Column}
				walk(item, p)
			}
		}
	}
	walk(root, "")
	return pos
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// At returns an error at the place of path in pos (from [DecodeAt]), or
// at the nearest enclosing path that has one.
func At(file string, pos map[string]Pos, path, msg string) *Error {
	for p := path; p != ""; {
		if at, ok := pos[p]; ok {
			return &Error{File: file, Line: at.Line, Col: at.Col, Msg: msg}
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return &Error{File: file, Msg: msg}
}
