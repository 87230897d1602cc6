package htmlview

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/tileproof/tileproof/replay"
)

// mark is a moment of a game the viewer marks on its chart and slider,
// with keys to jump between them: the first 512, 1024 and 2048 (and each
// larger tile's first), the largest score jump, the closest call.
type mark struct {
	Step  int    `json:"step"`
	Kind  string `json:"kind"` // "tile", "jump" or "close"
	Label string `json:"label"`
}

// recoverMoves is how many counted moves a game must go on after its
// fullest board for that board to be its closest call (a board is
// fullest just before the end of every lost game).
const recoverMoves = 50

// milestones gathers a game's marks as its frames come: a few figures,
// whatever the game's length.
type milestones struct {
	n        int
	maxExp   int
	tiles    []mark
	jump     mark
	jumpBy   uint64
	fullest  [65]struct{ step, moves int } // the first step with k empty cells, +1
	lastMove int
}

func (m *milestones) add(f replay.Frame) {
	step := m.n
	m.n++
	top, empty := 0, f.Board.Empty() // top: the largest tile's exponent
	if v := f.Board.MaxTile(); v > 0 {
		top = bits.TrailingZeros64(v)
	}
	if step == 0 {
		m.maxExp = max(top, 8)
	}
	for ; top > m.maxExp; m.maxExp++ {
		if m.maxExp+1 >= 9 {
			m.tiles = append(m.tiles, mark{step, "tile", fmt.Sprintf("first %s", grouped(1<<(m.maxExp+1)))})
		}
	}
	if f.Gained > m.jumpBy {
		m.jumpBy = f.Gained
		m.jump = mark{step, "jump", fmt.Sprintf("largest score jump: +%s", grouped(f.Gained))}
	}
	if f.Spawn != nil && m.fullest[empty].step == 0 {
		m.fullest[empty].step, m.fullest[empty].moves = step+1, f.Moves
	}
	m.lastMove = f.Moves
}

// list returns the marks, in step order, none past step last.
func (m *milestones) list(last int) []mark {
	out := append([]mark{}, m.tiles...)
	if m.jumpBy > 0 {
		out = append(out, m.jump)
	}
	for k, at := range m.fullest {
		if at.step > 0 && at.moves+recoverMoves <= m.lastMove {
			cells := "cells"
			if k == 1 {
				cells = "cell"
			}
			what := fmt.Sprintf("closest call: %d empty %s, %s moves more to come", k, cells, grouped(uint64(m.lastMove-at.moves)))
			out = append(out, mark{at.step - 1, "close", what})
			break
		}
	}
	out = slices.DeleteFunc(out, func(mk mark) bool { return mk.Step > last })
	slices.SortStableFunc(out, func(a, b mark) int { return a.Step - b.Step })
	return out
}
