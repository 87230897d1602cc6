package hallabois

import "fmt"

// Dir is one entry of a recording's move list: a move in one of the four
// directions, a break, or the end marker.
type Dir uint8

// The directions, in the peer's own order (up, right, down, left).
const (
	Up Dir = iota
	Right
	Down
	Left
	// Break clears every tile below the break threshold for a price in
	// points; no tile appears after it.
	Break
	// End is the peer's placeholder: the first format ends a game with it
	// (written "f"), and the second format's digit 0 decodes to it.
	End
)

var dirNames = [...]string{"up", "right", "down", "left", "break", "end"}

// String returns the direction's name: up, right, down, left, break or end.
func (d Dir) String() string {
	if int(d) < len(dirNames) {
		return dirNames[d]
	}
	return fmt.Sprintf("Dir(%d)", d)
}

// IsMove reports whether d is one of the four moves.
func (d Dir) IsMove() bool { return d <= Left }

// letters are tileproof's move-log letters of the directions, with B for the
// break and . for the end marker (which tileproof has no action for).
const letters = "URDLB."

// Letter returns tileproof's log letter of the direction (U R D L, B for a
// break, '.' for the end marker).
func (d Dir) Letter() byte {
	if int(d) < len(letters) {
		return letters[d]
	}
	return '?'
}
