package conformance

import (
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// finishedRefused is the engine refusing every move after the end of the
// run as finished, where an ignore profile's rules pass over it (protocol
// rule 3), as an implementation of Online 2048 may: its source says only
// "A finished run cannot be continued".
type finishedRefused struct{ *Builtin }

func (f finishedRefused) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	if f.game != nil && f.game.Over() {
		return MoveResult{}, &RuleError{"finished", "a finished run cannot be continued"}
	}
	return f.Builtin.Move(d, spawn)
}

// TestMoveAfterEndRefused: online-2048 lists moveAfterEnd as unstated,
// so an implementation that refuses a move after the end as finished
// passes every case, the explored games and the observed ones. Under
// classic, whose source ignores such a move (the Original 2048's move
// returns when isGameTerminated), the same refusal fails.
func TestMoveAfterEndRefused(t *testing.T) {
	online := []string{"online-2048"}
	passesUnder(t, func() Impl { return finishedRefused{&Builtin{}} }, online, false)

	rep, err := Run(t.Context(), loadRepoPack(t), finishedRefused{&Builtin{}}, Options{Profiles: []string{"classic"}})
	if err != nil {
		t.Fatal(err)
	}
	failed, _ := rep.Failures()
	found := false
	for _, f := range failed {
		found = found || f.Case == "profiles/after-game-over-move-ignored" && f.Status == IllegalHandled
	}
	if !found {
		t.Errorf("classic: finished for a move after the end passed")
	}
}
