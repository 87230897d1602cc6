package conformance

import (
	"errors"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// noOpRefused is the engine answering a move that changes nothing as
// illegal-move also after the end of the run, where the protocol's word is
// finished; with all, every move after the end, whatever it does.
type noOpRefused struct {
	*Builtin
	all bool
}

func (n noOpRefused) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	mr, err := n.Builtin.Move(d, spawn)
	if re, ok := errors.AsType[*RuleError](err); ok && re.Code == "finished" && (n.all || !n.game.Board().Legal(d)) {
		return mr, &RuleError{"illegal-move", "moving " + d.String() + " changes nothing"}
	}
	return mr, err
}

// TestNoOpAfterEndRefused: tile-merge's and rosetta's sources refuse a
// move that changes nothing and name no other refusal for one after the
// end, so an implementation that refuses a move on a blocked board as
// illegal-move passes every case, the explored games and the observed
// ones. One that says illegal-move for a move after the end that does
// change the board (a won rosetta run) still fails.
func TestNoOpAfterEndRefused(t *testing.T) {
	opts := Options{Profiles: []string{"tile-merge", "rosetta"}}
	passesUnder(t, func() Impl { return noOpRefused{Builtin: &Builtin{}} }, opts.Profiles, false)

	rep, err := Run(t.Context(), loadRepoPack(t), noOpRefused{Builtin: &Builtin{}, all: true}, opts)
	if err != nil {
		t.Fatal(err)
	}
	failed, _ := rep.Failures()
	found := false
	for _, f := range failed {
		found = found || f.Case == "rosetta/rosetta-no-move-after-win" && f.Status == IllegalHandled
	}
	if !found {
		t.Errorf("illegal-move for a move after a won run that changes the board passed")
	}
}
