//go:build !mutation

package plain

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"
)

func eqLine(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSlideLeft(t *testing.T) {
	cases := []struct {
		in, want []uint64
		gained   uint64
	}{
		{[]uint64{2, 2, 2, 2}, []uint64{4, 4, 0, 0}, 8},
		{[]uint64{0, 2, 2, 2}, []uint64{4, 2, 0, 0}, 4}, // pair nearest index 0 first
		{[]uint64{2, 2, 2, 0}, []uint64{4, 2, 0, 0}, 4},
		{[]uint64{2, 0, 2, 4}, []uint64{4, 4, 0, 0}, 4}, // new 4 does not merge again
		{[]uint64{2, 2, 4, 0}, []uint64{4, 4, 0, 0}, 4},
		{[]uint64{4, 4, 8, 8}, []uint64{8, 16, 0, 0}, 24},
		{[]uint64{8, 0, 0, 8}, []uint64{16, 0, 0, 0}, 16},
		{[]uint64{2, 4, 2, 4}, []uint64{2, 4, 2, 4}, 0}, // no merge of unequal
		{[]uint64{2, 4, 8, 16}, []uint64{2, 4, 8, 16}, 0},
		{[]uint64{0, 0, 0, 2}, []uint64{2, 0, 0, 0}, 0},
		{[]uint64{0, 0, 0, 0}, []uint64{0, 0, 0, 0}, 0},
		{[]uint64{2, 2}, []uint64{4, 0}, 4},
		{[]uint64{2, 2, 2}, []uint64{4, 2, 0}, 4},
		{[]uint64{4, 2, 2, 4}, []uint64{4, 4, 4, 0}, 4},
		{[]uint64{2, 2, 2, 2, 2, 2, 2, 2}, []uint64{4, 4, 4, 4, 0, 0, 0, 0}, 16},
		{[]uint64{0, 1024, 0, 1024, 2, 0, 0, 2}, []uint64{2048, 4, 0, 0, 0, 0, 0, 0}, 2052},
	}
	for _, c := range cases {
		in := append([]uint64(nil), c.in...)
		got, g := SlideLeft(in)
		if !eqLine(got, c.want) || g != c.gained {
			t.Errorf("SlideLeft(%v) = %v +%d, want %v +%d", c.in, got, g, c.want, c.gained)
		}
		if !eqLine(in, c.in) {
			t.Errorf("SlideLeft modified its input: %v became %v", c.in, in)
		}
	}
}

func TestMoveRightLine(t *testing.T) {
	b := Cells{{2, 2, 2, 0}, {0, 0, 0, 0}}
	got, g, ch := Move(b, 'R')
	want := Cells{{0, 0, 2, 4}, {0, 0, 0, 0}}
	if !got.Equal(want) || g != 4 || !ch {
		t.Fatalf("right of [2 2 2 0] = %v +%d %v, want %v +4 true", got, g, ch, want)
	}
}

func TestMove4x4(t *testing.T) {
	b := Cells{
		{2, 2, 0, 4},
		{0, 4, 4, 0},
		{2, 0, 2, 2},
		{8, 8, 8, 8},
	}
	orig := b.Clone()
	cases := []struct {
		dir    byte
		want   Cells
		gained uint64
	}{
		{'L', Cells{
			{4, 4, 0, 0},
			{8, 0, 0, 0},
			{4, 2, 0, 0},
			{16, 16, 0, 0},
		}, 48},
		{'R', Cells{
			{0, 0, 4, 4},
			{0, 0, 0, 8},
			{0, 0, 2, 4},
			{0, 0, 16, 16},
		}, 48},
		{'U', Cells{
			{4, 2, 4, 4},
			{8, 4, 2, 2},
			{0, 8, 8, 8},
			{0, 0, 0, 0},
		}, 4},
		{'D', Cells{
			{0, 0, 0, 0},
			{0, 2, 4, 4},
			{4, 4, 2, 2},
			{8, 8, 8, 8},
		}, 4},
	}
	for _, c := range cases {
		got, g, ch := Move(b, c.dir)
		if !got.Equal(c.want) || g != c.gained || !ch {
			t.Errorf("Move %c:\n%v+%d %v, want\n%v+%d true", c.dir, got, g, ch, c.want, c.gained)
		}
		if !b.Equal(orig) {
			t.Fatalf("Move %c modified its input", c.dir)
		}
	}
}

func TestMove2x3(t *testing.T) {
	b := Cells{
		{2, 0, 2},
		{2, 4, 4},
	}
	cases := []struct {
		dir    byte
		want   Cells
		gained uint64
	}{
		{'L', Cells{{4, 0, 0}, {2, 8, 0}}, 12},
		{'R', Cells{{0, 0, 4}, {0, 2, 8}}, 12},
		{'U', Cells{{4, 4, 2}, {0, 0, 4}}, 4},
		{'D', Cells{{0, 0, 2}, {4, 4, 4}}, 4},
	}
	for _, c := range cases {
		got, g, ch := Move(b, c.dir)
		if !got.Equal(c.want) || g != c.gained || !ch {
			t.Errorf("Move %c:\n%v+%d %v, want\n%v+%d true", c.dir, got, g, ch, c.want, c.gained)
		}
	}
}

func TestMoveUnchanged(t *testing.T) {
	b := Cells{
		{2, 4, 0},
		{0, 0, 0},
	}
	got, g, ch := Move(b, 'L')
	if ch || g != 0 || !got.Equal(b) {
		t.Errorf("left of %v: %v +%d changed=%v, want unchanged", b, got, g, ch)
	}
	got, _, ch = Move(b, 'U')
	if ch || !got.Equal(b) {
		t.Errorf("up of %v changed the board to %v", b, got)
	}
	if _, _, ch = Move(b, 'R'); !ch {
		t.Errorf("right of %v reported unchanged", b)
	}
	if _, _, ch = Move(b, 'D'); !ch {
		t.Errorf("down of %v reported unchanged", b)
	}
	if lm := LegalMoves(b); lm != "DR" {
		t.Errorf("LegalMoves = %q, want %q", lm, "DR")
	}
}

func TestMovePanicsOnBadLetter(t *testing.T) {
	for _, d := range []byte{'u', 'X', 0, 'l'} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Move(%q) did not panic", d)
				}
			}()
			Move(NewBoard(2, 2), d)
		}()
	}
}

