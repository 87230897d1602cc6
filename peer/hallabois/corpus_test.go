package hallabois

import (
	"bufio"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/internal/plain"
)

// corpusPath returns where the peer's recorded games are:
// $TILEPROOF_HALLABOIS_DIR, or ../shared/hallabois beside the module.
func corpusPath() string {
	if dir := os.Getenv("TILEPROOF_HALLABOIS_DIR"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "..", "shared", "hallabois")
}

// corpusDir returns the folder of the peer's recorded games; without it
// the test skips, unless TILEPROOF_HALLABOIS=required.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := corpusPath()
	if _, err := os.Stat(filepath.Join(dir, "v1")); err != nil {
		if os.Getenv("TILEPROOF_HALLABOIS") == "required" {
			t.Fatalf("the peer's corpus is not at %s (TILEPROOF_HALLABOIS=required): %v", dir, err)
		}
		t.Skipf("the peer's corpus is not at %s; set TILEPROOF_HALLABOIS_DIR to its folder (TILEPROOF_HALLABOIS=required makes this a failure)", dir)
	}
	return dir
}

// corpusGame is one game of testdata/corpus.yaml and what the peer's tests
// state about it.
type corpusGame struct {
	File        string  `yaml:"file"`
	Source      string  `yaml:"source"`
	Valid       bool    `yaml:"valid"`
	ProblemKind string  `yaml:"problemKind"`
	Score       *uint64 `yaml:"score"`
	ScoreEnd    *uint64 `yaml:"scoreEnd"`
	ScoreAtMost *uint64 `yaml:"scoreAtMost"`
	Breaks      *int    `yaml:"breaks"`
	Won         *bool   `yaml:"won"`
	Over        *bool   `yaml:"over"`
}

// corpusFile reads the file of the peer's corpus at the path of elem
// below its directory, and returns its path too.
func corpusFile(tb testing.TB, elem ...string) (string, []byte) {
	tb.Helper()
	path := filepath.Join(append([]string{corpusDir(tb)}, elem...)...)
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return path, data
}

// corpusGames reads testdata/corpus.yaml: the verdicts the peer's tests
// state for the games of its corpus.
func corpusGames(t *testing.T) []corpusGame { return readList[corpusGame](t, "testdata/corpus.yaml") }

// TestCorpus gives every game of the peer's corpus the verdict its tests
// state, and checks that testdata/corpus.yaml lists every game there.
func TestCorpus(t *testing.T) {
	dir, games := corpusDir(t), corpusGames(t)
	files, _ := filepath.Glob(filepath.Join(dir, "v[12]", "*.txt"))
	listed := map[string]bool{}
	for _, g := range games {
		listed[g.File] = true
	}
	for _, f := range files {
		if rel, _ := filepath.Rel(dir, f); !listed[filepath.ToSlash(rel)] {
			t.Errorf("%s is not in testdata/corpus.yaml", f)
		}
	}
	for _, g := range games {
		t.Run(g.File, func(t *testing.T) {
			path, data := corpusFile(t, g.File)
			rec, err := Parse(path, data)
			if err != nil {
				t.Fatal(err)
			}
			res := rec.Validate()
			t.Logf("valid %v, score %d, at the end %d, margin %d, breaks %d at %v, %d moves, won %v, over %v (%s)",
				res.Valid, res.Score, res.ScoreEnd, res.Margin, res.Breaks, res.BreakAt, res.Moves, res.Won, res.Over, g.Source)
			if res.Valid != g.Valid {
				t.Fatalf("valid %v (%v); %s says %v", res.Valid, res.Problem, g.Source, g.Valid)
			}
			if !g.Valid {
				if res.Problem.Kind != g.ProblemKind {
					t.Errorf("problem %v; want the kind %s", res.Problem, g.ProblemKind)
				}
				return
			}
			for _, c := range []struct {
				name      string
				got, want uint64
				stated    bool
			}{
				{"score", res.Score, deref(g.Score), g.Score != nil},
				{"score at the end", res.ScoreEnd, deref(g.ScoreEnd), g.ScoreEnd != nil},
				{"breaks", uint64(res.Breaks), uint64(deref(g.Breaks)), g.Breaks != nil},
			} {
				if c.stated && c.got != c.want {
					t.Errorf("%s %d; %s says %d", c.name, c.got, g.Source, c.want)
				}
			}
			if g.ScoreAtMost != nil && res.Score > *g.ScoreAtMost+res.Margin {
				t.Errorf("score %d is above %d + the margin %d", res.Score, *g.ScoreAtMost, res.Margin)
			}
			if g.Won != nil && res.Won != *g.Won || g.Over != nil && res.Over != *g.Over {
				t.Errorf("won %v, over %v; %s says %v, %v", res.Won, res.Over, g.Source, deref(g.Won), deref(g.Over))
			}
			if rec.V1 != nil && res.Breaks == 0 {
				checkPotential(t, rec.V1, res)
			}
		})
	}
}

