package conformance

import (
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// noScore is the engine keeping no score: every state's score is 7 and
// every move's points 0, as an adapter of a game whose source keeps none
// may answer.
type noScore struct{ *Builtin }

func scoreKeptNone(st ImplState, err error) (ImplState, error) {
	st.Score = 7
	return st, err
}

func pointsKeptNone(mr MoveResult) MoveResult {
	mr.Gained, mr.State.Score = 0, 7
	return mr
}

func (n noScore) New(profile, seed string, setup *engine.Setup) (ImplState, error) {
	return scoreKeptNone(n.Builtin.New(profile, seed, setup))
}

func (n noScore) Load(profile string, st LoadState) (ImplState, error) {
	return scoreKeptNone(n.Builtin.Load(profile, st))
}

func (n noScore) Do(action string) (ImplState, error) { return scoreKeptNone(n.Builtin.Do(action)) }

func (n noScore) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	mr, err := n.Builtin.Move(d, spawn)
	return pointsKeptNone(mr), err
}

// TestRosettaKeepsNoScore: the Rosetta Code task speaks of no score, so
// rosetta lists score as unstated: an implementation that keeps none
// passes every case, the property checks, the explored games and the
// observed ones. Under classic, whose source scores, the same fails.
func TestRosettaKeepsNoScore(t *testing.T) {
	rosetta := []string{"rosetta"}
	passesUnder(t, func() Impl { return noScore{&Builtin{}} }, rosetta, true)

	rep, err := Run(t.Context(), loadRepoPack(t), noScore{&Builtin{}}, Options{Profiles: []string{"classic"}})
	if err != nil {
		t.Fatal(err)
	}
	if failed, _ := rep.Failures(); len(failed) == 0 || failed[0].Status != ScoreDiverged {
		t.Errorf("classic: a game that keeps no score fails %d cases, the first %v", len(failed), failed)
	}
}