func TestCheckerboardStuck(t *testing.T) {
	b := NewBoard(4, 4)
	for r := range b {
		for c := range b[r] {
			if (r+c)%2 == 0 {
				b[r][c] = 2
			} else {
				b[r][c] = 4
			}
		}
	}
	if CanMove(b) {
		t.Errorf("checkerboard can move")
	}
	if lm := LegalMoves(b); lm != "" {
		t.Errorf("LegalMoves(checkerboard) = %q, want empty", lm)
	}
	g := &Oracle{Board: b, Weights: DefaultWeights()}
	if !g.Over() {
		t.Errorf("checkerboard game not over")
	}
	if g.Play('L') || g.Moves != 0 || g.Score != 0 {
		t.Errorf("Play on stuck board did something")
	}
}

func TestOnePair(t *testing.T) {
	vertical := Cells{
		{2, 4, 2},
		{2, 8, 4},
		{4, 2, 8},
	}
	if lm := LegalMoves(vertical); lm != "UD" {
		t.Errorf("LegalMoves(vertical pair) = %q, want UD", lm)
	}
	if !CanMove(vertical) {
		t.Errorf("vertical pair board cannot move")
	}
	horizontal := Cells{
		{2, 2, 4},
		{4, 8, 2},
		{2, 4, 8},
	}
	if lm := LegalMoves(horizontal); lm != "LR" {
		t.Errorf("LegalMoves(horizontal pair) = %q, want LR", lm)
	}
	if lm := LegalMoves(NewBoard(3, 3)); lm != "" {
		t.Errorf("LegalMoves(empty board) = %q, want empty", lm)
	}
	if lm := LegalMoves(Cells{{0, 0}, {0, 2}}); lm != "UL" {
		t.Errorf("LegalMoves(corner) = %q, want UL", lm)
	}
}

func TestBoardHelpers(t *testing.T) {
	b := NewBoard(2, 3)
	if len(b) != 2 || len(b[0]) != 3 || len(b[1]) != 3 || b.Empty() != 6 || b.Max() != 0 {
		t.Fatalf("NewBoard(2,3) = %v", b)
	}
	b[0][1] = 8
	b[1][2] = 2
	if b.Empty() != 4 || b.Max() != 8 || b.Sum() != 10 {
		t.Errorf("Empty/Max/Sum = %d/%d/%d, want 4/8/10", b.Empty(), b.Max(), b.Sum())
	}
	c := b.Clone()
	if !c.Equal(b) {
		t.Errorf("clone not equal")
	}
	c[0][0] = 2
	if b[0][0] != 0 || c.Equal(b) {
		t.Errorf("clone shares storage")
	}
	if b.Equal(NewBoard(3, 2)) || b.Equal(NewBoard(2, 2)) {
		t.Errorf("boards of different shape are equal")
	}
	if s := b.String(); s != "0 8 0\n0 0 2\n" {
		t.Errorf("String = %q", s)
	}
}

