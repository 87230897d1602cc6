package conformance

// The answers a profile's source allows beside the rules' own: where the
// source leaves a rule open (Profile.Unstated, docs/profiles.md) or gives
// a refusal in its own words, the suite takes the implementation's
// reading too (docs/conformance.md).

import (
	"slices"

	"github.com/tileproof/tileproof/engine"
)

// winThenUnstated reports whether profile p's source does not say that
// its win ends the run: p's win stops, and p lists winThen as unstated.
func winThenUnstated(p *engine.Profile) bool {
	return p.Win.Then == engine.Stop && p.Win.Tile != 0 && slices.Contains(p.Unstated, "winThen")
}

// noOpAfterEnd reports whether an implementation's refusal got, where the
// rules refuse want, is the refusal its profile's source gives: a move
// after the end of the run (finished, protocol rule 3) that changes
// nothing on the board before it, refused as illegal-move, in a profile
// that refuses a move that changes nothing (rule 1). The sources of such
// profiles say only that a move that changes nothing is refused; that one
// after the end is refused as finished is the protocol's word, and a
// blocked board's every move changes nothing.
func noOpAfterEnd(p *engine.Profile, step CaseStep, before engine.Board, want, got string) bool {
	return want == "finished" && got == "illegal-move" && p.Illegal == engine.Reject &&
		step.Move != nil && !before.Legal(*step.Move)
}

// refusedAfterEnd reports whether an implementation's refusal got,
// where the rules accept the step, is one its profile's source allows: a
// move after the end of the run (before, the implementation's state, is
// over) that the rules pass over without a change (protocol rule 3, in
// an ignore profile), refused as finished, in a profile that lists
// moveAfterEnd as unstated. Online 2048 says only "A finished run cannot
// be continued": that such a move is answered as one that changes
// nothing is tileproof's choice, and the refusal changes nothing either.
// A step the rules expect to change the board is never excused.
func refusedAfterEnd(p *engine.Profile, step CaseStep, before ImplState, got string) bool {
	e := step.Expect
	return got == "finished" && step.Move != nil && before.Over &&
		(e.Changed == nil || !*e.Changed) && (e.Spawned == nil || !*e.Spawned) &&
		slices.Contains(p.Unstated, "moveAfterEnd")
}

// scoreUnstated reports whether p lists score as unstated: its source
// keeps no score (the Rosetta Code task), so an implementation is held
// to no score and no move's points.
func scoreUnstated(p *engine.Profile) bool {
	return p != nil && slices.Contains(p.Unstated, "score")
}

// passedOver reports whether an implementation's answer to a move the
// rules refuse (a move that changes nothing, illegal-move, or one after
// the end, finished) is one its profile's source allows: the move passed
// over, changing nothing (not changed, no points, no spawn, the state as
// before), in a profile that lists illegalMove as unstated. The Rosetta
// Code task says only that "The player shouldn't be able to skip their
// turn by trying a move that doesn't change the board": that the move is
// refused with an error, rather than passed over, is tileproof's choice.
func passedOver(p *engine.Profile, step CaseStep, out outcome) bool {
	mr := out.Move
	return (step.Expect.Error == "illegal-move" || step.Expect.Error == "finished") &&
		mr != nil && !mr.Changed && mr.Gained == 0 && mr.Spawn == nil && mr.State == out.Before &&
		slices.Contains(p.Unstated, "illegalMove")
}
