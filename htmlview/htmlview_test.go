package htmlview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
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
			// Each counted move's slide, applied to the board before it,
			// gives the board after it without the tile that appeared.
			slid := 0
			for i := 1; i < n; i++ {
				if d.Spawn[i] == [2]uint64{} {
					continue
				}
				b := []byte(d.Board[i-1])
				for _, m := range d.Slides[i] {
					b[m[0]] = '0'
				}
				for _, m := range d.Slides[i] {
					if b[m[1]] != '0' {
						b[m[1]] = expDigits[strings.IndexByte(expDigits, b[m[1]])+1] // a merge: the exponent one up
					} else {
						b[m[1]] = d.Board[i-1][m[0]]
					}
				}
				want := []byte(d.Board[i])
				want[d.Spawn[i][0]] = '0'
				if string(b) != string(want) {
					t.Fatalf("frame %d: the slide %v makes %s from %s, want %s", i, d.Slides[i], b, d.Board[i-1], want)
				}
				if len(d.Slides[i]) > 0 {
					slid++
				}
			}
			if slid < n/4 {
				t.Errorf("%d of %d frames have a slide", slid, n)
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

// TestRefusedActionShown: an illegal move, an action after the end and
// one not allowed each get a step past the frames: the board they were
// refused on (the last frame's), their action and how it was refused,
// with nothing marked; the page says the divergence in words.
func TestRefusedActionShown(t *testing.T) {
	for _, tc := range []struct {
		name, letter, refused string
		action                int
	}{
		{"tampered/illegal-move-inserted.yaml", "L", "changes nothing", 509},
		{"tampered/keep-playing-missing.yaml", "L", "after the end", 1023},
		{"tampered/undo-not-allowed.yaml", "Z", "not allowed", 301},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := load(t, tc.name)
			html := page(t, g)
			d := embedded(t, html)
			if d.Div == nil || d.Div.Action != tc.action || d.Div.Step != len(d.Board) || len(d.Board) != tc.action {
				t.Fatalf("div %+v with %d frames; want action %d shown at step %d, one past the frames", d.Div, len(d.Board), tc.action, tc.action)
			}
			if d.Div.Board != d.Board[len(d.Board)-1] || d.Div.Letter != tc.letter || d.Div.Refused != tc.refused || len(d.Div.Cells) != 0 || d.Div.Spawn != nil {
				t.Errorf("the refused step: board %q (the last frame %q), letter %q, refused %q, cells %v, spawn %v; want %s, %q",
					d.Div.Board, d.Board[len(d.Board)-1], d.Div.Letter, d.Div.Refused, d.Div.Cells, d.Div.Spawn, tc.letter, tc.refused)
			}
			e := g.Verdict.Explain()
			for _, s := range []string{"invalid: " + string(g.Verdict.Reason), e.Says, e.Gives, g.Verdict.Reason.Describe(),
				fmt.Sprintf("action %d, after %d counted moves", tc.action, g.Verdict.Divergence.Move)} {
				if !strings.Contains(html, escaped(s)) {
					t.Errorf("the page lacks %q", s)
				}
			}
		})
	}
	// The note says the move in words, naming the cell one way.
	d := embedded(t, page(t, load(t, "tampered/illegal-move-inserted.yaml")))
	if d.Div.Note != "action 509 (left) changes nothing on this board: an illegal move" {
		t.Errorf("note %q", d.Div.Note)
	}
	d = embedded(t, page(t, load(t, "tampered/spawn-on-full-cell.yaml")))
	if d.Div.Note != "action 301 (down) records a 2 at row 1, column 0 (marked) on the board after its slide" {
		t.Errorf("note %q", d.Div.Note)
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
	// A case's name is in ids and links of the conformance page; a
	// reason, a name and an error in the report's rows and their data.
	rep := failingReport()
	rep.Results[1].Case = `core/"><script>alert(1)</script>`
	var b bytes.Buffer
	if err := Conformance(&b, rep); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "<script>alert") {
		t.Error("the conformance page does not escape a case's name")
	}
	b.Reset()
	bad := replay.Verdict{Name: `"><script>alert(1)</script>`, Reason: replay.Malformed, Error: "<script>alert(2)</script>"}
	if err := Report(&b, "<script>alert(3)</script>", []Entry{{Verdict: bad, Source: `x"><script>alert(4)</script>`}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "<script>alert") {
		t.Error("the report does not escape a name, an error or a title")
	}
}

