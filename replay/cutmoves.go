package replay

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// logChars are the characters a move log consists of: the actions'
// letters in either case, digits, colons, spaces and tabs.
var logChars = [256]bool{
	'U': true, 'D': true, 'L': true, 'R': true, 'Z': true, 'E': true, 'K': true, 'B': true,
	'u': true, 'd': true, 'l': true, 'r': true, 'z': true, 'e': true, 'k': true, 'b': true,
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true,
	':': true, ' ': true, '\t': true,
}

// otherBreaks reports whether data holds a line break other than "\n":
// "\r", NEL, LS or PS. (bytes.ContainsAny would say, but its search for
// non-ASCII runes decodes every rune, docs/verify.md.)
func otherBreaks(data []byte) bool {
	if bytes.IndexByte(data, '\r') >= 0 {
		return true
	}
	// NEL is C2 85 in UTF-8, LS and PS are E2 80 A8 and E2 80 A9.
	return (bytes.IndexByte(data, 0xC2) >= 0 || bytes.IndexByte(data, 0xE2) >= 0) &&
		bytes.ContainsAny(data, "\u0085\u2028\u2029")
}

// cutMoves finds the value of a top-level "moves:" key written as a
// one-line plain or double-quoted scalar, or as a literal or folded block
// scalar ("|", ">"), of move-log characters, and returns the document with
// that value replaced by "" and its lines blanked (so the lines of the
// other fields stay where they are), the value, and where the key is. (A
// folded block reads as the literal one but for line breaks, which a move
// log ignores.) ok is false for any other form, which the YAML library then
// reads.
func cutMoves(data []byte) (rest []byte, moves string, at pos, ok bool) {
	if !utf8.Valid(data) || otherBreaks(data) {
		return nil, "", pos{}, false // other line breaks, or an encoding error: the YAML library's business (so no "\r" below)
	}
	start, line := -1, 0
	for i, n := 0, 1; i < len(data); n++ {
		end := bytes.IndexByte(data[i:], '\n')
		if end < 0 {
			end = len(data) - i
		}
		if l := data[i : i+end]; bytes.HasPrefix(l, []byte("moves:")) && (len(l) == 6 || (l[6] == ' ' || l[6] == '\t')) {
			if start >= 0 {
				return nil, "", pos{}, false // a second key: the YAML library reports it
			}
			start, line = i, n
		}
		i += end + 1
	}
	if start < 0 {
		return nil, "", pos{}, false
	}
	at = pos{line: line, col: 1}
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
	if len(value) > 2 && value[0] == '"' && bytes.IndexByte(value[1:], '"') == len(value)-2 && allLog(value[1:len(value)-1]) {
		// A double-quoted scalar on one line, without escapes.
		valueEnd := valueStart + bytes.Index(data[valueStart:lineEnd], value) + len(value)
		return cut(valueEnd), string(value[1 : len(value)-1]), at, true
	}
	switch string(value) {
	case "|", "|-", ">", ">-":
	default:
		// A plain scalar on one line, perhaps with a comment.
		for i := 1; i < len(value); i++ {
			if value[i] == '#' && (value[i-1] == ' ' || value[i-1] == '\t') {
				value = bytes.TrimRight(value[:i], " \t")
				break
			}
		}
		// value is a subslice of data: cut it alone, keeping any comment.
		valueEnd := valueStart + bytes.Index(data[valueStart:lineEnd], value) + len(value)
		if len(value) == 0 || !isLogLetter(value[0]) || !allLog(value) || bytes.Contains(value, []byte(": ")) || bytes.Contains(value, []byte(":\t")) || value[len(value)-1] == ':' {
			return nil, "", pos{}, false
		}
		if next := lineEnd + 1; next < len(data) && (data[next] == ' ' || data[next] == '\t') && len(bytes.TrimSpace(lineOf(data, next))) > 0 {
			return nil, "", pos{}, false // a plain scalar continued on the next line
		}
		return cut(valueEnd), string(value), at, true
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
			return nil, "", pos{}, false // leading white-space lines: YAML has rules for those
		}
		if len(content) > 0 {
			n := len(line) - len(bytes.TrimLeft(line, " "))
			switch {
			case n == 0:
				goto done
			case bytes.IndexByte(line, '\t') >= 0 || indent >= 0 && n < indent || !allLog(content):
				return nil, "", pos{}, false
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
	return cut(end), sb.String(), at, true
}

func lineOf(data []byte, i int) []byte {
	if end := bytes.IndexByte(data[i:], '\n'); end >= 0 {
		return data[i : i+end]
	}
	return data[i:]
}

func isLogLetter(c byte) bool { return logChars[c] && isLetter(c) }

func allLog(b []byte) bool {
	for _, c := range b {
		if !logChars[c] {
			return false
		}
	}
	return true
}
