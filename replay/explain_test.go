package replay

import (
	"slices"
	"testing"
)

// TestExplainInWords: an explanation names the claimed figures in words
// (max tile, game over), and says yes and no for flags, never the file's
// field names or Go's true and false.
func TestExplainInWords(t *testing.T) {
	// Seed 7's first four moves LLUR make score 12, max tile 8, and the
	// game goes on.
	r, err := Decode("w.yaml", []byte("profile: tile-merge\nseed: \"7\"\nmoves: LLUR\nclaim: {score: 12, maxTile: 16, moves: 4, over: true}\n"))
	if err != nil {
		t.Fatal(err)
	}
	vd := NewVerifier().Verify(r)
	e := vd.Explain()
	if vd.Reason != ClaimMaxTile || e.Says != "max tile 16" || e.Gives != "max tile 8" {
		t.Errorf("%s: says %q, gives %q", vd.Reason, e.Says, e.Gives)
	}
	if want := "the replay says game over yes, the rules give game over no"; !slices.Contains(e.Also, want) {
		t.Errorf("also %q, want %q among them", e.Also, want)
	}
}
