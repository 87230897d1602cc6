package conformance

import (
	"bytes"
	"encoding/xml"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/strictyaml"
)

func loadRepoPack(t testing.TB) *Pack {
	t.Helper()
	pack, err := LoadPack(os.DirFS("../cases"))
	if err != nil {
		t.Fatal(err)
	}
	return pack
}

// TestPackAgainstEngine is `tileproof cases lint` as a test: every case of
// cases/ passes against the engine, whatever the random spawns.
func TestPackAgainstEngine(t *testing.T) {
	pack := loadRepoPack(t)
	if len(pack.Cases) < 80 {
		t.Errorf("the pack has %d cases", len(pack.Cases))
	}
	for _, p := range Lint(pack) {
		t.Error(p)
	}
}

// pastIntNA is how many of the pack's runs a build finds not applicable
// for a move count past its int: none where int has 64 bits; where it has
// 32 (386, arm), the one case at 2^53-1 moves, under its six profiles.
const pastIntNA = (64 - strconv.IntSize) / 32 * 6

// pastIntReason is the reason they are not applicable.
const pastIntReason = "not applicable: the move count 9007199254740991 is past 2^31-1, the most a 32-bit build of tileproof counts (the suite's limit, not the implementation's)"

// TestBuiltinPassesAll runs the embedded pack and the properties against
// the engine through TestImpl.
func TestBuiltinPassesAll(t *testing.T) {
	TestImpl(t, &Builtin{}, Options{Properties: true})
}

func TestImportPGS(t *testing.T) {
	data, err := os.ReadFile("testdata/pgs-2048.json")
	if err != nil {
		t.Fatal(err)
	}
	p, caseYAML, err := ImportPGS(data, "pgs", "PGS 2048 skeleton, testCases")
	if err != nil {
		t.Fatal(err)
	}
	builtin, _ := engine.BuiltinProfile("pgs")
	if p.Rows != builtin.Rows || p.Cols != builtin.Cols || p.Win != builtin.Win || p.Illegal != builtin.Illegal ||
		p.OpenEnded != builtin.OpenEnded || len(p.Spawn) != 2 || p.Spawn[0] != builtin.Spawn[0] || p.Spawn[1] != builtin.Spawn[1] {
		t.Errorf("imported profile %+v\ndiffers from the built-in pgs profile %+v", p, builtin)
	}
	imported, err := parseCases("pgs/testcases.yaml", caseYAML)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := parseCases("pgs/testcases.yaml", mustRead(t, "../cases/pgs/testcases.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, c := range imported {
		ids = append(ids, c.ID)
		if c.ID != committed[i].ID || len(c.Steps) != len(committed[i].Steps) || *c.Start.Board != *committed[i].Start.Board {
			t.Errorf("case %d: imported %s differs from cases/pgs/testcases.yaml's %s", i, c.ID, committed[i].ID)
		}
	}
	want := "tc_basic_slide_merge tc_slide_no_merge tc_merge_once_per_slide tc_game_over_detection tc_win_condition"
	if strings.Join(ids, " ") != want {
		t.Errorf("imported ids %v, want %s", ids, want)
	}
	if _, _, err := ImportPGS([]byte(`{"rules":{"spawn_new_tile":{"values":[2],"weights":[-1]}}}`), "x", "y"); err == nil {
		t.Error("a negative weight was imported")
	}
	if w, err := integerWeights([]float64{0.9, 0.1}); err != nil || w[0] != 9 || w[1] != 1 {
		t.Errorf("integerWeights(0.9, 0.1) = %v, %v", w, err)
	}
	if w, err := integerWeights([]float64{0.5, 0.25, 0.25}); err != nil || w[0] != 2 || w[1] != 1 || w[2] != 1 {
		t.Errorf("integerWeights(0.5, 0.25, 0.25) = %v, %v", w, err)
	}
}

func mustRead(t testing.TB, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParseCasesErrors(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"source: x\nprofiles: [all]\ncases:\n  - id: a\n    start: {board: \"2 2\\n. .\"}\n    steps: [{move: sideways}]\n", `c.yaml:6:20: unknown direction "sideways"`},
		{"source: x\nprofiles: [all]\ncases:\n  - id: a\n    start: {board: \"2 2\\n. .\"}\n    steps: [{move: left, expect: {colour: red}}]\n", `c.yaml:6:35: unknown field "colour"`},
		{"source: x\nprofiles: [all]\ncases:\n  - id: a\n    start: {board: \"2 3\\n. .\"}\n    steps: [{move: left}]\n", "c.yaml:5:20: board row 1, column 2: 3 is not a power of two"},
		{"profiles: [all]\ncases:\n  - id: a\n    start: {board: \"2 2\\n. .\"}\n    steps: [{move: left}]\n", "c.yaml:3:5: case a names no source"},
		{"source: x\nprofiles: [all]\ncases:\n  - id: A b\n    start: {board: \"2 2\\n. .\"}\n    steps: [{move: left}]\n", `c.yaml:4:5: case id "A b"`},
		{"source: x\nprofiles: [all]\ncases:\n  - id: a\n    start: {board: \"2 2\\n. .\"}\n    steps: [{move: left, expect: {error: oops}}]\n", `error "oops" is not one of`},
		{"source: x\nprofiles: [all]\ncases:\n  - id: a\n    needs: [telepathy]\n    start: {board: \"2 2\\n. .\"}\n    steps: [{move: left}]\n", `unknown feature "telepathy"`},
		{"source: x\nprofiles: [all]\ncases:\n  - id: a\n    start: {seed: \"7\", board: \"2 2\\n. .\"}\n    steps: [{move: left}]\n", "start needs a board or a seed (one of them)"},
		{"source: x\ncases: []\n", "c.yaml:2:1: no cases"},
	}
	for _, tt := range tests {
		_, err := parseCases("c.yaml", []byte(tt.yaml))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseCases(%q) = %v, want an error containing %q", tt.yaml, err, tt.want)
		}
	}
	c, err := parseCases("core/c.yaml", []byte("source: x\nprofiles: [classic]\ncases:\n  - id: a\n    start: {board: \"2 2 2\\n. . .\"}\n    steps: [{action: undo}, {move: left, spawn: {row: 0, col: 2, value: 2}}]\n"))
	if err != nil || strings.Join(c[0].Features, " ") != "force-spawn load-state size:2x3 undo" || c[0].Name() != "core/a" {
		t.Errorf("needs %v, name %s, %v", c[0].Features, c[0].Name(), err)
	}
}

