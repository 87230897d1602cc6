package htmlview

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// decodeBoard reads a board string of the embedded data, independently
// of boardCode: exponents up to 35 are base-36 digits.
func decodeBoard(t *testing.T, code string, cols int) [][]uint64 {
	t.Helper()
	var rows [][]uint64
	for i, ch := range code {
		e, err := strconv.ParseUint(string(ch), 36, 8)
		if err != nil {
			t.Fatalf("board %q: %v", code, err)
		}
		if i%cols == 0 {
			rows = append(rows, nil)
		}
		v := uint64(0)
		if e > 0 {
			v = 1 << e
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], v)
	}
	return rows
}

// TestFramesEmbedded checks that the data a viewer page embeds is the
// game frame by frame: board, score, counted moves, points, the action,
// the tile that appeared, won and the result, for a long seeded game, a
// spawn-recorded one and one with undo and End run.
func TestFramesEmbedded(t *testing.T) {
	for _, name := range []string{"valid/tile-merge-4096.yaml", "valid/tile-merge-spawns.yaml", "valid/online-2048-undo-end-run.yaml", "valid/classic-keep-playing.yaml"} {
		t.Run(name, func(t *testing.T) {
			g := load(t, name)
			d := embedded(t, page(t, g))
			n := len(g.Frames)
			if len(d.Board) != n || len(d.Score) != n || len(d.Moves) != n || len(d.Gained) != n || len(d.Act) != n ||
				len(d.Spawn) != n || len(d.Won) != n || len(d.Result) != n {
				t.Fatalf("%d frames; the data has %d boards, %d scores, %d moves, %d gained, %d actions, %d spawns, %d won, %d results",
					n, len(d.Board), len(d.Score), len(d.Moves), len(d.Gained), len(d.Act), len(d.Spawn), len(d.Won), len(d.Result))
			}
			if n != len(g.Replay.Actions)+1 || n < 100 {
				t.Fatalf("%d frames for %d actions", n, len(g.Replay.Actions))
			}
			if d.Div != nil {
				t.Errorf("a valid replay with a divergence: %+v", d.Div)
			}
			for i, f := range g.Frames {
				if got, want := decodeBoard(t, d.Board[i], d.Cols), f.Board.Values(); !slices.EqualFunc(got, want, slices.Equal) {
					t.Fatalf("frame %d: board %v, want %v", i, got, want)
				}
				if d.Score[i] != f.Score || d.Moves[i] != f.Moves || d.Gained[i] != f.Gained {
					t.Fatalf("frame %d: score %d moves %d gained %d, want %d %d %d", i, d.Score[i], d.Moves[i], d.Gained[i], f.Score, f.Moves, f.Gained)
				}
				wantAct := byte('-')
				if i > 0 {
					wantAct = g.Replay.Actions[i-1].Letter()
				}
				if d.Act[i] != wantAct {
					t.Fatalf("frame %d: action %c, want %c", i, d.Act[i], wantAct)
				}
				var sp [2]uint64
				if f.Spawn != nil {
					sp = [2]uint64{uint64(f.Spawn.Row*d.Cols + f.Spawn.Col), f.Spawn.Value}
				}
				if d.Spawn[i] != sp {
					t.Fatalf("frame %d: spawn %v, want %v", i, d.Spawn[i], sp)
				}
				if (d.Won[i] == '1') != f.Won || d.Results[d.Result[i]-'0'] != f.Result.String() {
					t.Fatalf("frame %d: won %c result %c, want %v %v", i, d.Won[i], d.Result[i], f.Won, f.Result)
				}
			}
			// The last frame is the verdict's game.
			last := n - 1
			if d.Score[last] != g.Verdict.Score || d.Moves[last] != g.Verdict.Moves {
				t.Errorf("the last frame: score %d, moves %d; the verdict %d, %d", d.Score[last], d.Moves[last], g.Verdict.Score, g.Verdict.Moves)
			}
		})
	}
}

