// Package strictyaml decodes YAML (and so JSON) documents strictly, the way
// every tileproof data file is read: an unknown field, a second document or
// a value of the wrong type is an error, and every error names the file and
// line it is about, as "file:line: message".
package strictyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Error is one decoding error, at a line of a file (Line 0: the whole file).
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// ErrorList is every error found in one document, in the order found.
type ErrorList []*Error

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var sb strings.Builder
	for i, e := range l {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(e.Error())
	}
	return sb.String()
}

// Unwrap returns the errors of the list.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

var (
	linePrefix   = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	unknownField = regexp.MustCompile(`^field (\S+) not found in type \S+$`)
)

// located turns a message of the yaml library, "line N: msg", into an Error.
func located(file, msg string) *Error {
	if m := linePrefix.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{file, line, unknownField.ReplaceAllString(m[2], `unknown field "$1"`)}
	}
	return &Error{file, 0, strings.TrimPrefix(msg, "yaml: ")}
}

// Decode decodes the single YAML or JSON document in data into v. Fields
// that v does not have are errors. The errors are an [ErrorList] whose
// entries name file and a line.
func Decode(file string, data []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	err := dec.Decode(v)
	if err == io.EOF {
		return ErrorList{{file, 0, "empty document"}}
	}
	if err != nil {
		return convert(file, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		if err != nil {
			return convert(file, err)
		}
		return ErrorList{{file, extra.Line, "a second document; a file holds one"}}
	}
	return nil
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
// collected with the other errors of the document, at n's line.
func Fail(n *yaml.Node, format string, args ...any) error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: ", n.Line) + fmt.Sprintf(format, args...)}}
}

// Lines returns the line of every mapping key and sequence item in the
// document in data, by dotted path: "win.tile" for key tile under key win,
// "cases.2" for the third item of the list under cases. Callers use it to
// place errors they find after decoding. A document that does not parse
// gives an empty map.
func Lines(data []byte) map[string]int {
	lines := map[string]int{}
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil || len(root.Content) == 0 {
		return lines
	}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := join(path, n.Content[i].Value)
				lines[p] = n.Content[i].Line
				walk(n.Content[i+1], p)
			}
		case yaml.SequenceNode:
			for i, item := range n.Content {
				p := join(path, strconv.Itoa(i))
				lines[p] = item.Line
				walk(item, p)
			}
		}
	}
	walk(root.Content[0], "")
	return lines
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// At returns an error at the line of path in lines (from [Lines]), or at
// the nearest enclosing path that has one.
func At(file string, lines map[string]int, path, msg string) *Error {
	for p := path; p != ""; {
		if line, ok := lines[p]; ok {
			return &Error{file, line, msg}
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return &Error{file, 0, msg}
}
