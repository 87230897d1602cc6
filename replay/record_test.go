package replay

import (
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/testkit/games"
)

// TestRecorder: a game recorded by its actions verifies in both forms,
// seeded and spawn-recorded, with the claim of the game as played, and a
// refused action is an error.
func TestRecorder(t *testing.T) {
	rules := games.Rules(t, "tile-merge")
	rec, err := NewRecorder(rules, "recorder")
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for i := 0; i < 400 && !rec.Game().Over(); i++ {
		tried++
		legal := rec.Game().LegalMoves()
		if err := rec.Do(engine.Action(legal[i%len(legal)])); err != nil {
			t.Fatal(err)
		}
	}
	seeded, spawned := rec.Seeded(), rec.SpawnRecorded()
	if len(seeded.Actions) != rec.Game().Moves() || len(seeded.Actions) != tried {
		t.Errorf("%d actions recorded for %d counted moves (%d tried)", len(seeded.Actions), rec.Game().Moves(), tried)
	}
	v := NewVerifier()
	for _, r := range []*Replay{seeded, spawned} {
		if vd := v.Verify(r); !vd.Valid || vd.Score != rec.Game().Score() {
			t.Errorf("seeded %v: %+v", r.Seed != nil, vd)
		}
	}
	if spawned.Seed != nil || spawned.Start == nil || len(spawned.Spawns) != len(spawned.Actions) {
		t.Errorf("the spawn-recorded form: seed %v, start %v, %d spawns", spawned.Seed, spawned.Start, len(spawned.Spawns))
	}
	if err := rec.Do(engine.KeepPlaying); err == nil {
		t.Errorf("keep-playing in tile-merge was recorded")
	}
}