// TestBadSpawnHighlighted checks the two bad spawns of the corpus: the
// viewer's extra step is the refused action's slide, with the recorded
// tile's cell (and only it) marked.
func TestBadSpawnHighlighted(t *testing.T) {
	for _, tc := range []struct {
		name   string
		action int
		full   bool // the cell holds a tile after the slide
	}{{"tampered/spawn-on-full-cell.yaml", 301, true}, {"tampered/spawn-value-8.yaml", 201, false}} {
		t.Run(tc.name, func(t *testing.T) {
			g := load(t, tc.name)
			d := embedded(t, page(t, g))
			if d.Div == nil || d.Div.Reason != "bad-spawn" || d.Div.Action != tc.action {
				t.Fatalf("div %+v", d.Div)
			}
			sp := g.Replay.Spawns[tc.action-1]
			cell := sp.Row*d.Cols + sp.Col
			if !slices.Equal(d.Div.Cells, []int{cell}) || d.Div.Spawn == nil || *d.Div.Spawn != [2]uint64{uint64(cell), sp.Value} {
				t.Errorf("marked %v, spawn %v; want cell %d with %d", d.Div.Cells, d.Div.Spawn, cell, sp.Value)
			}
			if len(d.Board) != tc.action || d.Div.Step != tc.action {
				t.Errorf("%d frames, divergence step %d; want frames to action %d and the divergence one past", len(d.Board), d.Div.Step, tc.action-1)
			}
			dir, _ := g.Replay.Actions[tc.action-1].Direction()
			slid, err := g.Frames[len(g.Frames)-1].Board.Slide(dir)
			if err != nil {
				t.Fatal(err)
			}
			b := decodeBoard(t, d.Div.Board, d.Cols)
			if !slices.EqualFunc(b, slid.Board.Values(), slices.Equal) {
				t.Errorf("the divergence board %v is not the slide %v", b, slid.Board.Values())
			}
			if full := b[sp.Row][sp.Col] != 0; full != tc.full {
				t.Errorf("the marked cell holds %d after the slide", b[sp.Row][sp.Col])
			}
		})
	}
}

// TestClaimBoardHighlighted makes a replay whose claimed final board
// differs from the real one in two cells: those two are marked, and the
// claimed board is embedded beside the real one.
func TestClaimBoardHighlighted(t *testing.T) {
	const moves = "LLURDLUR"
	g0 := decodeGame(t, "real.yaml", []byte(fmt.Sprintf("profile: tile-merge\nseed: \"7\"\nmoves: %s\nclaim: {score: 0, maxTile: 2, moves: 0}\n", moves)))
	real := g0.Frames[len(g0.Frames)-1]
	claim := real.Board
	cols := claim.Cols()
	changed := []int{}
	for i := 0; i < claim.Cells() && len(changed) < 2; i++ {
		r, c := i/cols, i%cols
		if claim.At(r, c) == 0 {
			claim.Set(r, c, 2)
			changed = append(changed, i)
		}
	}
	if len(changed) != 2 {
		t.Fatal("no two empty cells")
	}
	src := fmt.Sprintf("profile: tile-merge\nseed: \"7\"\nmoves: %s\nclaim:\n  score: %d\n  maxTile: %d\n  moves: %d\n  board: |\n    %s\n",
		moves, real.Score, real.Board.MaxTile(), real.Moves, strings.ReplaceAll(claim.String(), "\n", "\n    "))
	g := decodeGame(t, "claim.yaml", []byte(src))
	if g.Verdict.Valid {
		t.Fatal("the false claim is valid")
	}
	d := embedded(t, page(t, g))
	if d.Div == nil || d.Claimed == nil {
		t.Fatalf("div %+v, claimed %+v (%s)", d.Div, d.Claimed, g.Verdict.Reason)
	}
	if !slices.Equal(d.Div.Cells, changed) || d.Div.Step != len(g.Frames)-1 {
		t.Errorf("marked %v at step %d, want %v at %d", d.Div.Cells, d.Div.Step, changed, len(g.Frames)-1)
	}
	if got := decodeBoard(t, d.Claimed.Board, cols); !slices.EqualFunc(got, claim.Values(), slices.Equal) {
		t.Errorf("claimed %v, want %v", got, claim.Values())
	}
}

// TestIllegalMoveShown: an illegal move is said on the last frame, the
// one before it, with nothing marked.
func TestIllegalMoveShown(t *testing.T) {
	g := load(t, "tampered/illegal-move-inserted.yaml")
	html := page(t, g)
	d := embedded(t, html)
	if d.Div == nil || d.Div.Step != len(d.Board)-1 || d.Div.Step != 508 || len(d.Div.Cells) != 0 || !strings.Contains(d.Div.Note, "illegal move") {
		t.Fatalf("div %+v", d.Div)
	}
	for _, s := range []string{"invalid: illegal-move", g.Verdict.Divergence.Says(), "action 509, after 508 counted moves"} {
		if !strings.Contains(html, escaped(s)) {
			t.Errorf("the page lacks %q", s)
		}
	}
}

// escaped escapes s as html/template writes text.
func escaped(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")
	return r.Replace(s)
}

var external = regexp.MustCompile(`(?i)(src\s*=\s*["']?(https?:)?//|<link\b|@import|url\(|href\s*=\s*["']?(https?:)?//|<iframe|<img|<object|<embed|fetch\(|XMLHttpRequest)`)

