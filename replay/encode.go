package replay

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/tileproof/tileproof/engine"
)

// form returns the replay's fields as they are written: the claim as
// complete as it is, the setup in full when there is one.
func (r *Replay) form() *form {
	f := &form{}
	f.optText(fSource, r.Source)
	f.setText(fProfile, r.Profile)
	if r.Rules != 0 {
		f.setNum(fRules, uint64(r.Rules))
	}
	f.optText(fRNG, r.RNG)
	if s := r.Setup; s != nil {
		f.set(fSetup)
		f.setNum(fTarget, s.Target)
		f.setFlag(fOpenEnded, s.OpenEnded)
	}
	if r.Seed != nil {
		f.setText(fSeed, *r.Seed)
	}
	f.optText(fCommitment, r.SeedCommitment)
	if r.Start != nil {
		f.set(fStart)
		f.start = *r.Start
	}
	f.setText(fMoves, r.MoveLog())
	if r.Times != nil {
		f.setText(fTimes, r.TimesLog())
	}
	f.optText(fTimesSeal, r.TimesSeal)
	f.setClaim(r.Claim)
	return f
}

// setClaim sets the claim's fields: the three figures, and the others
// when given.
func (f *form) setClaim(c Claim) {
	f.set(fClaim)
	f.setNum(fScore, c.Score)
	f.setNum(fMaxTile, c.MaxTile)
	f.setNum(fClaimMoves, uint64(c.Moves))
	if c.Board != nil {
		f.set(fBoard)
		f.board = *c.Board
	}
	if c.Won != nil {
		f.setFlag(fWon, *c.Won)
	}
	if c.Over != nil {
		f.setFlag(fOver, *c.Over)
	}
	if c.Result != nil {
		f.setText(fResult, c.Result.Name())
	}
}

// EncodeYAML writes a replay in the YAML form, the moves wrapped in lines
// of width letters and the claim as complete as it is. In YAML the think
// times count toward [MaxHeader], as the move log does not: a timed game
// of more than some 10,000 actions written so does not [Decode]; write it
// with [Replay.EncodeJSON], where they do not count.
func (r *Replay) EncodeYAML(width int) []byte {
	f := r.form()
	var b []byte
	for _, fd := range replayFields {
		b = f.appendYAML(b, fd, "", width)
	}
	return b
}

// appendYAML writes field fd, if present, as a line (or lines) indented by
// indent.
func (f *form) appendYAML(b []byte, fd field, indent string, width int) []byte {
	if !f.present(fd.id) {
		return b
	}
	b = append(append(append(b, indent...), fd.key...), ':')
	switch fd.kind {
	case kObject:
		if fd.id == fSetup {
			// A flow mapping on one line: {target: 512, openEnded: true}.
			b = append(b, " {"...)
			sep := ""
			for _, s := range fd.sub {
				if f.present(s.id) {
					b = append(append(append(b, sep...), s.key...), ": "...)
					b = f.appendScalarYAML(b, s)
					sep = ", "
				}
			}
			return append(b, "}\n"...)
		}
		b = append(b, '\n')
		for _, s := range fd.sub {
			b = f.appendYAML(b, s, indent+"  ", width)
		}
		return b
	case kBoard:
		// |2: the first row may start with spaces.
		return append(append(append(b, " |2\n"...), indentLines(f.boardOf(fd.id).String(), indent+"  ")...), '\n')
	case kTimes:
		if f.text[fd.id] == "" {
			return append(b, " \"\"\n"...)
		}
		fallthrough
	case kLog:
		return append(append(append(b, " |\n"...), indentLines(wrap(f.text[fd.id], width), indent+"  ")...), '\n')
	}
	b = append(b, ' ')
	return append(f.appendScalarYAML(b, fd), '\n')
}

// appendScalarYAML writes a scalar field's value: a string as a plain
// word where YAML (and readers of older YAML) can only read it as that
// string, else quoted; a seed always quoted.
func (f *form) appendScalarYAML(b []byte, fd field) []byte {
	switch fd.kind {
	case kCount:
		return strconv.AppendUint(b, f.num[fd.id], 10)
	case kFlag:
		return strconv.AppendBool(b, f.flag[fd.id])
	case kText:
		if s := f.text[fd.id]; plainWord(s) {
			return append(b, s...)
		}
	}
	return appendQuotedYAML(b, f.text[fd.id])
}

