package analyze

import (
	"context"
	"fmt"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// DefaultMaxMoves is the most counted moves an analysis covers when
// Options.MaxMoves is 0: it bounds an analysis's time whatever a
// replay's length (a game with undo counts a move again each time it is
// played after one is taken back). docs/analyze.md gives what an
// analysis of this many moves costs.
const DefaultMaxMoves = 100_000

// startOf returns replay r's game at its start under profile p: from its
// seed with the profile's generator (the only one a valid replay pins),
// or from its recorded start board.
func startOf(p *engine.Profile, r *replay.Replay) (*engine.Rules, *engine.Game, error) {
	rules, err := engine.Compile(p)
	if err != nil {
		return nil, nil, err
	}
	var g *engine.Game
	switch {
	case r.Seed != nil:
		g, err = rules.NewSeeded(*r.Seed)
	case r.Start != nil:
		g, err = rules.Load(engine.State{Board: *r.Start})
	default:
		err = fmt.Errorf("the replay has neither a seed nor a start board")
	}
	return rules, g, err
}

// walk plays replay r (verified already) from game g, its start, calling
// move before each counted move with the game as it stands, the action's
// 1-based position and the move's direction, for at most limit counted
// moves; it stops early when move returns false. It keeps one game,
// whatever the replay's length, and reports whether it stopped at limit
// (capped) and how many counted moves were taken back (undo) on the way.
func walk(ctx context.Context, g *engine.Game, r *replay.Replay, limit int, move func(i int, g *engine.Game, d engine.Direction) bool) (capped bool, undone int, err error) {
	counted := 0
	for i, a := range r.Actions {
		if i%256 == 0 && ctx.Err() != nil {
			return false, undone, ctx.Err()
		}
		if d, ok := a.Direction(); ok && g.Legal(d) {
			if counted >= limit {
				return true, undone, nil
			}
			counted++
			if !move(i+1, g, d) {
				return false, undone, nil
			}
		}
		if a == engine.Undo && g.CanUndo() {
			undone++
		}
		var spawns []engine.Spawn
		if r.Seed == nil {
			spawns = r.Spawns[i : i+1]
		}
		if _, err := g.Play(r.Actions[i:i+1], spawns); err != nil {
			return false, undone, fmt.Errorf("action %d: %w", i+1, err) // the verifier accepted the game: cannot happen
		}
	}
	return false, undone, nil
}
