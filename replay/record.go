package replay

import (
	"fmt"

	"github.com/tileproof/tileproof/engine"
)

// Recorder records a game being played as a replay: the actions
// that count (a move that changes nothing is left out, as a replay holds
// none) and the spawn of each.
type Recorder struct {
	game    *engine.Game
	seed    string
	start   engine.Board
	actions []engine.Action
	spawns  []engine.Spawn
}

// NewRecorder starts a game of rules from seed, to record, under the
// generator the profile's seeded games spawn by (engine.Rules.NewSeeded).
func NewRecorder(rules *engine.Rules, seed string) (*Recorder, error) {
	g, err := rules.NewSeeded(seed)
	if err != nil {
		return nil, err
	}
	return &Recorder{game: g, seed: seed, start: g.Board()}, nil
}

// Game returns the game as played so far; play it through Do only.
func (r *Recorder) Game() *engine.Game { return r.game }

// Do plays a and records it when it counts; an action the rules refuse
// is an error naming it and its place.
func (r *Recorder) Do(a engine.Action) error {
	step, err := r.game.Do(a)
	if err != nil {
		return fmt.Errorf("action %d (%s): %w", len(r.actions)+1, a, err)
	}
	if _, isMove := a.Direction(); isMove && !step.Changed {
		return nil
	}
	r.actions, r.spawns = append(r.actions, a), append(r.spawns, step.Spawn)
	return nil
}

// Seeded returns the game as a seeded replay whose claim is everything it
// reached.
func (r *Recorder) Seeded() *Replay { return Played(r.game, r.seed, r.actions) }

// SpawnRecorded returns the game as a spawn-recorded replay: its start
// board and each spawn, no seed; the claim is everything it reached.
func (r *Recorder) SpawnRecorded() *Replay {
	rp := r.Seeded()
	rp.Seed, rp.RNG = nil, ""
	rp.Start, rp.Spawns = new(r.start), r.spawns
	return rp
}

// Played returns game g, played from seed by actions (the ones that
// count), as a seeded replay whose claim is everything the game reached;
// it names the generator g spawned by.
func Played(g *engine.Game, seed string, actions []engine.Action) *Replay {
	return &Replay{
		Profile: g.Rules().Name(), Rules: g.Rules().Version(), Seed: &seed, RNG: g.Generator().String(), Actions: actions,
		Claim: Claim{Score: g.Score(), MaxTile: g.MaxTile(), Moves: g.Moves(), Board: new(g.Board()), Won: new(g.Won()), Over: new(g.Over()), Result: new(g.Result())},
	}
}