func FuzzParseCases(f *testing.F) {
	for _, file := range []string{"../cases/core/merge-once.yaml", "../cases/pgs/testcases.yaml"} {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(string(data))
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		cases, err := parseCases("f.yaml", []byte(text))
		if err != nil {
			var list strictyaml.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %v (%T) is not an ErrorList", err, err)
			}
			return
		}
		for _, c := range cases {
			if c.ID == "" || len(c.Steps) == 0 || c.Source == "" {
				t.Fatalf("accepted a case without id, steps or source: %+v", c)
			}
		}
	})
}

func TestLoadPackErrors(t *testing.T) {
	fsys := fstest.MapFS{
		"pack.yaml":   {Data: []byte("name: p\nversion: 1\ncontract: 2\n")},
		"core/a.yaml": {Data: []byte("x")},
	}
	if _, err := LoadPack(fsys); err == nil || !strings.Contains(err.Error(), "pack.yaml:3:1: the pack is written for rules contract 2; this runner knows contract 1 only") {
		t.Errorf("contract 2: %v", err)
	}
	c := []byte("source: s\nprofiles: [all]\ncases:\n  - id: same\n    start: {board: \"2 2\\n. .\"}\n    steps: [{move: left}]\n")
	fsys = fstest.MapFS{"pack.yaml": {Data: []byte("name: p\nversion: 1\ncontract: 1\n")}, "a/x.yaml": {Data: c}, "b/y.yaml": {Data: c}}
	if _, err := LoadPack(fsys); err == nil || !strings.Contains(err.Error(), `b/y.yaml:4: case id "same" is also used in a/x.yaml:4`) {
		t.Errorf("duplicate id: %v", err)
	}
}

// TestReports checks the JSON report reads back, the baseline comparison,
// the JUnit XML, and the summary per area.
func TestReports(t *testing.T) {
	pack := loadRepoPack(t)
	rep, err := Run(t.Context(), pack, &Builtin{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rep.WriteJSON(&buf)
	base, err := ReadReport(&buf)
	if err != nil {
		t.Fatal(err)
	}
	// Make one result fail, as if the implementation had regressed, and
	// another pass that had failed.
	worse := *rep
	worse.Results = append([]CaseResult(nil), rep.Results...)
	worse.Results[0].Status = BoardDiverged
	base.Results[1].Status = ScoreDiverged
	regressions, fixes, _ := worse.compare(base)
	if len(regressions) != 1 || regressions[0].Key != rep.Results[0].Key() || len(fixes) != 1 || fixes[0].Key != rep.Results[1].Key() {
		t.Errorf("regressions %v, fixes %v", regressions, fixes)
	}
	buf.Reset()
	if err := worse.WriteJUnit(&buf); err != nil {
		t.Fatal(err)
	}
	var suites junitSuites
	if err := xml.Unmarshal(buf.Bytes(), &suites); err != nil || suites.Fails != 1 || suites.Tests != len(rep.Results) {
		t.Errorf("JUnit: %d tests, %d failures, %v", suites.Tests, suites.Fails, err)
	}
	areas, total := worse.Summaries()
	if total.Failed != 1 || total.Passed != len(rep.Results)-1-pastIntNA || total.NotApplicable != pastIntNA || len(areas) < 5 {
		t.Errorf("summaries %+v %+v", areas, total)
	}
	// An expected failure does not fail the run; a case expected to fail
	// that passes is an unexpected pass.
	rep2, _ := Run(t.Context(), pack, &Builtin{}, Options{Expectations: map[string]string{rep.Results[0].Case: "known"}})
	failed, xpass := rep2.Failures()
	if len(failed) != 0 || len(xpass) == 0 {
		t.Errorf("failed %v, unexpected passes %v", failed, xpass)
	}
}