// cssColour reads a tile class's background from the style sheet.
func cssColour(t *testing.T, class string) [3]float64 {
	t.Helper()
	m := regexp.MustCompile(`\.c\.` + class + ` \{ background: #([0-9a-f]{6});`).FindStringSubmatch(asset("style.css"))
	if m == nil {
		t.Fatalf("no background of .c.%s", class)
	}
	var rgb [3]float64
	for i := range rgb {
		v, _ := strconv.ParseUint(m[1][2*i:2*i+2], 16, 8)
		rgb[i] = float64(v) / 255
	}
	return rgb
}

// linear converts the channels of an sRGB colour to linear light. (WCAG
// 2's contrast formula writes the threshold 0.03928, the sRGB standard
// 0.04045: no 8-bit channel lies between them, so the two agree on every
// colour a page has.)
func linear(c [3]float64) [3]float64 {
	var lin [3]float64
	for i, v := range c {
		if v <= 0.04045 {
			lin[i] = v / 12.92
		} else {
			lin[i] = math.Pow((v+0.055)/1.055, 2.4)
		}
	}
	return lin
}

// lab converts an sRGB colour to CIELAB (D65).
func lab(c [3]float64) [3]float64 {
	lin := linear(c)
	x := (0.4124*lin[0] + 0.3576*lin[1] + 0.1805*lin[2]) / 0.95047
	y := 0.2126*lin[0] + 0.7152*lin[1] + 0.0722*lin[2]
	z := (0.0193*lin[0] + 0.1192*lin[1] + 0.9505*lin[2]) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

// TestHighTilesApart: the tiles from 128 to 2048 differ in colour by a
// CIE76 distance of at least 10 (about what tells two colours apart at a
// glance; the original's 512, 1024 and 2048 differ by 5 to 6).
func TestHighTilesApart(t *testing.T) {
	classes := []string{"t7", "t8", "t9", "ta", "tb", "tc"}
	for i, a := range classes {
		for _, b := range classes[i+1:] {
			la, lb := lab(cssColour(t, a)), lab(cssColour(t, b))
			if d := math.Sqrt((la[0]-lb[0])*(la[0]-lb[0]) + (la[1]-lb[1])*(la[1]-lb[1]) + (la[2]-lb[2])*(la[2]-lb[2])); d < 10 {
				t.Errorf("tiles %s and %s differ by %.1f", a, b, d)
			}
		}
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
			if r, err := replay.Decode(vd.Name, data); err == nil { // its claim, as BatchReport keeps it
				e.Claimed = &r.Claim.Score
			}
			if vd.Reason != replay.Malformed && vd.Reason != replay.Refused && vd.Reason != replay.BadStart {
				e.Page = "pages/" + strings.ReplaceAll(vd.Name, "/", "_") + ".html"
			}
			entries = append(entries, e)
		}
	}
	return entries
}

// reportData reads the table's JSON back out of a batch report.
type reportData struct {
	Pre  string  `json:"pre"`
	Rows [][]any `json:"rows"`
}

var rowsScript = regexp.MustCompile(`(?s)<script type="application/json" id="tp-rows">(.*?)</script>`)

func reportRowsData(t testing.TB, html string) reportData {
	t.Helper()
	m := rowsScript.FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no tp-rows script in the report")
	}
	var d reportData
	if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
		t.Fatalf("the rows: %v", err)
	}
	return d
}