func TestSplitMix64Reference(t *testing.T) {
	r := SplitMix{State: 0}
	want := []uint64{0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F}
	for i, w := range want {
		if got := r.Next(); got != w {
			t.Errorf("draw %d = %#016x, want %#016x", i, got, w)
		}
	}
	gamma := uint64(0x9E3779B97F4A7C15)
	if r.State != 3*gamma {
		t.Errorf("state after 3 draws = %#x", r.State)
	}
	// The state wraps modulo 2^64.
	r = SplitMix{State: ^uint64(0)}
	r.Next()
	if r.State != 0x9E3779B97F4A7C15-1 {
		t.Errorf("state did not wrap: %#x", r.State)
	}
}

func TestKey(t *testing.T) {
	sum := sha256.Sum256([]byte("7"))
	want := binary.BigEndian.Uint64(sum[:8])
	k, err := Key("7")
	if err != nil || k != want {
		t.Fatalf("Key(7) = %#x, %v; want %#x", k, err, want)
	}
	for _, s := range []string{"  7 ", "7\n", "\t7", "\u00a07\u3000", "\u20287\u2029"} {
		if k2, err := Key(s); err != nil || k2 != want {
			t.Errorf("Key(%q) = %#x, %v; want %#x", s, k2, err, want)
		}
	}
	if k2, _ := Key("7 7"); k2 == want {
		t.Errorf("inner space was trimmed")
	}
	for _, s := range []string{"", "   ", "\t\n", "\u3000", strings.Repeat("a", 97), strings.Repeat("é", 97), "\xff", "a\xc3"} {
		if _, err := Key(s); err == nil {
			t.Errorf("Key(%q) gave no error", s)
		}
	}
	for _, s := range []string{strings.Repeat("a", 96), strings.Repeat("é", 96), " " + strings.Repeat("✓", 96) + "  ", "x"} {
		k, err := Key(s)
		if err != nil {
			t.Errorf("Key(%q) error %v", s, err)
			continue
		}
		sum := sha256.Sum256([]byte(strings.TrimSpace(s)))
		if k != binary.BigEndian.Uint64(sum[:8]) {
			t.Errorf("Key(%q) = %#x, wrong", s, k)
		}
	}
}

func emptyCells(b Cells) [][2]int {
	var e [][2]int
	for r := range b {
		for c := range b[r] {
			if b[r][c] == 0 {
				e = append(e, [2]int{r, c})
			}
		}
	}
	return e
}

func TestSpawnFullBoard(t *testing.T) {
	b := Cells{{2, 4}, {8, 16}}
	r := SplitMix{State: 12345}
	_, _, _, ok := Spawn(b, &r, DefaultWeights())
	if ok {
		t.Errorf("Spawn on full board reported ok")
	}
	if r.State != 12345 {
		t.Errorf("Spawn on full board drew from the RNG")
	}
	if !b.Equal(Cells{{2, 4}, {8, 16}}) {
		t.Errorf("Spawn on full board changed it")
	}
}

func TestSpawnPlacement(t *testing.T) {
	base := Cells{
		{2, 0, 4, 0},
		{0, 8, 0, 0},
		{16, 0, 2, 2},
		{0, 0, 0, 4},
	}
	for state := uint64(0); state < 500; state++ {
		b := base.Clone()
		empties := emptyCells(b)
		peek := SplitMix{State: state * 0x1234567}
		d1, d2 := peek.Next(), peek.Next()
		wantValue := uint64(2)
		if d1%10 >= 9 {
			wantValue = 4
		}
		want := empties[d2%uint64(len(empties))]

		r := SplitMix{State: state * 0x1234567}
		row, col, v, ok := Spawn(b, &r, DefaultWeights())
		if !ok || row != want[0] || col != want[1] || v != wantValue {
			t.Fatalf("state %d: Spawn = (%d,%d) %d %v, want (%d,%d) %d", state, row, col, v, ok, want[0], want[1], wantValue)
		}
		if base[row][col] != 0 {
			t.Fatalf("spawned on a full cell")
		}
		if b[row][col] != v || b.Empty() != base.Empty()-1 {
			t.Fatalf("board after spawn wrong:\n%v", b)
		}
		if r.State != peek.State {
			t.Fatalf("Spawn made other than two draws")
		}
	}
}

