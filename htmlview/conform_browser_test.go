package htmlview

import (
	"context"
	"os"
	"testing"
)

// classicWidth is what a window 1,280 px wide leaves a page beside a
// classic scrollbar (15 px, as Windows and most Linux desktops draw it;
// headless Chromium's overlay scrollbar takes no room, so the page is
// measured in a viewport that much narrower).
const classicWidth = 1280 - 15

// pageHeight is the page's height in px.
func pageHeight(t *testing.T, ctx context.Context) int {
	return eval[int](t, ctx, `document.documentElement.scrollHeight`)
}

// boardsInOneRow lists the cases of which a failing step shown (not
// folded) does not have its boards side by side in one row: the boards'
// figures at the same top, none past the window's right edge.
const boardsInOneRow = `(() => { let bad = [];
  for (const row of document.querySelectorAll(".case .row")) {
    if (row.offsetParent === null) continue; // folded
    const b = [...row.querySelectorAll("figure")].map(e => e.getBoundingClientRect());
    if (b.some(r => Math.abs(r.top - b[0].top) > 1 || r.right > document.documentElement.clientWidth)) bad.push(row.closest(".case").id);
  }
  return bad.join(" "); })()`

// TestBrowserConformTargets measures the pages of two real runs, when
// TILEPROOF_CONFORM_PAGES names them (a score-both-tiles mutant's page
// and 2048-webcomponent's against its baseline, written by
// docs/conform-pages.sh): at 1,280 px with a classic scrollbar, at most
// 6,000 and 4,000 px tall, and at 390 px the boards of every step shown
// in one row.
func TestBrowserConformTargets(t *testing.T) {
	dir := os.Getenv("TILEPROOF_CONFORM_PAGES")
	if dir == "" {
		t.Skip("TILEPROOF_CONFORM_PAGES names no folder of pages (docs/conform-pages.sh writes them)")
	}
	for _, p := range []struct {
		file string
		max  int
	}{{"score-both-tiles.html", 6000}, {"webcomponent-2048.html", 4000}} {
		html, err := os.ReadFile(dir + "/" + p.file)
		if err != nil {
			t.Fatal(err)
		}
		ctx := openAt(t, string(html), classicWidth, 844, "", "#summary")
		h := pageHeight(t, ctx)
		t.Logf("%s: %d px tall at 1,280 px with a classic scrollbar", p.file, h)
		if h > p.max {
			t.Errorf("%s: %d px tall, want at most %d", p.file, h, p.max)
		}
		if bad := eval[string](t, ctx, boardsInOneRow); bad != "" {
			t.Errorf("%s at 1,280 px: the boards of %s are not in one row", p.file, bad)
		}
		phone := openAt(t, string(html), 390, 844, "", "#summary")
		if bad := eval[string](t, phone, boardsInOneRow); bad != "" {
			t.Errorf("%s at 390 px: the boards of %s are not in one row", p.file, bad)
		}
		t.Logf("%s: %d px tall at 390 px", p.file, pageHeight(t, phone))
	}
}
