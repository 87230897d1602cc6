package htmlview

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/replay"
)

// analysedPage analyses the corpus replay name (replays/...) as verify
// --analyze does, with opts, and returns its viewer page, the verdict
// carrying the analysis, and the report.
func analysedPage(t *testing.T, name string, opts analyze.Options) (string, *analyze.GameReport) {
	t.Helper()
	g := load(t, name)
	rep, err := analyze.Analyze(context.Background(), replay.NewVerifier(), name, g.Replay, opts)
	if err != nil {
		t.Fatal(err)
	}
	if g.Verdict.Analysis, err = json.Marshal(rep); err != nil {
		t.Fatal(err)
	}
	return page(t, g), rep
}

// byID returns the text of the element with id in page: its content, the
// tags left out, the entities read.
func byID(t *testing.T, page, id string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<(\w+)[^>]* id="` + regexp.QuoteMeta(id) + `"[^>]*>(.*?)</(\w+)>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no element #%s", id)
	}
	return textOf(m[2])
}

var tags = regexp.MustCompile(`<[^>]*>`)

func textOf(s string) string {
	return strings.TrimSpace(html.UnescapeString(tags.ReplaceAllString(s, "")))
}

// evidenceRows returns the cells of the section's table, a row an
// evaluator.
func evidenceRows(t *testing.T, page string) [][]string {
	t.Helper()
	body := regexp.MustCompile(`(?s)<table id="evidence-table">.*?<tbody>(.*?)</tbody>`).FindStringSubmatch(page)
	if body == nil {
		t.Fatal("no table of the evaluators")
	}
	var rows [][]string
	for _, tr := range regexp.MustCompile(`(?s)<tr>(.*?)</tr>`).FindAllStringSubmatch(body[1], -1) {
		var cells []string
		for _, td := range regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`).FindAllStringSubmatch(tr[1], -1) {
			cells = append(cells, textOf(td[1]))
		}
		rows = append(rows, cells)
	}
	return rows
}

// z writes a z-score as the section should: a dash for a statistic the
// reference does not place.
func z(s analyze.EvalStats, key string, x float64) string {
	if !slices.Contains(s.Placed, key) {
		return "\u2013"
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// TestEvidenceSection: the viewer page of a game analysed as verify
// --analyze analyses it has the section "Moves compared with reference evaluators and players" with
// the analysis's own figures: the band in words and its key, the
// statement and, once, the sentence that it is not a finding, the
// reference's name and hash, the score, the counts of forced, trivial and
// non-trivial moves, each evaluator's rates and z-scores, the
// clairvoyance test's z; a game too short for the thresholds says why.
func TestEvidenceSection(t *testing.T) {
	for _, c := range []struct {
		name string
		opts analyze.Options
		band string
	}{
		{"valid/classic-2048.yaml", analyze.Options{Clairvoyance: true}, ""},
		{"valid/committed-seed.yaml", analyze.Options{Clairvoyance: true}, ""},
		{"valid/tile-merge-2048.yaml", analyze.Options{}, ""},
		{"valid/classic-2048.yaml", analyze.Options{MaxMoves: 60}, analyze.Insufficient},
	} {
		t.Run(fmt.Sprintf("%s/%d", c.name, c.opts.MaxMoves), func(t *testing.T) {
			p, rep := analysedPage(t, c.name, c.opts)
			if c.band != "" && rep.Band != c.band {
				t.Fatalf("the analysis's band is %s, the test wants a game of band %s", rep.Band, c.band)
			}
			// The title says what the section is, on every page, a
			// consistent game's too: before 2026-12-07 it was "Evidence
			// of computer play", and the z column read "positive on the
			// side a bot is on".
			if got := byID(t, p, "evidence-title"); got != "Moves compared with reference evaluators and players" {
				t.Errorf("title %q", got)
			}
			for _, w := range []string{"computer play", "Evidence of", " bot is on", "atypical"} {
				if strings.Contains(p, w) {
					t.Errorf("the page says %q", w)
				}
			}
			if got := byID(t, p, "band"); got != analyze.BandText(rep.Band) {
				t.Errorf("band %q, want %q", got, analyze.BandText(rep.Band))
			}
			if got := byID(t, p, "band-key"); got != rep.Band {
				t.Errorf("band key %q, want %q", got, rep.Band)
			}
			if got := byID(t, p, "not-a-finding"); got != analyze.NotAFinding {
				t.Errorf("not a finding: %q", got)
			}
			if n := strings.Count(p, analyze.NotAFinding); n != 1 {
				t.Errorf("the sentence that it is not a finding appears %d times", n)
			}
			st := byID(t, p, "statement")
			if !strings.HasPrefix(rep.Statement, st) || st == "" || !strings.Contains(st, rep.Name) || !strings.Contains(st, rep.Reference) {
				t.Errorf("statement %q, the analysis's %q", st, rep.Statement)
			}
			if got := byID(t, p, "reference"); got != rep.Reference || !strings.Contains(got, "sha256:") {
				t.Errorf("reference %q, want %q", got, rep.Reference)
			}
			if got := byID(t, p, "score"); got != strconv.FormatFloat(rep.Score, 'f', 2, 64) {
				t.Errorf("score %q, the analysis's %v", got, rep.Score)
			}
			for id, want := range map[string]int{"forced": rep.Forced, "trivial": rep.Trivial, "nontrivial": rep.NonTrivial} {
				if got := byID(t, p, id); got != strconv.Itoa(want) {
					t.Errorf("%s: %q, want %d", id, got, want)
				}
			}
			if got := byID(t, p, "counts"); !strings.HasPrefix(got, fmt.Sprintf("%d of %d counted moves: ", rep.Analysed, rep.GameMoves)) {
				t.Errorf("counts %q, the analysis's %d of %d", got, rep.Analysed, rep.GameMoves)
			}
			// What a z says, and what it does not (2026-12-07).
			if got := byID(t, p, "z-reading"); !strings.Contains(got, "3 is as rare as a normal’s three sigma, about 1 game in 740") || !strings.Contains(got, "nothing of who played this game") {
				t.Errorf("how to read a z: %q", got)
			}
			rows := evidenceRows(t, p)
			if len(rows) != len(rep.Evaluators) || len(rows) < 3 {
				t.Fatalf("%d rows for %d evaluators", len(rows), len(rep.Evaluators))
			}
			pct := func(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" }
			placed := 0
			for i, s := range rep.Evaluators {
				want := []string{s.Evaluator, pct(s.Agreement), z(s, "agreement", s.Z), "", pct(s.LargeErrors), z(s, "large_errors", s.ErrorsZ),
					pct(s.SmallErrors), z(s, "small_errors", s.SmallErrorsZ), pct(s.SecondBest), z(s, "second_best", s.SecondZ), pct(s.CrowdedMiss), pct(s.OpenMiss)}
				want[3] = "\u2013"
				if slices.Contains(s.Placed, "agreement") {
					want[3] = strconv.FormatFloat(s.Percentile, 'f', 0, 64) + "%"
					placed++
				}
				if strings.Join(rows[i], "|") != strings.Join(want, "|") {
					t.Errorf("row %d:\n got %q\nwant %q", i, rows[i], want)
				}
			}
			if placed == 0 && rep.NonTrivial > 0 {
				t.Errorf("no evaluator placed against the reference")
			}
			if cv := rep.Clairvoyance; cv != nil {
				got := byID(t, p, "clairvoyance")
				if !strings.HasPrefix(got, "z "+strconv.FormatFloat(cv.Z, 'f', 1, 64)+":") || !strings.Contains(got, fmt.Sprintf("%d of %d positions", cv.Hits, cv.Positions)) {
					t.Errorf("clairvoyance %q, the analysis's %+v", got, *cv)
				}
			} else if strings.Contains(p, `id="clairvoyance"`) {
				t.Errorf("a clairvoyance test shown where none was run")
			}
			if c.opts.Clairvoyance && rep.Clairvoyance == nil {
				t.Errorf("%s: no clairvoyance test: the case wants a seeded game", c.name)
			}
			if rep.Band == analyze.Insufficient {
				if got := byID(t, p, "evidence-why"); got != rep.Reasons[0] || !strings.Contains(got, "fewer than") {
					t.Errorf("why insufficient: %q, the analysis's reasons %q", got, rep.Reasons)
				}
				// Its figures are shown, and said to place it nowhere
				// (before 2026-12-07 its score stood as a placed game's).
				if got := byID(t, p, "not-judged"); !strings.HasPrefix(got, "Not judged: for the reason above, no threshold reads the figures below") {
					t.Errorf("an insufficient game's figures: %q", got)
				}
			} else if strings.Contains(p, `id="evidence-why"`) || strings.Contains(p, `id="not-judged"`) {
				t.Errorf("a reason, or figures not judged, for a band of %s", rep.Band)
			}
		})
	}
}

// TestEvidenceNotAnalysed: a game verify --analyze could not analyse
// (its analysis a band and a reason) gets the section with the band, the
// reason and the sentence that it is not a finding; no figures.
// TestEvidenceUndo: a game with undo analyses more moves than it counts;
// the page says how many were taken back, and why the game is not
// placed. A game without undo has no such words.
func TestEvidenceUndo(t *testing.T) {
	p, rep := analysedPage(t, "valid/online-2048-undo-end-run.yaml", analyze.Options{})
	if rep.Undone == 0 || rep.Analysed <= rep.GameMoves {
		t.Fatalf("the corpus game with undo: %d taken back, %d analysed of %d", rep.Undone, rep.Analysed, rep.GameMoves)
	}
	if got := byID(t, p, "undone"); got != fmt.Sprint(rep.Undone) || !strings.Contains(p, "</span> of them taken back (undo), each analysed as played</dd>") {
		t.Errorf("undone %q, want %d, then what it means", got, rep.Undone)
	}
	if got := byID(t, p, "evidence-why"); !strings.Contains(got, "taken back (undo)") {
		t.Errorf("why: %q", got)
	}
	p, _ = analysedPage(t, "valid/tile-merge-2048.yaml", analyze.Options{})
	if strings.Contains(p, `id="undone"`) || strings.Contains(p, "taken back") {
		t.Error("a game without undo: the page speaks of undo")
	}
}

func TestEvidenceNotAnalysed(t *testing.T) {
	g := load(t, "tampered/illegal-move-inserted.yaml")
	_, err := analyze.Analyze(context.Background(), replay.NewVerifier(), "x", g.Replay, analyze.Options{})
	if err == nil {
		t.Fatal("an invalid replay analysed")
	}
	g = load(t, "valid/committed-seed.yaml")
	g.Verdict.Analysis, _ = json.Marshal(map[string]string{"band": analyze.Insufficient, "reason": err.Error()})
	p := page(t, g)
	if got := byID(t, p, "band-key"); got != analyze.Insufficient {
		t.Errorf("band %q", got)
	}
	// A reason that says it (not analysable: ...) is not said twice; any
	// other is said to be why the game was not analysed.
	if got := byID(t, p, "evidence-why"); got != err.Error() || !strings.HasPrefix(got, "not analysable: ") {
		t.Errorf("why: %q", got)
	}
	other := g
	other.Verdict.Analysis, _ = json.Marshal(map[string]string{"band": analyze.Insufficient, "reason": "the analysis cannot be written as JSON"})
	if got := byID(t, page(t, other), "evidence-why"); got != "not analysed: the analysis cannot be written as JSON" {
		t.Errorf("why: %q", got)
	}
	if got := byID(t, p, "not-a-finding"); got != analyze.NotAFinding {
		t.Errorf("not a finding: %q", got)
	}
	for _, id := range []string{"statement", "evidence-table", "score"} {
		if strings.Contains(p, `id="`+id+`"`) {
			t.Errorf("#%s on the page of a game not analysed", id)
		}
	}
}

// TestEvidenceAbsent: without an analysis the page has no section and
// none of its style.
func TestEvidenceAbsent(t *testing.T) {
	p := page(t, load(t, "valid/classic-2048.yaml"))
	for _, s := range []string{`id="evidence"`, "Moves compared with reference evaluators and players", ".evidence", analyze.NotAFinding} {
		if strings.Contains(p, s) {
			t.Errorf("the page without an analysis holds %q", s)
		}
	}
}

// TestEvidenceHostileNames: the game's name and the reference's name are
// text on the page, never markup, wherever they appear (the statement,
// the reference).
func TestEvidenceHostileNames(t *testing.T) {
	const hostile = `<script>alert(1)</script><img src=x onerror=alert(2)>&amp;"'`
	builtin, err := analyze.BuiltinReference()
	if err != nil {
		t.Fatal(err)
	}
	base, err := json.Marshal(builtin)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(base, &m)
	m["name"] = "ref " + hostile
	data, _ := json.Marshal(m)
	ref, err := analyze.ParseReference(data)
	if err != nil {
		t.Fatal(err)
	}
	g := load(t, "valid/classic-2048.yaml")
	name := "game " + hostile
	g.Verdict.Name = name
	rep, err := analyze.Analyze(context.Background(), replay.NewVerifier(), name, g.Replay, analyze.Options{Reference: ref})
	if err != nil {
		t.Fatal(err)
	}
	g.Verdict.Analysis, _ = json.Marshal(rep)
	p := page(t, g)
	for _, bad := range []string{"<script>alert", "<img src=x", `"'`} {
		if strings.Contains(p, bad) {
			t.Errorf("the page holds %q as it stands", bad)
		}
	}
	if got := byID(t, p, "reference"); got != ref.ID() || !strings.HasPrefix(got, "ref "+hostile) {
		t.Errorf("reference %q, want %q", got, ref.ID())
	}
	if got := byID(t, p, "statement"); !strings.HasPrefix(got, name+": ") {
		t.Errorf("statement %q", got)
	}
}

// TestReportBands: the report's rows carry the bands only when a game
// was analysed: their names once, a number a row (null for a game not
// analysed); the table has the column and its filter then, with each
// band's count.
func TestReportBands(t *testing.T) {
	entries := corpusEntries(t)
	plain := reportHTML(t, "batch", entries)
	if strings.Contains(plain, `"bands"`) || strings.Contains(plain, `data-col="12"`) {
		t.Error("a report of no analysed game has the band column")
	}
	want := map[string]int{}
	for i := range entries {
		if entries[i].Verdict.Valid {
			entries[i].Band = bandOrder[i%len(bandOrder)]
			want[entries[i].Band]++
		}
	}
	p := reportHTML(t, "batch", entries)
	var d struct {
		Bands []string `json:"bands"`
		Rows  [][]any  `json:"rows"`
	}
	raw := regexp.MustCompile(`(?s)<script type="application/json" id="tp-rows">(.*?)</script>`).FindStringSubmatch(p)
	if raw == nil || json.Unmarshal([]byte(raw[1]), &d) != nil {
		t.Fatal("no rows")
	}
	if strings.Join(d.Bands, ",") != "insufficient,consistent,review,strong" {
		t.Errorf("bands %q", d.Bands)
	}
	for i, r := range d.Rows {
		e := entries[i]
		if len(r) != 13 {
			t.Fatalf("row %d has %d fields", i, len(r))
		}
		switch n, ok := r[12].(float64); {
		case e.Band == "" && r[12] != nil:
			t.Errorf("row %d: band %v for a game not analysed", i, r[12])
		case e.Band != "" && (!ok || d.Bands[int(n)] != e.Band):
			t.Errorf("row %d: band %v, want %s", i, r[12], e.Band)
		}
	}
	if !strings.Contains(p, `<th data-col="12"`) {
		t.Error("no band column")
	}
	for band, n := range want {
		if !strings.Contains(p, fmt.Sprintf(`<option value="%s" title="%s">%s %d</option>`, band, analyze.BandText(band), band, n)) {
			t.Errorf("no filter option %s %d", band, n)
		}
	}
}

// TestBatchReportAnalysis: a batch report whose extras analyse each
// legal game (as the command's do) adds the analysis before the game's
// page is written: the verdict carries it, the page shows it, the entry
// keeps its band alone; the invalid game has none.
func TestBatchReportAnalysis(t *testing.T) {
	dir := t.TempDir()
	v := replay.NewVerifier()
	h, err := CreateBatchReport(filepath.Join(dir, "r.html"), nil, v, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	h.SetExtras(analyseWith(func(name string, r *replay.Replay) json.RawMessage {
		calls++
		rep, err := analyze.Analyze(context.Background(), v, name, r, analyze.Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(rep)
		return b
	}))
	names := []string{"valid/committed-seed.yaml", "valid/classic-spawns-random.yaml", "valid/online-2048-target-512.yaml", "tampered/illegal-move-inserted.yaml"}
	bands := map[string]string{}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join("..", "replays", name))
		if err != nil {
			t.Fatal(err)
		}
		vd := h.Verify(name, data)
		if vd.Valid != (len(vd.Analysis) > 0) {
			t.Errorf("%s: valid %v, analysis %q", name, vd.Valid, vd.Analysis)
		}
		bands[name], _ = cellsOf(vd.Analysis)
		h.Add(vd)
	}
	if calls != 3 {
		t.Errorf("%d analyses of 3 valid games", calls)
	}
	if _, _, _, err := h.Finish("t"); err != nil {
		t.Fatal(err)
	}
	for i, e := range h.entries {
		if e.Band != bands[names[i]] || len(e.Verdict.Analysis) > 0 {
			t.Errorf("%s: entry band %q (want %q), analysis kept: %d bytes", names[i], e.Band, bands[names[i]], len(e.Verdict.Analysis))
		}
		data, err := os.ReadFile(filepath.Join(h.Dir(), pageFile(names[i])))
		if err != nil {
			t.Fatal(err)
		}
		has := strings.Contains(string(data), `id="evidence"`)
		if has != (bands[names[i]] != "") {
			t.Errorf("%s: the section on its page: %v, band %q", names[i], has, bands[names[i]])
		}
		if has && byID(t, string(data), "band-key") != bands[names[i]] {
			t.Errorf("%s: the page's band %q, want %q", names[i], byID(t, string(data), "band-key"), bands[names[i]])
		}
	}
}
