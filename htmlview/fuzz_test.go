package htmlview

import (
	"strings"
	"testing"
	"time"

	"github.com/tileproof/tileproof/engine"
)

// FuzzSegments reads boards out of any text, as the conformance page does
// with a failure's text (which may come from the implementation): no
// panic, every line of the text in exactly one segment (a board's rows
// are lines), each board one of 2 to 8 rows that the segment draws, and
// the text's lines in order.
func FuzzSegments(f *testing.F) {
	for _, s := range []string{
		"moving up on\n 2  .  .  .\n 4  .  .  .\n .  .  .  .\n .  .  . 16\nchanges nothing",
		"a 2x2, then a row\n2 4\n8 16\n32 64 128",
		"not tiles\n3 5\n7 9", "", "\n\n", "2 .\n. 4\n2 .\n. 4\n2 .\n. 4\n2 .\n. 4\n2 .",
		"move left: cell (0, 1) after the slide is not 4\n2 . . .\n. . . .", "0 0\n0 0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var boards []engine.Board
		segs := segments(text, &boards)
		lines := strings.Split(text, "\n")
		k, nb := 0, 0 // the next line of the text, boards seen
		for _, s := range segs {
			if s.Board != nil {
				if nb >= len(boards) {
					t.Fatalf("%q: more board segments than boards", text)
				}
				b := boards[nb]
				nb++
				if b.Rows() < engine.MinSide || b.Rows() > engine.MaxSide || len(s.Board) != b.Rows() || len(s.Board[0]) != b.Cols() {
					t.Fatalf("%q: a board of %dx%d drawn as %d rows", text, b.Rows(), b.Cols(), len(s.Board))
				}
				if again, err := engine.ParseBoard(strings.Join(lines[k:k+b.Rows()], "\n")); err != nil || again != b {
					t.Fatalf("%q: the board is not lines %d to %d: %v", text, k, k+b.Rows(), err)
				}
				k += b.Rows()
				continue
			}
			n := strings.Count(s.Text, "\n") + 1
			if k+n > len(lines) || s.Text != strings.Join(lines[k:k+n], "\n") {
				t.Fatalf("%q: the text segment %q is not the text's lines from %d", text, s.Text, k)
			}
			k += n
		}
		if k != len(lines) || nb != len(boards) {
			t.Fatalf("%q: segments cover %d of %d lines, %d of %d boards", text, k, len(lines), nb, len(boards))
		}
	})
}

// TestSegmentsLinear: a text of a hundred thousand grid lines, which
// make no board, is read in one pass (a scan from each line would take
// minutes).
func TestSegmentsLinear(t *testing.T) {
	text := strings.Repeat("2 4 8 16\n", 100000)
	start := time.Now()
	var boards []engine.Board
	segs := segments(text, &boards)
	if len(boards) != 0 || len(segs) != 1 {
		t.Errorf("%d segments, %d boards", len(segs), len(boards))
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("%v to read %d bytes", d, len(text))
	}
}