// appendQuotedYAML writes s as a YAML double-quoted scalar: as
// appendQuoted, JSON's escapes being YAML's too, with the characters YAML
// does not take as they are, which JSON leaves so, escaped: DEL, the C1
// controls, U+FFFE and U+FFFF, and NEL, LS and PS, which the YAML library
// reads as line breaks.
func appendQuotedYAML(b []byte, s string) []byte {
	if !strings.ContainsFunc(s, yamlUnprintable) {
		return appendQuoted(b, s)
	}
	for _, r := range string(appendQuoted(nil, s)) {
		if yamlUnprintable(r) {
			b = fmt.Appendf(b, `\u%04X`, r)
		} else {
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}

// yamlUnprintable reports whether YAML refuses r in a document, or reads
// it as a line break, where JSON takes it as it is.
func yamlUnprintable(r rune) bool {
	return r == 0x7F || 0x80 <= r && r <= 0x9F || r == 0x2028 || r == 0x2029 || r == 0xFFFE || r == 0xFFFF
}

// plainWord reports whether s can be written as a plain YAML scalar that
// every reader takes as the string s: a letter, then letters, digits,
// "-", "_" and ":" (not last), and not a word that YAML 1.1 or 1.2 reads as
// null or a boolean.
func plainWord(s string) bool {
	if s == "" || !isLetter(s[0]) || s[len(s)-1] == ':' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !('0' <= c && c <= '9') && c != '-' && c != '_' && c != ':' {
			return false
		}
	}
	switch strings.ToLower(s) {
	case "null", "true", "false", "yes", "no", "on", "off", "y", "n":
		return false
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// appendQuoted writes s as a JSON string, which is a YAML double-quoted
// scalar too. Invalid UTF-8, which no decoded replay holds, becomes
// U+FFFD.
func appendQuoted[T string | []byte](b []byte, s T) []byte {
	if plainPrefix(s) == len(s) {
		// Most strings (move logs, profile names, seeds) need no escape.
		return append(append(append(b, '"'), s...), '"')
	}
	out, err := jsontext.AppendQuote(b, s)
	if err != nil {
		out, _ = jsontext.AppendQuote(b, strings.ToValidUTF8(string(s), "\uFFFD"))
	}
	return out
}

// EncodeJSON writes a replay as one line of JSON (for JSON Lines batches).
func (r *Replay) EncodeJSON() []byte { return r.form().appendJSON(nil, replayFields) }

// appendJSON writes the present fields of fields as a JSON object.
func (f *form) appendJSON(b []byte, fields []field) []byte {
	w := jsonWriter{b: append(b, '{')}
	for _, fd := range fields {
		if !f.present(fd.id) {
			continue
		}
		w.key(fd.key)
		switch fd.kind {
		case kObject:
			w.b = f.appendJSON(w.b, fd.sub)
		case kBoard:
			w.b = appendRows(w.b, *f.boardOf(fd.id))
		case kCount:
			w.b = strconv.AppendUint(w.b, f.num[fd.id], 10)
		case kFlag:
			w.b = strconv.AppendBool(w.b, f.flag[fd.id])
		case kLog, kText, kSeed, kTimes:
			if fd.kind == kLog && f.movesOf != nil {
				// A move log written from actions is letters, digits and
				// colons: no character to escape.
				w.b = append(f.movesOf.appendMoveLog(append(w.b, '"'), false), '"')
				break
			}
			w.b = appendQuoted(w.b, f.text[fd.id])
		}
	}
	return append(w.b, '}')
}

// appendRows writes a board as rows of numbers, 0 for an empty cell.
func appendRows(b []byte, board engine.Board) []byte {
	b = append(b, '[')
	for r := range board.Rows() {
		if r > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for c := range board.Cols() {
			if c > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendUint(b, board.At(r, c), 10)
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

func wrap(s string, width int) string {
	if width <= 0 || len(s) <= width {
		return s
	}
	var sb strings.Builder
	for len(s) > width {
		cut := width
		if i := strings.LastIndexByte(s[:width+1], ' '); i > 0 {
			cut = i
		}
		sb.WriteString(strings.TrimSpace(s[:cut]))
		sb.WriteByte('\n')
		s = strings.TrimLeft(s[cut:], " ")
	}
	sb.WriteString(s)
	return sb.String()
}

func indentLines(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
