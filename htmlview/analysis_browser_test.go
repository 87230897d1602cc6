package htmlview

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/server"
)

// TestBrowserEvidence opens the viewer page of an analysed game at
// 1,280 px and on a 390 px phone: the section is drawn with the band,
// the sentence that it is not a finding and a row an evaluator, and the
// page is no wider than the window.
func TestBrowserEvidence(t *testing.T) {
	t.Parallel()
	p, rep := analysedPage(t, "valid/classic-2048.yaml", analyze.Options{Clairvoyance: true})
	in := tab(t) // each page a new document in the one tab
	for _, w := range []int64{1280, 390} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			ctx := openIn(t, in, p, w, 844, "", "body[data-shown]")
			var got struct {
				Height        float64
				Rows          int
				Band, Finding string
				Color         string
				Width         int
			}
			js := eval[string](t, ctx, `JSON.stringify({
				height: document.getElementById("evidence").getBoundingClientRect().height,
				rows: document.querySelectorAll("#evidence-table tbody tr").length,
				band: document.getElementById("band").innerText,
				finding: document.getElementById("not-a-finding").innerText,
				color: getComputedStyle(document.getElementById("band")).backgroundColor,
				width: document.documentElement.scrollWidth})`)
			if err := json.Unmarshal([]byte(js), &got); err != nil {
				t.Fatal(err)
			}
			if got.Height < 100 || got.Rows != len(rep.Evaluators) || got.Band != analyze.BandText(rep.Band) || got.Finding != analyze.NotAFinding {
				t.Errorf("the section as drawn: %+v", got)
			}
			if got.Color == "rgba(0, 0, 0, 0)" || got.Color == "" {
				t.Errorf("the band has no colour: %q", got.Color)
			}
			if got.Width > int(w) {
				t.Errorf("the page is %d px wide in a window of %d", got.Width, w)
			}
		})
	}
}

// bandRows returns the band shown in each row of the report's table
// ("–" for none).
func bandRows(t *testing.T, ctx context.Context) []string {
	t.Helper()
	js := eval[string](t, ctx, `JSON.stringify(Array.from(document.querySelectorAll("#replays tbody tr")).map(r => r.cells[10].textContent))`)
	var out []string
	if err := json.Unmarshal([]byte(js), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBrowserReportBands uses the report's band column: a click on its
// heading sorts the most atypical first (the games not analysed last),
// again the other way (still last); its filter shows one band's rows;
// on a phone the page is no wider than the window.
func TestBrowserReportBands(t *testing.T) {
	t.Parallel()
	entries := corpusEntries(t)
	want := map[string]int{}
	for i := range entries {
		if entries[i].Verdict.Valid {
			entries[i].Band = bandOrder[i%len(bandOrder)]
			want[entries[i].Band]++
		}
	}
	b := reportHTML(t, "batch", entries)
	rank := func(band string) int { return slices.Index(bandOrder, band) } // -1: not analysed
	ctx := openAt(t, b, 1280, 900, "", "body[data-ready]")
	for _, dir := range []int{-1, 1} {
		do(t, ctx, "sort by band", chromedp.Click(`#replays th[data-col="12"] button`))
		got := bandRows(t, ctx)
		if len(got) != len(entries) {
			t.Fatalf("%d rows of %d", len(got), len(entries))
		}
		none := false
		for i, band := range got {
			switch r := rank(band); {
			case r < 0:
				none = true
			case none:
				t.Errorf("sort %d: %s after a game not analysed (row %d)", dir, band, i)
			case i > 0 && rank(got[i-1]) >= 0 && (r-rank(got[i-1]))*dir < 0:
				t.Errorf("sort %d: %s after %s (row %d)", dir, band, got[i-1], i)
			}
		}
		if dir < 0 && got[0] != analyze.Strong {
			t.Errorf("the first row after a sort by band is %s", got[0])
		}
	}
	for band, n := range want {
		do(t, ctx, "filter "+band, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(e => { e.value = %q; e.dispatchEvent(new Event("change")); })(document.querySelector('[data-f="12"]'))`, band)))
		got := bandRows(t, ctx)
		if len(got) != n || slices.ContainsFunc(got, func(s string) bool { return s != band }) {
			t.Errorf("the filter %s shows %q, want %d rows", band, got, n)
		}
		if shown := eval[string](t, ctx, `document.getElementById("shown").textContent`); !strings.HasPrefix(shown, fmt.Sprintf("%d of ", n)) {
			t.Errorf("the filter %s: %q", band, shown)
		}
	}
	// The CSV of what is shown (the last filter's rows) ends each line
	// with the band.
	last := bandOrder[0]
	for band := range want {
		last = band
	}
	do(t, ctx, "filter "+last, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(e => { e.value = %q; e.dispatchEvent(new Event("change")); })(document.querySelector('[data-f="12"]'))`, last)))
	lines := shownCSV(t, ctx)
	if len(lines) != want[last]+1 || !strings.HasSuffix(lines[0], ",band") {
		t.Errorf("the CSV of band %s: %q", last, lines)
	}
	for _, l := range lines[1:] {
		if !strings.HasSuffix(l, ","+last) {
			t.Errorf("a CSV line of band %s: %q", last, l)
		}
	}
	phone := openIn(t, ctx, b, 390, 844, "", "body[data-ready]") // the same tab, a new document
	if w := eval[int](t, phone, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the report with bands is %d px wide on a 390 px phone", w)
	}
}

// TestBrowserReportBandsScale is TestBrowserReportScale with a band a
// valid game: the bytes a submission the column adds, and a sort and a
// filter by band within the same targets.
func TestBrowserReportBandsScale(t *testing.T) {
	t.Parallel()
	for _, n := range scaleSizes() {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			entries := fabricated(n)
			without := reportHTML(t, "audit", entries)
			withBands(entries)
			b := reportHTML(t, "audit", entries)
			_, load, sortMS, filterMS := scaleTargets(t, b, n, 12, "strong")
			t.Logf("%d submissions: %d bytes (%.1f a submission; %.1f without bands), loaded in %.0f ms, sort by band %.0f ms, filter %.0f ms",
				n, len(b), float64(len(b))/float64(n), float64(len(without))/float64(n), load, sortMS, filterMS)
		})
	}
}

