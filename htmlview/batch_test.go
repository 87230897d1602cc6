package htmlview

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tileproof/tileproof/replay"
)

// TestBatchReportDirSwapped: the pages' directory swapped for a link to
// another directory while the batch runs is not written through: the
// pages go to the directory the report opened (an os.Root), wherever it
// now is, and nothing is written or removed in the link's target (issue
// 25, item 9).
func TestBatchReportDirSwapped(t *testing.T) {
	base := t.TempDir()
	valid, err := os.ReadFile("../replays/minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(base, "outside")
	os.Mkdir(outside, 0o755)
	bait := filepath.Join(outside, "bait-0123abcd.html") // named as a page: a stale page would be removed
	os.WriteFile(bait, []byte("keep"), 0o644)
	report := filepath.Join(base, "report.html")
	h, err := CreateBatchReport(report, []string{"in/a.yaml"}, replay.NewVerifier(), 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(base, "moved")
	if err := os.Rename(h.Dir(), moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, h.Dir()); err != nil {
		t.Skip(err)
	}
	for _, name := range []string{"in/a.yaml", "in/b.yaml"} {
		vd := h.Verify(name, valid)
		if !vd.Valid {
			t.Fatalf("%s: %+v", name, vd)
		}
		h.Add(vd)
	}
	pages, _, _, err := h.Finish("test")
	if err != nil || pages != 2 {
		t.Fatalf("%d pages, %v", pages, err)
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 || entries[0].Name() != filepath.Base(bait) {
		t.Errorf("the link's target holds %v, want the bait alone", entries)
	}
	written, _ := filepath.Glob(filepath.Join(moved, "*.html"))
	if len(written) != 2 {
		t.Errorf("the report's own directory holds %q, want the 2 pages", written)
	}
}
