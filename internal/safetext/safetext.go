// Package safetext makes text that came from outside (file names, an
// implementation's name and messages, a replay's fields) safe for the
// medium it is written to, one function a medium: a terminal ([Terminal],
// [TerminalLines]), Markdown ([Markdown]) and YAML ([YAML]). HTML pages go through
// html/template and JUnit XML through encoding/xml, which escape already.
// [Cut] bounds such text where it is kept.
package safetext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Cut returns s when it has at most n bytes; else its first n bytes, fewer
// where a character would be cut, copied (the long string is not kept
// alive), and "...".
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.Clone(s[:n]) + "..."
}

// Terminal returns s with every character a terminal would act on shown
// visibly instead: the C0 controls (escape, carriage return, backspace,
// newline and the rest) and DEL as \x1b, \r, ..., the C1 controls, the
// line and paragraph separators and Unicode's format characters (the
// bidirectional overrides among them) as \u009b, \u202e, and each byte of
// invalid UTF-8 as \xff. A backslash is written as it is, so the text a
// person sees is what the name holds, escapes included, never a command
// to the terminal. Text with none of these is returned as it is, without
// copying.
func Terminal(s string) string { return escape(s, false) }

// TerminalLines is [Terminal] for a message of several lines: a newline
// and a tab are kept, everything else as Terminal shows it.
func TerminalLines(s string) string { return escape(s, true) }

// plain reports whether s needs no escaping: printable ASCII only (with
// newlines and tabs when lines).
func plain(s string, lines bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f {
			if lines && (c == '\n' || c == '\t') {
				continue
			}
			return false
		}
	}
	return true
}

func escape(s string, lines bool) string {
	if plain(s, lines) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case lines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == utf8.RuneError && size <= 1, r < 0x20 || r == 0x7f: // one byte
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafeRune(r) && r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// unsafeRune reports whether a terminal may act on r or a reader be
// misled by it (beyond ASCII): the C1 controls, the line and paragraph
// separators, the format characters (bidirectional overrides, zero-width
// characters) and the private and unassigned code points.
func unsafeRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 || r == utf8.RuneError ||
		unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r) || !unicode.IsPrint(r) && !unicode.IsSpace(r) && !unicode.IsGraphic(r)
}

// TerminalNamed returns msg, a message of one or more lines, as
// [TerminalLines] shows it, with each of names (a file name, an argument)
// that occurs in it shown as [Terminal] shows it: its newlines and tabs as
// \x0a and \x09 too, so that a file named "x\nok     y.yaml" cannot add a
// line of its own to the message.
func TerminalNamed(msg string, names ...string) string {
	msg = TerminalLines(msg)
	for _, name := range names {
		if strings.ContainsAny(name, "\n\t") {
			msg = strings.ReplaceAll(msg, TerminalLines(name), Terminal(name))
		}
	}
	return msg
}

// Name returns a file's name for a line of text that names it among
// other words ("ok     NAME: ...", "best verified score N (NAME)"): as
// [Terminal] shows it, and in double quotes (a double quote inside as
// \") when it holds what could read as the line's own words: a
// parenthesis, a semicolon, ": ", a double quote, or a space at either
// end. A file named "a.yaml); best without warnings 9999999 (b.yaml"
// would otherwise add a clause to a summary line.
func Name(s string) string {
	if strings.ContainsAny(s, `();"`) || strings.Contains(s, ": ") || strings.TrimSpace(s) != s {
		return `"` + Terminal(strings.ReplaceAll(s, `"`, `\"`)) + `"`
	}
	return Terminal(s)
}

// Markdown returns s as text for one line of Markdown, a table cell or an
// item of a list, that shows s as it is and nothing else: no character of
// it starts a link, an image, emphasis, a code span, an HTML tag or
// comment, or ends the cell. Everything [Terminal] escapes is shown so
// (a newline as \x0a: a row cannot be broken), then <, > and & are
// written as entities, and the punctuation that ends a cell or starts
// emphasis, a code span, a link or an image is escaped with a backslash
// (\| \* \_ \` \[ \] \! \~ \\). Other punctuation (a version's
// "1.0.0+x", a name's "(npm)") is left as it is: alone it marks nothing
// up.
func Markdown(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;", "&", "&amp;", `\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`,
		"[", `\[`, "]", `\]`, "!", `\!`, "|", `\|`, "~", `\~`).Replace(Terminal(s))
}

// Shell writes args as a POSIX shell command line, each argument in
// single quotes where it holds anything but letters, digits and
// _@%+=:,./- (a quote inside ends the quoting, is escaped, and starts it
// again), so that a shell reads the arguments back as they are. Written
// to a terminal, it still needs Terminal.
func Shell(args []string) string {
	words := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
			words[i] = a
		} else {
			words[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(words, " ")
}

// YAML marshals v as go.yaml.in/yaml/v3 does, but writes every string that
// holds a character [Terminal] would escape (the bidirectional overrides
// among them) double-quoted, each such character as a YAML escape
// (\u202e), so that a person reading the file, or the terminal it is
// printed to, sees what the value holds: the YAML library writes the
// format characters and the private code points as they are. A YAML
// reader reads the result back as v wherever it reads back what the
// library writes; where the library cannot read its own text of such a
// value, YAML returns an error.
func YAML(v any) ([]byte, error) {
	data, err := yaml.Marshal(v)
	if err != nil || TerminalLines(string(data)) == string(data) {
		return data, err
	}
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil, fmt.Errorf("safetext: the YAML library cannot read what it wrote: %v", err)
	}
	quoteUnsafe(&n)
	if data, err = yaml.Marshal(&n); err != nil {
		return nil, err
	}
	// Only the scalars quoted above hold such characters, and in a
	// double-quoted scalar an escape stands for its character: TerminalLines
	// writes them so, once the library is seen to write no control byte.
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 || r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
			return nil, fmt.Errorf("safetext: the YAML library wrote byte %#x as it is", data[i])
		}
		i += size
	}
	return []byte(TerminalLines(string(data))), nil
}

// quoteUnsafe sets the double-quoted style on every scalar under n that
// holds a character Terminal escapes.
func quoteUnsafe(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && Terminal(n.Value) != n.Value {
		n.Style = yaml.DoubleQuotedStyle
	}
	for _, c := range n.Content {
		quoteUnsafe(c)
	}
}
