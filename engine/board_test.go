package engine

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/tileproof/tileproof/internal/plain"
	"github.com/tileproof/tileproof/internal/strictyaml"
	"go.yaml.in/yaml/v3"
)

func mustBoard(t testing.TB, text string) Board {
	t.Helper()
	b, err := ParseBoard(text)
	if err != nil {
		t.Fatalf("ParseBoard(%q): %v", text, err)
	}
	return b
}

func TestSlideExamples(t *testing.T) {
	tests := []struct {
		name   string
		board  string
		dir    Direction
		want   string
		gained uint64
	}{
		{"non-greedy", "2 2 2 2/. . . ./. . . ./. . . .", Left, "4 4 . ./. . . ./. . . ./. . . .", 8},
		{"priority right", ". 2 2 2/. . . ./. . . ./. . . .", Right, ". . 2 4/. . . ./. . . ./. . . .", 4},
		{"priority left", "2 2 2 ./. . . ./. . . ./. . . .", Left, "4 2 . ./. . . ./. . . ./. . . .", 4},
		{"gap then merge", "2 . 2 4/. . . ./. . . ./. . . .", Left, "4 4 . ./. . . ./. . . ./. . . .", 4},
		{"two pairs", "4 4 8 8/. . . ./. . . ./. . . .", Left, "8 16 . ./. . . ./. . . ./. . . .", 24},
		{"up", "2 . . ./2 . . ./4 . . ./4 . . .", Up, "4 . . ./8 . . ./. . . ./. . . .", 12},
		{"down priority", "2 . . ./2 . . ./2 . . ./. . . .", Down, ". . . ./. . . ./2 . . ./4 . . .", 4},
		{"2x3", "2 2 4/4 . 4", Right, ". 4 4/. . 8", 12},
		{"3x2 up", "2 2/2 4/4 4", Up, "4 2/4 8/. .", 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := mustBoard(t, tt.board).Slide(tt.dir)
			if err != nil {
				t.Fatal(err)
			}
			if want := mustBoard(t, tt.want); s.Board != want || s.Gained != tt.gained || !s.Changed {
				t.Errorf("slide %s:\n%s\ngot (+%d, changed %v)\n%s\nwant (+%d)\n%s", tt.dir, tt.board, s.Gained, s.Changed, s.Board, tt.gained, want)
			}
		})
	}
}

func TestLegalAndBlocked(t *testing.T) {
	checker := mustBoard(t, "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2")
	if !checker.Blocked() || len(checker.LegalMoves()) != 0 {
		t.Errorf("checkerboard: blocked %v, legal %v", checker.Blocked(), checker.LegalMoves())
	}
	vertical := mustBoard(t, "2 4 2 4/4 2 4 2/2 4 2 4/2 8 16 32")
	if vertical.Blocked() || !vertical.Legal(Up) || !vertical.Legal(Down) || vertical.Legal(Left) || vertical.Legal(Right) {
		t.Errorf("one vertical pair: blocked %v legal %v", vertical.Blocked(), vertical.LegalMoves())
	}
	corner := mustBoard(t, "2 . ./. . ./. . .")
	if got := corner.LegalMoves(); len(got) != 2 || got[0] != Down || got[1] != Right {
		t.Errorf("corner tile: legal %v, want [down right]", got)
	}
}

func TestParseBoardRoundTrip(t *testing.T) {
	text := "   2    4    .    .\n   .    .    .    .\n   .    . 2048    .\n   .    .    .    8"
	b := mustBoard(t, text)
	if b.String() != text {
		t.Errorf("String() =\n%s\nwant\n%s", b, text)
	}
	if b.At(2, 2) != 2048 || b.Exp(2, 2) != 11 || b.Empty() != 12 || b.MaxTile() != 2048 || b.Sum() != 2062 {
		t.Errorf("At %d Exp %d Empty %d MaxTile %d Sum %d", b.At(2, 2), b.Exp(2, 2), b.Empty(), b.MaxTile(), b.Sum())
	}
	v, err := BoardFromValues(b.Values())
	if err != nil || v != b {
		t.Errorf("BoardFromValues(Values()) = %v, %v", v, err)
	}
}

