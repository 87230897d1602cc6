package conformance

import (
	"errors"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// passOver is the engine passing over a move it refuses (one that changes
// nothing, or one after the end): answered as a move that changed
// nothing, the state as it was. With count, it counts the move all the
// same.
type passOver struct {
	*Builtin
	count bool
}

func (p passOver) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	mr, err := p.Builtin.Move(d, spawn)
	if re, ok := errors.AsType[*RuleError](err); ok && (re.Code == "illegal-move" || re.Code == "finished") {
		st := engineState(p.game)
		if p.count {
			st.Moves++
		}
		return MoveResult{State: st}, nil
	}
	return mr, err
}

// passesUnder runs the pack (with the property checks when props), 40
// explored games and 2 observed ones under profiles against what
// newImpl makes, each run a new one, and fails t for each failure: a
// reading the profiles' sources allow passes everywhere.
func passesUnder(t *testing.T, newImpl func() Impl, profiles []string, props bool) {
	t.Helper()
	rep, err := Run(t.Context(), loadRepoPack(t), newImpl(), Options{Profiles: profiles, Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	failed, _ := rep.Failures()
	for _, f := range failed {
		t.Errorf("%s [%s]: %s: %s", f.Case, f.Profile, f.Status, f.Reason)
	}
	exp, err := Explore(t.Context(), newImpl(), ExploreOptions{Games: 40, Seed: 1, Profiles: profiles})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range exp.Divergences {
		t.Errorf("explored game %d [%s]: %s", d.Game, d.Profile, d.Result.Reason)
	}
	obs, err := Observe(t.Context(), newImpl(), ObserveOptions{Games: 2, Seed: 1, Profiles: profiles})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range obs.Divergences {
		t.Errorf("observed game %d [%s]: %s", d.Game, d.Profile, d.Result.Reason)
	}
}

// TestRosettaMovePassedOver: the Rosetta Code task lets no move that
// changes nothing count, and says no more, so rosetta lists illegalMove
// as unstated: an implementation that passes such a move over (and one
// after the end) passes every case, the explored games and the observed
// ones. Tile Merge's source returns an error, so there the same fails,
// and so does, under rosetta, a move passed over but counted.
func TestRosettaMovePassedOver(t *testing.T) {
	rosetta := []string{"rosetta"}
	passesUnder(t, func() Impl { return passOver{Builtin: &Builtin{}} }, rosetta, false)

	for _, tc := range []struct {
		impl    passOver
		profile string
	}{{passOver{Builtin: &Builtin{}}, "tile-merge"}, {passOver{Builtin: &Builtin{}, count: true}, "rosetta"}} {
		rep, err := Run(t.Context(), loadRepoPack(t), tc.impl, Options{Profiles: []string{tc.profile}})
		if err != nil {
			t.Fatal(err)
		}
		failed, _ := rep.Failures()
		found := false
		for _, f := range failed {
			found = found || f.Case == "core/no-op-move-rejected" && f.Status == IllegalHandled
		}
		if !found {
			t.Errorf("%s, counting %v: a move passed over passed core/no-op-move-rejected", tc.profile, tc.impl.count)
		}
	}
}