// TestBrowserThinkTimes opens the viewer page of a game played through
// a signed server, its times sealed by the key given, at 1,280 px and on
// a 390 px phone: the part "Think times" is drawn in the section of
// evidence with its eight figures, each a line of text within the
// window, the seal and the sentence that the figures change no band;
// the page is no wider than the window.
func TestBrowserThinkTimes(t *testing.T) {
	t.Parallel()
	r := playTimed(t, "browser", 120)
	p, rep := timedPage(t, r, func(r *replay.Replay) error { return server.CheckTimes([]byte(thinkKey), r) })
	if rep.ThinkTime == nil || rep.ThinkTime.Sealed == nil || !*rep.ThinkTime.Sealed {
		t.Fatalf("the analysis's think times: %+v", rep.ThinkTime)
	}
	in := tab(t)
	for _, w := range []int64{1280, 390} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			ctx := openIn(t, in, p, w, 844, "", "body[data-shown]")
			var got struct {
				Inside        bool
				Figures       []string
				Seal, NoBand  string
				Height        float64
				Widest, Width int
				Columns       string
			}
			js := eval[string](t, ctx, `(() => {
				const part = document.getElementById("think-figures"), section = document.getElementById("evidence");
				const within = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.right <= window.innerWidth + 0.5 && r.left >= -0.5; };
				const els = [document.getElementById("think-title"), document.getElementById("think-seal"), document.getElementById("think-no-band"),
					document.getElementById("think-reading"), ...part.querySelectorAll("dt, dd")];
				return JSON.stringify({
					inside: section.contains(part) && els.every(within),
					figures: Array.from(part.querySelectorAll("dd")).map(d => d.innerText),
					seal: document.getElementById("think-seal").innerText,
					noBand: document.getElementById("think-no-band").innerText,
					height: part.getBoundingClientRect().height,
					widest: Math.max(...els.map(el => Math.ceil(el.scrollWidth - el.clientWidth))),
					width: document.documentElement.scrollWidth,
					columns: getComputedStyle(part).gridTemplateColumns});
			})()`)
			if err := json.Unmarshal([]byte(js), &got); err != nil {
				t.Fatal(err)
			}
			if !got.Inside {
				t.Errorf("a part of the think times is drawn outside the window or not at all: %+v", got)
			}
			if len(got.Figures) != 8 || got.Height < 100 {
				t.Errorf("the figures as drawn: %d, %.0f px high: %q", len(got.Figures), got.Height, got.Figures)
			}
			for _, f := range got.Figures {
				if strings.TrimSpace(f) == "" {
					t.Errorf("an empty figure: %q", got.Figures)
				}
			}
			if !strings.HasPrefix(got.Seal, "sealed by the server whose key was given") || !strings.HasPrefix(got.NoBand, "These figures change no band") {
				t.Errorf("the seal %q, the sentence %q", got.Seal, got.NoBand)
			}
			if got.Widest > 0 {
				t.Errorf("an element of the part overflows by %d px", got.Widest)
			}
			if got.Width > int(w) {
				t.Errorf("the page is %d px wide in a window of %d", got.Width, w)
			}
			// On a phone the figures are one column, each under its name.
			if cols := len(strings.Fields(got.Columns)); (w < 640) != (cols == 1) {
				t.Errorf("%d px: the figures in %d columns (%s)", w, cols, got.Columns)
			}
		})
	}
}

