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

// cut is a YAML document with its move log cut out (cutMoves).
type cut struct {
	// rest is the document with the log's value replaced by "" and its
	// lines blanked, so that the lines of the other fields stay where
	// they are.
	rest  []byte
	moves string // the log, as the YAML library reads it
	at    pos    // where the key "moves" is
	// blank is the line breaks in rest that stand for the log's lines:
	// len(rest)-blank bytes are the fields other than the move log (and
	// the placeholder "").
	blank int
}

// header returns the size of the fields other than the move log.
func (c *cut) header() int { return len(c.rest) - c.blank }

// cutMoves finds the value of a top-level "moves:" key written as a
// one-line plain or double-quoted scalar, or as a literal or folded block
// scalar ("|", "|-", ">", ">-"), of move-log characters, and returns the
// document with that value cut out, the value as the YAML library reads
// it (blockScalar), and where the key is. ok is false for any other
// form, which the YAML library then reads.
func cutMoves(data []byte) (c cut, ok bool) {
	if !utf8.Valid(data) || otherBreaks(data) {
		return cut{}, false // other line breaks, or an encoding error: the YAML library's business (so no "\r" below)
	}
	start, line := -1, 0
	for i, n := 0, 1; i < len(data); n++ {
		end := bytes.IndexByte(data[i:], '\n') // not lineOf, too large to be inlined: this loop takes every line
		if end < 0 {
			end = len(data) - i
		}
		if l := data[i : i+end]; bytes.HasPrefix(l, []byte("moves:")) && (len(l) == 6 || (l[6] == ' ' || l[6] == '\t')) {
			if start >= 0 {
				return cut{}, false // a second key: the YAML library reports it
			}
			start, line = i, n
		}
		i += end + 1
	}
	if start < 0 {
		return cut{}, false
	}
	c.at = pos{line: line, col: 1}
	lineEnd := start + len(lineOf(data, start))
	valueStart := start + len("moves:")
	value := bytes.Trim(data[valueStart:lineEnd], " \t")
	// cutAt replaces data[valueStart:end] with "" and as many newlines.
	cutAt := func(end int, moves string) (cut, bool) {
		c.blank = bytes.Count(data[valueStart:end], []byte{'\n'})
		out := make([]byte, 0, valueStart+3+c.blank+len(data)-end)
		out = append(out, data[:valueStart]...)
		out = append(out, ` ""`...)
		for range c.blank {
			out = append(out, '\n')
		}
		c.rest, c.moves = append(out, data[end:]...), moves
		return c, true
	}
	if len(value) > 2 && value[0] == '"' && bytes.IndexByte(value[1:], '"') == len(value)-2 && allLog(value[1:len(value)-1]) {
		// A double-quoted scalar on one line, without escapes.
		valueEnd := valueStart + bytes.Index(data[valueStart:lineEnd], value) + len(value)
		return cutAt(valueEnd, string(value[1:len(value)-1]))
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
			return cut{}, false
		}
		if next := lineEnd + 1; next < len(data) && (data[next] == ' ' || data[next] == '\t') && len(bytes.TrimSpace(lineOf(data, next))) > 0 {
			return cut{}, false // a plain scalar continued on the next line
		}
		return cutAt(valueEnd, string(value))
	}
	moves, end, ok := blockScalar(data, lineEnd+1, 0, value, true)
	if !ok {
		return cut{}, false
	}
	return cutAt(end, moves)
}

// blockScalar reads a block scalar whose header (after the key's colon)
// is header, "|", ">-", "|2" and the like, and whose lines start at
// data[i], under a key indented by parent, as the YAML library does
// (yaml_parser_scan_block_scalar in go.yaml.in/yaml/v3, which follows the
// YAML spec; FuzzCutMoves and FuzzReadHeader hold the two to the same
// value): the indentation is the indicator's, or the first non-empty
// line's; each line after it loses that much; an empty line, or one of
// spaces no longer than the indentation, is a line break; a folded block
// joins two lines that do not start with a space by a space when no empty
// line is between them, and drops the first line break of those that
// are; the final line break is stripped (-) or kept, alone (a "+" reads
// as no indicator: only a board takes one here, and its trailing line
// breaks count for nothing). A line that is not empty and is indented
// less than the first, or no more than parent, ends the block. It returns
// the value and the end of its last line (before the line break, which
// stays with the rest of the document). ok is false for a block the
// library reads otherwise or refuses: white-space lines before the first,
// a tab, a character that is not a move log's when moves is set (room for
// all of data is then made at once: a log is most of its document).
func blockScalar(data []byte, i, parent int, header []byte, moves bool) (value string, end int, ok bool) {
	folded, chomp, indent := header[0] == '>', byte(0), -1
	for _, c := range header[1:] {
		switch {
		case (c == '-' || c == '+') && chomp == 0:
			chomp = c
		case '1' <= c && c <= '9' && indent < 0:
			indent = parent + int(c-'0')
		default:
			return "", 0, false
		}
	}
	var sb strings.Builder
	if moves {
		sb.Grow(max(len(data)-i, 0))
	}
	brk := false              // a line break ends the last content line
	breaks := 0               // the empty lines since
	spaced := false           // the last content line starts with a space (after the indentation)
	end = min(i-1, len(data)) // the end of the block's last line
	for i < len(data) {
		line := lineOf(data, i)
		n := len(line) - len(bytes.TrimLeft(line, " "))
		hasBreak := i+len(line) < len(data)
		switch {
		case n <= parent && n < len(line) && line[n] != '\t':
			goto done // at the key's indentation or less: the block has ended
		case bytes.IndexByte(line, '\t') >= 0:
			return "", 0, false // in the indentation an error to the library; anywhere, its business
		case n == len(line) && (indent < 0 && n > 0):
			return "", 0, false // white-space lines first: the library's rules for those differ
		case n == len(line) && n <= indent || indent < 0 && n == 0:
			// An empty line.
			if hasBreak {
				breaks++
			}
		case n < indent:
			goto done // less indented (a comment, say): the block has ended
		default:
			if indent < 0 {
				indent = n
			}
			text := line[indent:]
			if !allLog(text) && moves { // in this order: the other is slower (docs/verify.md)
				return "", 0, false
			}
			blank := text[0] == ' '
			if folded && brk && !spaced && !blank {
				if breaks == 0 {
					sb.WriteByte(' ')
				}
			} else if brk {
				sb.WriteByte('\n')
			}
			for ; breaks > 0; breaks-- {
				sb.WriteByte('\n')
			}
			spaced = blank
			sb.Write(text)
			brk = hasBreak
		}
		end = i + len(line)
		i += len(line) + 1
	}
done:
	if brk && chomp != '-' {
		sb.WriteByte('\n')
	}
	return sb.String(), end, true
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