// TestSelfContained checks every kind of page for references to anything
// outside it.
func TestSelfContained(t *testing.T) {
	pages := map[string]string{}
	for _, name := range []string{"valid/tile-merge-4096.yaml", "tampered/spawn-on-full-cell.yaml", "tampered/score-raised-with-board.yaml"} {
		pages[name] = page(t, load(t, name))
	}
	var b bytes.Buffer
	if err := Report(&b, "batch", corpusEntries(t)); err != nil {
		t.Fatal(err)
	}
	pages["report"] = b.String()
	b.Reset()
	if err := Conformance(&b, failingReport()); err != nil {
		t.Fatal(err)
	}
	pages["conformance"] = b.String()
	for name, html := range pages {
		if m := external.FindString(html); m != "" {
			t.Errorf("%s refers outside itself: %q", name, m)
		}
		if !strings.HasPrefix(html, "<!DOCTYPE html>") || !strings.Contains(html, "<style>") {
			t.Errorf("%s: not a whole page", name)
		}
	}
	// The pattern does catch what it must.
	for _, bad := range []string{`<script src="https://x/y.js">`, `<link href="http://x" rel=stylesheet>`, `@import "x.css";`, `background: url(http://x/y.png)`} {
		if !external.MatchString(bad) {
			t.Errorf("the check misses %q", bad)
		}
	}
}

// TestNamesEscaped: a replay's name and texts are text, not markup.
func TestNamesEscaped(t *testing.T) {
	g := load(t, "valid/committed-seed.yaml")
	g.Verdict.Name = `<script>alert(1)</script>.yaml`
	html := page(t, g)
	if strings.Contains(html, "<script>alert") {
		t.Error("the name is not escaped")
	}
	g.Verdict.Profile = `</script><b>x` // embedded in the data script
	d := embedded(t, page(t, g))        // which it must not break out of
	if len(d.Board) != len(g.Frames) || d.Profile != g.Verdict.Profile {
		t.Errorf("the data: %d boards for %d frames, profile %q", len(d.Board), len(g.Frames), d.Profile)
	}
}

// corpusEntries verifies the whole corpus, as verify --report does.
func corpusEntries(t testing.TB) []Entry {
	t.Helper()
	var entries []Entry
	v := replay.NewVerifier()
	for _, dir := range []string{"valid", "tampered", "unreadable"} {
		files, err := filepathGlob("../replays/" + dir + "/*.yaml")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, _ := readFile(f)
			vd := v.VerifyFile(strings.TrimPrefix(f, "../replays/"), data)
			e := Entry{Verdict: vd, Source: f}
			if vd.Reason != replay.Malformed && vd.Reason != replay.Refused && vd.Reason != replay.BadStart {
				e.Page = "pages/" + strings.ReplaceAll(vd.Name, "/", "_") + ".html"
			}
			entries = append(entries, e)
		}
	}
	return entries
}

// TestReport checks the batch page against the verdicts: the counts, the
// reasons, the histogram's bars (each the number of valid scores in its
// range), a plausibility row per spawn-recorded game, a link per replay.
func TestReport(t *testing.T) {
	entries := corpusEntries(t)
	var b bytes.Buffer
	if err := Report(&b, "the corpus", entries); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	var valid, invalid, unreadable, spawnRecorded, pages int
	var scores []uint64
	for _, e := range entries {
		switch v := e.Verdict; {
		case v.Valid:
			valid++
			scores = append(scores, v.Score)
		case v.Reason == replay.Malformed || v.Reason == replay.Refused:
			unreadable++
		default:
			invalid++
		}
		if e.Verdict.Plausibility != nil {
			spawnRecorded++
		}
		if e.Page != "" {
			pages++
			if !strings.Contains(html, `href="`+e.Page+`"`) {
				t.Errorf("no link to %s", e.Page)
			}
		}
	}
	want := fmt.Sprintf(`%d replays: <span class="verdict valid">%d valid</span>`, len(entries), valid)
	if !strings.Contains(html, want) || !strings.Contains(html, fmt.Sprintf("%d invalid</span>", invalid)) || !strings.Contains(html, fmt.Sprintf("%d unreadable</span>", unreadable)) {
		t.Errorf("the counts: want %s, %d invalid, %d unreadable", want, invalid, unreadable)
	}
	if got := strings.Count(html, `<a class="page"`); got != pages {
		t.Errorf("%d links to pages, want %d", got, pages)
	}
	bars := regexp.MustCompile(`data-lo="(\d+)" data-hi="(\d+)" data-count="(\d+)"`).FindAllStringSubmatch(html, -1)
	total := 0
	for _, m := range bars {
		lo, _ := strconv.ParseUint(m[1], 10, 64)
		hi, _ := strconv.ParseUint(m[2], 10, 64)
		count, _ := strconv.Atoi(m[3])
		in := 0
		for _, s := range scores {
			if lo <= s && s < hi {
				in++
			}
		}
		if in != count {
			t.Errorf("bar [%d, %d): %d, want %d", lo, hi, count, in)
		}
		total += count
	}
	if total != valid || len(bars) == 0 || len(bars) > 20 {
		t.Errorf("%d bars holding %d games, want %d", len(bars), total, valid)
	}
	table := html[strings.Index(html, `id="plausibility"`):]
	table = table[:strings.Index(table, "</table>")]
	if got := strings.Count(table, "<tr><td>"); got != spawnRecorded || spawnRecorded == 0 {
		t.Errorf("%d plausibility rows, want %d", got, spawnRecorded)
	}
	for _, r := range []string{"illegal-move", "bad-spawn", "claim-score", "malformed", "refused"} {
		if !strings.Contains(html, "<td>"+r+"</td>") {
			t.Errorf("the reasons table lacks %s", r)
		}
	}
}