func TestSpawnWeights(t *testing.T) {
	// Order of the given weights does not matter.
	for s := uint64(0); s < 200; s++ {
		b1, b2 := NewBoard(3, 3), NewBoard(3, 3)
		r1, r2 := SplitMix{State: s}, SplitMix{State: s}
		_, _, v1, _ := Spawn(b1, &r1, []Weight{{2, 9}, {4, 1}})
		_, _, v2, _ := Spawn(b2, &r2, []Weight{{4, 1}, {2, 9}})
		if v1 != v2 || !b1.Equal(b2) {
			t.Fatalf("weight order changed the spawn")
		}
	}
	// A zero weight is never chosen.
	counts := map[uint64]int{}
	for s := uint64(0); s < 200; s++ {
		r := SplitMix{State: s}
		_, _, v, _ := Spawn(NewBoard(2, 2), &r, []Weight{{2, 0}, {4, 1}, {8, 0}})
		counts[v]++
	}
	if counts[4] != 200 {
		t.Errorf("zero weights chosen: %v", counts)
	}
	// Walking in ascending value: with weights 2:1, 4:1, 8:2 the draw r mod 4
	// maps 0->2, 1->4, 2->8, 3->8.
	for s := uint64(0); s < 200; s++ {
		peek := SplitMix{State: s}
		d := peek.Next() % 4
		want := []uint64{2, 4, 8, 8}[d]
		r := SplitMix{State: s}
		_, _, v, _ := Spawn(NewBoard(2, 2), &r, []Weight{{8, 2}, {4, 1}, {2, 1}})
		if v != want {
			t.Fatalf("state %d: value %d, want %d (r=%d)", s, v, want, d)
		}
	}
	// One empty cell: the tile goes there.
	b := Cells{{2, 4}, {0, 8}}
	r := SplitMix{State: 99}
	row, col, _, ok := Spawn(b, &r, DefaultWeights())
	if !ok || row != 1 || col != 0 {
		t.Errorf("single empty cell: got (%d,%d) %v", row, col, ok)
	}
}

func TestNewGame(t *testing.T) {
	for start := 0; start <= 6; start++ {
		g, err := NewOracle("7", 4, 4, start, DefaultWeights())
		if err != nil {
			t.Fatal(err)
		}
		if n := 16 - g.Board.Empty(); n != start {
			t.Errorf("start %d: %d tiles", start, n)
		}
		if g.Score != 0 || g.Moves != 0 {
			t.Errorf("new game has score %d moves %d", g.Score, g.Moves)
		}
		k, _ := Key("7")
		want := SplitMix{State: k}
		for i := 0; i < 2*start; i++ {
			want.Next()
		}
		if g.RNG != want {
			t.Errorf("start %d: RNG advanced by other than two draws per spawn", start)
		}
	}
	// The opening equals spawns done by hand.
	g, _ := NewOracle(" 2048-practice ", 3, 5, 2, DefaultWeights())
	k, _ := Key("2048-practice")
	b := NewBoard(3, 5)
	r := SplitMix{State: k}
	Spawn(b, &r, DefaultWeights())
	Spawn(b, &r, DefaultWeights())
	if !g.Board.Equal(b) {
		t.Errorf("opening differs from hand spawns")
	}
	bad := []struct {
		seed       string
		rows, cols int
		start      int
		w          []Weight
	}{
		{"", 4, 4, 2, DefaultWeights()},
		{"   ", 4, 4, 2, DefaultWeights()},
		{strings.Repeat("x", 97), 4, 4, 2, DefaultWeights()},
		{"7", 1, 4, 2, DefaultWeights()},
		{"7", 4, 9, 2, DefaultWeights()},
		{"7", 4, 4, -1, DefaultWeights()},
		{"7", 2, 2, 5, DefaultWeights()},
		{"7", 4, 4, 2, nil},
		{"7", 4, 4, 2, []Weight{{2, 0}}},
		{"7", 4, 4, 2, []Weight{{3, 1}}},
		{"7", 4, 4, 2, []Weight{{0, 1}}},
		{"7", 4, 4, 2, []Weight{{2, ^uint64(0)}, {4, 1}}},
	}
	for _, c := range bad {
		if _, err := NewOracle(c.seed, c.rows, c.cols, c.start, c.w); err == nil {
			t.Errorf("NewGame(%q, %d, %d, %d, %v) gave no error", c.seed, c.rows, c.cols, c.start, c.w)
		}
	}
	for _, rc := range [][2]int{{2, 2}, {2, 8}, {8, 2}, {8, 8}} {
		if _, err := NewOracle("7", rc[0], rc[1], 2, DefaultWeights()); err != nil {
			t.Errorf("NewGame %dx%d: %v", rc[0], rc[1], err)
		}
	}
}

