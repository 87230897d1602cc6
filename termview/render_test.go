package termview

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tileproof/tileproof/engine"
)

func mustBoard(t *testing.T, text string) engine.Board {
	t.Helper()
	b, err := engine.ParseBoard(text)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBoardPlain(t *testing.T) {
	b := mustBoard(t, "2 . . 4\n. 2048 . .\n. . 8 .\n16 . . 2")
	got := Board(b, Options{})
	want := []string{
		"   2    .    .    4",
		"   . 2048    .    .",
		"   .    .    8    .",
		"  16    .    .    2",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plain board (-want +got):\n%s", diff)
	}
	// engine.ParseBoard reads it back.
	if back := mustBoard(t, strings.Join(got, "\n")); back != b {
		t.Errorf("read back as\n%v", back)
	}
}

func TestBoardPlainWidth(t *testing.T) {
	// A wider tile widens every place; Digits sets the least width.
	b := mustBoard(t, "131072 2\n. 4")
	if diff := cmp.Diff([]string{"131072      2", "     .      4"}, Board(b, Options{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b = mustBoard(t, "2 .\n. 4")
	if diff := cmp.Diff([]string{"     2      .", "     .      4"}, Board(b, Options{Digits: 6})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// A 5x3 board.
	b = mustBoard(t, "2 . .\n. . .\n. . .\n. . .\n. 4 8")
	if got := Board(b, Options{Digits: 1}); len(got) != 5 || got[4] != ". 4 8" {
		t.Errorf("5x3 board: %q", got)
	}
}

var sgrRE = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestBoardColour(t *testing.T) {
	b := mustBoard(t, "2 . . .\n. 8 . .\n. . . .\n. . . 4096")
	for _, m := range []Mode{TrueColor, Color256} {
		lines := Board(b, Options{Mode: m})
		// A gap line, then each row three lines and a gap.
		if len(lines) != 1+4*4 {
			t.Fatalf("%v: %d lines, want 17", m, len(lines))
		}
		// Without the colours, every line is as wide as the board: four
		// places of 4 digits plus 2, and 5 gaps.
		text := make([]string, len(lines))
		for i, l := range lines {
			if !strings.HasSuffix(l, Reset) {
				t.Errorf("%v: line %d does not end with a reset: %q", m, i, l)
			}
			text[i] = sgrRE.ReplaceAllString(l, "")
			if len(text[i]) != 4*6+5 {
				t.Errorf("%v: line %d is %d wide: %q", m, i, len(text[i]), text[i])
			}
		}
		// The numbers are centred in the middle line of their blocks.
		place := func(cells ...string) string { return " " + strings.Join(cells, " ") + " " }
		empty := "      "
		if want := place("   2  ", empty, empty, empty); text[2] != want {
			t.Errorf("%v: row 0 is %q, want %q", m, text[2], want)
		}
		if want := place(empty, empty, empty, " 4096 "); text[14] != want {
			t.Errorf("%v: row 3 is %q, want %q", m, text[14], want)
		}
		if strings.TrimSpace(text[1]) != "" || strings.TrimSpace(text[3]) != "" {
			t.Errorf("%v: the padding lines of row 0 hold text: %q %q", m, text[1], text[3])
		}
	}

	// The colour codes of a few tiles.
	row0 := Board(b, Options{Mode: TrueColor})[2]
	for _, want := range []string{
		"\x1b[48;2;187;173;160m",                         // the board
		"\x1b[48;2;238;228;218m\x1b[1;38;2;119;110;101m", // tile 2, dark text
		"\x1b[48;2;205;193;180m",                         // an empty cell
	} {
		if !strings.Contains(row0, want) {
			t.Errorf("truecolor row 0 lacks %q:\n%q", want, row0)
		}
	}
	row1 := Board(b, Options{Mode: TrueColor})[6]
	if want := "\x1b[48;2;242;177;121m\x1b[1;38;2;249;246;242m   8  "; !strings.Contains(row1, want) {
		t.Errorf("truecolor row 1 lacks tile 8 %q:\n%q", want, row1)
	}
	row3 := Board(b, Options{Mode: TrueColor})[14]
	if want := "\x1b[48;2;60;58;50m"; !strings.Contains(row3, want) {
		t.Errorf("truecolor row 3 lacks the colour of 4096 %q:\n%q", want, row3)
	}
	row0 = Board(b, Options{Mode: Color256})[2]
	for _, want := range []string{"\x1b[48;5;145m", "\x1b[48;5;254m\x1b[1;38;5;242m   2  "} {
		if !strings.Contains(row0, want) {
			t.Errorf("256-colour row 0 lacks %q:\n%q", want, row0)
		}
	}
	if want := "\x1b[48;5;216m"; !strings.Contains(Board(b, Options{Mode: Color256})[6], want) {
		t.Errorf("256-colour tile 8 is not %q", want)
	}
}

func TestIndex256(t *testing.T) {
	for _, tc := range []struct {
		c    RGB
		want int
	}{
		{RGB{0, 0, 0}, 16},
		{RGB{255, 255, 255}, 231},
		{RGB{95, 135, 175}, 67},
		{RGB{255, 0, 0}, 196},
		{RGB{8, 8, 8}, 232},
		{RGB{238, 238, 238}, 255},
		{RGB{128, 128, 128}, 244},
		{RGB{238, 228, 218}, 254}, // tile 2: the grey is nearer than the cube
		{RGB{187, 173, 160}, 145}, // the board
		{RGB{242, 177, 121}, 216}, // tile 8
		{RGB{119, 110, 101}, 242}, // dark text
	} {
		if got := Index256(tc.c); got != tc.want {
			t.Errorf("Index256(%v) = %d, want %d", tc.c, got, tc.want)
		}
	}
}

func TestTileColors(t *testing.T) {
	prev := RGB{}
	for e := 1; e <= 11; e++ {
		bg, fg := TileColors(1 << e)
		if bg == prev || bg == superColor || bg == emptyColor {
			t.Errorf("tile %d: background %v repeats another", 1<<e, bg)
		}
		if want := lightText; e <= 2 && fg != darkText || e > 2 && fg != want {
			t.Errorf("tile %d: text %v", 1<<e, fg)
		}
		prev = bg
	}
	for _, v := range []uint64{4096, 1 << 52} {
		if bg, fg := TileColors(v); bg != superColor || fg != lightText {
			t.Errorf("tile %d: %v on %v", v, fg, bg)
		}
	}
	if bg, _ := TileColors(0); bg != emptyColor {
		t.Errorf("empty cell: %v", bg)
	}
}

func TestDetectMode(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		terminal bool
		env      func(string) string
		want     Mode
	}{
		{false, env("COLORTERM", "truecolor"), Plain},
		{true, env(), Color256},
		{true, env("TERM", "xterm-256color"), Color256},
		{true, env("COLORTERM", "truecolor"), TrueColor},
		{true, env("COLORTERM", "24bit"), TrueColor},
		{true, env("COLORTERM", "truecolor", "NO_COLOR", "1"), Plain},
		{true, env("TERM", "dumb"), Plain},
	} {
		if got := DetectMode(tc.terminal, tc.env); got != tc.want {
			t.Errorf("DetectMode(%v, ...) = %v, want %v", tc.terminal, got, tc.want)
		}
	}
}

func TestRedraw(t *testing.T) {
	got := Redraw([]string{"a", "bc"})
	if want := "\x1b[Ha\x1b[K\r\nbc\x1b[K\r\n\x1b[J"; got != want {
		t.Errorf("Redraw = %q, want %q", got, want)
	}
	if got := Indent("  ", []string{"a", ""}); !cmp.Equal(got, []string{"  a", "  "}) {
		t.Errorf("Indent = %q", got)
	}
}
