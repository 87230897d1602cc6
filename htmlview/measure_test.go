package htmlview

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestMeasurePages measures pages written elsewhere, the way the size
// table of docs/viewer-html.md is measured: each HTML file that
// TILEPROOF_MEASURE (a glob) names, its bytes and the document's
// scrollHeight and scrollWidth at a 1,280 px window and a 390 px phone
// (and a batch report's table of replays, its width).
// It skips when TILEPROOF_MEASURE is not set.
//
//	TILEPROOF_MEASURE='/tmp/pages/*.html' go test -run MeasurePages -v ./htmlview
func TestMeasurePages(t *testing.T) {
	glob := os.Getenv("TILEPROOF_MEASURE")
	if glob == "" {
		t.Skip("TILEPROOF_MEASURE names no pages")
	}
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no pages (%v)", glob, err)
	}
	for _, f := range files {
		html, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		line := fmt.Sprintf("%s: %d bytes", filepath.Base(f), len(html))
		for _, w := range []int64{1280, 390} {
			ctx := openAt(t, string(html), w, 844, "", "body")
			m := measure(t, ctx)
			line += fmt.Sprintf(" | at %d px: %d high, %d wide", w, m.Height, m.Scroll)
			if table := eval[float64](t, ctx, `(e => e ? e.getBoundingClientRect().width : -1)(document.querySelector("#replays table, table#replays"))`); table >= 0 {
				line += fmt.Sprintf(", the replays table %.0f wide", table)
			}
		}
		t.Log(line)
	}
}
