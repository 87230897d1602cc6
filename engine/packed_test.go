package engine

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/tileproof/tileproof/internal/plain"
)

// TestPackedEveryLine checks the packed fast path against the plain
// implementation on every 4-cell line of tile exponents 0..17 (every tile
// a 4x4 game can reach, up to 131072), placed as row or column 1 and moved
// in all four directions.
func TestPackedEveryLine(t *testing.T) {
	const n = 18
	var line [4]uint8
	for code := range n * n * n * n {
		for i, c := 0, code; i < 4; i, c = i+1, c/n {
			line[i] = uint8(c % n)
		}
		for _, d := range Directions {
			b, _ := NewBoard(4, 4)
			for i, e := range line {
				if d == Left || d == Right {
					b.cells[4+i] = e // row 1
				} else {
					b.cells[4*i+1] = e // column 1
				}
			}
			checkPacked(t, b, d)
		}
	}
}

// checkPacked compares one packed move with Board.Slide and with the plain
// implementation.
func checkPacked(t *testing.T, b Board, d Direction) {
	t.Helper()
	p := toPacked(b)
	if p.board() != b {
		t.Fatalf("packing\n%s\ngives\n%s", b, p.board())
	}
	q, gained, ok := p.slide(d)
	want, wantGained, changed := plain.Move(toPlain(b), d.Letter())
	if !ok {
		if want.Max() <= 1<<packedMaxExp {
			t.Fatalf("packed %s of\n%s\nreports overflow; plain gives\n%s", d, b, want)
		}
		return
	}
	if !toPlain(q.board()).Equal(want) || gained != wantGained || (q != p) != changed {
		t.Fatalf("packed %s of\n%s\ngives +%d\n%s\nplain gives +%d\n%s", d, b, gained, q.board(), wantGained, want)
	}
	if e := q.empties(); popcount(e) != q.board().Empty() {
		t.Fatalf("empties of\n%s\n= %x", q.board(), e)
	}
	if q.blocked() != q.board().Blocked() || q.maxExp() != q.board().maxExp() {
		t.Fatalf("blocked %v, maxExp %d of\n%s", q.blocked(), q.maxExp(), q.board())
	}
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

func TestPackedTranspose(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		b := randomBoard(rng, 4, 4, 31)
		tr := toPacked(b).transpose().board()
		for r := range 4 {
			for c := range 4 {
				if tr.Exp(r, c) != b.Exp(c, r) {
					t.Fatalf("transpose of\n%s\n=\n%s", b, tr)
				}
			}
		}
	}
}

func TestPackedOverflow(t *testing.T) {
	b, _ := NewBoard(4, 4)
	b.cells[0], b.cells[1] = 31, 31
	if _, _, ok := toPacked(b).slide(Left); ok {
		t.Error("merging two 2^31 on the packed board: no overflow reported")
	}
}

func TestNthEmpty(t *testing.T) {
	b := mustBoard(t, "2 . 2 ./. . 2 2/2 2 2 2/. 2 . 2")
	want := []int{1, 3, 4, 5, 12, 14}
	e := toPacked(b).empties()
	for n, cell := range want {
		if got := nthEmpty(emptyPrefix(e), n); got != cell {
			t.Errorf("nthEmpty(%d) = %d, want %d", n, got, cell)
		}
	}
}

// FuzzPackedBoard moves whole 4x4 boards, exponents 0..31, on the packed
// path and compares each direction with the plain implementation.
func FuzzPackedBoard(f *testing.F) {
	f.Add(uint64(0x1122334455667788), uint16(0))
	f.Add(uint64(0xF0F0F0F0F0F0F0F0), uint16(0xFFFF))
	f.Add(uint64(0x0000000100010001), uint16(0x0001))
	f.Fuzz(func(t *testing.T, lo uint64, hi uint16) {
		b := packed{lo, hi}.board()
		for _, d := range Directions {
			checkPacked(t, b, d)
		}
	})
}

// TestNthEmptyEveryMask checks the branch-free count and select against
// counting, for every set of 1 to 15 empty cells and every position in it.
func TestNthEmptyEveryMask(t *testing.T) {
	for mask := 1; mask < 1<<16-1; mask++ {
		e := emptyPrefix(spread16(uint16(mask)))
		if got, want := emptyCount(e), bits.OnesCount16(uint16(mask)); int(got) != want {
			t.Fatalf("mask %016b: emptyCount = %d, want %d", mask, got, want)
		}
		n := 0
		for cell := range 16 {
			if mask>>cell&1 == 0 {
				continue
			}
			if got := nthEmptyShift(e, n); got != uint(4*cell) {
				t.Fatalf("mask %016b: nthEmptyShift(%d) = %d, want %d", mask, n, got, 4*cell)
			}
			n++
		}
	}
}

func TestHasExpAbove(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for range 20000 {
		b := randomBoard(rng, 4, 4, 1+rng.IntN(20))
		p := toPacked(b)
		for e := range uint8(22) {
			if got, want := p.hasExpAbove(e), p.maxExp() > e; got != want {
				t.Fatalf("hasExpAbove(%d) = %v on\n%s", e, got, b)
			}
		}
	}
}

// TestMaxExpEveryCell puts each exponent in each cell of boards whose
// other cells are random and smaller, with and without high bits.
func TestMaxExpEveryCell(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for cell := range 16 {
		for e := range uint8(packedMaxExp + 1) {
			for range 20 {
				var p packed
				for i := range 16 {
					if i != cell && e > 0 {
						p.set(i, uint8(rng.IntN(int(e))))
					}
				}
				p.set(cell, e)
				if got, want := p.maxExp(), p.board().maxExp(); got != want || got != e {
					t.Fatalf("maxExp of\n%s\n= %d, want %d", p.board(), got, e)
				}
			}
		}
	}
}

// TestRowTables holds every entry of both row tables to rowMove, the
// slide of one packed row: the new row and a quarter of the points, or
// rowEscape where the move makes a tile of 2^16 or more.
func TestRowTables(t *testing.T) {
	tables := buildRowTables()
	for d, reverse := range []bool{false, true} {
		for row := range 1 << 16 {
			lo, hi, gained, _ := rowMove(uint16(row), 0, reverse)
			want := rowEntry(lo) | rowEntry(gained>>2)<<16
			if hi != 0 {
				want = rowEscape
			}
			if got := tables[d][row]; got != want {
				t.Fatalf("reverse %v, row %04x: entry %08x, rowMove gives %08x", reverse, row, got, want)
			}
		}
	}
}

// BenchmarkRowTables builds the two row tables, what the first 4x4 game
// of a process pays, beside building them with rowMove, the slide of the
// packed path's rare rows.
func BenchmarkRowTables(b *testing.B) {
	b.Run("built", func(b *testing.B) {
		for b.Loop() {
			buildRowTables()
		}
	})
	b.Run("rowMove", func(b *testing.B) {
		for b.Loop() {
			for _, reverse := range []bool{false, true} {
				t := new([1 << 16]rowEntry)
				for row := range 1 << 16 {
					lo, _, gained, _ := rowMove(uint16(row), 0, reverse)
					t[row] = rowEntry(lo) | rowEntry(gained>>2)<<16
				}
			}
		}
	})
}
