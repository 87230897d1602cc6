package replay

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// TestTraceCorpus traces every replay of the corpus and checks the frames
// against the verdict and against each other: a frame for every action up
// to the divergence, the last frame's figures the verdict's, and each
// move's frame its predecessor slid, scored and spawned on.
func TestTraceCorpus(t *testing.T) {
	v := NewVerifier()
	for _, e := range readManifest(t) {
		t.Run(e.File, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(corpusDir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Decode(e.File, data)
			if err != nil {
				return // unreadable: nothing to trace
			}
			vd, frames := v.Trace(r)
			// Tracing takes the move-by-move way, verifying the fast one:
			// the same verdict, plausibility figures included.
			if traced, verified := string(vd.AppendJSON(nil)), string(v.Verify(r).AppendJSON(nil)); traced != verified {
				t.Errorf("traced verdict\n%s\nverified\n%s", traced, verified)
			}
			switch {
			case vd.Reason == Refused || vd.Reason == BadStart:
				if frames != nil {
					t.Fatalf("%s: %d frames, want none", vd.Reason, len(frames))
				}
				return
			case vd.Divergence != nil && vd.Divergence.Action > 0 && vd.Mismatches == nil:
				// A refused action: the frames stop just before it.
				if len(frames) != vd.Divergence.Action {
					t.Fatalf("divergence at action %d, %d frames (want one per action before it and the start)", vd.Divergence.Action, len(frames))
				}
			case vd.Reason == SeedCommitment || vd.Reason == ImpossibleClaim:
				// Judged before replaying: the frames go as far as the
				// rules accept the moves.
				if len(frames) == 0 || len(frames) > len(r.Actions)+1 {
					t.Fatalf("%d actions, %d frames", len(r.Actions), len(frames))
				}
				checkFrames(t, r, frames)
				return
			default:
				if len(frames) != len(r.Actions)+1 {
					t.Fatalf("%d actions, %d frames", len(r.Actions), len(frames))
				}
			}
			last := frames[len(frames)-1]
			if vd.Divergence == nil || vd.Mismatches != nil {
				if last.Score != vd.Score || last.Moves != vd.Moves || last.Board.MaxTile() != vd.MaxTile {
					t.Errorf("last frame score %d moves %d max %d; verdict %d %d %d", last.Score, last.Moves, last.Board.MaxTile(), vd.Score, vd.Moves, vd.MaxTile)
				}
			}
			checkFrames(t, r, frames)
		})
	}
}

// checkFrames checks that each move's frame follows from the one before.
func checkFrames(t *testing.T, r *Replay, frames []Frame) {
	t.Helper()
	if frames[0].Step != 0 || frames[0].Moves != 0 && r.Seed != nil {
		t.Errorf("frame 0: step %d, moves %d", frames[0].Step, frames[0].Moves)
	}
	for i := 1; i < len(frames); i++ {
		prev, f := frames[i-1], frames[i]
		if f.Step != i || f.Action != r.Actions[i-1] {
			t.Fatalf("frame %d: step %d action %s, want step %d action %s", i, f.Step, f.Action, i, r.Actions[i-1])
		}
		d, ok := f.Action.Direction()
		if !ok {
			continue
		}
		sl, err := prev.Board.Slide(d)
		if err != nil || !sl.Changed || f.Gained != sl.Gained || f.Score != prev.Score+sl.Gained || f.Moves != prev.Moves+1 {
			t.Fatalf("frame %d (%s): gained %d score %d moves %d; from frame %d the slide gives %v, %d points", i, d, f.Gained, f.Score, f.Moves, i-1, sl.Board, sl.Gained)
		}
		if f.Spawn == nil || sl.Board.At(f.Spawn.Row, f.Spawn.Col) != 0 {
			t.Fatalf("frame %d: spawn %v on the slid board\n%v", i, f.Spawn, sl.Board)
		}
		want, err := engine.BoardFromValues(sl.Board.Values())
		if err != nil {
			t.Fatal(err)
		}
		if err := want.Set(f.Spawn.Row, f.Spawn.Col, f.Spawn.Value); err != nil {
			t.Fatal(err)
		}
		if want != f.Board {
			t.Fatalf("frame %d: board\n%v\nis not the slid board with the spawn\n%v", i, f.Board, want)
		}
		if r.Start != nil && *f.Spawn != r.Spawns[i-1] {
			t.Fatalf("frame %d: spawn %v, the replay records %v", i, *f.Spawn, r.Spawns[i-1])
		}
	}
}
