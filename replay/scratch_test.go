package replay

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tileproof/tileproof/engine"
)

// TestVerifyFileSharesNothing verifies the corpus (seeded and
// spawn-recorded games, valid, tampered and unreadable, so every kind of
// verdict) through one verifier's reused memory, forwards then backwards,
// and checks that each verdict, kept until the end, is the one a fresh
// decode and verification gives: no verdict holds memory a later
// verification writes, and none reads what an earlier one left.
func TestVerifyFileSharesNothing(t *testing.T) {
	var names []string
	var files [][]byte
	err := filepath.WalkDir(corpusDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".yaml" || d.Name() == "manifest.yaml" {
			return err
		}
		data, err := os.ReadFile(path)
		names, files = append(names, path), append(files, data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// The same games as JSON, so both readers fill the reused replay.
	for i := range len(names) {
		if r, err := Decode(names[i], files[i]); err == nil {
			names, files = append(names, names[i]+".json"), append(files, r.EncodeJSON())
		}
	}
	want := make([]Verdict, len(names))
	for i := range names {
		r, err := Decode(names[i], files[i])
		if err != nil {
			want[i] = Verdict{Name: names[i], Reason: Malformed, Error: err.Error()}
			continue
		}
		want[i] = NewVerifier().Verify(r)
		want[i].Name = names[i]
	}
	v := NewVerifier()
	order := make([]int, 0, 2*len(names))
	for i := range names {
		order = append(order, i)
	}
	back := slices.Clone(order)
	slices.Reverse(back)
	order = append(order, back...)
	got := make([]Verdict, len(order))
	for k, i := range order {
		got[k] = v.VerifyFile(names[i], files[i])
	}
	opts := []cmp.Option{cmp.AllowUnexported(Verdict{}, Divergence{}), cmpopts.EquateComparable(engine.Board{}), cmpopts.EquateEmpty()}
	for k, i := range order {
		if diff := cmp.Diff(want[i], got[k], opts...); diff != "" {
			t.Errorf("%s, verification %d: the verdict differs from a fresh one (-fresh +reused):\n%s", names[i], k+1, diff)
		}
	}
}
