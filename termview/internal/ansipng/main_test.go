package main

import (
	"image"
	"image/color"
	"testing"
)

func TestEmulate(t *testing.T) {
	// Two cells coloured 24-bit and 256-colour, a reset, then a line
	// written over by a later one after cursor home.
	out := "old line\r\n\x1b[H\x1b[48;2;237;194;46;38;2;249;246;242m2\x1b[48;5;196m4\x1b[0m8\x1b[K\r\n"
	screen := emulate([]byte(out))
	if len(screen) != 1 || len(screen[0]) != 3 {
		t.Fatalf("screen %d rows, the first of %d cells; want 1 row of 3 (the old line written over, its rest cleared)", len(screen), len(screen[0]))
	}
	want := []cell{
		{'2', color.RGBA{249, 246, 242, 255}, color.RGBA{237, 194, 46, 255}},
		{'4', color.RGBA{249, 246, 242, 255}, color.RGBA{255, 0, 0, 255}},
		{'8', defaultFG, defaultBG},
	}
	for i, c := range want {
		if screen[0][i] != c {
			t.Errorf("cell %d: %+v, want %+v", i, screen[0][i], c)
		}
	}
}

func TestDraw(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, cellW, cellH))
	bg, fg := color.RGBA{1, 2, 3, 255}, color.RGBA{200, 100, 50, 255}
	draw(img, 0, 0, cell{'1', fg, bg})
	if got := img.RGBAAt(0, 0); got != bg {
		t.Errorf("corner %v, want the background %v", got, bg)
	}
	// The glyph of 1 has its stem in font column 2, rows 0 to 6.
	ox, oy := (cellW-5*scale)/2, (cellH-7*scale)/2
	if got := img.RGBAAt(ox+2*scale, oy+3*scale); got != fg {
		t.Errorf("the stem of 1: %v, want the foreground %v", got, fg)
	}
}

func FuzzEmulate(f *testing.F) {
	f.Add([]byte("\x1b[H\x1b[48;5;196m2\x1b[0m\r\n"))
	f.Add([]byte("\x1b[38;2;1;2m\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		emulate(data) // must not panic
	})
}
