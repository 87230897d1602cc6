package htmlview

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/server"
)

// TestBrowserThinkTimes opens the viewer page of a game played through
// a signed server, its times sealed by the key given, at 1,280 px and on
// a 390 px phone: the part "Think times" is drawn in the section of
// evidence with its eight figures, each a line of text within the
// window, the seal and the sentence that the figures change no band;
// the page is no wider than the window.
func TestBrowserThinkTimes(t *testing.T) {
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
