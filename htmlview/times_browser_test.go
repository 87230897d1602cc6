package htmlview

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tileproof/tileproof/replay"
)

// TestBrowserTimes opens the pages of checked think times in Chromium: the
// report's link "N NOT sealed" leaves in the table exactly the replays
// whose times are not sealed, their "what" saying why; the viewer page
// of a game whose times are not sealed shows the line, the reason as
// text, at 1,280 px and on a 390 px phone no wider than the window.
func TestBrowserTimes(t *testing.T) {
	t.Parallel()
	entries, _, notSealed, _, _ := timedEntries(t)
	b := reportHTML(t, "batch", entries)
	want := map[string]bool{}
	for _, e := range entries {
		if e.Verdict.ThinkTimes.State() == replay.TimesNotSealed {
			want[e.Verdict.Name] = true
		}
	}
	ctx := openAt(t, b, 1280, 900, "", "body[data-ready]")
	do(t, ctx, "follow the link", chromedp.Click(`#times-not-sealed`))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`document.querySelectorAll("#replays tbody tr").length === %d`, notSealed),
		chromedp.WithPollingTimeout(hangBound))); err != nil {
		t.Fatalf("the link to the times not sealed: %v; shown: %s", err, eval[string](t, ctx, `document.getElementById("shown").textContent`))
	}
	js := eval[string](t, ctx, `JSON.stringify(Array.from(document.querySelectorAll("#replays tbody tr")).map(r => [r.cells[1].textContent, r.querySelector(".what").textContent]))`)
	var rows [][2]string
	if err := json.Unmarshal([]byte(js), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if !want[r[0]] || !strings.HasSuffix(r[1], "; think times NOT sealed") {
			t.Errorf("a row of the filter: %q", r)
		}
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("script").length + document.querySelectorAll("#replays b").length`); n != 2 {
		t.Errorf("the reasons' markup became elements: %d scripts and bold", n)
	}

	g := load(t, "valid/classic-2048.yaml")
	g.Verdict.ThinkTimes = &replay.TimesCheck{Count: 1234, Reason: hostileReason}
	p := page(t, g)
	for _, w := range []int64{1280, 390} {
		ctx := openIn(t, ctx, p, w, 844, "", "body[data-shown]")
		var got struct {
			Line, Why string
			Height    float64
			Width     int
		}
		js := eval[string](t, ctx, `JSON.stringify({
			line: document.getElementById("think-times").innerText,
			why: document.getElementById("times-why").textContent,
			height: document.getElementById("think-times").getBoundingClientRect().height,
			width: document.documentElement.scrollWidth})`)
		if err := json.Unmarshal([]byte(js), &got); err != nil {
			t.Fatal(err)
		}
		if got.Why != hostileReason || !strings.Contains(got.Line, "NOT sealed by the server whose key was given") ||
			!strings.Contains(got.Line, "The verdict on the game stands") || got.Height < 10 {
			t.Errorf("%d px: the line as drawn: %+v", w, got)
		}
		if got.Width > int(w) {
			t.Errorf("the page is %d px wide in a window of %d", got.Width, w)
		}
	}
}
