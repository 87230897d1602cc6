package replay

import (
	"bytes"
	"strings"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/strictyaml"
)

// readHeader reads a replay document in the plain form recorders write
// into f, without the YAML library (whose cost on even a short header is
// many times verifying a long game's moves, docs/verify.md): top-level
// "key: value" lines, the claim mapping one level down (or as a one-line
// flow mapping), the claim's board as a literal block, comments on lines
// of their own at the left margin or after a value. Values are whole
// numbers written plainly (no leading zero; a sign only in a seed), true
// or false, double-quoted strings of printable ASCII without escapes, or
// plain words that YAML reads as strings (plainWord).
//
// It returns false for anything else: another YAML construct, an unknown
// or repeated key, a value of another form or of the wrong kind for its
// field, a board that does not parse, more nodes than the library reads
// (headerLimits). The YAML library then reads the document, so that that
// path alone words every error; readHeader never gives a result it would
// not (FuzzReadHeader).
func readHeader(data []byte, f *form) bool {
	if strictyaml.CountNodes(data) > headerLimits.Nodes {
		return false // the YAML library refuses it, blank and comment lines counted
	}
	for _, c := range data {
		if c != '\n' && (c < ' ' || c > '~') {
			return false // tabs, other controls, non-ASCII: the YAML library's business
		}
	}
	var claimIndent int // the claim mapping's indentation, once its first key is read
	inClaim := false
	// The lines one at a time: a split of the whole would take 24 bytes a
	// line, and the blanked lines of a long move log are millions.
	for off, n := 0, 1; off < len(data); n++ {
		line := lineOf(data, off)
		off += len(line) + 1
		indent := len(line) - len(bytes.TrimLeft(line, " "))
		switch {
		case len(line) == 0, line[0] == '#':
			continue
		case indent == len(line), line[indent] == '#':
			return false // white-space lines, indented comments
		}
		key, rest, found := bytes.Cut(line[indent:], []byte(":"))
		if !found || !isKey(key) || len(rest) > 0 && rest[0] != ' ' {
			return false
		}
		value := plainValue(rest)
		at := pos{line: n, col: indent + 1}
		if indent == 0 {
			if inClaim && claimIndent == 0 {
				return false // claim with nothing under it: null
			}
			inClaim = false
			fd, ok := lookup(replayFields, string(key))
			if !ok || f.present(fd.id) {
				return false
			}
			f.mark(fd.id, at)
			switch {
			case fd.id == fClaim && value != nil:
				if !f.setFlow(value, line, n) {
					return false
				}
			case fd.id == fClaim:
				inClaim, claimIndent = true, 0
			case !f.setPlain(fd, value):
				return false
			}
			continue
		}
		if !inClaim || claimIndent != 0 && indent != claimIndent {
			return false
		}
		claimIndent = indent
		fd, ok := lookup(claimFields, string(key))
		if !ok || f.present(fd.id) {
			return false
		}
		f.mark(fd.id, at)
		if fd.id == fBoard && len(value) > 0 && value[0] == '|' {
			text, end, ok := blockScalar(data, off, indent, value, false)
			board, err := engine.ParseBoard(text)
			if !ok || err != nil {
				return false
			}
			f.board, n, off = board, n+bytes.Count(data[off-1:end], []byte{'\n'}), end+1
			continue
		}
		if !f.setPlain(fd, value) {
			return false
		}
	}
	return f.has != 0 && !(inClaim && claimIndent == 0) // not an empty document, nor a claim with nothing under it
}

// isKey reports whether k is a key readHeader reads: letters only.
func isKey(k []byte) bool {
	for _, c := range k {
		if !isLetter(c) {
			return false
		}
	}
	return len(k) > 0
}

// plainValue returns the value after a key's colon: rest without the
// spaces around it and any comment (" #..."); nil when there is none.
func plainValue(rest []byte) []byte {
	if len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	if i := bytes.Index(rest, []byte(" #")); i >= 0 && !(len(rest) > 0 && rest[0] == '"' && bytes.IndexByte(rest[1:], '"')+1 > i) {
		rest = rest[:i]
	} else if len(rest) > 0 && rest[0] == '#' {
		rest = nil
	}
	rest = bytes.Trim(rest, " ")
	if len(rest) == 0 {
		return nil
	}
	return rest
}

// plainScalar reads the value v as YAML does, if it is a double-quoted
// string without escapes, true or false, a whole number written plainly,
// or a plain word (plainWord) that YAML reads as a string.
func plainScalar(v []byte) (scalar, bool) {
	s := scalar{text: string(v), kind: sString}
	switch {
	case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
		s.text = s.text[1 : len(s.text)-1]
		return s, !strings.ContainsAny(s.text, `"\`)
	case s.text == "true" || s.text == "false":
		s.kind = sBool
	case classifyNumber(s.text) == sInt:
		s.kind = sInt
	}
	return s, s.kind != sString || plainWord(s.text)
}

// setPlain stores the plain value v of field fd, if it is of the field's
// kind as YAML would read it (boards are read only as literal blocks).
func (f *form) setPlain(fd field, v []byte) bool {
	s, ok := plainScalar(v)
	return ok && fd.kind != kBoard && f.setScalar(fd, s, nil)
}

// setFlow reads a claim written as a one-line flow mapping of plain
// values, "{score: 20544, maxTile: 2048, moves: 1033}", as the minimal
// replay of docs/replay-format.md has it: v, part of line, which is line
// number n.
func (f *form) setFlow(v, line []byte, n int) bool {
	if len(v) < 2 || v[0] != '{' || v[len(v)-1] != '}' || bytes.ContainsAny(v[1:len(v)-1], "{}[]\"'#&*!|>%@`") {
		return false
	}
	off := cap(line) - cap(v) + 1 // v is part of line (plainValue slices it): where its entries start
	for inner := v[1 : len(v)-1]; ; {
		entry, more, _ := bytes.Cut(inner, []byte(","))
		lead := len(entry) - len(bytes.TrimLeft(entry, " "))
		key, value, found := bytes.Cut(bytes.Trim(entry, " "), []byte(": "))
		value = bytes.TrimLeft(value, " ")
		if !found || !isKey(key) {
			return false
		}
		fd, ok := lookup(claimFields, string(key))
		if !ok || fd.id == fBoard || f.present(fd.id) {
			return false
		}
		f.mark(fd.id, pos{line: n, col: 1 + off + lead})
		if !f.setPlain(fd, value) {
			return false
		}
		if more == nil {
			break
		}
		off += len(entry) + 1
		inner = more
	}
	return true
}
