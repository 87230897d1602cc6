package nearname

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"tile-merge", "tile-merge", 0},
		{"tilemerge", "tile-merge", 1}, {"tile-mergee", "tile-merge", 1}, {"tyle-merge", "tile-merge", 1},
		{"classic", "clasic", 1}, {"kitten", "sitting", 3}, {"pgs", "rosetta", 6},
	} {
		if got, back := Distance(c.a, c.b), Distance(c.b, c.a); got != c.want || back != c.want {
			t.Errorf("Distance(%q, %q) = %d, and %d the other way; want %d", c.a, c.b, got, back, c.want)
		}
	}
}
