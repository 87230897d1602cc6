package engine

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tileproof/tileproof/internal/strictyaml"
	"go.yaml.in/yaml/v3"
)

// UnmarshalYAML reads a board written as a text grid (see [ParseBoard]) or
// as rows of numbers with null or 0 for an empty cell (the PGS form), with
// errors at the line of the row at fault.
func (b *Board) UnmarshalYAML(n *yaml.Node) error {
	var board Board
	var err error
	switch n.Kind {
	case yaml.ScalarNode:
		board, err = ParseBoard(n.Value)
	case yaml.SequenceNode:
		rows := make([][]uint64, len(n.Content))
		for r, row := range n.Content {
			if row.Kind != yaml.SequenceNode {
				return strictyaml.Fail(row, "board row %d is not a list", r+1)
			}
			for c, cell := range row.Content {
				var v uint64
				if cell.Tag != "!!null" {
					if err := cell.Decode(&v); err != nil {
						return strictyaml.Fail(cell, "board row %d, column %d: %q is not a tile", r+1, c+1, cell.Value)
					}
				}
				rows[r] = append(rows[r], v)
			}
		}
		board, err = BoardFromValues(rows)
	default:
		return strictyaml.Fail(n, "a board is a text grid or a list of rows")
	}
	if err != nil {
		at := n
		var be *BoardError
		if errors.As(err, &be) && be.Row > 0 {
			switch {
			case n.Kind == yaml.SequenceNode:
				at = n.Content[be.Row-1]
			case n.Style == yaml.LiteralStyle || n.Style == yaml.FoldedStyle:
				at = &yaml.Node{Line: n.Line + be.Row}
			}
		}
		return strictyaml.Fail(at, "%v", err)
	}
	*b = board
	return nil
}

// UnmarshalJSON reads a board from JSON: a text grid string, or rows of
// numbers with null or 0 for an empty cell.
func (b *Board) UnmarshalJSON(data []byte) error {
	var grid string
	if json.Unmarshal(data, &grid) == nil {
		board, err := ParseBoard(grid)
		*b = board
		return err
	}
	var rows [][]*uint64
	if err := json.Unmarshal(data, &rows); err != nil {
		return fmt.Errorf("a board is a text grid or a list of rows of numbers")
	}
	board, err := boardFrom(rows, func(v *uint64) (uint8, error) {
		if v == nil {
			return 0, nil
		}
		return tileExp(*v)
	})
	*b = board
	return err
}

// MarshalJSON writes the board as rows of numbers, 0 for an empty cell.
func (b Board) MarshalJSON() ([]byte, error) { return json.Marshal(b.Values()) }

// MarshalYAML writes the board as a text grid in a literal block, one row
// a line, cells separated by a space, "." for an empty cell: the form
// [Board.UnmarshalYAML] reads.
func (b Board) MarshalYAML() (any, error) {
	return &yaml.Node{Kind: yaml.ScalarNode, Style: yaml.LiteralStyle, Tag: "!!str", Value: b.grid(1)}, nil
}

// UnmarshalYAML reads a direction as [ParseDirection] does, with an error
// at the node's line.
func (d *Direction) UnmarshalYAML(n *yaml.Node) error {
	return scalarText(n, d, "a direction is up, down, left or right")
}

// UnmarshalYAML reads a result's short name, with an error at the node's
// line.
func (r *Result) UnmarshalYAML(n *yaml.Node) error {
	return scalarText(n, r, "a result is one of "+strings.Join(resultNames, ", "))
}

// scalarText reads a scalar node with u's UnmarshalText, with an error at
// the node's line; want says what the value is, for a node that is not a
// scalar.
func scalarText(n *yaml.Node, u encoding.TextUnmarshaler, want string) error {
	if n.Kind != yaml.ScalarNode {
		return strictyaml.Fail(n, "%s", want)
	}
	if err := u.UnmarshalText([]byte(n.Value)); err != nil {
		return strictyaml.Fail(n, "%v", err)
	}
	return nil
}
