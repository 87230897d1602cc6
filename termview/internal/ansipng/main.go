// Command ansipng draws a terminal's screen as a PNG image: it reads what a
// program wrote to the terminal (text, CR, LF, cursor home, and SGR
// colours, 24-bit or 256-colour), keeps the last screen, and draws each
// cell as its background with its character in the foreground. Its font is
// a small hand-made one of digits only: other characters are left out, so
// it suits pictures of boards. It made the picture in
// docs/viewer-terminal.md:
//
//	go run ./termview/internal/ansipng -rows 2:19 -cols 4:33 < screen.ans > board.png
package main

import (
	"bufio"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// digits holds a 5x7 glyph for each digit, one string a row, "#" for ink.
var digits = [10][7]string{
	{".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."},
	{"..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."},
	{".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"},
	{".###.", "#...#", "....#", "..##.", "....#", "#...#", ".###."},
	{"...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."},
	{"#####", "#....", "####.", "....#", "....#", "#...#", ".###."},
	{"..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."},
	{"#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."},
	{".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."},
	{".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."},
}

const (
	cellW, cellH = 12, 24 // a cell in pixels
	scale        = 2      // glyph pixels per font pixel
)

type cell struct {
	r      rune
	fg, bg color.RGBA
}

var (
	defaultBG = color.RGBA{0xfa, 0xf8, 0xef, 0xff}
	defaultFG = color.RGBA{0x77, 0x6e, 0x65, 0xff}
)

func main() {
	rows := flag.String("rows", "", "the screen rows to draw, FROM:TO (0-based, TO excluded); default all")
	cols := flag.String("cols", "", "the columns to draw, FROM:TO; default all")
	flag.Parse()
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fail(err)
	}
	screen := emulate(data)
	r0, r1, err := span(*rows, len(screen))
	if err != nil {
		fail(err)
	}
	width := 0
	for _, l := range screen {
		width = max(width, len(l))
	}
	c0, c1, err := span(*cols, width)
	if err != nil {
		fail(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, (c1-c0)*cellW, (r1-r0)*cellH))
	for y := r0; y < r1; y++ {
		for x := c0; x < c1; x++ {
			c := cell{' ', defaultFG, defaultBG}
			if x < len(screen[y]) {
				c = screen[y][x]
			}
			draw(img, (x-c0)*cellW, (y-r0)*cellH, c)
		}
	}
	w := bufio.NewWriter(os.Stdout)
	if err := png.Encode(w, img); err != nil {
		fail(err)
	}
	if err := w.Flush(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "ansipng:", err)
	os.Exit(2)
}

// span reads FROM:TO, within 0 to n.
func span(s string, n int) (int, int, error) {
	if s == "" {
		return 0, n, nil
	}
	a, b, ok := strings.Cut(s, ":")
	from, err1 := strconv.Atoi(a)
	to, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || from < 0 || to > n || from >= to {
		return 0, 0, fmt.Errorf("bad span %q (0 to %d)", s, n)
	}
	return from, to, nil
}

func draw(img *image.RGBA, x0, y0 int, c cell) {
	for y := range cellH {
		for x := range cellW {
			img.SetRGBA(x0+x, y0+y, c.bg)
		}
	}
	if c.r < '0' || c.r > '9' {
		return
	}
	g := digits[c.r-'0']
	ox, oy := x0+(cellW-5*scale)/2, y0+(cellH-7*scale)/2
	for gy, row := range g {
		for gx, ch := range row {
			if ch != '#' {
				continue
			}
			for dy := range scale {
				for dx := range scale {
					img.SetRGBA(ox+gx*scale+dx, oy+gy*scale+dy, c.fg)
				}
			}
		}
	}
}

var csi = regexp.MustCompile(`^\x1b\[([0-9;?]*)([A-Za-z])`)

// emulate plays the output on a screen and returns the last one, a row of
// cells a line.
func emulate(data []byte) [][]cell {
	var screen [][]cell
	row, col := 0, 0
	fg, bg := defaultFG, defaultBG
	put := func(r rune) {
		for len(screen) <= row {
			screen = append(screen, nil)
		}
		for len(screen[row]) <= col {
			screen[row] = append(screen[row], cell{' ', defaultFG, defaultBG})
		}
		screen[row][col] = cell{r, fg, bg}
		col++
	}
	s := string(data)
	for len(s) > 0 {
		switch {
		case s[0] == 0x1b:
			m := csi.FindStringSubmatch(s)
			if m == nil {
				s = s[1:]
				continue
			}
			s = s[len(m[0]):]
			switch m[2] {
			case "H":
				row, col = 0, 0
			case "K":
				if row < len(screen) && col < len(screen[row]) {
					screen[row] = screen[row][:col]
				}
			case "J":
				if row+1 < len(screen) {
					screen = screen[:row+1]
				}
			case "m":
				fg, bg = sgr(m[1], fg, bg)
			}
		case s[0] == '\r':
			col, s = 0, s[1:]
		case s[0] == '\n':
			row, s = row+1, s[1:]
		default:
			r, n := utf8.DecodeRuneInString(s)
			if r >= ' ' {
				put(r)
			}
			s = s[n:]
		}
	}
	return screen
}

// sgr applies the colours of an SGR sequence's parameters.
func sgr(params string, fg, bg color.RGBA) (color.RGBA, color.RGBA) {
	p := strings.Split(params, ";")
	n := func(i int) int {
		v, _ := strconv.Atoi(p[i])
		return min(max(v, 0), 255)
	}
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case "", "0":
			fg, bg = defaultFG, defaultBG
		case "38", "48":
			var c color.RGBA
			switch {
			case i+4 < len(p) && p[i+1] == "2":
				c = color.RGBA{uint8(n(i + 2)), uint8(n(i + 3)), uint8(n(i + 4)), 0xff}
			case i+2 < len(p) && p[i+1] == "5":
				c = xterm(n(i + 2))
			default:
				continue
			}
			if p[i] == "48" {
				bg = c
			} else {
				fg = c
			}
			if p[i+1] == "2" {
				i += 4
			} else {
				i += 2
			}
		}
	}
	return fg, bg
}

// xterm returns colour i of the xterm 256-colour palette, from 16 on (the
// first 16 are the terminal's own; they are drawn grey here).
func xterm(i int) color.RGBA {
	levels := [6]uint8{0, 95, 135, 175, 215, 255}
	switch {
	case i >= 232:
		v := uint8(8 + 10*(i-232))
		return color.RGBA{v, v, v, 0xff}
	case i >= 16:
		i -= 16
		return color.RGBA{levels[i/36], levels[i/6%6], levels[i%6], 0xff}
	}
	return color.RGBA{0x80, 0x80, 0x80, 0xff}
}
