package replay

import (
	"github.com/tileproof/tileproof/engine"
)

// Frame is the game after one step of a replay: what a viewer shows.
// Frame 0 is the start; frame i follows action i of the move log.
type Frame struct {
	Step   int           // 0 for the start, else the 1-based action number
	Action engine.Action // the action that led here (frame 0: none)
	// Slid is the board after the move's slide, before its spawn; for
	// frame 0 and the actions that are not moves, the board itself.
	Slid   engine.Board
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
// Verify), as Trace does, without verifying it again.
func (v *Verifier) Frames(r *Replay, vd Verdict) []Frame {
	switch vd.Reason {
	case Malformed, Refused, BadStart:
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
	frame := func(step int, a engine.Action, slid engine.Board) Frame {
		return Frame{Step: step, Action: a, Slid: slid, Board: g.Board(), Score: g.Score(), Moves: g.Moves(), Won: g.Won(), Result: g.Result()}
	}
	frames := make([]Frame, 1, len(r.Actions)+1)
	frames[0] = frame(0, 0, g.Board())
	for i, a := range r.Actions {
		slid := g.Board()
		var st engine.Step
		var err error
		if d, ok := a.Direction(); ok {
			if sl, serr := g.Board().Slide(d); serr == nil {
				slid = sl.Board
			}
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
		f := frame(i+1, a, slid)
		if st.Changed {
			s := st.Spawn
			f.Spawn, f.Gained = &s, st.Gained
		}
		frames = append(frames, f)
	}
	return frames
}
