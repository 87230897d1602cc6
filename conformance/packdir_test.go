package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCasePackBoundTogether: a pack's files are read up to 64 MiB
// together, each within its own 8 MiB: the ninth file of 8 MiB is
// refused, unread, so that many files at the bound do not add up.
func TestCasePackBoundTogether(t *testing.T) {
	dir := t.TempDir()
	for i := range 9 {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("f%d.yaml", i)))
		if err == nil {
			err = f.Truncate(8 << 20) // sparse: no disk
			f.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	p := &packDir{FS: root.FS(), root: root}
	for i := range 9 {
		_, err := p.ReadFile(fmt.Sprintf("f%d.yaml", i))
		switch {
		case i < 8 && err != nil:
			t.Fatalf("file %d: %v", i, err)
		case i == 8 && (err == nil || !strings.Contains(err.Error(), "larger than 64 MiB together")):
			t.Errorf("the ninth file: %v, want larger than 64 MiB together", err)
		}
	}
}
