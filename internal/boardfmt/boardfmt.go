// Package boardfmt shows boards to people in reports: aligned rows, and
// go-cmp diffs of two boards row by row.
package boardfmt

import (
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/tileproof/tileproof/engine"
)

// Rows returns the board's rows as text, each cell right-aligned to width
// characters, "." for an empty cell.
func Rows(b engine.Board, width int) []string {
	out := make([]string, b.Rows())
	for r := range out {
		cells := make([]string, b.Cols())
		for c := range cells {
			cells[c] = "."
			if v := b.At(r, c); v != 0 {
				cells[c] = fmt.Sprint(v)
			}
			cells[c] = strings.Repeat(" ", max(0, width-len(cells[c]))) + cells[c]
		}
		out[r] = strings.Join(cells, " ")
	}
	return out
}

// Diff is go-cmp's diff of two boards' rows, aligned alike: "-" lines are
// want's, "+" lines got's. It is empty when the boards are equal.
func Diff(want, got engine.Board) string {
	if want == got {
		return ""
	}
	width := max(len(fmt.Sprint(want.MaxTile())), len(fmt.Sprint(got.MaxTile())))
	return cmp.Diff(Rows(want, width), Rows(got, width))
}