// thinkRows returns the think time shown in each row of the report's
// table, and the label a phone's stylesheet writes before it.
func thinkRows(t *testing.T, ctx context.Context) (cells []string, label string) {
	t.Helper()
	js := eval[string](t, ctx, `JSON.stringify({cells: Array.from(document.querySelectorAll("#replays tbody tr")).map(r => r.cells[11].textContent),
		label: getComputedStyle(document.querySelector("#replays tbody tr").cells[11], "::before").content})`)
	var got struct {
		Cells []string
		Label string
	}
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	return got.Cells, got.Label
}

// TestBrowserReportThink uses the report's column of the median think
// times of games played through a signed server: a click on its heading
// sorts the slowest first and the games without times last, again the
// other way (still last); its filter ">=0" leaves the timed games; the
// CSV of what is shown ends each line with the median; on a 390 px phone
// each row's median has its label and the page is no wider than the
// window.
func TestBrowserReportThink(t *testing.T) {
	t.Parallel()
	games := timedGames(t, 90)
	order := []string{"bare.json", "a.json", "classic.yaml", "b.json"}
	summary, _, medians := thinkBatch(t, games, order)
	if len(medians) != 2 {
		t.Fatalf("%d timed games", len(medians))
	}
	ctx := openAt(t, summary, 1280, 900, "", "body[data-ready]")
	if w := eval[float64](t, ctx, `document.querySelector('#replays th[data-col="13"]').getBoundingClientRect().width`); w < 50 {
		t.Errorf("the column is %.0f px wide", w)
	}
	for _, dir := range []int{-1, 1} {
		do(t, ctx, "sort by think", chromedp.Click(`#replays th[data-col="13"] button`))
		got, _ := thinkRows(t, ctx)
		if len(got) != len(order) {
			t.Fatalf("%d rows of %d", len(got), len(order))
		}
		x, errX := strconv.Atoi(got[0])
		y, errY := strconv.Atoi(got[1])
		if errX != nil || errY != nil || (y-x)*dir < 0 || got[2] != "\u2013" || got[3] != "\u2013" {
			t.Errorf("sort %d: %q", dir, got)
		}
	}
	do(t, ctx, "filter", chromedp.Evaluate[chromedp.Void](`(e => { e.value = ">=0"; e.dispatchEvent(new Event("change")); })(document.querySelector('[data-f="13"]'))`))
	got, _ := thinkRows(t, ctx)
	want := []string{}
	for _, name := range order {
		if m, ok := medians[name]; ok {
			want = append(want, strconv.Itoa(int(math.Round(m))))
		}
	}
	if slices.Sort(got); strings.Join(got, ",") != strings.Join(slices.Sorted(slices.Values(want)), ",") {
		t.Errorf("the filter >=0 shows %q, want %q", got, want)
	}
	lines := shownCSV(t, ctx)
	if len(lines) != 3 || !strings.HasSuffix(lines[0], ",band,thinkMedianMs") {
		t.Errorf("the CSV: %q", lines)
	}
	for _, l := range lines[1:] {
		if i := strings.LastIndexByte(l, ','); i < 0 || !slices.Contains(want, l[i+1:]) {
			t.Errorf("a CSV line: %q, want a median of %q", l, want)
		}
	}
	phone := openIn(t, ctx, summary, 390, 844, "", "body[data-ready]")
	if w := eval[int](t, phone, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the report with think times is %d px wide on a 390 px phone", w)
	}
	if _, label := thinkRows(t, phone); label != `"think ms "` {
		t.Errorf("on a phone the median's label is %s", label)
	}
}

// TestBrowserReportThinkScale is TestBrowserReportBandsScale with a
// median think time for half the valid games: the bytes a submission the
// column adds, and a sort and a filter by it within the same targets.
func TestBrowserReportThinkScale(t *testing.T) {
	t.Parallel()
	for _, n := range scaleSizes() {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			entries := fabricated(n)
			withBands(entries)
			bands := reportHTML(t, "audit", entries)
			for i := range entries {
				if entries[i].Verdict.Valid && i%2 == 0 {
					ms := float64((i * 7919) % 20000)
					entries[i].ThinkMs = &ms
				}
			}
			b := reportHTML(t, "audit", entries)
			_, load, sortMS, filterMS := scaleTargets(t, b, n, 13, "<500")
			t.Logf("%d submissions: %d bytes (%.1f a submission; %.1f with bands alone), loaded in %.0f ms, sort by think time %.0f ms, filter %.0f ms",
				n, len(b), float64(len(b))/float64(n), float64(len(bands))/float64(n), load, sortMS, filterMS)
		})
	}
}
