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

// verdictOf verifies a replay given as YAML.
func verdictOf(t *testing.T, text string) replay.Verdict {
	t.Helper()
	r, err := replay.Decode("r.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return replay.NewVerifier().Verify(r)
}

// TestVerdictLines lays out real verdicts: of tile-merge games from seed
// "7" (L L U R scores 12 and makes an 8; a third L changes nothing).
func TestVerdictLines(t *testing.T) {
	for _, tc := range []struct {
		v    replay.Verdict
		want []string
	}{
		{verdictOf(t, "profile: tile-merge\nseed: \"7\"\nmoves: LLUR\nclaim: {score: 12, maxTile: 8, moves: 4}\n"),
			[]string{"VALID", "score 12, tile 8 in 4 moves is reachable from seed \"7\" under profile tile-merge, rules version 1, spawns by tp1"}},
		{verdictOf(t, "profile: tile-merge\nseed: \"7\"\nmoves: LLL\nclaim: {score: 0, maxTile: 4, moves: 3}\n"),
			[]string{"INVALID: illegal-move at action 3 (after 2 counted moves)", "the replay says: action 3 (left), a move that changes the board",
				"the rules give:  moving left does not change the board, so it is not a legal move; legal moves: up, down, right"}},
		{verdictOf(t, "profile: tile-merge\nseed: \"7\"\nmoves: LLUR\nclaim: {score: 16, maxTile: 16, moves: 4}\n"),
			[]string{"INVALID: claim-score at action 4 (after 4 counted moves)", "the replay says: score 16", "the rules give:  score 12",
				"also the replay says max tile 16, the rules give max tile 8"}},
		{
			// Judged before replaying: no action to name.
			verdictOf(t, "profile: tile-merge\nseed: \"7\"\nmoves: LLUR\nclaim: {score: 6, maxTile: 8, moves: 4}\n"),
			[]string{"INVALID: impossible-claim", "the replay says: score 6, max tile 8 in 4 moves", "the rules give:  the claimed score 6 is not a multiple of 4 (every merge makes a tile of 4 or more)"},
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