func TestHistogram(t *testing.T) {
	for _, values := range [][]uint64{{5}, {0, 0, 0}, {1336, 21008, 89468, 36120, 4192}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1000000}} {
		bins := histogram(values, 20)
		n := 0
		for i, b := range bins {
			n += b.Count
			if b.Hi <= b.Lo || i > 0 && b.Lo != bins[i-1].Hi {
				t.Errorf("%v: bins %v", values, bins)
			}
		}
		if n != len(values) || len(bins) > 20 {
			t.Errorf("%v: %d bins of %d values", values, len(bins), n)
		}
	}
}

func mustBoard(text string) *engine.Board {
	b, err := engine.ParseBoard(text)
	if err != nil {
		panic(err)
	}
	return &b
}

// failingReport is a conformance report with one board divergence (the
// merge priority reversed) and one score failure.
func failingReport() *conformance.Report {
	return &conformance.Report{
		Impl: conformance.Hello{Name: "a-broken-adapter", Version: "0.1", Profiles: []string{"classic"}},
		Pack: "tileproof-cases", PackVersion: "0.1.0", Contract: 1,
		Results: []conformance.Result{
			{Case: "core/ok", Area: "core", Profile: "classic", Status: conformance.Pass},
			{Case: "core/priority", Area: "core", Profile: "classic", Status: conformance.BoardDiverged, Step: 1, File: "core/merge-priority.yaml", Line: 4,
				Reason: "move left: the board after the slide differs",
				Start:  mustBoard("2 2 2 .\n. . . .\n. . . .\n. . . 4"), Want: mustBoard("4 2 . .\n. . . .\n. . . .\n4 . . ."), Got: mustBoard("2 4 . .\n. . . .\n. . . .\n4 . . .")},
			{Case: "core/score", Area: "core", Profile: "classic", Status: conformance.ScoreDiverged, Step: 1, File: "core/score.yaml", Line: 9, Reason: "gained 8 points, want 4"},
		},
	}
}

// TestConformancePage checks the failures page: the three boards of the
// board divergence with exactly the differing cells marked, the other
// failure's reason, no passing case.
func TestConformancePage(t *testing.T) {
	var b bytes.Buffer
	if err := Conformance(&b, failingReport()); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	sec := html[strings.Index(html, `id="core/priority@classic"`):]
	sec = sec[:strings.Index(sec, "</section>")]
	cells := regexp.MustCompile(`<figure class="(start|want|got)">.*?</figure>`).FindAllString(sec, -1)
	if len(cells) != 3 {
		t.Fatalf("%d boards in\n%s", len(cells), sec)
	}
	cellRE := regexp.MustCompile(`<div class="c (t\w)( bad)?" data-value="(\d+)">`)
	wantBoards := [][]uint64{{2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4}, {4, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0}, {2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0}}
	for i, fig := range cells {
		var marked []int
		var values []uint64
		for k, m := range cellRE.FindAllStringSubmatch(fig, -1) {
			v, _ := strconv.ParseUint(m[3], 10, 64)
			values = append(values, v)
			if m[2] != "" {
				marked = append(marked, k)
			}
		}
		if !slices.Equal(values, wantBoards[i]) {
			t.Errorf("board %d: %v, want %v", i, values, wantBoards[i])
		}
		wantMarked := []int{0, 1}
		if i == 0 {
			wantMarked = nil
		}
		if !slices.Equal(marked, wantMarked) {
			t.Errorf("board %d: marked %v, want %v", i, marked, wantMarked)
		}
	}
	if !strings.Contains(html, "gained 8 points, want 4") || strings.Contains(html, "core/ok") {
		t.Error("the failures listed are not the failures")
	}
}
