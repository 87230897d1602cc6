package htmlview

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tileproof/tileproof/analyze"
)

// TestBrowserEvidence opens the viewer page of an analysed game at
// 1,280 px and on a 390 px phone: the section is drawn with the band,
// the sentence that it is not a finding and a row an evaluator, and the
// page is no wider than the window.
func TestBrowserEvidence(t *testing.T) {
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
	entries := corpusEntries(t)
	want := map[string]int{}
	for i := range entries {
		if entries[i].Verdict.Valid {
			entries[i].Band = bandOrder[i%len(bandOrder)]
			want[entries[i].Band]++
		}
	}
	var b bytes.Buffer
	if err := Report(&b, "batch", entries); err != nil {
		t.Fatal(err)
	}
	rank := func(band string) int { return slices.Index(bandOrder, band) } // -1: not analysed
	ctx := openAt(t, b.String(), 1280, 900, "", "body[data-ready]")
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
	phone := openIn(t, ctx, b.String(), 390, 844, "", "body[data-ready]") // the same tab, a new document
	if w := eval[int](t, phone, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the report with bands is %d px wide on a 390 px phone", w)
	}
}

// TestBrowserReportBandsScale is TestBrowserReportScale with a band a
// valid game: the bytes a submission the column adds, and a sort and a
// filter by band within the same targets.
func TestBrowserReportBandsScale(t *testing.T) {
	for _, n := range scaleSizes() {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			entries := fabricated(n)
			var without bytes.Buffer
			if err := Report(&without, "audit", entries); err != nil {
				t.Fatal(err)
			}
			withBands(entries)
			var b bytes.Buffer
			if err := Report(&b, "audit", entries); err != nil {
				t.Fatal(err)
			}
			_, load, sortMS, filterMS := scaleTargets(t, b.String(), n, 12, "strong")
			t.Logf("%d submissions: %d bytes (%.1f a submission; %.1f without bands), loaded in %.0f ms, sort by band %.0f ms, filter %.0f ms",
				n, b.Len(), float64(b.Len())/float64(n), float64(without.Len())/float64(n), load, sortMS, filterMS)
		})
	}
}
