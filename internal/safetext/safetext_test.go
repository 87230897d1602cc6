package safetext

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// TestTerminal: the attacks of issue 25's item 5 are shown, never acted
// on: a repaint to "ok", a window title, OSC 52 to the clipboard, a
// bidirectional override, invalid UTF-8; plain text is returned as is.
func TestTerminal(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a.yaml", "a.yaml"},
		{"\x1b[2K\rok     a.yaml: score 1048576", `\x1b[2K\x0dok     a.yaml: score 1048576`},
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"\x1b]52;c;cm0gLXJmIH4=\x1b\\", `\x1b]52;c;cm0gLXJmIH4=\x1b\`},
		{"a\u202egpj.yaml", `a\u202egpj.yaml`},
		{"\u009b31m", `\u009b31m`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"line\nnext\tx\x7f", `line\x0anext\x09x\x7f`},
		{"ünïcode ✓ 2048", "ünïcode ✓ 2048"},
	} {
		if got := Terminal(tc.in); got != tc.want {
			t.Errorf("Terminal(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := TerminalLines("a\n\tb\x1b[1A"); got != "a\n\tb\\x1b[1A" {
		t.Errorf("TerminalLines = %q", got)
	}
}

// TestMarkdown: a name cannot end its table cell, break its row, start a
// comment or a link, or emphasize.
func TestMarkdown(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"tileproof-serve 1.0.0+x (npm)", "tileproof-serve 1.0.0+x (npm)"},
		{"evil | ✓ 1 | ✓ 1 |\n| real", `evil \| ✓ 1 \| ✓ 1 \|\\x0a\| real`},
		{"x <!-- y", "x &lt;\\!-- y"},
		{"[ok](http://x) *b* _i_ `c` ~s~ \\", `\[ok\](http://x) \*b\* \_i\_ \` + "`c\\`" + ` \~s\~ \\`},
		{"a & b > c", "a &amp; b &gt; c"},
	} {
		if got := Markdown(tc.in); got != tc.want {
			t.Errorf("Markdown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// checkTerminal fails unless out holds no character a terminal acts on.
func checkTerminal(t *testing.T, in, out string, lines bool) {
	if !utf8.ValidString(out) {
		t.Fatalf("%q: invalid UTF-8 %q", in, out)
	}
	for _, r := range out {
		if lines && (r == '\n' || r == '\t') {
			continue
		}
		if r < 0x20 || r == 0x7f || unsafeRune(r) {
			t.Fatalf("%q: %q keeps %U", in, out, r)
		}
	}
}

func FuzzTerminal(f *testing.F) {
	for _, s := range []string{"a.yaml", "\x1b[2J", "\xff\xfe", "\u202e\u2028", "ok\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Terminal(s)
		checkTerminal(t, s, out, false)
		checkTerminal(t, s, TerminalLines(s), true)
		if plain(s, false) && out != s {
			t.Fatalf("%q: plain text changed to %q", s, out)
		}
	})
}

// TestYAML: a profile's title with a bidirectional override, an escape
// and a zero-width space is written with escapes a reader sees, and read
// back as it was; a string without such characters keeps the library's
// own style.
func TestYAML(t *testing.T) {
	type doc struct {
		Title string
		Lines string
		Plain string
	}
	v := doc{Title: "ab\u202ecd\x1b[31m", Lines: "one\n\u200btwo\n", Plain: "a: b, café"}
	data, err := YAML(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`title: "ab\u202ecd\e[31m"`, `lines: "one\n\u200btwo\n"`, `plain: 'a: b, café'`} {
		if !strings.Contains(string(data), want+"\n") {
			t.Errorf("no line %s in\n%s", want, data)
		}
	}
	checkYAML(t, v.Title, data)
	var back doc
	if err := yaml.Unmarshal(data, &back); err != nil || back != v {
		t.Fatalf("read back %+v, %v; want %+v", back, err, v)
	}
}

// checkYAML fails unless data shows no character a terminal acts on.
func checkYAML(t *testing.T, in string, data []byte) {
	t.Helper()
	checkTerminal(t, in, string(data), true)
}

// FuzzYAML: whatever a string holds, YAML writes nothing a terminal acts
// on, and a YAML reader reads the string back wherever it reads back what
// the library itself writes.
func FuzzYAML(f *testing.F) {
	for _, s := range []string{"a.yaml", "\x1b[2J", "\u202e\u2028", "x\n\u200b\ty", "\\\u202e", "\ue000", "- [a]: b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // the library writes such a string as !!binary
		}
		v := map[string][]string{"k": {s}}
		var lib map[string][]string
		if data, err := yaml.Marshal(v); err != nil || yaml.Unmarshal(data, &lib) != nil || len(lib["k"]) != 1 || lib["k"][0] != s {
			return // the library's own limit: a literal block in a list it misreads
		}
		data, err := YAML(v)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		checkYAML(t, s, data)
		var back map[string][]string
		if err := yaml.Unmarshal(data, &back); err != nil || len(back["k"]) != 1 || back["k"][0] != s {
			t.Fatalf("%q: wrote\n%s\nread back %q, %v", s, data, back, err)
		}
	})
}

func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"a | b", "<!--", "[x](y)", "\n| z |", "*_`~!\\&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Markdown(s)
		checkTerminal(t, s, out, false)
		if strings.ContainsAny(out, "<>\n\r") {
			t.Fatalf("%q: %q", s, out)
		}
		// Every special character is escaped: read back, a backslash
		// takes the next byte as it is.
		for i := 0; i < len(out); i++ {
			switch out[i] {
			case '\\':
				i++
				if i == len(out) || !strings.ContainsRune("\\`*_[]!|~", rune(out[i])) {
					t.Fatalf("%q: %q: a lone backslash at %d", s, out, i-1)
				}
			case '`', '*', '_', '[', ']', '!', '|', '~':
				t.Fatalf("%q: %q: %c unescaped at %d", s, out, out[i], i)
			}
		}
	})
}

