package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/analyze"
)

// analysisJSON is what the tests read of an analysis in JSON.
type analysisJSON struct {
	Band, Statement string
	NonTrivial      int `json:"non_trivial"`
}

// runLines runs the command with args and returns the lines it prints,
// failing the test unless it exits with code and prints n lines.
func runLines(t *testing.T, code, n int, args ...string) []string {
	t.Helper()
	got, out, errOut := runCLI(t, "", args...)
	if got != code {
		t.Fatalf("exit %d: %s", got, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != n {
		t.Fatalf("%d lines: %s", len(lines), out)
	}
	return lines
}

// TestAnalyzeCommand runs tileproof analyze on a bot's replay, a short
// game and a tampered one: one JSON line a game with a band, exit 1 for
// the replay that is not valid.
func TestAnalyzeCommand(t *testing.T) {
	lines := runLines(t, exitOK, 3, "analyze", "--json", "../../replays/valid/tile-merge-2048.yaml", "../../replays/valid/online-2048-target-512.yaml", "../../replays/valid/rosetta-random.yaml")
	// Two expectimax players' games (1,867 and 261 non-trivial moves),
	// flagged; a random player's of 145, placed (the reference's minimum
	// is 100) and not flagged: random play is not a computer's strength.
	want := []string{"review|strong", "review|strong", "consistent"}
	for i, l := range lines {
		var rep analysisJSON
		if err := json.Unmarshal([]byte(l), &rep); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(strings.Split(want[i], "|"), rep.Band) || !strings.Contains(rep.Statement, "not a finding of cheating") {
			t.Errorf("line %d: band %q (want %s), statement %q", i+1, rep.Band, want[i], rep.Statement)
		}
	}
	// Cut at 80 counted moves, the expectimax game is too short to place.
	code, out, _ := runCLI(t, "", "analyze", "--json", "--max-moves", "80", "../../replays/valid/tile-merge-2048.yaml")
	if code != exitOK || !strings.Contains(out, `"band":"insufficient"`) {
		t.Errorf("a game cut at 80 moves: exit %d, %s", code, out)
	}
	code, out, errOut := runCLI(t, "", "analyze", "../../replays/tampered/move-changed.yaml")
	if code != exitFailed || out != "" || !strings.Contains(errOut, "not valid (illegal-move)") {
		t.Errorf("a tampered replay: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	bad := filepath.Join(t.TempDir(), "ref\x1b.json")
	if err := os.WriteFile(bad, []byte(`{"name":"x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "", "analyze", "--reference", bad, "../../replays/valid/tile-merge-2048.yaml")
	if code != exitBadUsage || strings.ContainsRune(errOut, 0x1b) || !strings.Contains(errOut, "heuristic") {
		t.Errorf("a bad reference: exit %d, stderr %q", code, errOut)
	}
}

// TestVerifyAnalyze: verify --analyze adds the analysis
// to a valid game's verdict (the JSON line's "analysis", a line of text),
// says why where a game cannot be analysed, and leaves an invalid game's
// verdict as it was.
func TestVerifyAnalyze(t *testing.T) {
	lines := runLines(t, exitFailed, 2, "verify", "--analyze", "--json", "../../replays/valid/tile-merge-2048.yaml", "../../replays/tampered/move-changed.yaml")
	var valid, invalid struct {
		Valid    bool
		Analysis *analysisJSON
	}
	if err := json.Unmarshal([]byte(lines[0]), &valid); err != nil {
		t.Fatal(err)
	}
	if a := valid.Analysis; !valid.Valid || a == nil || (a.Band != "review" && a.Band != "strong") || a.NonTrivial < 1000 || !strings.Contains(a.Statement, "not a finding of cheating") {
		t.Errorf("an expectimax player's game: %s", lines[0])
	}
	if err := json.Unmarshal([]byte(lines[1]), &invalid); err != nil || invalid.Valid || invalid.Analysis != nil {
		t.Errorf("a tampered game: %s (%v)", lines[1], err)
	}
	// A 3x3 game: the evaluators play 4x4 boards, and the analysis says so.
	small := filepath.Join(t.TempDir(), "small.yaml")
	if code, _, errOut := runCLI(t, "", "record", "--profile", "hallabois-v1-3x3", "--player", "random", "--seed", "x", "-o", small); code != exitOK {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	code, out, _ := runCLI(t, "", "verify", "--analyze", "--json", small)
	if code != exitOK || !strings.Contains(out, `"analysis":{"band":"insufficient","reason":"not analysable: a 3x3 board`) {
		t.Errorf("a 3x3 game: exit %d, %s", code, out)
	}
	// In text, the reason too (before 2026-12-07: "analysis: insufficient: " and nothing).
	code, out, _ = runCLI(t, "", "verify", "--analyze", small)
	if code != exitOK || !strings.Contains(out, "\n       analysis: insufficient: not analysable: a 3x3 board") {
		t.Errorf("a 3x3 game, text: exit %d, %s", code, out)
	}
	// The summary counts the bands (before 2026-12-08 a batch's flagged
	// games were found by reading every verdict).
	if !strings.Contains(out, "\nanalysis: 0 strong, 0 review, 0 consistent, 1 insufficient (not analysed, or too little to place); ") {
		t.Errorf("a 3x3 game, the summary: %s", out)
	}
	code, out, _ = runCLI(t, "", "verify", "--analyze", "../../replays/valid/tile-merge-2048.yaml")
	if code != exitOK || !strings.Contains(out, "\n       analysis: ") || !strings.Contains(out, "not a finding of cheating") {
		t.Errorf("text: exit %d, %s", code, out)
	}
	code, _, errOut := runCLI(t, "", "verify", "--analyze", "--json", "../../replays/valid/tile-merge-2048.yaml", "../../replays/tampered/move-changed.yaml")
	if code != exitFailed || !regexp.MustCompile(`\nanalysis: (1 strong, 0 review|0 strong, 1 review), 0 consistent, 0 insufficient `).MatchString(errOut) {
		t.Errorf("--json: exit %d, the summary on stderr: %s", code, errOut)
	}
}

// TestAnalyzeTextUnplaced: the text gives a dash, not a z of 0 and "above
// 0% of the reference", for a statistic the reference does not place:
// expectimax-3 (--deep), which the built-in reference does not hold, and
// small errors by the expectimax evaluators, modelled for corner-1 alone;
// and it gives the z of small errors by corner-1, which a score may be.
func TestAnalyzeTextUnplaced(t *testing.T) {
	_, out, errOut := runCLI(t, "", "analyze", "--deep", "../../replays/valid/rosetta-random.yaml")
	rows := map[string]string{}
	for l := range strings.Lines(out) {
		if f := strings.Fields(l); len(f) > 1 && f[1] == "agreement" {
			rows[f[0]] = l
		}
	}
	if len(rows) != 4 {
		t.Fatalf("%d evaluator rows: %s%s", len(rows), out, errOut)
	}
	if l := rows["expectimax-3/1"]; !strings.Contains(l, "(z -, not placed)") || strings.Contains(l, "reference games modelled)") ||
		!strings.Contains(l, "large errors") || strings.Count(l, "(z -)") != 3 {
		t.Errorf("expectimax-3, which the reference does not hold: %q", l)
	}
	if l := rows["expectimax-2/1"]; !regexp.MustCompile(`, above \d of the 3 reference games modelled\)`).MatchString(l) || !strings.Contains(l, "% (z -)  second-best") {
		t.Errorf("expectimax-2: small errors not modelled, the rest placed, against the 3 games counted: %q", l)
	}
	if l := rows["corner-1/1"]; strings.Contains(l, "(z -)") {
		t.Errorf("corner-1: every statistic placed: %q", l)
	}
}

// TestAnalyzeProfileFileShadowsBuiltin: a game verified under a profile
// file named as a built-in (tile-merge with only 4s) is not analysable,
// exit 1, and says why. Before, the analysis replayed it under the
// built-in, met an illegal move at action 14 and exited 0.
func TestAnalyzeProfileFileShadowsBuiltin(t *testing.T) {
	dir := t.TempDir()
	builtin, err := os.ReadFile("../../engine/profiles/tile-merge.yaml")
	if err != nil {
		t.Fatal(err)
	}
	fours := strings.Replace(string(builtin), "spawn: {2: 9, 4: 1}", "spawn: {4: 1}", 1)
	profile, game := filepath.Join(dir, "fours.yaml"), filepath.Join(dir, "game.yaml")
	if fours == string(builtin) || os.WriteFile(profile, []byte(fours), 0o644) != nil {
		t.Fatal("cannot write the profile")
	}
	if code, _, errOut := runCLI(t, "", "record", "--profile", profile, "--player", "expectimax", "--seed", "a", "--max-moves", "200", "-o", game); code != exitOK {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "", "analyze", "--profile", profile, game)
	if code != exitFailed || out != "" || !strings.Contains(errOut, "not analysable: the game does not replay under the built-in profile tile-merge") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestAnalyzeProfileFileSpawnWeights: a spawn-recorded game under a
// profile file named as a built-in that differs from it in its spawn
// weights alone (tile-merge with 2s and 4s alike) is not analysable:
// analyze exits 1 and says why, verify --analyze gives the reason as the
// analysis. Before, it replayed under the built-in to the same end and
// was analysed as the built-in weighs its spawns, exit 0. The built-in's
// own file is analysed.
func TestAnalyzeProfileFileSpawnWeights(t *testing.T) {
	dir := t.TempDir()
	builtin, err := os.ReadFile("../../engine/profiles/tile-merge.yaml")
	if err != nil {
		t.Fatal(err)
	}
	even := strings.Replace(string(builtin), "spawn: {2: 9, 4: 1}", "spawn: {2: 1, 4: 1}", 1)
	if even == string(builtin) {
		t.Fatal("no spawn weights to change")
	}
	want := "not analysable: the game's profile tile-merge, as the verifier knows it (a profile file of that name), is not the built-in one, the only rules the evaluators know: its spawn weights differ"
	for _, c := range []struct {
		name, profile string
		analysable    bool
	}{{"even", even, false}, {"same", string(builtin), true}} {
		profile, game := filepath.Join(dir, c.name+".yaml"), filepath.Join(dir, c.name+"-game.yaml")
		if err := os.WriteFile(profile, []byte(c.profile), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, errOut := runCLI(t, "", "record", "--profile", profile, "--player", "expectimax", "--seed", "a", "--max-moves", "200", "--spawns", "-o", game); code != exitOK {
			t.Fatalf("record: exit %d: %s", code, errOut)
		}
		code, out, errOut := runCLI(t, "", "analyze", "--json", "--profile", profile, game)
		switch {
		case c.analysable && (code != exitOK || strings.Count(out, "\n") != 1 || !strings.Contains(out, `"non_trivial":`)):
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want analysed", c.name, code, out, errOut)
		case !c.analysable && (code != exitFailed || out != "" || !strings.Contains(errOut, want)):
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want not analysable", c.name, code, out, errOut)
		}
		code, out, _ = runCLI(t, "", "verify", "--analyze", "--json", "--profile", profile, game)
		if code != exitOK || !c.analysable && !strings.Contains(out, `"analysis":{"band":"insufficient","reason":"`+want) || c.analysable && !strings.Contains(out, `"analysis":{"name":`) {
			t.Errorf("%s: verify --analyze: exit %d, %s", c.name, code, out)
		}
	}
}

// TestAnalyzeMaxMovesTileBand: with --max-moves the game is placed in
// the band of the largest tile of the moves analysed. A game to 4096 cut
// at 300 moves (512 by then) against a reference of games up to 1024 is
// placed, and its report says the tile it was placed by. Before, the
// band read the game's 4096: insufficient, "the reference holds 0 games
// ... whose largest tile is 2048 and above".
func TestAnalyzeMaxMovesTileBand(t *testing.T) {
	small := editedReference(t, func(ref map[string]any) {
		ref["games"] = slices.DeleteFunc(ref["games"].([]any), func(g any) bool { return g.(map[string]any)["max_tile"].(float64) > 1024 })
	})
	game := "../../replays/valid/tile-merge-4096.yaml"
	lines := runLines(t, exitOK, 1, "analyze", "--json", "--no-clairvoyance", "--reference", small, "--max-moves", "300", game)
	var rep struct {
		Band            string
		MaxTile         uint64 `json:"max_tile"`
		AnalysedMaxTile uint64 `json:"analysed_max_tile"`
		Reasons         []string
	}
	if err := json.Unmarshal([]byte(lines[0]), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Band == "insufficient" || rep.MaxTile != 4096 || rep.AnalysedMaxTile != 512 {
		t.Errorf("band %s (%q), largest tile %d, by the 300th move %d; want placed, 4096, 512", rep.Band, rep.Reasons, rep.MaxTile, rep.AnalysedMaxTile)
	}
	_, out, _ := runCLI(t, "", "analyze", "--no-clairvoyance", "--reference", small, "--max-moves", "300", game)
	if want := "4189 counted moves, largest tile 4096; analysed 300 (largest tile by then 512): "; !strings.Contains(out, want) {
		t.Errorf("text: %s\nwant %q", out, want)
	}
}

// TestAnalyzeReportNotJSON: a report JSON cannot hold (a figure NaN or
// infinite) is an error on stderr naming the game, and the run fails
// (exit 2), for analyze --json, analyze --build-reference and verify
// --analyze, whose verdict carries the reason. No input makes one on a
// 64-bit build today (on a 386 build a --reference whose games' moves
// sum past an int's range does: a NaN z); the seam is the report.
// Before, the error was dropped: an empty line, no analysis, exit 0.
func TestAnalyzeReportNotJSON(t *testing.T) {
	var out, errOut bytes.Buffer
	c := &cli{stdout: &out, stderr: &errOut}
	rep := &analyze.GameReport{Name: "g\x1b.yaml", Band: analyze.Review, Score: math.NaN()}
	if code := c.writeAnalysis(&out, "g\\x1b.yaml", rep, true); code != exitBadUsage || out.Len() != 0 ||
		errOut.String() != "tileproof: analyze: g\\x1b.yaml: the report cannot be written as JSON: json: unsupported value: NaN\n" {
		t.Errorf("analyze --json: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	rep.Score = 3
	errOut.Reset()
	if code := c.writeAnalysis(&out, "g.yaml", rep, true); code != exitOK || !json.Valid(out.Bytes()) || !strings.HasSuffix(out.String(), "}\n") || errOut.Len() != 0 {
		t.Errorf("a report JSON holds: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}

	out.Reset()
	builtin, err := analyze.BuiltinReference()
	if err != nil {
		t.Fatal(err)
	}
	ref := analyze.BuildReference("mine", "test", []*analyze.GameReport{rep}, builtin)
	ref.ReviewZ = math.Inf(1)
	if code := c.writeReference(&out, "mine", ref); code != exitBadUsage || out.Len() != 0 ||
		errOut.String() != "tileproof: analyze: --build-reference mine: the reference cannot be written as JSON: json: unsupported value: +Inf\n" {
		t.Errorf("--build-reference: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}

	errOut.Reset()
	var x verdictExtras
	if got := x.analysisOf("g.yaml", rep, nil); !json.Valid(got) || !strings.HasPrefix(string(got), `{"name":"g\u001b.yaml"`) || x.reportUnwritten(&errOut, "verify") || errOut.Len() != 0 {
		t.Errorf("verify --analyze, a report JSON holds: %s, stderr %q", got, errOut.String())
	}
	rep.Evaluators = []analyze.EvalStats{{Evaluator: "e", Z: math.Inf(-1)}}
	got := x.analysisOf("g\x1b.yaml", rep, nil)
	if want := `{"band":"insufficient","reason":"the analysis cannot be written as JSON: json: unsupported value: -Inf"}`; string(got) != want {
		t.Errorf("verify --analyze: the verdict's analysis %s, want %s", got, want)
	}
	if !x.reportUnwritten(&errOut, "verify") || errOut.String() != "tileproof: verify: g\\x1b.yaml: the analysis cannot be written as JSON: json: unsupported value: -Inf\n" {
		t.Errorf("verify --analyze: stderr %q", errOut.String())
	}
}

// TestAnalyzeTextNotJudged: a game the reference cannot judge (moves
// taken back by undo) says so above its figures, which a reader could
// take for scores; a placed game does not. A z that rounds to 0 is 0.0,
// never -0.0.
func TestAnalyzeTextNotJudged(t *testing.T) {
	const line = "  not judged: the figures below are for a reader, and no threshold reads them\n"
	_, out, errOut := runCLI(t, "", "analyze", "../../replays/valid/online-2048-undo-end-run.yaml", "../../replays/valid/classic-2048.yaml")
	undo, placed, ok := strings.Cut(out, "\n../../replays/valid/classic-2048.yaml: ")
	games := []string{undo, placed}
	if !ok || !strings.Contains(games[0], "insufficient ("+analyze.BandText(analyze.Insufficient)+")\n") {
		t.Fatalf("not the two games, the undo one insufficient:\n%s%s", out, errOut)
	}
	if !strings.Contains(games[0], line) || strings.Contains(games[1], line) {
		t.Errorf("the not-judged line on the undo game %v, on the placed one %v:\n%s", strings.Contains(games[0], line), strings.Contains(games[1], line), out)
	}
	for _, z := range []float64{-0.04, 0.04, -0.05001} {
		if got, want := zText(z), map[bool]string{true: "0.0", false: "-0.1"}[z > -0.05]; got != want {
			t.Errorf("zText(%v) = %q, want %q", z, got, want)
		}
	}
}

// editedReference writes the shipped reference (analyze/data) with edit
// applied to its JSON to a file of the test's, and returns its name.
func editedReference(t *testing.T, edit func(ref map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile("../../analyze/data/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref map[string]any
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	edit(ref)
	file := filepath.Join(t.TempDir(), "ref.json")
	if data, err = json.Marshal(ref); err != nil || os.WriteFile(file, data, 0o644) != nil {
		t.Fatal("cannot write the reference")
	}
	return file
}
