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

// frameOf returns game g's frame after step (the action a, its step st).
func frameOf(g *engine.Game, step int, a engine.Action, st engine.Step) Frame {
	f := Frame{Step: step, Action: a, Board: g.Board(), Score: g.Score(), Moves: g.Moves(), Won: g.Won(), Result: g.Result()}
	if st.Changed {
		f.Spawn, f.Gained = new(st.Spawn), st.Gained
	}
	return f
}

// Walk verifies r as [Verifier.Trace] does, handing each frame to each in
// turn instead of keeping them: a viewer that writes as it goes holds one
// frame at a time, whatever the replay's length. each is called with the
// frames Trace would return, in order, none for a replay that cannot be
// replayed.
func (v *Verifier) Walk(r *Replay, each func(Frame)) Verdict {
	s := getScratch()
	defer s.put()
	if each == nil {
		each = func(Frame) {}
	}
	return v.verify(r, each, s)
}
