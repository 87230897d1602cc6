package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tileproof/tileproof/internal/strictyaml"
)

// decodeFile decodes a replay document into its file form, strictly.
//
// Reading the move log is most of the work of decoding a long replay, and
// a YAML library scans a long scalar slowly, so two cases take a faster
// way with the same result: a JSON document is read with encoding/json,
// and a YAML document whose top-level moves is a one-line plain scalar or
// a literal block of log characters has that value read directly (see
// cutMoves), and the rest of it too when it has the plain form recorders
// write (see readHeader); everything else goes through the YAML decoder.
func decodeFile(name string, data []byte) (file, error) {
	var f file
	if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '{' {
		err := decodeJSON(name, data, &f)
		var se *json.SyntaxError
		if !errors.As(err, &se) {
			return f, err
		}
		f = file{} // not JSON: a YAML flow mapping, perhaps
	}
	if rest, moves, ok := cutMoves(data); ok {
		// The header in the form recorders write is read directly too.
		if f, ok := readHeader(rest); ok && f.Moves != nil && *f.Moves == "" {
			f.Moves = &moves
			return f, nil
		}
		// The cut is right only if the placeholder is what the YAML
		// decoder read as the top-level moves (it is not, say, when the
		// "moves:" line is inside a quoted string); otherwise, and for
		// every error, the slow way decides.
		if err := strictyaml.Decode(name, rest, &f); err == nil && f.Moves != nil && *f.Moves == "" {
			f.Moves = &moves
			return f, nil
		}
		f = file{}
	}
	return f, strictyaml.Decode(name, data, &f)
}

// decodeJSON decodes a JSON replay strictly, with errors at their line.
func decodeJSON(name string, data []byte, f *file) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(f)
	if err == nil {
		if _, err = dec.Token(); err == io.EOF {
			return nil
		}
		return strictyaml.ErrorList{{File: name, Line: lineAt(data, dec.InputOffset()), Msg: "data after the replay's object"}}
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return se // the caller tries YAML
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "the replay"
		}
		return strictyaml.ErrorList{{File: name, Line: lineAt(data, te.Offset), Msg: fmt.Sprintf("%s: a JSON %s where a %s goes", field, te.Value, jsonKind(te.Type.String()))}}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return strictyaml.ErrorList{{File: name, Line: lineAt(data, dec.InputOffset()), Msg: fmt.Sprintf("unknown field %q", field)}}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return strictyaml.ErrorList{{File: name, Line: lineAt(data, int64(len(data))), Msg: "invalid JSON: the document ends inside a value"}}
	}
	return strictyaml.ErrorList{{File: name, Line: lineAt(data, dec.InputOffset()), Msg: strings.TrimPrefix(err.Error(), "json: ")}}
}

func jsonKind(goType string) string {
	switch {
	case strings.Contains(goType, "int"):
		return "whole number"
	case strings.Contains(goType, "string"):
		return "string"
	case strings.Contains(goType, "bool"):
		return "true or false"
	}
	return "value of another kind"
}

// lineAt returns the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// logChars are the characters a move log consists of.
var logChars = func() (t [256]bool) {
	for _, c := range "UDLRZEKudlrzek0123456789: \t" {
		t[c] = true
	}
	return t
}()

// otherBreaks reports whether data holds a line break other than "\n":
// "\r", NEL, LS or PS. (bytes.ContainsAny would say, but its search for
// non-ASCII runes decodes every rune: ten times this, on a long log.)
func otherBreaks(data []byte) bool {
	if bytes.IndexByte(data, '\r') >= 0 {
		return true
	}
	// NEL is C2 85 in UTF-8, LS and PS are E2 80 A8 and E2 80 A9.
	return (bytes.IndexByte(data, 0xC2) >= 0 || bytes.IndexByte(data, 0xE2) >= 0) &&
		bytes.ContainsAny(data, "\u0085\u2028\u2029")
}

