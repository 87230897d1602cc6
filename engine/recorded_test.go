package engine

import (
	"math/rand/v2"
	"testing"
)

// TestPlayRecorded: a spawn-recorded log played by PlayRecorded ends as
// Play ends it, and each counted move's open cells are the empty cells
// of the board after its slide, on the packed 4x4 path and the general
// one (3x3, 5x4), undo and refused moves included.
func TestPlayRecorded(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, tc := range []struct {
		profile    string
		rows, cols int
	}{{"tile-merge", 4, 4}, {"online-2048", 4, 4}, {"classic", 4, 4}, {"hallabois-v1-3x3", 3, 3}, {"five-by-four", 5, 4}} {
		var p *Profile
		if tc.profile == "five-by-four" {
			var err error
			if p, err = ParseProfile("five-by-four.yaml", []byte("name: five-by-four\nbase: tile-merge\nrows: 5\ncols: 4\n")); err != nil {
				t.Fatal(err)
			}
		} else {
			p = mustProfile(t, tc.profile)
		}
		rules, err := Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		for game := range 40 {
			// A game played move by move records its actions, spawns and
			// the open cells each spawn had.
			seed := rng.Uint64()
			start, _ := NewBoard(tc.rows, tc.cols)
			start.Set(0, 0, 2)
			start.Set(tc.rows-1, tc.cols-1, 2)
			g, err := rules.Load(State{Board: start})
			if err != nil {
				t.Fatal(err)
			}
			var actions []Action
			var spawns []Spawn
			var want []uint64
			for len(actions) < 300 && !g.Over() {
				if p.Undo && rng.IntN(10) == 0 && g.Undo() == nil {
					actions, spawns, want = append(actions, Undo), append(spawns, Spawn{}), append(want, 0)
					continue
				}
				d := Directions[rng.IntN(4)]
				sl, _ := g.Board().Slide(d)
				if !sl.Changed {
					if _, err := g.MoveSpawn(d, Spawn{}); err == nil && p.Illegal == Ignore {
						actions, spawns, want = append(actions, Action(d)), append(spawns, Spawn{}), append(want, 0)
					}
					continue
				}
				open := sl.Board.EmptyMask()
				cells := []int{}
				for m := open; m != 0; m &= m - 1 {
					cells = append(cells, bitIndex(m))
				}
				c := cells[int(seed%uint64(len(cells)))]
				seed = seed*6364136223846793005 + 1442695040888963407
				s := Spawn{Row: c / tc.cols, Col: c % tc.cols, Value: p.Spawn[rng.IntN(len(p.Spawn))].Value}
				if _, err := g.MoveSpawn(d, s); err != nil {
					t.Fatal(err)
				}
				actions, spawns, want = append(actions, Action(d)), append(spawns, s), append(want, open)
			}
			replayed, _ := rules.Load(State{Board: start})
			open := make([]uint64, len(actions))
			if n, err := replayed.PlayRecorded(actions, spawns, open); err != nil || n != len(actions) {
				t.Fatalf("%s game %d: %d of %d actions: %v", tc.profile, game, n, len(actions), err)
			}
			if replayed.Board() != g.Board() || replayed.Score() != g.Score() || replayed.Moves() != g.Moves() || replayed.Won() != g.Won() || replayed.Result() != g.Result() {
				t.Fatalf("%s game %d: PlayRecorded ends on\n%v\nthe moves one by one on\n%v", tc.profile, game, replayed.Board(), g.Board())
			}
			for i := range want {
				if open[i] != want[i] {
					t.Fatalf("%s game %d, action %d (%v): open %b, the slide leaves %b empty", tc.profile, game, i+1, actions[i], open[i], want[i])
				}
			}
		}
	}
}

func bitIndex(m uint64) int {
	i := 0
	for m&1 == 0 {
		m >>= 1
		i++
	}
	return i
}
