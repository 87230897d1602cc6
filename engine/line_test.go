package engine

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tileproof/tileproof/internal/plain"
)

func TestMergeLine(t *testing.T) {
	tests := []struct {
		in      []int64
		want    []int64
		score   int64
		changed bool
	}{
		// The Merge-line tool's example.
		{[]int64{2, 2, 2, 2}, []int64{4, 4, 0, 0}, 8, true},
		{[]int64{0, 2, 2, 2}, []int64{4, 2, 0, 0}, 4, true},
		{[]int64{2, 0, 2, 4}, []int64{4, 4, 0, 0}, 4, true},
		{[]int64{4, 4, 8, 8}, []int64{8, 16, 0, 0}, 24, true},
		{[]int64{2, 4, 2, 4}, []int64{2, 4, 2, 4}, 0, false},
		{[]int64{2}, []int64{2}, 0, false},
		{[]int64{0}, []int64{0}, 0, false},
		{[]int64{0, 2}, []int64{2, 0}, 0, true},
		{[]int64{1, 1}, []int64{2, 0}, 2, true},
		{[]int64{1 << 51, 1 << 51}, []int64{1 << 52, 0}, 1 << 52, true},
		{[]int64{8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8},
			[]int64{16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0, 0, 0, 0}, 128, true},
	}
	for _, tt := range tests {
		got, err := MergeLine(tt.in)
		if err != nil {
			t.Errorf("MergeLine(%v): %v", tt.in, err)
			continue
		}
		want := LineResult{Line: tt.want, Score: tt.score, Changed: tt.changed}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("MergeLine(%v) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestMergeLineErrors(t *testing.T) {
	tests := []struct {
		in    []int64
		index int
	}{
		{nil, -1},
		{make([]int64, 17), -1},
		{[]int64{2, -2}, 1},
		{[]int64{2, 6}, 1},
		{[]int64{3}, 0},
		{[]int64{1 << 53}, 0},
		{[]int64{1 << 52, 1 << 52}, -1}, // makes 2^53
		// 16 cells of 2^51 merge into 8 tiles of 2^52: score 2^55.
		{slices.Repeat([]int64{1 << 51}, 16), -1},
	}
	for _, tt := range tests {
		_, err := MergeLine(tt.in)
		var le *LineError
		if !errors.As(err, &le) {
			t.Errorf("MergeLine(%v) = %v, want a *LineError", tt.in, err)
			continue
		}
		if le.Index != tt.index {
			t.Errorf("MergeLine(%v): error %q at cell %d, want %d", tt.in, err, le.Index, tt.index)
		}
	}
}

// FuzzMergeLine checks MergeLine against the plain implementation and
// checks that every error is a *LineError.
func FuzzMergeLine(f *testing.F) {
	f.Add([]byte{2, 2, 2, 2})
	f.Add([]byte{0, 3, 3, 3, 1})
	f.Add([]byte{53, 53})
	f.Fuzz(func(t *testing.T, exps []byte) {
		line := make([]int64, len(exps))
		for i, e := range exps {
			switch {
			case e == 0:
			case e <= 53:
				line[i] = 1 << (e - 1)
			default:
				line[i] = int64(e) // not a power of two, or negative-free junk
			}
		}
		got, err := MergeLine(line)
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("MergeLine(%v): error %v is not a *LineError", line, err)
			}
			return
		}
		vals := make([]uint64, len(line))
		for i, v := range line {
			vals[i] = uint64(v)
		}
		want, gained := plain.SlideLeft(vals)
		for i := range want {
			if uint64(got.Line[i]) != want[i] {
				t.Fatalf("MergeLine(%v) = %v, plain gives %v", line, got.Line, want)
			}
		}
		if uint64(got.Score) != gained || got.Changed != !slices.Equal(want, vals) {
			t.Fatalf("MergeLine(%v): score %d changed %v, plain gives %d %v", line, got.Score, got.Changed, gained, !slices.Equal(want, vals))
		}
	})
}
