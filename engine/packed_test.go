package engine

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/tileproof/tileproof/internal/plain"
)

// toPacked packs a 4x4 board whose exponents are at most packedMaxExp.
func toPacked(b Board) packed {
	buildTables()
	return packed{packCells(&b)}
}

// board unpacks p.
func (p packed) board() Board {
	b := Board{rows: 4, cols: 4}
	unpackCells(&b, p.lo)
	return b
}

// set puts exponent e (at most 15) in empty cell i.
func (p *packed) set(i int, e uint8) { p.lo |= uint64(e) << (4 * i) }

// TestPackedEveryLine checks the packed fast path against the plain
// implementation on every 4-cell line of tile exponents 0..15 (every tile
// the packed board holds, up to 32768), placed as row or column 1 and
// moved in all four directions: a merge of two 32768s is an overflow,
// left to the generic board.
func TestPackedEveryLine(t *testing.T) {
	const n = 16
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
		if want.Max() < 1<<(packedMaxExp+1) {
			t.Fatalf("packed %s of\n%s\nreports overflow; plain gives\n%s", d, b, want)
		}
		return
	}
	if !toPlain(q.board()).Equal(want) || gained != wantGained || (q != p) != changed {
		t.Fatalf("packed %s of\n%s\ngives +%d\n%s\nplain gives +%d\n%s", d, b, gained, q.board(), wantGained, want)
	}
	if e := zeroNibbles(q.lo); popcount(e) != q.board().Empty() {
		t.Fatalf("empties of\n%s\n= %x", q.board(), e)
	}
	if q.blocked() != q.board().Blocked() {
		t.Fatalf("blocked %v of\n%s", q.blocked(), q.board())
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
		b := randomBoard(rng, 4, 4, 15)
		tr := packed{transposeLo(toPacked(b).lo)}.board()
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
	b.cells[0], b.cells[1] = 15, 15
	for _, d := range []Direction{Left, Right} {
		if _, _, ok := toPacked(b).slide(d); ok {
			t.Errorf("merging two 2^15 %s on the packed board: no overflow reported", d)
		}
	}
	b.cells[1], b.cells[4] = 0, 15
	for _, d := range []Direction{Up, Down} {
		if _, _, ok := toPacked(b).slide(d); ok {
			t.Errorf("merging two 2^15 %s on the packed board: no overflow reported", d)
		}
	}
}

func TestNthEmpty(t *testing.T) {
	b := mustBoard(t, "2 . 2 ./. . 2 2/2 2 2 2/. 2 . 2")
	want := []int{1, 3, 4, 5, 12, 14}
	e := zeroNibbles(toPacked(b).lo)
	for n, cell := range want {
		if got := nthEmpty(emptyPrefix(e), n); got != cell {
			t.Errorf("nthEmpty(%d) = %d, want %d", n, got, cell)
		}
	}
}

// FuzzPackedBoard moves whole 4x4 boards, exponents 0..15, on the packed
// path and compares each direction with the plain implementation.
func FuzzPackedBoard(f *testing.F) {
	f.Add(uint64(0x1122334455667788))
	f.Add(uint64(0xF0F0F0F0F0F0F0F0))
	f.Add(uint64(0x0000000100010001))
	f.Add(uint64(0xFF00000000000000))
	f.Fuzz(func(t *testing.T, lo uint64) {
		b := packed{lo}.board()
		for _, d := range Directions {
			checkPacked(t, b, d)
		}
	})
}

// spread16 moves bit i of x to bit 4i.
func spread16(x uint16) uint64 {
	var v uint64
	for i := range 16 {
		v |= uint64(x>>i&1) << (4 * i)
	}
	return v
}

// TestPackCells: packing and unpacking a board keep every cell, cell i in
// nibble i.
func TestPackCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 10000 {
		b := randomBoard(rng, 4, 4, 15)
		lo := packCells(&b)
		for i := range 16 {
			if uint8(lo>>(4*i)&15) != b.cells[i] {
				t.Fatalf("packCells of\n%s\n= %016x: cell %d", b, lo, i)
			}
		}
		var back Board
		back.rows, back.cols = 4, 4
		unpackCells(&back, lo)
		if back != b {
			t.Fatalf("unpacked\n%s\nfrom\n%s", back, b)
		}
	}
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

// TestMaxExpEveryCell puts each exponent in each cell of packed boards whose
// other cells are random and smaller, and reads the largest back as the
// replay loop does, unpacked.
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
				if got := p.board().maxExp(); got != e {
					t.Fatalf("maxExp of\n%s\n= %d, want %d", p.board(), got, e)
				}
			}
		}
	}
}

// rowMove slides one packed row, its 16 bits lo, toward column 0, or
// toward column 3 when reverse is set, by the general rule (slide);
// escape is set when a merge makes a tile of 2^16 or more.
func rowMove(lo uint16, reverse bool) (nlo uint16, gained uint64, escape bool) {
	col := func(c int) int {
		if reverse {
			return 3 - c
		}
		return c
	}
	var line [4]uint8
	for c := range 4 {
		line[c] = uint8(lo >> (4 * col(c)) & 15)
	}
	merged := slide(line[:])
	for c, x := range line {
		if merged&(1<<c) != 0 {
			gained += 1 << x
		}
		escape = escape || x > packedMaxExp
		nlo |= uint16(x&15) << (4 * col(c))
	}
	return nlo, gained, escape
}

// TestRowTables holds every entry of both row tables to rowMove, the
// slide of one packed row: the new row and a quarter of the points, or
// rowEscape where the move makes a tile of 2^16 or more.
func TestRowTables(t *testing.T) {
	tables := buildRowTables()
	for d, reverse := range []bool{false, true} {
		for row := range 1 << 16 {
			lo, gained, escape := rowMove(uint16(row), reverse)
			want := rowEntry(lo) | rowEntry(gained>>2)<<16
			if escape {
				want = rowEscape
			}
			if got := tables[d][row]; got != want {
				t.Fatalf("reverse %v, row %04x: entry %08x, rowMove gives %08x", reverse, row, got, want)
			}
		}
	}
}

// BenchmarkRowTables builds the two row tables, what the first 4x4 game
// of a process pays, beside building them with rowMove, the general
// slide of a row.
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
					lo, gained, _ := rowMove(uint16(row), reverse)
					t[row] = rowEntry(lo) | rowEntry(gained>>2)<<16
				}
			}
		}
	})
}
