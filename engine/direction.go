package engine

import (
	"fmt"
	"strings"
)

// Direction is one of the four moves.
type Direction uint8

// The four directions, in the order legal actions are listed.
const (
	Up Direction = iota
	Down
	Left
	Right
)

// Directions lists the four directions in the order legal actions are listed.
var Directions = [4]Direction{Up, Down, Left, Right}

var directionNames = [4]string{"up", "down", "left", "right"}

// String returns the direction's name: "up", "down", "left" or "right".
func (d Direction) String() string {
	if int(d) < len(directionNames) {
		return directionNames[d]
	}
	return fmt.Sprintf("Direction(%d)", d)
}

// Letter returns the direction's letter in a move log: U, D, L or R.
func (d Direction) Letter() byte {
	return "UDLR"[d&3]
}

// ParseDirection reads a direction written as its name or its letter, in
// any case: "up", "U", "Left", "r".
func ParseDirection(s string) (Direction, error) {
	for i, name := range directionNames {
		if strings.EqualFold(s, name) || strings.EqualFold(s, name[:1]) {
			return Direction(i), nil
		}
	}
	return 0, fmt.Errorf("unknown direction %q (want up, down, left or right)", s)
}

// MarshalText writes the direction's name.
func (d Direction) MarshalText() ([]byte, error) {
	if int(d) >= len(directionNames) {
		return nil, fmt.Errorf("invalid direction %d", d)
	}
	return []byte(d.String()), nil
}

// UnmarshalText reads a direction as [ParseDirection] does.
func (d *Direction) UnmarshalText(b []byte) error {
	v, err := ParseDirection(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
