package hallabois

import (
	"math/rand/v2"
	"testing"

	"github.com/tileproof/tileproof/internal/plain"
)

// toPlain returns b as internal/plain's rows.
func toPlain(b Grid) plain.Cells {
	rows := make(plain.Cells, b.H)
	for y := range rows {
		rows[y] = append([]uint64(nil), b.Cells[y*b.W:(y+1)*b.W]...)
	}
	return rows
}

// TestMoveAgainstPlain compares Move with internal/plain, tileproof's own
// plain implementation, on every line of 2 to 6 cells of 0, 2, 4, 8 and 16
// in the four directions (as a row and as a column), and on random boards
// of every size the readers accept.
func TestMoveAgainstPlain(t *testing.T) {
	vals := []uint64{0, 2, 4, 8, 16}
	check := func(b Grid) {
		t.Helper()
		for _, d := range []Dir{Up, Right, Down, Left} {
			got, gain, changed, err := b.Move(d)
			if err != nil {
				t.Fatal(err)
			}
			want, wgain, wchanged := plain.Move(toPlain(b), "URDL"[d])
			if !got.Equal(Grid{b.W, b.H, flatten(want)}) || gain != wgain || changed != wchanged {
				t.Fatalf("%s on\n%sgives\n%s%d points, changed %v; internal/plain gives\n%v%d points, changed %v", d, b, got, gain, changed, want, wgain, wchanged)
			}
		}
	}
	for n := 2; n <= 6; n++ {
		line := make([]uint64, n)
		var rec func(i int)
		rec = func(i int) {
			if i == n {
				check(Grid{n, 1, append([]uint64(nil), line...)})
				check(Grid{1, n, append([]uint64(nil), line...)})
				return
			}
			for _, v := range vals {
				line[i] = v
				rec(i + 1)
			}
		}
		rec(0)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		w, h := MinSide+r.IntN(MaxSide-MinSide+1), MinSide+r.IntN(MaxSide-MinSide+1)
		b := NewBoard(w, h)
		for i := range b.Cells {
			if r.IntN(3) > 0 {
				b.Cells[i] = vals[1+r.IntN(len(vals)-1)]
			}
		}
		check(b)
	}
}

func flatten(rows plain.Cells) []uint64 {
	var cells []uint64
	for _, row := range rows {
		cells = append(cells, row...)
	}
	return cells
}

// TestHasMoves checks the peer's test for a move being possible against
// playing the four moves: they agree on every board but the empty one.
func TestHasMoves(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		w, h := MinSide+r.IntN(3), MinSide+r.IntN(3)
		b := NewBoard(w, h)
		for i := range b.Cells {
			if r.IntN(8) > 0 {
				b.Cells[i] = 2 << r.IntN(3)
			}
		}
		some := false
		for _, d := range []Dir{Up, Right, Down, Left} {
			_, _, changed, _ := b.Move(d)
			some = some || changed
		}
		if b.Max() > 0 && b.HasMoves() != some {
			t.Fatalf("HasMoves %v on\n%sbut a move changes it: %v", b.HasMoves(), b, some)
		}
	}
	if !NewBoard(3, 3).HasMoves() {
		t.Error("the peer counts an empty board as having moves")
	}
	if (Grid{2, 2, []uint64{2, 4, 4, 2}}).HasMoves() {
		t.Error("2 4 / 4 2 has no move")
	}
}

// TestMoveOverflow: a merge past 2^64 is an error, not a wrapped tile.
func TestMoveOverflow(t *testing.T) {
	b := Grid{2, 2, []uint64{1 << 63, 1 << 63, 0, 0}}
	if _, _, _, err := b.Move(Left); err == nil {
		t.Error("merging two 2^63 tiles gave no error")
	}
	b = Grid{2, 2, []uint64{1 << 62, 1 << 62, 0, 0}}
	if next, gain, _, err := b.Move(Left); err != nil || gain != 1<<63 || next.Cells[0] != 1<<63 {
		t.Errorf("merging two 2^62 tiles: %v, %d points, %v", err, gain, next)
	}
}