func deref[T any](p *T) (v T) {
	if p != nil {
		v = *p
	}
	return v
}

// checkPotential checks a break-free first-format game's score without
// replaying it: a merge of two tiles 2^e makes 2^(e+1) points, what it adds
// to the board's potential, the sum of (e-1)*2^e over its tiles 2^e. So
// the score is the potential of the board after the last move less that of
// the first board and of every spawned tile (4 for a 4, 0 for a 2). The
// last move is played by internal/plain, tileproof's plain implementation.
func checkPotential(t *testing.T, rec *V1, res Validation) {
	t.Helper()
	last := rec.Entries[len(rec.Entries)-1]
	final := last.Board
	if last.Dir.IsMove() {
		rows := make(plain.Cells, final.H)
		for y := range rows {
			rows[y] = final.Cells[y*final.W : (y+1)*final.W]
		}
		next, _, _ := plain.Move(rows, "URDL"[last.Dir])
		final = Grid{final.W, final.H, nil}
		for _, row := range next {
			final.Cells = append(final.Cells, row...)
		}
	}
	want := potential(final) - potential(rec.Entries[0].Board)
	for _, e := range rec.Entries[:len(rec.Entries)-1] {
		if e.Spawn != nil {
			want -= potential(Grid{1, 1, []uint64{e.Spawn.Value}})
		}
	}
	if res.ScoreEnd != want {
		t.Errorf("score %d; the potentials of the boards and spawns give %d", res.ScoreEnd, want)
	}
}

func potential(b Grid) uint64 {
	var p uint64
	for _, v := range b.Cells {
		if v > 1 {
			p += uint64(bits.TrailingZeros64(v)-1) * v
		}
	}
	return p
}

// TestCorpusCommentedState checks the replay of Ni4FIRM_commented.txt
// against the final state its comment states, as the peer printed it:
// the score, the generator's state, breaks, moves, over, won and the board.
func TestCorpusCommentedState(t *testing.T) {
	path, data := corpusFile(t, "v2", "Ni4FIRM_commented.txt")
	rec, err := ParseV2(path, data)
	if err != nil {
		t.Fatal(err)
	}
	res := ValidateV2(rec)
	stated := map[string]string{}
	var board []string
	sc := bufio.NewScanner(strings.NewReader(rec.Comment))
	inBoard := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.Contains(line, "BOARD"):
			inBoard = true
		case strings.HasPrefix(line, "---"):
			inBoard = false
		case inBoard && strings.TrimSpace(line) != "":
			board = append(board, strings.Join(strings.Fields(line), " "))
		case !inBoard:
			if k, v, ok := strings.Cut(line, ": "); ok {
				stated[k] = v
			}
		}
	}
	got := map[string]string{
		"Score":     strconv.FormatUint(res.ScoreEnd, 10),
		"RNG state": strconv.FormatUint(uint64(res.RNG), 10),
		"Breaks":    strconv.Itoa(res.Breaks),
		"Moves":     strconv.Itoa(len(rec.Moves)),
		"Over":      strconv.FormatBool(res.Over),
		"Won":       strconv.FormatBool(res.Won),
	}
	for k, v := range got {
		if stated[k] != v {
			t.Errorf("%s: %s; the comment states %q", k, v, stated[k])
		}
	}
	if want, have := strings.Join(board, "\n")+"\n", strings.ReplaceAll(res.Board.String(), ".", "0"); have != want {
		t.Errorf("the board at the end:\n%swhere the comment states\n%s", have, want)
	}
}

// BenchmarkCorpusLongest reads and validates the corpus's longest game,
// GAME4X4BIG (4,276 entries), and each of the two alone.
func BenchmarkCorpusLongest(b *testing.B) {
	path, data := corpusFile(b, "v1", "GAME4X4BIG.txt")
	rec, err := ParseV1(path, data)
	if err != nil {
		b.Fatal(err)
	}
	benchStages(b,
		stage{"read+validate", func() error {
			rec, err := ParseV1(path, data)
			if err != nil {
				return err
			}
			return validV1(rec)
		}},
		stage{"read", func() error { _, err := ParseV1(path, data); return err }},
		stage{"validate", func() error { return validV1(rec) }})
}

// validV1 validates rec: nil when valid, else the problem.
func validV1(rec *V1) error {
	if res := ValidateV1(rec); !res.Valid {
		return res.Problem
	}
	return nil
}

// stage is a step a benchmark measures: its name and one run of it.
type stage struct {
	name string
	run  func() error
}

// benchStages measures each stage in a sub-benchmark of its name.
func benchStages(b *testing.B, stages ...stage) {
	for _, s := range stages {
		b.Run(s.name, func(b *testing.B) {
			for b.Loop() {
				if err := s.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
