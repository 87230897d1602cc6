package hallabois

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/internal/strictyaml"
)

var update = flag.Bool("update", false, "rewrite the generated recordings of testdata")

// generatedRecordings are the testdata recordings the greedy player of
// gen_test.go makes: the games with breaks, too long to write by hand.
var generatedRecordings = []struct {
	file string
	make func() string
}{
	{"v1-4x4-break.txt", func() string {
		steps, final := playGame(4, 4, 4, &ClassicV1, 150, func(b Grid, score uint64, breaks int) bool {
			return breaks == 0 && score >= 1000 && b.Empty() <= 2
		})
		return toV1(4, 4, steps, final).String()
	}},
	{"v1-4x4-break-after-end.txt", func() string {
		steps, final := playGame(4, 4, 3, &ClassicV1, 195, func(b Grid, score uint64, breaks int) bool {
			return breaks == 0 && score >= 1000 && !b.HasMoves()
		})
		return toV1(4, 4, steps, final).String()
	}},
	{"v2-3x3-break.txt", func() string {
		steps, _ := playGame(3, 3, 4, &ClassicV2, 100, func(b Grid, score uint64, breaks int) bool {
			return breaks == 0 && score >= 500 && b.Empty() <= 1 && b.HasMoves()
		})
		return toV2(3, 3, 4, steps).String()
	}},
	{"v2-3x3-break-after-end.txt", func() string {
		steps, _ := playGame(3, 3, 4, &ClassicV2, 100, func(b Grid, score uint64, breaks int) bool {
			return score >= 500 && !b.HasMoves()
		})
		return toV2(3, 3, 4, steps).String()
	}},
	{"v2-4x4-four-breaks.txt", func() string {
		steps, _ := playGame(4, 4, 4, &ClassicV2, 2000, func(b Grid, score uint64, breaks int) bool {
			return score >= 1000 && b.Empty() == 0 && b.HasMoves()
		})
		return toV2(4, 4, 4, steps).String()
	}},
}

// TestTestdataGenerated checks that the generated recordings are what the
// player makes (or, with -update, writes them).
func TestTestdataGenerated(t *testing.T) {
	for _, g := range generatedRecordings {
		path := filepath.Join("testdata", g.file)
		want := g.make()
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, []byte(want)) {
			t.Errorf("%s is not what gen_test.go makes; go test -run TestTestdataGenerated -update rewrites it", path)
		}
	}
}

// expected is one recording of testdata/recordings.yaml and the verdict the
// peer's rules give it.
type expected struct {
	File     string   `yaml:"file"`
	Source   string   `yaml:"source"`
	Valid    bool     `yaml:"valid"`
	Problem  string   `yaml:"problem"` // "AT KIND"
	Score    uint64   `yaml:"score"`
	ScoreEnd *uint64  `yaml:"scoreEnd"` // absent: the same as score
	Margin   uint64   `yaml:"margin"`
	Breaks   int      `yaml:"breaks"`
	BreakAt  []int    `yaml:"breakAt"`
	Moves    int      `yaml:"moves"`
	Won      bool     `yaml:"won"`
	Over     bool     `yaml:"over"`
	Findings []string `yaml:"findings"` // "AT KIND", in any order
}

func readManifest(t *testing.T) []expected { return readList[expected](t, "testdata/recordings.yaml") }

// readList reads a YAML file that is a list of T, strictly.
func readList[T any](t *testing.T, file string) []T {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var list []T
	if err := strictyaml.Decode(file, data, &list); err != nil {
		t.Fatal(err)
	}
	return list
}

// TestRecordings gives every recording of testdata the verdict its
// manifest states, and checks that the manifest lists every file.
func TestRecordings(t *testing.T) {
	m := readManifest(t)
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, e := range m {
		listed[e.File] = true
		if e.Source == "" {
			t.Errorf("%s: the manifest does not name its source", e.File)
		}
		t.Run(e.File, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", e.File))
			if err != nil {
				t.Fatal(err)
			}
			rec, err := Parse(e.File, data)
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, rec.Validate(), e)
		})
	}
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			t.Errorf("%s is not in testdata/recordings.yaml", f)
		}
	}
}

// checkResult compares a verdict with what is expected of it.
func checkResult(t *testing.T, got Validation, want expected) {
	t.Helper()
	problem := ""
	if got.Problem != nil {
		problem = fmt.Sprintf("%d %s", got.Problem.At, got.Problem.Kind)
	}
	if got.Valid != want.Valid || problem != want.Problem {
		t.Errorf("valid %v, problem %q (%v); want valid %v, problem %q", got.Valid, problem, got.Problem, want.Valid, want.Problem)
	}
	scoreEnd := want.Score
	if want.ScoreEnd != nil {
		scoreEnd = *want.ScoreEnd
	}
	type figures struct {
		Score, ScoreEnd, Margin uint64
		Breaks                  int
		BreakAt                 []int
		Moves                   int
		Won, Over               bool
	}
	g := figures{got.Score, got.ScoreEnd, got.Margin, got.Breaks, got.BreakAt, got.Moves, got.Won, got.Over}
	w := figures{want.Score, scoreEnd, want.Margin, want.Breaks, want.BreakAt, want.Moves, want.Won, want.Over}
	if len(g.BreakAt) == 0 {
		g.BreakAt = nil
	}
	if fmt.Sprint(g) != fmt.Sprint(w) {
		t.Errorf("figures %+v; want %+v", g, w)
	}
	var found []string
	for _, f := range got.Findings {
		found = append(found, fmt.Sprintf("%d %s", f.At, f.Kind))
	}
	slices.Sort(found)
	wantF := slices.Sorted(slices.Values(want.Findings))
	if strings.Join(found, ", ") != strings.Join(wantF, ", ") {
		t.Errorf("findings %q; want %q", found, wantF)
	}
}
