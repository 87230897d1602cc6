// Package boardfmt shows boards to people in reports: aligned rows, and
// the row-by-row difference of two boards.
package boardfmt

import (
	"fmt"
	"strings"

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

// Diff is the difference of two boards, row by row in place (a row is
// compared with the row of the same number, never realigned, since a
// board's rows are positions): a row the two share once, indented by two
// spaces; a row that differs as want's, marked "- ", then got's, marked
// "+ "; each line ends in a newline. Both boards' cells are aligned to one
// width. It is empty when the boards are equal.
func Diff(want, got engine.Board) string {
	if want == got {
		return ""
	}
	width := max(len(fmt.Sprint(want.MaxTile())), len(fmt.Sprint(got.MaxTile())))
	w, g := Rows(want, width), Rows(got, width)
	var sb strings.Builder
	for i := range max(len(w), len(g)) {
		if i < len(w) && i < len(g) && w[i] == g[i] {
			sb.WriteString("  " + w[i] + "\n")
			continue
		}
		if i < len(w) {
			sb.WriteString("- " + w[i] + "\n")
		}
		if i < len(g) {
			sb.WriteString("+ " + g[i] + "\n")
		}
	}
	return sb.String()
}
