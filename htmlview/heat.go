package htmlview

import (
	"fmt"
	"html/template"
	"math"
	"math/bits"

	"github.com/tileproof/tileproof/replay"
)

// heat counts where a game's tiles appeared against where a fair
// generator puts them: each spawn is one in its cell, and each empty
// cell of the board it fell on (the board after the slide) expects one
// over the number of empty cells.
type heat struct {
	rows, cols int
	spawns     int
	seen, fair [64]float64
}

func (h *heat) add(f replay.Frame) {
	if f.Spawn == nil {
		return
	}
	h.rows, h.cols = f.Board.Rows(), f.Board.Cols()
	at := f.Spawn.Row*h.cols + f.Spawn.Col
	// The cells the tile could have fallen on: the empty ones of the board
	// after the slide, the spawn's own with them.
	open := f.Board.EmptyMask() | 1<<at
	share := 1 / float64(bits.OnesCount64(open))
	for m := open; m != 0; m &= m - 1 {
		h.fair[bits.TrailingZeros64(m)] += share
	}
	h.seen[at]++
	h.spawns++
}

// heatCell is one cell of the heat map: the tiles that appeared there,
// a fair generator's expectation, and its colour.
type heatCell struct {
	Row, Col   int
	Seen, Fair float64
	Colour     template.CSS
	Ink        template.CSS // the text's colour, legible on Colour
}

// heatMap is the heat map replay.html draws, a cell a board cell.
type heatMap struct {
	Cols  int
	Cells []heatCell
}

// grid returns the heat map, each cell amber where more tiles appeared
// than a fair generator puts there, blue where fewer; nil for a game
// without spawns.
func (h *heat) grid() *heatMap {
	if h.spawns == 0 {
		return nil
	}
	m := &heatMap{Cols: h.cols}
	for i := range h.rows * h.cols {
		seen, fair := h.seen[i], h.fair[i]
		ratio := (seen + 0.5) / (fair + 0.5)
		t := math.Min(1, math.Abs(math.Log2(ratio))/3)
		colour, ink := fmt.Sprintf("rgba(200,120,0,%.2f)", t), "#1f1b17"
		if ratio < 1 {
			colour = fmt.Sprintf("rgba(31,95,168,%.2f)", t)
			if t >= 0.75 { // the dark ink's contrast falls below 4 there, white's rises above
				ink = "#fff"
			}
		}
		m.Cells = append(m.Cells, heatCell{i / h.cols, i % h.cols, seen, fair, template.CSS(colour), template.CSS(ink)})
	}
	return m
}
