package htmlview

import (
	"fmt"
	"html/template"
	"math"
	"strings"

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
	b := f.Board
	h.rows, h.cols = b.Rows(), b.Cols()
	at := f.Spawn.Row*h.cols + f.Spawn.Col
	empty := 1 // the spawn's cell was empty after the slide
	for r := range h.rows {
		for c := range h.cols {
			if b.Exp(r, c) == 0 {
				empty++
			}
		}
	}
	for r := range h.rows {
		for c := range h.cols {
			if i := r*h.cols + c; i == at || b.Exp(r, c) == 0 {
				h.fair[i] += 1 / float64(empty)
			}
		}
	}
	h.seen[at]++
	h.spawns++
}

// grid draws the heat map: a cell a board cell, the tiles that appeared
// there against a fair generator's expectation, amber where more appeared
// than a fair generator puts there, blue where fewer.
func (h *heat) grid() template.HTML {
	if h.spawns == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="heat" id="heat" style="--cols:%d">`, h.cols)
	for i := range h.rows * h.cols {
		seen, fair := h.seen[i], h.fair[i]
		ratio := (seen + 0.5) / (fair + 0.5)
		t := math.Min(1, math.Abs(math.Log2(ratio))/3)
		colour := fmt.Sprintf("rgba(200,120,0,%.2f)", t)
		if ratio < 1 {
			colour = fmt.Sprintf("rgba(31,95,168,%.2f)", t)
		}
		fmt.Fprintf(&b, `<div class="hc" style="background:%s" data-seen="%.0f" data-fair="%.1f" title="row %d, column %d: %.0f appeared, a fair generator puts %.1f"><b>%.0f</b><span>fair %.1f</span></div>`,
			colour, seen, fair, i/h.cols, i%h.cols, seen, fair, seen, fair)
	}
	b.WriteString(`</div>`)
	return template.HTML(b.String())
}
