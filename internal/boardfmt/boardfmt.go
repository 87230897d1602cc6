// Package boardfmt shows boards and tiles to people in reports: aligned
// rows, the row-by-row difference of two boards, counts of tiles.
package boardfmt

import (
	"fmt"
	"maps"
	"slices"
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

// Counts shows how many of each tile there were, smallest tile first:
// "2: 2, 4: 499" (a tile with no count left out).
func Counts(n map[uint64]int) string {
	var parts []string
	for _, v := range slices.Sorted(maps.Keys(n)) {
		if n[v] != 0 {
			parts = append(parts, fmt.Sprintf("%d: %d", v, n[v]))
		}
	}
	return strings.Join(parts, ", ")
}

// Weights shows a profile's spawn weights as its file writes them: "2: 9,
// 4: 1".
func Weights(ws []engine.SpawnWeight) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = fmt.Sprintf("%d: %d", w.Value, w.Weight)
	}
	return strings.Join(parts, ", ")
}
