package termview

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

func TestFrameCaption(t *testing.T) {
	b := mustBoard(t, "2 . . .\n. . . .\n. . . .\n. . 4 .")
	for _, tc := range []struct {
		f    replay.Frame
		want []string
	}{
		{replay.Frame{Board: b}, []string{"step 0 of 9   score 0   moves 0", "the start"}},
		{
			replay.Frame{Step: 3, Action: engine.MoveRight, Spawn: &engine.Spawn{Row: 1, Col: 3, Value: 2}, Gained: 4, Board: b, Score: 12, Moves: 3},
			[]string{"step 3 of 9   score 12 (+4)   moves 3", "right, then a 2 appeared in cell 7 (row 1, column 3)"},
		},
		{
			replay.Frame{Step: 4, Action: engine.Undo, Board: b, Score: 8, Moves: 2},
			[]string{"step 4 of 9   score 8   moves 2", "undo: the last move taken back"},
		},
		{
			replay.Frame{Step: 9, Action: engine.EndRun, Board: b, Score: 8, Moves: 2, Result: engine.RunFinished},
			[]string{"step 9 of 9   score 8   moves 2", "end run", "run over: run finished"},
		},
		{
			replay.Frame{Step: 7, Action: engine.MoveUp, Spawn: &engine.Spawn{Row: 3, Col: 0, Value: 4}, Board: b, Score: 20000, Moves: 7, Won: true, Result: engine.TargetReached},
			[]string{"step 7 of 9   score 20000   moves 7", "up, then a 4 appeared in cell 12 (row 3, column 0)", "won, run over: target reached"},
		},
		{
			replay.Frame{Step: 8, Action: engine.KeepPlaying, Board: b, Score: 20000, Moves: 7, Won: true},
			[]string{"step 8 of 9   score 20000   moves 7", "keep playing after the win", "won"},
		},
	} {
		if diff := cmp.Diff(tc.want, FrameCaption(tc.f, 9)); diff != "" {
			t.Errorf("step %d (-want +got):\n%s", tc.f.Step, diff)
		}
	}
}

func TestVerdictLines(t *testing.T) {
	for _, tc := range []struct {
		v    replay.Verdict
		want []string
	}{
		{replay.Verdict{Valid: true, Proved: "score 4 ... by tp1"}, []string{"VALID", "score 4 ... by tp1"}},
		{
			replay.Verdict{Reason: replay.IllegalMove, Divergence: &replay.Divergence{Action: 704, Move: 703, Expected: "action 704 (left), a move that changes the board", Found: "moving left does not change the board"}},
			[]string{"INVALID: illegal-move at action 704 (after 703 counted moves)", "expected  action 704 (left), a move that changes the board", "found     moving left does not change the board"},
		},
		{
			replay.Verdict{Reason: replay.ClaimBoard, Divergence: &replay.Divergence{Action: 3, Move: 3, Expected: "board\n2 .\n. .", Found: "board\n4 .\n. ."}},
			[]string{"INVALID: claim-board at action 3 (after 3 counted moves)", "expected  board ...", "found     board ..."},
		},
		{
			// Judged before replaying: no action to name.
			replay.Verdict{Reason: replay.ImpossibleClaim, Divergence: &replay.Divergence{Expected: "a claim some game can reach", Found: "the score is 4, not 6"}},
			[]string{"INVALID: impossible-claim", "expected  a claim some game can reach", "found     the score is 4, not 6"},
		},
		{
			replay.Verdict{Reason: replay.ClaimScore, Divergence: &replay.Divergence{Action: 9, Move: 9, Expected: "score 8", Found: "score 4"},
				Mismatches: []replay.Mismatch{{Field: "score", Claimed: "8", Found: "4"}, {Field: "maxTile", Claimed: "8", Found: "4"}}},
			[]string{"INVALID: claim-score at action 9 (after 9 counted moves)", "expected  score 8", "found     score 4", "also maxTile: claimed 8, found 4"},
		},
		{
			replay.Verdict{Reason: replay.Malformed, Error: "x.yaml:3: moves: bad\nmore"},
			[]string{"INVALID: malformed: x.yaml:3: moves: bad ..."},
		},
	} {
		if diff := cmp.Diff(tc.want, VerdictLines(tc.v)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.v.Reason, diff)
		}
	}
}
