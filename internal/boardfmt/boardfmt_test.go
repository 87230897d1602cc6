package boardfmt

import (
	"testing"

	"github.com/tileproof/tileproof/engine"
)

func board(t *testing.T, text string) engine.Board {
	t.Helper()
	b, err := engine.ParseBoard(text)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name, want, got, diff string
	}{
		{"equal", "2 0\n0 4", "2 0\n0 4", ""},
		{"one row differs, aligned to the wider board", "2 0\n0 4", "2 0\n0 16",
			"   2  .\n-  .  4\n+  . 16\n"},
		// Rows are positions: a row moved is two rows that differ, not a
		// row inserted and one deleted.
		{"rows swapped", "2 0\n4 0\n0 0", "4 0\n2 0\n0 0",
			"- 2 .\n+ 4 .\n- 4 .\n+ 2 .\n  . .\n"},
		{"sizes differ", "2 0\n0 0", "2 0\n0 0\n0 2",
			"  2 .\n  . .\n+ . 2\n"},
	}
	for _, tt := range tests {
		if got := Diff(board(t, tt.want), board(t, tt.got)); got != tt.diff {
			t.Errorf("%s: Diff =\n%q, want\n%q", tt.name, got, tt.diff)
		}
	}
}

func TestCountsAndWeights(t *testing.T) {
	if got := Counts(map[uint64]int{4: 499, 2: 2, 8: 0, 1024: 1}); got != "2: 2, 4: 499, 1024: 1" {
		t.Errorf("Counts = %q", got)
	}
	if got := Weights([]engine.SpawnWeight{{Value: 2, Weight: 9}, {Value: 4, Weight: 1}}); got != "2: 9, 4: 1" {
		t.Errorf("Weights = %q", got)
	}
}
