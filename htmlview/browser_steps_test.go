package htmlview

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/tileproof/tileproof/internal/testkit/games"
	"github.com/tileproof/tileproof/replay"
)

// undoLog returns a valid online-2048 replay of pairs move+undo pairs.
func undoLog(t testing.TB, pairs int) *replay.Replay {
	t.Helper()
	r, err := replay.Decode("undo.json", games.MoveUndo(pairs))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestBrowserLongUndoLog: a page of 500,000 move+undo pairs, written as
// the verifier walks the game, opens in the browser within 5 s and shows
// any step: the move's board at an odd step, the start at an even one.
func TestBrowserLongUndoLog(t *testing.T) {
	t.Parallel()
	r := undoLog(t, 500000)
	pv := NewViewer(r)
	var first, moved replay.Frame
	vd := replay.NewVerifier().Walk(r, func(f replay.Frame) {
		switch f.Step {
		case 0:
			first = f
		case 1:
			moved = f
		}
		pv.Add(f)
	})
	if !vd.Valid {
		t.Fatalf("%s", vd.Reason)
	}
	vd.Name = "undo.json"
	var b bytes.Buffer
	if err := pv.Write(&b, vd, Options{}); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 100<<10 {
		t.Errorf("a page of %d bytes for 1,000,000 steps", b.Len())
	}
	tab(t) // the browser started before the clock
	start := time.Now()
	ctx := open(t, b.String())
	took := time.Since(start)
	t.Logf("1,000,001 steps, a page of %d bytes, opened in %v", b.Len(), took)
	if f := loadFactor(); took > time.Duration(f*float64(5*time.Second)) { // stretched on a loaded machine
		t.Errorf("opened in %v", took)
	}
	last := 2 * 500000
	g := TracedReplay{Frames: make([]replay.Frame, last+1)}
	for _, i := range []int{1, 2, 999, 123456, last - 1} {
		g.Frames[i] = first
		if i%2 == 1 {
			g.Frames[i] = moved
		}
		g.Frames[i].Step = i
		goTo(t, ctx, i)
		check(t, ctx, g, i, fmt.Sprintf("going to step %d", i))
	}
}