const fixedMoves = "ULDRRDLUUUDLRLLDRURDDLUL"

func TestGameDeterministic(t *testing.T) {
	g1, _ := NewOracle("2048-practice", 4, 4, 2, DefaultWeights())
	g2, _ := NewOracle("  2048-practice\n", 4, 4, 2, DefaultWeights())
	g3, _ := NewOracle("2048-practicf", 4, 4, 2, DefaultWeights())
	same := true
	for i := 0; i < 20; i++ {
		for j := 0; j < len(fixedMoves); j++ {
			c1 := g1.Play(fixedMoves[j])
			c2 := g2.Play(fixedMoves[j])
			g3.Play(fixedMoves[j])
			if c1 != c2 || !g1.Board.Equal(g2.Board) || g1.Score != g2.Score || g1.Moves != g2.Moves || g1.RNG != g2.RNG {
				t.Fatalf("games diverged at move %d", i*len(fixedMoves)+j)
			}
			if !g1.Board.Equal(g3.Board) {
				same = false
			}
		}
	}
	if same {
		t.Errorf("different seeds gave identical games")
	}
}

func TestGameInvariants(t *testing.T) {
	for _, seed := range []string{"7", "0", "héllo wörld ✓"} {
		g, err := NewOracle(seed, 4, 4, 2, DefaultWeights())
		if err != nil {
			t.Fatal(err)
		}
		var score uint64
		moves := 0
		for i := 0; !g.Over(); i++ {
			if i > 100000 {
				t.Fatalf("seed %q: game did not end", seed)
			}
			dir := fixedMoves[i%len(fixedMoves)]
			before := g.Board.Clone()
			sumBefore := before.Sum()
			next, gained, changed := Move(before, dir)
			if next.Sum() != sumBefore {
				t.Fatalf("move changed the tile sum")
			}
			if changed != strings.ContainsRune(LegalMoves(before), rune(dir)) {
				t.Fatalf("LegalMoves disagrees with Move")
			}
			rngBefore := g.RNG
			if g.Play(dir) != changed {
				t.Fatalf("Play and Move disagree on change")
			}
			if !changed {
				if !g.Board.Equal(before) || g.RNG != rngBefore || g.Moves != moves || g.Score != score {
					t.Fatalf("unchanging move did something")
				}
				continue
			}
			moves++
			score += gained
			if g.Moves != moves || g.Score != score {
				t.Fatalf("moves/score %d/%d, want %d/%d", g.Moves, g.Score, moves, score)
			}
			// Exactly one cell differs from the moved board: the spawned tile,
			// in a cell that was empty.
			diffs := 0
			var spawned uint64
			for r := range next {
				for c := range next[r] {
					if next[r][c] != g.Board[r][c] {
						diffs++
						if next[r][c] != 0 {
							t.Fatalf("spawned on a full cell")
						}
						spawned = g.Board[r][c]
					}
				}
			}
			if diffs != 1 || (spawned != 2 && spawned != 4) {
				t.Fatalf("spawn diffs=%d value=%d", diffs, spawned)
			}
			if g.Board.Sum() != sumBefore+spawned {
				t.Fatalf("tile sum %d, want %d+%d", g.Board.Sum(), sumBefore, spawned)
			}
		}
		if g.Board.Empty() != 0 || LegalMoves(g.Board) != "" {
			t.Errorf("seed %q: over with empty cells or legal moves", seed)
		}
		t.Logf("seed %q: over after %d moves, score %d, max %d", seed, g.Moves, g.Score, g.Board.Max())
	}
}

func TestPrintVectors(t *testing.T) {
	if os.Getenv("PLAIN_VECTORS") != "1" {
		t.Skip("set PLAIN_VECTORS=1 to print vectors")
	}
	for _, seed := range []string{"7", "  7  ", "2048-practice", "héllo wörld ✓", "0"} {
		k, err := Key(seed)
		if err != nil {
			t.Fatal(err)
		}
		r := SplitMix{State: k}
		d1 := r.Next()
		d2 := r.Next()
		d3 := r.Next()
		fmt.Printf("seed %q trimmed %q key %016x draws %016x %016x %016x\n",
			seed, strings.TrimSpace(seed), k, d1, d2, d3)
	}
	g, err := NewOracle("7", 4, 4, 2, DefaultWeights())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("opening board, seed \"7\", 4x4, 2 start tiles, weights 2:9 4:1:\n%v", g.Board)
}