// TestShell checks that a POSIX shell reads the line Shell writes back
// as the arguments given, and that plain words stay unquoted.
func TestShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	args := []string{"tileproof", "verify", "", "g's game.yaml", "a b", `$HOME`, "`id`", `"x"`, `\`, "ü.yaml", "line\nbreak", "*", "-o", "'", "''", "a'b'c", "--run=^x$"}
	line := Shell(args)
	if !strings.HasPrefix(line, "tileproof verify '' ") {
		t.Errorf("plain words are quoted, or an empty one is not: %s", line)
	}
	out, err := exec.Command(sh, "-c", "set -- "+line+"\n"+`for a; do printf '%s\0' "$a"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if !slices.Equal(got, args) {
		t.Errorf("sh read back\n%q\nfrom %s, want\n%q", got, line, args)
	}
}

// TestCut: a text of at most n bytes is kept as it is; a longer one is cut
// to its first n bytes or fewer, never inside a character, and marked.
func TestCut(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc..."},
		{"ab€d", 3, "ab..."}, // € is 3 bytes from byte 2: not split
		{"ab€d", 5, "ab€..."},
		{"€", 2, "..."},
		{"", 0, ""},
	} {
		if got := Cut(tc.s, tc.n); got != tc.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestName(t *testing.T) {
	for in, want := range map[string]string{
		"games/a.yaml":            "games/a.yaml",
		"batch.jsonl:12":          "batch.jsonl:12",
		"x\x1b[2K\r.yaml":         `x\x1b[2K\x0d.yaml`, // only escaped: nothing reads as words
		"a.yaml); best (b.yaml":   `"a.yaml); best (b.yaml"`,
		"a.yaml: score 9999":      `"a.yaml: score 9999"`,
		"my game (1).yaml":        `"my game (1).yaml"`,
		" a.yaml":                 `" a.yaml"`,
		`say "hi".yaml`:           `"say \"hi\".yaml"`,
		"x;\u202e\x1b.yaml":       `"x;\u202e\x1b.yaml"`, // quoted, and escaped by the quoting
		"stdin:3 (of a long run)": `"stdin:3 (of a long run)"`,
	} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestTerminalNamed(t *testing.T) {
	name := "x\nok     y.yaml"
	got := TerminalNamed("open "+name+": no such file\n\x1b[2Kmore", name, "absent")
	if want := "open x\\x0aok     y.yaml: no such file\n\\x1b[2Kmore"; got != want {
		t.Errorf("TerminalNamed = %q, want %q", got, want)
	}
}
