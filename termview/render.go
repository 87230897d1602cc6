package termview

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/boardfmt"
)

// Mode is how a board is drawn.
type Mode int

// The modes.
const (
	// Plain is text only: one line a row, each tile right-aligned, "." for
	// an empty cell. engine.ParseBoard reads it back.
	Plain Mode = iota
	// Color256 draws each tile as a block with a background from the
	// xterm 256-colour palette.
	Color256
	// TrueColor draws each tile as a block with a 24-bit background.
	TrueColor
)

// String returns the mode's name: plain, 256 or truecolor.
func (m Mode) String() string {
	switch m {
	case Color256:
		return "256"
	case TrueColor:
		return "truecolor"
	}
	return "plain"
}

// DetectMode chooses how to draw for an output: Plain when it is not a
// terminal, when NO_COLOR is set (https://no-color.org) or TERM is "dumb";
// TrueColor when COLORTERM says "truecolor" or "24bit"; Color256
// otherwise. getenv is usually os.Getenv.
func DetectMode(terminal bool, getenv func(string) string) Mode {
	if !terminal || getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return Plain
	}
	switch strings.ToLower(getenv("COLORTERM")) {
	case "truecolor", "24bit":
		return TrueColor
	}
	return Color256
}

// RGB is a 24-bit colour.
type RGB struct{ R, G, B uint8 }

// The colours of the board, chosen to resemble the original game's.
var (
	boardColor = RGB{0xbb, 0xad, 0xa0} // the board around the tiles
	emptyColor = RGB{0xcd, 0xc1, 0xb4} // an empty cell
	darkText   = RGB{0x77, 0x6e, 0x65} // the numbers on 2 and 4
	lightText  = RGB{0xf9, 0xf6, 0xf2} // the numbers on the other tiles
)

// tileColors holds the background of tile 2^e at index e-1, for 2 to 2048;
// larger tiles share superColor.
var tileColors = [...]RGB{
	{0xee, 0xe4, 0xda}, // 2
	{0xed, 0xe0, 0xc8}, // 4
	{0xf2, 0xb1, 0x79}, // 8
	{0xf5, 0x95, 0x63}, // 16
	{0xf6, 0x7c, 0x5f}, // 32
	{0xf6, 0x5e, 0x3b}, // 64
	{0xed, 0xcf, 0x72}, // 128
	{0xed, 0xcc, 0x61}, // 256
	{0xed, 0xc8, 0x50}, // 512
	{0xed, 0xc5, 0x3f}, // 1024
	{0xed, 0xc2, 0x2e}, // 2048
}

// superColor is the background of the tiles above 2048.
var superColor = RGB{0x3c, 0x3a, 0x32}

// TileColors returns the background and text colours of tile v (0 for an
// empty cell, which has no text).
func TileColors(v uint64) (bg, fg RGB) {
	if v == 0 {
		return emptyColor, darkText
	}
	bg = superColor
	if e := max(bits.Len64(v)-1, 1); e <= len(tileColors) { // tile 1, which only a user profile could make, as tile 2
		bg = tileColors[e-1]
	}
	if v <= 4 {
		return bg, darkText
	}
	return bg, lightText
}

// cubeLevels are the six intensities of the xterm 6x6x6 colour cube.
var cubeLevels = [6]int{0, 95, 135, 175, 215, 255}

// Index256 returns the colour of the xterm 256-colour palette nearest to
// c: one of the 6x6x6 cube (16 to 231) or of the grey ramp (232 to 255).
func Index256(c RGB) int {
	nearest := func(v int) int {
		best := 0
		for i, l := range cubeLevels {
			if (l-v)*(l-v) < (cubeLevels[best]-v)*(cubeLevels[best]-v) {
				best = i
			}
		}
		return best
	}
	r, g, b := int(c.R), int(c.G), int(c.B)
	ri, gi, bi := nearest(r), nearest(g), nearest(b)
	cube := 16 + 36*ri + 6*gi + bi
	cubeDist := dist(r, g, b, cubeLevels[ri], cubeLevels[gi], cubeLevels[bi])
	// The grey ramp: 232+i is 8+10i, i from 0 to 23.
	avg := (r + g + b) / 3
	gi2 := min(max((avg-8+5)/10, 0), 23)
	gv := 8 + 10*gi2
	if dist(r, g, b, gv, gv, gv) < cubeDist {
		return 232 + gi2
	}
	return cube
}

func dist(r1, g1, b1, r2, g2, b2 int) int {
	dr, dg, db := r1-r2, g1-g2, b1-b2
	return dr*dr + dg*dg + db*db
}

// SGR returns the escape sequence that sets the background (and, with
// fg non-nil, the bold foreground) to the given colours in mode m; "" in
// Plain mode.
func SGR(m Mode, bg RGB, fg *RGB) string {
	if m != TrueColor && m != Color256 {
		return ""
	}
	color := func(c RGB) string { // the parameters after 48; or 38;
		if m == TrueColor {
			return fmt.Sprintf("2;%d;%d;%dm", c.R, c.G, c.B)
		}
		return fmt.Sprintf("5;%dm", Index256(c))
	}
	s := "\x1b[48;" + color(bg)
	if fg != nil {
		s += "\x1b[1;38;" + color(*fg)
	}
	return s
}

// Reset is the escape sequence that restores the default colours.
const Reset = "\x1b[0m"

// Options says how to draw a board.
type Options struct {
	Mode Mode
	// Digits is the least number of digits a tile's place holds, so that a
	// board keeps its width from one step to the next (a viewer passes the
	// digits of the game's largest tile). The places grow for a larger
	// tile; 0 means 4.
	Digits int
}

// Board draws b and returns its lines, without line ends. In Plain mode a
// row is a line of tiles right-aligned in places of the same width,
// separated by a space, "." for an empty cell:
//
//	2    .    .    .
//
// In the colour modes each tile is a block three lines high with the
// number in its middle line, on the board's background, and every line
// ends with Reset.
func Board(b engine.Board, o Options) []string {
	w := o.Digits
	if w <= 0 {
		w = 4
	}
	w = max(w, len(strconv.FormatUint(b.MaxTile(), 10)))
	if o.Mode == Plain {
		return boardfmt.Rows(b, w)
	}
	tileWidth := w + 2
	board := SGR(o.Mode, boardColor, nil)
	gap := board + strings.Repeat(" ", b.Cols()*(tileWidth+1)+1) + Reset
	lines := []string{gap}
	for r := range b.Rows() {
		for part := range 3 {
			var sb strings.Builder
			sb.WriteString(board + " ")
			for c := range b.Cols() {
				v := b.At(r, c)
				bg, fg := TileColors(v)
				text := ""
				if part == 1 && v != 0 {
					text = strconv.FormatUint(v, 10)
				}
				left := (tileWidth - len(text) + 1) / 2
				sb.WriteString(SGR(o.Mode, bg, &fg))
				sb.WriteString(strings.Repeat(" ", left) + text + strings.Repeat(" ", tileWidth-left-len(text)))
				sb.WriteString(Reset + board + " ")
			}
			sb.WriteString(Reset)
			lines = append(lines, sb.String())
		}
		lines = append(lines, gap)
	}
	return lines
}