// TestBoardJSON: a board reads from rows of numbers (null or 0 for an
// empty cell) and from a text grid, writes as rows, and a row of another
// length is a BoardError naming it.
func TestBoardJSON(t *testing.T) {
	want := mustBoard(t, "2 .\n. 4")
	for _, in := range []string{`[[2,null],[0,4]]`, `"2 .\n. 4"`} {
		var b Board
		if err := json.Unmarshal([]byte(in), &b); err != nil || b != want {
			t.Errorf("reading %s: %v, %v", in, b, err)
		}
	}
	if out, err := json.Marshal(want); err != nil || string(out) != `[[2,0],[0,4]]` {
		t.Errorf("writing: %s, %v", out, err)
	}
	var b Board
	var be *BoardError
	if err := json.Unmarshal([]byte(`[[2,null],[4]]`), &b); !errors.As(err, &be) || be.Row != 2 {
		t.Errorf("a short row 2: %v", err)
	}
	if err := json.Unmarshal([]byte(`[[2,3],[4,4]]`), &b); !errors.As(err, &be) || be.Row != 1 || be.Col != 2 {
		t.Errorf("3 at row 1, column 2: %v", err)
	}
}

func TestParseBoardErrors(t *testing.T) {
	tests := []struct {
		text     string
		row, col int
	}{
		{"2 2\n2", 2, 0},
		{"2 2 2\n2 3 2", 2, 2},
		{"2 x\n. .", 1, 2},
		{"2 1\n. .", 1, 2},
		{"2 9007199254740992\n. .", 1, 2},
		{"2 2", 0, 0},
		{"2\n2", 1, 0},
		{"", 0, 0},
		{". . . . . . . . .\n. . . . . . . . .", 1, 0},
	}
	for _, tt := range tests {
		_, err := ParseBoard(tt.text)
		var be *BoardError
		if !errors.As(err, &be) || be.Row != tt.row || be.Col != tt.col {
			t.Errorf("ParseBoard(%q) = %v, want a BoardError at row %d, column %d", tt.text, err, tt.row, tt.col)
		}
	}
}

func FuzzParseBoard(f *testing.F) {
	f.Add("2 2 . .\n. . . .\n. . . .\n. . . 4")
	f.Add("2 4/8 16")
	f.Add("2 x\n. .")
	f.Fuzz(func(t *testing.T, text string) {
		b, err := ParseBoard(text)
		if err != nil {
			var be *BoardError
			if !errors.As(err, &be) {
				t.Fatalf("ParseBoard(%q): %v is not a *BoardError", text, err)
			}
			return
		}
		again, err := ParseBoard(b.String())
		if err != nil || again != b {
			t.Fatalf("ParseBoard(%q) = %v; reparsing its String gives %v, %v", text, b, again, err)
		}
	})
}

func toPlain(b Board) plain.Cells {
	p := plain.NewBoard(b.Rows(), b.Cols())
	for r := range b.Rows() {
		for c := range b.Cols() {
			p[r][c] = b.At(r, c)
		}
	}
	return p
}

// randomBoard fills a rows x cols board with tiles up to 2^maxExp, about
// a third of the cells empty, so that merges and gaps are common.
func randomBoard(rng *rand.Rand, rows, cols, maxExp int) Board {
	b, _ := NewBoard(rows, cols)
	for i := range rows * cols {
		if rng.IntN(3) > 0 {
			b.cells[i] = uint8(1 + rng.IntN(maxExp))
		}
	}
	return b
}

// TestSlideDifferential checks Board.Slide on every size against the plain
// implementation.
func TestSlideDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for rows := MinSide; rows <= MaxSide; rows++ {
		for cols := MinSide; cols <= MaxSide; cols++ {
			for range 300 {
				b := randomBoard(rng, rows, cols, 1+rng.IntN(6))
				for _, d := range Directions {
					s, err := b.Slide(d)
					if err != nil {
						t.Fatal(err)
					}
					want, gained, changed := plain.Move(toPlain(b), d.Letter())
					if !toPlain(s.Board).Equal(want) || s.Gained != gained || s.Changed != changed || b.Legal(d) != changed {
						t.Fatalf("%dx%d %s of\n%s\ngot +%d %v\n%s\nplain +%d %v\n%s", rows, cols, d, b, s.Gained, s.Changed, s.Board, gained, changed, want)
					}
				}
				if b.Blocked() != !plain.CanMove(toPlain(b)) {
					t.Fatalf("Blocked(%v) = %v", b, b.Blocked())
				}
			}
		}
	}
}

