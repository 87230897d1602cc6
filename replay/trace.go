package replay

import (
	"github.com/tileproof/tileproof/engine"
)

// Frame is the game after one step of a replay: what a viewer shows.
// Frame 0 is the start; frame i follows action i of the move log.
type Frame struct {
	Step   int           // 0 for the start, else the 1-based action number
	Action engine.Action // the action that led here (frame 0: none)
	Spawn  *engine.Spawn // the tile that appeared, after a counted move
	Gained uint64        // the points the move's merges earned
	Board  engine.Board
	Score  uint64
	Moves  int // counted moves so far
	Won    bool
	Result engine.Result
}

// Trace verifies r and returns the game frame by frame beside the
// verdict: every action the rules accept, so to the end of a replay whose
// moves are all legal (even one whose claim is false) and to the last
// frame before the divergence of one that breaks the rules. A replay that
// cannot be replayed at all (malformed, refused, a bad start board) has no
// frames.
func (v *Verifier) Trace(r *Replay) (Verdict, []Frame) {
	vd := v.Verify(r)
	return vd, v.Frames(r, vd)
}

// Frames returns the frames of r whose verdict vd is already known (from
// Verify), as Trace does: it plays the replay once more, action by action,
// without the verdict's checks. (Verify replays the log in one call, the
// fast way; a caller that wants pages for only some replays, as verify
// --report does, pays for the frames of those alone.)
func (v *Verifier) Frames(r *Replay, vd Verdict) []Frame {
	if !vd.Reason.Replayable() {
		return nil
	}
	rules, err := v.compile(r)
	if err != nil {
		return nil
	}
	g, err := startGame(rules, r)
	if err != nil {
		return nil
	}
	frame := func(step int, a engine.Action) Frame {
		return Frame{Step: step, Action: a, Board: g.Board(), Score: g.Score(), Moves: g.Moves(), Won: g.Won(), Result: g.Result()}
	}
	frames := make([]Frame, 1, len(r.Actions)+1)
	frames[0] = frame(0, 0)
	for i, a := range r.Actions {
		var st engine.Step
		var err error
		if d, ok := a.Direction(); ok {
			if r.Start != nil {
				st, err = g.MoveSpawn(d, r.Spawns[i])
			} else {
				st, err = g.Move(d)
			}
		} else {
			st, err = g.Do(a)
		}
		if err != nil {
			break
		}
		f := frame(i+1, a)
		if st.Changed {
			s := st.Spawn
			f.Spawn, f.Gained = &s, st.Gained
		}
		frames = append(frames, f)
	}
	return frames
}
