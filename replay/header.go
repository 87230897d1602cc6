package replay

import (
	"bytes"
	"strconv"

	"github.com/tileproof/tileproof/engine"
)

// readHeader reads a replay document in the plain form recorders write,
// without the YAML library (which spends some 40 µs on even a short
// header, as long as replaying some 1,500 moves): top-level "key: value"
// lines, a claim mapping one level down, the claim's board as a literal
// block, comments on lines of their own at the left margin or after a
// value. Values are whole numbers written plainly (no sign, no leading
// zero), true or false, double-quoted strings of printable ASCII without
// escapes, or plain words of letters, digits, "-" and "_" that YAML reads
// as strings.
//
// ok is false for anything else: another YAML construct, an unknown or
// repeated key, a value of another form or of the wrong kind for its
// field, a board that does not parse. The YAML decoder then reads the
// document, so that it alone words every error; readHeader never gives a
// result it would not (FuzzReadHeader).
func readHeader(data []byte) (f file, ok bool) {
	for _, c := range data {
		if c != '\n' && (c < ' ' || c > '~') {
			return file{}, false // tabs, other controls, non-ASCII: the YAML decoder's business
		}
	}
	seen := map[string]bool{}
	var claimIndent int // the claim mapping's indentation, once its first key is read
	inClaim := false
	lines := bytes.Split(data, []byte{'\n'})
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		indent := len(line) - len(bytes.TrimLeft(line, " "))
		switch {
		case len(line) == 0, line[0] == '#':
			continue
		case indent == len(line), line[indent] == '#':
			return file{}, false // white-space lines, indented comments
		}
		key, rest, found := bytes.Cut(line[indent:], []byte(":"))
		if !found || !isKey(key) || len(rest) > 0 && rest[0] != ' ' {
			return file{}, false
		}
		value := plainValue(rest)
		if indent == 0 {
			if inClaim && claimIndent == 0 {
				return file{}, false // claim with nothing under it: null
			}
			inClaim = false
			if seen[string(key)] {
				return file{}, false
			}
			seen[string(key)] = true
			if string(key) == "claim" {
				f.Claim = &claimFile{}
				if value != nil {
					if !f.Claim.setFlow(value) {
						return file{}, false
					}
					continue
				}
				inClaim, claimIndent = true, 0
				continue
			}
			if !f.setTop(string(key), value) {
				return file{}, false
			}
			continue
		}
		if !inClaim || claimIndent != 0 && indent != claimIndent {
			return file{}, false
		}
		claimIndent = indent
		ckey := "claim." + string(key)
		if seen[ckey] {
			return file{}, false
		}
		seen[ckey] = true
		if string(key) == "board" && len(value) > 0 && value[0] == '|' {
			board, next, ok := literalBoard(lines, i, indent, value)
			if !ok {
				return file{}, false
			}
			f.Claim.Board, i = &board, next-1
			continue
		}
		if !f.Claim.set(string(key), value) {
			return file{}, false
		}
	}
	if len(seen) == 0 || inClaim && claimIndent == 0 {
		return file{}, false // an empty document, or claim with nothing under it
	}
	return f, true
}