// TestReport checks the batch page against the verdicts: the counts, the
// reasons, the histogram's bars (each the number of valid scores in its
// range), and a row a replay in the table's data with its figures, its
// class and its page.
func TestReport(t *testing.T) {
	entries := corpusEntries(t)
	html := reportHTML(t, "the corpus", entries)
	var valid, invalid, unreadable int
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
	}
	want := fmt.Sprintf(`%d replays: <a href="#kind-valid" class="verdict valid">%d valid</a>`, len(entries), valid)
	if !strings.Contains(html, want) || !strings.Contains(html, fmt.Sprintf("%d invalid</a>", invalid)) || !strings.Contains(html, fmt.Sprintf("%d unreadable</a>", unreadable)) {
		t.Errorf("the counts: want %s, %d invalid, %d unreadable", want, invalid, unreadable)
	}
	d := reportRowsData(t, html)
	if len(d.Rows) != len(entries) {
		t.Fatalf("%d rows for %d replays", len(d.Rows), len(entries))
	}
	for i, e := range entries {
		r, v := d.Rows[i], e.Verdict
		if r[colN] != float64(i+1) || r[colName] != v.Name || classes[int(r[colClass].(float64))] != kindOf(v) {
			t.Errorf("row %d: %v for %s (%s)", i, r[:3], v.Name, kindOf(v))
		}
		if v.Replayed != (r[colScore] != nil) || v.Replayed && r[colScore] != float64(v.Score) {
			t.Errorf("row %d: score %v, the verdict %d (replayed %v)", i, r[colScore], v.Score, v.Replayed)
		}
		if page := r[colPage].(string); (page != "") != (e.Page != "") || page != "" && d.Pre+page+".html" != e.Page {
			t.Errorf("row %d: page %q (pre %q), want %q", i, page, d.Pre, e.Page)
		}
		// The corpus's tampered copies of tile-merge-2048.yaml whose
		// claim alone is false are its game: its what says it is the
		// first of them.
		won := ""
		if v.Won {
			won = ", won"
		}
		if v.Valid && r[colWhat] != v.Result.String()+won+sameSuffix(entries, i) {
			t.Errorf("row %d: what %q", i, r[colWhat])
		}
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
	if total != valid || len(bars) == 0 || len(bars) > 80 {
		t.Errorf("%d bars holding %d games, want %d", len(bars), total, valid)
	}
	for _, r := range []string{"illegal-move", "bad-spawn", "claim-score", "malformed", "refused"} {
		if !strings.Contains(html, `<td><a href="#reason-`+r+`">`+r+"</a></td>") {
			t.Errorf("the reasons table lacks %s, linked to its rows", r)
		}
	}
}

// TestReportWhat checks the words of an invalid row: where, what the
// replay says and what the rules give; a figure never computed is null.
func TestReportWhat(t *testing.T) {
	entries := corpusEntries(t)
	b := reportHTML(t, "batch", entries)
	d := reportRowsData(t, b)
	never, said := 0, 0
	for i, e := range entries {
		r, v := d.Rows[i], e.Verdict
		if !v.Replayed {
			never++
			if r[colScore] != nil || r[colTile] != nil || r[colMoves] != nil {
				t.Errorf("%s: figures %v never computed", v.Name, r[colScore:colMoves+1])
			}
		}
		if ex := v.Explain(); !v.Valid && ex.Says != "" {
			said++
			w := r[colWhat].(string)
			if !strings.Contains(w, "the replay says "+ex.Says) || !strings.Contains(w, "the rules give "+ex.Gives) {
				t.Errorf("%s: what %q", v.Name, w)
			}
			if dv := v.Divergence; dv != nil && dv.Action > 0 && !strings.Contains(w, fmt.Sprintf("action %d, after %d counted moves", dv.Action, dv.Move)) {
				t.Errorf("%s: what %q lacks where", v.Name, w)
			}
		}
	}
	if never < 3 || said < 5 {
		t.Errorf("only %d rows never replayed, %d with words: the corpus has more", never, said)
	}
}