// cutMoves finds the value of a top-level "moves:" key written as a
// one-line plain scalar or as a literal block scalar ("|") of move-log
// characters, and returns the document with that value replaced by "" and
// its lines blanked (so the lines of the other fields stay where they
// are), and the value. ok is false for any other form, which the YAML
// decoder then reads.
func cutMoves(data []byte) (rest []byte, moves string, ok bool) {
	if !utf8.Valid(data) || otherBreaks(data) {
		return nil, "", false // other line breaks, or an encoding error: the YAML decoder's business (so no "\r" below)
	}
	start := -1
	for i := 0; i < len(data); {
		end := bytes.IndexByte(data[i:], '\n')
		if end < 0 {
			end = len(data) - i
		}
		if line := data[i : i+end]; bytes.HasPrefix(line, []byte("moves:")) && (len(line) == 6 || (line[6] == ' ' || line[6] == '\t')) {
			if start >= 0 {
				return nil, "", false // a second key: the YAML decoder reports it
			}
			start = i
		}
		i += end + 1
	}
	if start < 0 {
		return nil, "", false
	}
	lineEnd := bytes.IndexByte(data[start:], '\n')
	if lineEnd < 0 {
		lineEnd = len(data) - start
	}
	lineEnd += start
	valueStart := start + len("moves:")
	value := bytes.Trim(data[valueStart:lineEnd], " \t")
	// cut replaces data[valueStart:end] with "" and as many newlines.
	cut := func(end int) []byte {
		breaks := bytes.Count(data[valueStart:end], []byte{'\n'})
		out := make([]byte, 0, valueStart+3+breaks+len(data)-end)
		out = append(out, data[:valueStart]...)
		out = append(out, ` ""`...)
		for range breaks {
			out = append(out, '\n')
		}
		return append(out, data[end:]...)
	}
	if string(value) != "|" && string(value) != "|-" {
		// A plain scalar on one line, perhaps with a comment.
		for i := 1; i < len(value); i++ {
			if value[i] == '#' && (value[i-1] == ' ' || value[i-1] == '\t') {
				value = bytes.TrimRight(value[:i], " \t")
				break
			}
		}
		// value is a subslice of data: cut it alone, keeping any comment.
		valueEnd := valueStart + bytes.Index(data[valueStart:lineEnd], value) + len(value)
		if len(value) == 0 || !isLogLetter(value[0]) || !allLog(value) || bytes.Contains(value, []byte(": ")) || value[len(value)-1] == ':' {
			return nil, "", false
		}
		if next := lineEnd + 1; next < len(data) && (data[next] == ' ' || data[next] == '\t') && len(bytes.TrimSpace(lineOf(data, next))) > 0 {
			return nil, "", false // a plain scalar continued on the next line
		}
		return cut(valueEnd), string(value), true
	}
	// A literal block: the lines after, indented alike, until a line that
	// is not indented.
	var sb strings.Builder
	sb.Grow(len(data) - lineEnd)
	indent := -1
	i := lineEnd + 1
	for i < len(data) {
		line := lineOf(data, i)
		content := bytes.TrimRight(line, " \t")
		if len(content) == 0 && indent < 0 && len(line) > 0 {
			return nil, "", false // leading white-space lines: YAML has rules for those
		}
		if len(content) > 0 {
			n := len(line) - len(bytes.TrimLeft(line, " "))
			switch {
			case n == 0:
				goto done
			case bytes.IndexByte(line, '\t') >= 0 || indent >= 0 && n < indent || !allLog(content):
				return nil, "", false
			}
			if indent < 0 {
				indent = n
			}
			sb.Write(content)
			sb.WriteByte('\n')
		}
		i += len(line) + 1
	}
done:
	// The block ends before line i; keep the newline that ends its last
	// line.
	end := min(i, len(data))
	if i < len(data) {
		end--
	}
	return cut(end), sb.String(), true
}

func lineOf(data []byte, i int) []byte {
	if end := bytes.IndexByte(data[i:], '\n'); end >= 0 {
		return data[i : i+end]
	}
	return data[i:]
}

func isLogLetter(c byte) bool { return logChars[c] && (c|0x20) >= 'a' && (c|0x20) <= 'z' }

func allLog(b []byte) bool {
	for _, c := range b {
		if !logChars[c] {
			return false
		}
	}
	return true
}