// isKey reports whether k is a key readHeader reads: letters only.
func isKey(k []byte) bool {
	for _, c := range k {
		if (c|0x20) < 'a' || (c|0x20) > 'z' {
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

// text reads a string value: double-quoted without escapes, or a plain
// word that YAML resolves to a string or a whole number (whose text a
// string field takes as it is).
func text(v []byte) (string, bool) {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		inner := v[1 : len(v)-1]
		return string(inner), bytes.IndexAny(inner, `"\`) < 0
	}
	if _, ok := number(v); ok {
		return string(v), true
	}
	if len(v) == 0 || (v[0]|0x20) < 'a' || (v[0]|0x20) > 'z' {
		return "", false
	}
	for _, c := range v {
		if !('a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return "", false
		}
	}
	switch string(bytes.ToLower(v)) {
	case "null", "true", "false":
		return "", false // YAML reads these as null or booleans
	}
	return string(v), true
}

// number reads a whole number written plainly: 0, or a digit 1-9 and at
// most 17 more digits.
func number(v []byte) (uint64, bool) {
	if len(v) == 0 || len(v) > 18 || v[0] == '0' && len(v) > 1 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(v), 10, 64)
	return n, err == nil
}

func (f *file) setTop(key string, v []byte) bool {
	if v == nil {
		return false
	}
	switch key {
	case "rules":
		n, ok := number(v)
		f.Rules = int(n)
		return ok
	case "seed":
		s, ok := text(v)
		f.Seed = (*seedText)(&s)
		return ok
	}
	s, ok := text(v)
	switch key {
	case "profile":
		f.Profile = s
	case "rng":
		f.RNG = s
	case "moves":
		f.Moves = &s
	case "seedCommitment":
		f.SeedCommitment = s
	case "source":
		f.Source = s
	default:
		return false // setup, start and unknown keys
	}
	return ok
}

func (c *claimFile) set(key string, v []byte) bool {
	if v == nil {
		return false
	}
	switch key {
	case "score", "maxTile", "moves":
		n, ok := number(v)
		switch key {
		case "score":
			c.Score = &n
		case "maxTile":
			c.MaxTile = &n
		default:
			m := int(n)
			c.Moves = &m
		}
		return ok
	case "won", "over":
		b := string(v) == "true"
		if key == "won" {
			c.Won = &b
		} else {
			c.Over = &b
		}
		return b || string(v) == "false"
	case "result":
		s, ok := text(v)
		c.Result = &s
		return ok
	}
	return false
}

// setFlow reads a claim written as a one-line flow mapping of plain
// values, "{score: 20544, maxTile: 2048, moves: 1033}", as DESIGN.md's
// minimal replay has it.
func (c *claimFile) setFlow(v []byte) bool {
	if len(v) < 2 || v[0] != '{' || v[len(v)-1] != '}' || bytes.ContainsAny(v[1:len(v)-1], "{}[]\"'#&*!|>%@`") {
		return false
	}
	seen := map[string]bool{}
	for entry := range bytes.SplitSeq(v[1:len(v)-1], []byte(",")) {
		key, value, found := bytes.Cut(bytes.Trim(entry, " "), []byte(": "))
		value = bytes.TrimLeft(value, " ")
		if !found || !isKey(key) || seen[string(key)] || string(key) == "board" || !c.set(string(key), value) {
			return false
		}
		seen[string(key)] = true
	}
	return true
}

// literalBoard reads a board written as a literal block scalar ("|",
// perhaps with an indentation indicator and a chomping indicator) whose
// key, at indentation parent, is on lines[at]. It returns the board and
// the index of the first line after the block.
func literalBoard(lines [][]byte, at, parent int, header []byte) (engine.Board, int, bool) {
	content := 0 // the content's indentation: from the indicator, or the first line
	chomp := false
	for _, c := range header[1:] {
		switch {
		case (c == '-' || c == '+') && !chomp:
			chomp = true
		case '1' <= c && c <= '9' && content == 0:
			content = parent + int(c-'0')
		default:
			return engine.Board{}, 0, false
		}
	}
	var grid []byte
	i := at + 1
	for ; i < len(lines); i++ {
		line := lines[i]
		indent := len(line) - len(bytes.TrimLeft(line, " "))
		switch {
		case len(line) == 0:
			grid = append(grid, '\n')
			continue
		case indent == len(line):
			return engine.Board{}, 0, false // white-space lines: YAML has rules for those
		case indent <= parent:
			board, err := engine.ParseBoard(string(grid))
			return board, i, err == nil
		case content == 0:
			content = indent
		case indent < content:
			return engine.Board{}, 0, false
		}
		grid = append(append(grid, line[content:]...), '\n')
	}
	board, err := engine.ParseBoard(string(grid))
	return board, i, err == nil
}