func TestSlideOverflow(t *testing.T) {
	b, _ := BoardFromValues([][]uint64{{MaxTile, MaxTile}, {0, 0}})
	if _, err := b.Slide(Left); !errors.Is(err, ErrTileOverflow) {
		t.Errorf("merging two 2^52: %v, want ErrTileOverflow", err)
	}
	// The tiles would move, so the move is legal (and refused as an
	// overflow when played).
	if !b.Legal(Left) {
		t.Error("merging two 2^52 is not legal")
	}
	if s, err := b.Slide(Down); err != nil || !s.Changed {
		t.Errorf("sliding two 2^52 down: %v, %v", s, err)
	}
}

// TestPotential: a slide raises the potential by the points it gains, on
// boards of every tile size a random game reaches; and the formula on one
// board worked by hand.
func TestPotential(t *testing.T) {
	b, err := ParseBoard("2 4 . .\n8 . . .\n. . . .\n. . . 2048")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := b.Potential(), uint64(0+4+16+10*2048); got != want {
		t.Errorf("Potential = %d, want %d", got, want)
	}
	p := mustProfile(t, "tile-merge")
	g, err := NewGame(p, "potential")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; !g.Over() && i < 2000; i++ {
		d := g.LegalMoves()[i%len(g.LegalMoves())]
		before := g.Board()
		sl, err := before.Slide(d)
		if err != nil {
			t.Fatal(err)
		}
		if sl.Board.Potential()-before.Potential() != sl.Gained {
			t.Fatalf("move %d (%s) gains %d, the potential rises by %d\n%v", i, d, sl.Gained, sl.Board.Potential()-before.Potential(), before)
		}
		g.Move(d)
	}
}

// TestEmptyMask: the mask read eight cells at a time is the empty cells
// one by one, on boards of every size with every exponent (a 2, exponent
// 1, right after an empty cell included).
func TestEmptyMask(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for range 20000 {
		rows, cols := 2+rng.IntN(7), 2+rng.IntN(7)
		b, _ := NewBoard(rows, cols)
		for c := range rows * cols {
			if rng.IntN(3) > 0 {
				b.cells[c] = uint8(rng.IntN(MaxExp + 1))
			}
		}
		var want uint64
		for c := range rows * cols {
			if b.cells[c] == 0 {
				want |= 1 << c
			}
		}
		if got := b.EmptyMask(); got != want {
			t.Fatalf("%dx%d board %v: mask %064b, want %064b", rows, cols, b.cells[:rows*cols], got, want)
		}
	}
}

// TestBoardYAMLErrorAt: a board's error in YAML is placed at the row at
// fault: its item in a list of rows, its line in a block grid, and the
// grid itself when it is on one line.
func TestBoardYAMLErrorAt(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"board: [[2, 2], [2]]\n", "b.yaml:1:17: board row 2: has 1 cells; row 1 has 2"},
		{"board: |\n  2 2\n  2\n", "b.yaml:3: board row 2: has 1 cells; row 1 has 2"},
		{"board: \"2 2/2\"\n", "b.yaml:1:8: board row 2: has 1 cells; row 1 has 2"},
	}
	for _, tt := range tests {
		var v struct {
			Board Board `yaml:"board"`
		}
		if err := strictyaml.Decode("b.yaml", []byte(tt.yaml), &v); err == nil || err.Error() != tt.want {
			t.Errorf("%q: %v, want %s", tt.yaml, err, tt.want)
		}
	}
}

// TestBoardMarshalYAML: a board is written as a literal block, one row a
// line, cells separated by one space, and read back the same.
func TestBoardMarshalYAML(t *testing.T) {
	b := mustBoard(t, "2 . . 1024/. 16 . ./. . . ./4 . . 2")
	out, err := yaml.Marshal(struct {
		Board Board `yaml:"board"`
	}{b})
	if want := "board: |\n    2 . . 1024\n    . 16 . .\n    . . . .\n    4 . . 2\n"; err != nil || string(out) != want {
		t.Errorf("yaml.Marshal = %q, %v; want %q", out, err, want)
	}
	var back struct {
		Board Board `yaml:"board"`
	}
	if err := strictyaml.Decode("b.yaml", out, &back); err != nil || back.Board != b {
		t.Errorf("read back: %v, %v", back.Board, err)
	}
}
