package jsonl

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// escapeTerminalRunes writes the C1 controls and Unicode's format
// characters (bidirectional overrides among them) of JSON text as \uXXXX
// escapes, as `tileproof verify --json` does: the same strings to a JSON
// reader, but nothing a terminal showing the line could act on (JSON
// escapes the C0 controls already). They occur only inside strings, where
// the escape is valid.
func escapeTerminalRunes(text []byte) []byte {
	if !bytes.ContainsFunc(text, needsRuneEscape) {
		return text
	}
	out := make([]byte, 0, len(text)+16)
	for _, r := range string(text) {
		if needsRuneEscape(r) {
			if hi, lo := utf16.EncodeRune(r); hi != utf8.RuneError {
				out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo) // beyond the BMP: a surrogate pair, as JSON writes it
				continue
			}
			out = fmt.Appendf(out, `\u%04x`, r)
			continue
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}

func needsRuneEscape(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r != utf8.RuneError && unicode.Is(unicode.Cf, r)
}
