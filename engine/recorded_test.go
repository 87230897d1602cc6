package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
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

// TestPlayRecordedEdges plays spawn-recorded logs with Play and
// PlayRecorded against the same actions done one by one (MoveSpawn and
// Do) from states at the edges of the fast loops, as TestPlayEdges does
// for seeded logs: a win tile one merge away in every 4x4 built-in
// profile, a merge making 2^16, a board holding 65536, move limits, a
// score near 2^53-1, a nearly full board; with undo and keep playing
// mixed in, and now and then a spawn the rules refuse (an occupied cell,
// a cell off the board, a value the profile never spawns, no value). The
// whole state must agree, the state to undo to included, and so must the
// open cells.
func TestPlayRecordedEdges(t *testing.T) {
	profiles, boards := edgeStates(t)
	rng := rand.New(rand.NewPCG(23, 24))
	forEdges(t, profiles, boards, func(p *Profile, rules *Rules, bi int, board string, score uint64, game int) {
		st := State{Board: mustBoard(t, board), Score: score}
		slow, err := rules.Load(st)
		if err != nil {
			t.Fatal(err)
		}
		// The log is made as the slow game plays it, up to the
		// first action it refuses, which ends the log.
		var log []Action
		var spawns []Spawn
		var open []uint64
		for range 30 + game*10 {
			a := edgeAction(rng)
			var s Spawn
			var empty uint64
			if d, ok := a.Direction(); ok {
				sl, _ := slow.Board().Slide(d)
				empty = sl.Board.EmptyMask()
				s = edgeSpawn(rng, p, empty)
			}
			var step Step
			var err error
			if d, ok := a.Direction(); ok {
				step, err = slow.MoveSpawn(d, s)
			} else {
				_, err = slow.Do(a)
			}
			if !step.Changed {
				empty = 0 // a move that did not count: no open cells
			}
			log, spawns, open = append(log, a), append(spawns, s), append(open, empty)
			if err != nil {
				break
			}
		}
		nSlow, errSlow := len(log), error(nil)
		again, _ := rules.Load(st)
		for i, a := range log {
			var err error
			if d, ok := a.Direction(); ok {
				_, err = again.MoveSpawn(d, spawns[i])
			} else {
				_, err = again.Do(a)
			}
			if err != nil {
				nSlow, errSlow = i, err
				break
			}
		}
		where := fmt.Sprintf("%s, board %d, score %d, game %d", p.Name, bi, score, game)
		for _, recorded := range []bool{false, true} {
			fast, _ := rules.Load(st)
			var nFast int
			var errFast error
			gotOpen := make([]uint64, len(log))
			if recorded {
				nFast, errFast = fast.PlayRecorded(log, spawns, gotOpen)
			} else {
				nFast, errFast = fast.Play(log, spawns)
			}
			if nFast != nSlow || fmt.Sprint(errFast) != fmt.Sprint(errSlow) {
				t.Fatalf("%s (PlayRecorded %v): stopped at %d (%v), one by one at %d (%v)", where, recorded, nFast, errFast, nSlow, errSlow)
			}
			if diff := cmp.Diff(again.State(), fast.State(), cmp.AllowUnexported(Board{}, RNG{})); diff != "" || fast.MaxTile() != again.MaxTile() || fast.CanUndo() != again.CanUndo() {
				t.Fatalf("%s (PlayRecorded %v): the state differs from one by one's (-one by one +Play):\n%s\nmax tile %d, %d", where, recorded, diff, again.MaxTile(), fast.MaxTile())
			}
			// The state to undo to, as a game goes on from it.
			if again.CanUndo() {
				undone := *again // a copy: again plays on in the next pass
				if undone.Undo() != nil || fast.Undo() != nil || undone.MaxTile() != fast.MaxTile() {
					t.Fatalf("%s (PlayRecorded %v): after an undo, max tile %d, one by one %d", where, recorded, fast.MaxTile(), undone.MaxTile())
				}
			}
			if !recorded {
				continue
			}
			for i := range nFast {
				if want := open[i]; gotOpen[i] != want {
					t.Fatalf("%s: action %d (%v): open %b, the slide leaves %b empty", where, i+1, log[i], gotOpen[i], want)
				}
			}
		}
	})
}

// edgeSpawn picks a spawn for a move whose slide leaves the cells of
// empty open: mostly one the rules accept, now and then one they refuse.
func edgeSpawn(rng *rand.Rand, p *Profile, empty uint64) Spawn {
	cells := []int{}
	for m := empty; m != 0; m &= m - 1 {
		cells = append(cells, bitIndex(m))
	}
	s := Spawn{Value: p.Spawn[rng.IntN(len(p.Spawn))].Value}
	if len(cells) > 0 {
		c := cells[rng.IntN(len(cells))]
		s.Row, s.Col = c/p.Cols, c%p.Cols
	}
	switch rng.IntN(40) {
	case 0:
		for c := range p.Rows * p.Cols {
			if empty>>c&1 == 0 {
				s.Row, s.Col = c/p.Cols, c%p.Cols // occupied
				break
			}
		}
	case 1:
		s.Col = p.Cols // off the board, though row*cols+col may be a cell
	case 2:
		s.Row = -1
	case 3:
		s.Value = 3
	case 4:
		s.Value = 0
	case 5:
		s.Value = 1 << 20
	case 6:
		s.Value = 6 // a 2's trailing zeros, not a power of two
	}
	return s
}