// TestLogHistogram: every score lands in the bar of its range, and a
// batch with a few far higher scores spreads over many bars (a linear
// scale put most games in one).
func TestLogHistogram(t *testing.T) {
	var values []uint64
	for i := range 1960 {
		values = append(values, uint64(1000+i*10))
	}
	values = append(values, 0, 173632, 67028)
	bins := logHistogram(values)
	n, most := 0, 0
	for i, bn := range bins {
		for _, v := range values {
			if bn.Lo <= v && v < bn.Hi {
				n++
			}
		}
		most = max(most, bn.Count)
		if i > 0 && bins[i-1].Hi != bn.Lo {
			t.Errorf("bins %d and %d do not meet: %+v %+v", i-1, i, bins[i-1], bn)
		}
	}
	if n != len(values) || most > len(values)/3 {
		t.Errorf("%d of %d values in the bins; the fullest bin %d", n, len(values), most)
	}
	if got := quantiles([]uint64{4, 8, 16, 20000, 21512, 40000}); !strings.Contains(got, "median 10,008") {
		t.Errorf("%s: the median of an even count is the mean of the middle two", got)
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
		Results: []conformance.CaseResult{
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
	sec := section(t, html, "core/priority")
	cells := regexp.MustCompile(`<figure class="(start|want|got)">.*?</figure>`).FindAllString(sec, -1)
	if len(cells) != 3 {
		t.Fatalf("%d boards in\n%s", len(cells), sec)
	}
	wantBoards := [][]uint64{{2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4}, {4, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0}, {2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0}}
	for i, fig := range cells {
		values, marked := gridOf(fig)
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
	if !strings.Contains(sec, "<figcaption>before step 1</figcaption>") || !strings.Contains(sec, "2 cells differ (marked)") {
		t.Errorf("the captions of\n%s", sec)
	}
	if !strings.Contains(html, "gained 8 points, want 4") || strings.Contains(html, "core/ok") {
		t.Error("the failures listed are not the failures")
	}
}

// section returns the failing case's section of a conformance page.
func section(t *testing.T, html, name string) string {
	t.Helper()
	i := strings.Index(html, `<section class="case" id="`+name+`">`)
	if i < 0 {
		t.Fatalf("no section of %s", name)
	}
	sec := html[i:]
	return sec[:strings.Index(sec, "</section>")]
}

var cellRE = regexp.MustCompile(`<div class="c (t\w)( bad)?" data-value="(\d+)">`)

// gridOf reads a drawn board: its values row-major, the marked cells.
func gridOf(html string) (values []uint64, marked []int) {
	for k, m := range cellRE.FindAllStringSubmatch(html, -1) {
		v, _ := strconv.ParseUint(m[3], 10, 64)
		values = append(values, v)
		if m[2] != "" {
			marked = append(marked, k)
		}
	}
	return values, marked
}

// manyProfiles is a report where core/a fails the same way in four
// profiles and another way in a fifth, core/b in one, a property in two,
// and another in one.
func manyProfiles() *conformance.Report {
	profiles := []string{"classic", "tile-merge", "pgs", "online-2048", "rosetta"}
	rep := &conformance.Report{Impl: conformance.Hello{Name: "a-broken-adapter", Version: "0.1", Profiles: profiles}, Pack: "tileproof-cases", PackVersion: "0.2.0", Contract: 1}
	start, want, got := mustBoard("2 2 2 .\n. . . .\n. . . .\n. . . ."), mustBoard("4 2 . .\n. . . .\n. . . .\n. . . ."), mustBoard("2 4 . .\n. . . .\n. . . .\n. . . .")
	for _, p := range profiles {
		r := conformance.CaseResult{Case: "core/a", Area: "core", Profile: p, Status: conformance.BoardDiverged, Step: 1, File: "core/a.yaml", Line: 3,
			Reason: "move left: the board after the slide differs", Start: start, Want: want, Got: got}
		if p == "rosetta" {
			r.Step, r.Reason = 2, "move left: something else"
		}
		rep.Results = append(rep.Results, r)
	}
	rep.Results = append(rep.Results,
		conformance.CaseResult{Case: "core/b", Area: "core", Profile: "pgs", Status: conformance.ScoreDiverged, Step: 1, Reason: "move left: gained 8 points, want 4",
			Mismatches: []conformance.StepMismatch{{Field: "gained", Text: "move left: gained 8 points, want 4"}, {Field: "score", Text: "move left: the score is 8, want 4"}}},
		conformance.CaseResult{Case: "core/c", Area: "core", Profile: "pgs", Status: conformance.Pass})
	loaded := mustBoard("2 . . .\n2 . . .\n. . . .\n. . . .")
	mirror := mustBoard(". . . 2\n. . . 2\n. . . .\n. . . .")
	rep.Results = append(rep.Results, conformance.CaseResult{Case: "properties/metamorphic", Area: "properties", Profile: "pgs", Status: conformance.BoardDiverged,
		Reason: "moving right on the board loaded is not the mirror of moving left on its mirror image", Start: mirror, Want: mirror, Got: loaded})
	for _, p := range profiles[:2] {
		rep.Results = append(rep.Results, conformance.CaseResult{Case: "properties/exhaustive-lines", Area: "properties", Profile: p, Status: conformance.BoardDiverged,
			Reason: "moving up on the board loaded slides another board than the rules'", Start: loaded, Want: mustBoard("4 . . .\n. . . .\n. . . .\n. . . ."), Got: mustBoard(". . . .\n. . . .\n. . . .\n4 . . .")})
	}
	return rep
}

// TestConformanceGrouped checks that a case is drawn once however many
// profiles it fails in: one section, a variant for each different
// failure with its profiles, an anchor for each CASE@PROFILE, one entry
// of the table of contents linked from the summary.
func TestConformanceGrouped(t *testing.T) {
	var b bytes.Buffer
	if err := Conformance(&b, manyProfiles()); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if n := strings.Count(html, `<section class="case"`); n != 4 {
		t.Errorf("%d sections for 4 failing cases", n)
	}
	a := section(t, html, "core/a")
	if n := strings.Count(a, `<div class="variant">`); n != 2 {
		t.Errorf("core/a: %d variants, want 2", n)
	}
	for _, want := range []string{"fails in all 5 profiles", "<b>board-diverged at step 1</b> in classic, tile-merge, pgs, online-2048",
		"<b>board-diverged at step 2</b> in rosetta", `<span id="core/a@rosetta"></span>`, `<span id="core/a@classic"></span>`} {
		if !strings.Contains(a, want) {
			t.Errorf("core/a lacks %q:\n%s", want, a)
		}
	}
	if n := strings.Count(a, `<figure class="want">`); n != 2 {
		t.Errorf("core/a draws the rules' board %d times, want once a variant", n)
	}
	toc := html[strings.Index(html, `<nav id="toc">`):]
	toc = toc[:strings.Index(toc, "</nav>")]
	for _, c := range []string{"core/a", "core/b", "properties/exhaustive-lines"} {
		if strings.Count(toc, `<a href="#`+c+`">`) != 1 {
			t.Errorf("the table of contents does not link %s once", c)
		}
	}
	if strings.Contains(toc, "core/c") {
		t.Error("a passing case in the table of contents")
	}
	for _, want := range []string{`<td class="n"><a href="#area-core">6</a></td>`, `<td class="n"><a href="#area-properties">3</a></td>`, `<h3 id="area-core">`,
		`<span class="verdict invalid big">FAIL</span> 9 unexpected failures in 4 cases`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// The property: its boards drawn from its result's boards, the text
	// only words (no board read out of it, none written in it), the
	// caption without steps.
	p := section(t, html, "properties/exhaustive-lines")
	figs := regexp.MustCompile(`(?s)<figure class="(start|want|got)"><figcaption>(.*?)</figcaption>(.*?)</figure>`).FindAllStringSubmatch(p, -1)
	if len(figs) != 3 || figs[0][2] != "the board loaded" || strings.Contains(p, "step") || strings.Count(p, `<div class="board small"`) != 3 {
		t.Fatalf("the property's boards:\n%s", p)
	}
	if values, _ := gridOf(figs[0][3]); !slices.Equal(values, flat(mustBoard("2 . . .\n2 . . .\n. . . .\n. . . .").Values())) {
		t.Errorf("the property's board loaded: %v", values)
	}
	text := p[strings.Index(p, `<div class="text">`):]
	text = text[:strings.Index(text, `<div class="row">`)]
	if !strings.Contains(text, "<p>moving up on the board loaded slides another board than the rules&#39;</p>") || strings.Contains(text, "board small") {
		t.Errorf("the property's text:\n%s", text)
	}
	// A property's board loaded: drawn, with no step.
	if m := section(t, html, "properties/metamorphic"); !strings.Contains(m, `<figure class="start"><figcaption>the board loaded</figcaption>`) || strings.Contains(m, "step") {
		t.Errorf("the metamorphic property:\n%s", m)
	}
	// The score failure: its other mismatch said too.
	if bsec := section(t, html, "core/b"); !strings.Contains(bsec, "also move left: the score is 8, want 4") {
		t.Errorf("core/b:\n%s", bsec)
	}
}

// TestConformanceVerdict checks the verdict at the top and the
// unexpected passes column.
func TestConformanceVerdict(t *testing.T) {
	rep := &conformance.Report{Impl: conformance.Hello{Name: "x", Profiles: []string{"classic"}}, Results: []conformance.CaseResult{
		{Case: "core/a", Area: "core", Profile: "classic", Status: conformance.Pass},
		{Case: "core/b", Area: "core", Profile: "classic", Status: conformance.Pass, Expected: "known"},
		{Case: "line/c", Area: "line", Profile: "classic", Status: conformance.Pass, Expected: "known"},
		{Case: "line/d", Area: "line", Profile: "classic", Status: conformance.BoardDiverged, Expected: "known", Reason: "x"},
		{Case: "tp1/e", Area: "tp1", Profile: "classic", Status: conformance.Skip},
	}}
	var b bytes.Buffer
	if err := Conformance(&b, rep); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{`<span class="verdict valid big">PASS</span> no unexpected failure: 3 passed, 1 expected failures, 1 skipped`,
		"with --strict, 1 skipped and 2 unexpected passes fail the run",
		`<tr><td>core</td><td class="n">2</td><td class="n">0</td><td class="n">0</td><td class="n"><a href="#xpass">1</a></td><td class="n">0</td></tr>`,
		`<tr><td>line</td><td class="n">1</td><td class="n">0</td><td class="n">1</td><td class="n"><a href="#xpass">1</a></td><td class="n">0</td></tr>`,
		`<h2 id="xpass">Unexpected passes</h2>`, `<p id="none">No unexpected failures.</p>`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(html, "FAIL") {
		t.Error("a passing run says FAIL")
	}
}

// TestConformanceStepBoards: a failure that carries the step's start and
// the implementation's board but no board of the rules (a score failure)
// shows the two boards.
func TestConformanceStepBoards(t *testing.T) {
	start, got := mustBoard("2 2 . .\n. . . .\n. . . .\n. . . ."), mustBoard("4 . . .\n. . . .\n. . 2 .\n. . . .")
	rep := &conformance.Report{Impl: conformance.Hello{Name: "x", Profiles: []string{"classic"}}, Results: []conformance.CaseResult{
		{Case: "core/s", Area: "core", Profile: "classic", Status: conformance.ScoreDiverged, Step: 3, Reason: "move left: gained 8 points, want 4", Start: start, Got: got},
	}}
	var b bytes.Buffer
	if err := Conformance(&b, rep); err != nil {
		t.Fatal(err)
	}
	sec := section(t, b.String(), "core/s")
	figs := regexp.MustCompile(`(?s)<figure class="(start|got)"><figcaption>(.*?)</figcaption>(.*?)</figure>`).FindAllStringSubmatch(sec, -1)
	if len(figs) != 2 || figs[0][2] != "before step 3" || figs[1][2] != "the implementation, after the step" || strings.Contains(sec, `class="want"`) {
		t.Fatalf("the boards of\n%s", sec)
	}
	for i, b := range []*engine.Board{start, got} {
		if values, marked := gridOf(figs[i][3]); !slices.Equal(values, flat(b.Values())) || len(marked) != 0 {
			t.Errorf("board %d: %v marked %v", i, values, marked)
		}
	}
}

// TestConformanceSpawnsGrouped: failures that differ only in the tile the
// implementation spawned (its board after the step, where no whole board
// diverged) are one variant, drawn once with the first profile's board
// and said to differ in the spawns; board divergences whose boards differ
// stay apart.
func TestConformanceSpawnsGrouped(t *testing.T) {
	profiles := []string{"classic", "tile-merge", "pgs", "online-2048", "rosetta"}
	rep := manyFailures(60, profiles)
	var b bytes.Buffer
	if err := Conformance(&b, rep); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if n, v := strings.Count(html, `<section class="case"`), strings.Count(html, `<div class="variant">`); n != 60 || v != 60 {
		t.Errorf("60 cases failing the same way in 5 profiles make %d sections, %d variants", n, v)
	}
	if strings.Contains(html, "different failures") {
		t.Error("the table of contents counts different failures")
	}
	odd, even := section(t, html, "core/case-001"), section(t, html, "core/case-002")
	got := regexp.MustCompile(`(?s)<figure class="got"><figcaption>(.*?)</figcaption>(.*?)</figure>`).FindStringSubmatch(odd)
	if got == nil || got[1] != "the implementation in classic, after the step" || !strings.Contains(odd, "the spawns differ by profile") {
		t.Fatalf("the score failure's boards:\n%s", odd)
	}
	if values, _ := gridOf(got[2]); !slices.Equal(values, flat(rep.Results[5].Got.Values())) {
		t.Errorf("the board drawn is %v, not classic's", values)
	}
	if strings.Contains(even, "spawns differ") || strings.Contains(even, "in classic") {
		t.Errorf("a board divergence the same in every profile:\n%s", even)
	}
	// One profile: nothing differs, nothing said.
	b.Reset()
	if err := Conformance(&b, manyFailures(2, profiles[:1])); err != nil {
		t.Fatal(err)
	}
	if one := section(t, b.String(), "core/case-001"); strings.Contains(one, "spawns differ") || !strings.Contains(one, "<figcaption>the implementation, after the step</figcaption>") {
		t.Errorf("in one profile:\n%s", one)
	}
	// Board divergences with different boards are different failures.
	for i := range rep.Results {
		if r := &rep.Results[i]; r.Case == "core/case-002" && r.Profile == "pgs" {
			other := *r.Got
			other.Set(2, 2, 2)
			r.Got = &other
		}
	}
	b.Reset()
	if err := Conformance(&b, rep); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(section(t, b.String(), "core/case-002"), `<div class="variant">`); n != 2 {
		t.Errorf("a board divergence with another board in one profile: %d variants, want 2", n)
	}
}
