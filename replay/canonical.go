package replay

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"

	"github.com/tileproof/tileproof/engine"
)

// canonicalHash returns the hex SHA-256 of the canonical form of a valid
// replay (docs/replay-format.md): the game and what it proved, in the
// fields' order, without metadata, white space or defaults, so that two
// files of the same game hash the same.
func canonicalHash(r *Replay, c *compiled, seed *string, g *engine.Game, s *scratch) string {
	s.form = appendCanonicalForm(s.form[:0], r, c, seed, g)
	sum := sha256.Sum256(s.form)
	return hex.EncodeToString(sum[:])
}

// appendCanonicalForm appends the canonical form to b: JSON of the fields profile,
// rules (the version verified), rng (for a seeded replay, the generator
// verified with: tp1 or hallabois-lcg), setup (as it
// changes the rules, and only then), seed (normalized), seedCommitment,
// start, moves (without white space, letters in upper case) and the claim
// in full, as the game has it.
func appendCanonicalForm(b []byte, r *Replay, c *compiled, seed *string, g *engine.Game) []byte {
	f := &form{}
	f.setText(fProfile, c.p.Name)
	f.setNum(fRules, uint64(c.p.Version))
	if c.setup != (engine.Setup{}) {
		f.setSetup(c.setup)
	}
	if seed != nil {
		f.setText(fRNG, g.Generator().String()) // the generator the game was verified with
		f.setText(fSeed, *seed)
	} else {
		f.set(fStart)
		f.start = *r.Start
	}
	f.optText(fCommitment, r.SeedCommitment)
	f.set(fMoves)
	f.movesOf = r
	f.setClaim(Claim{Score: g.Score(), MaxTile: g.MaxTile(), Moves: g.Moves(), Board: new(g.Board()), Won: new(g.Won()), Over: new(g.Over()), Result: new(g.Result())})
	return f.appendJSON(b, replayFields)
}

// setSetup sets a canonical setup: the members that are not zero.
func (f *form) setSetup(s engine.Setup) {
	f.set(fSetup)
	if s.Target != 0 {
		f.setNum(fTarget, s.Target)
	}
	if s.OpenEnded {
		f.setFlag(fOpenEnded, true)
	}
}

// playedLine returns r as the game was played, each undo and the move it
// took back left out, and whether there was one (when not, r itself).
// In a valid replay an undo follows the counted move it takes back (any
// other action between ends the undo), and restores the state before it,
// the generator's too: the line left replays to the same game, the same
// claim, so that padding a game with move+undo pairs changes its
// canonical form (sha256) but not this one's (gameSha256).
func playedLine(r *Replay) (*Replay, bool) {
	first := slices.Index(r.Actions, engine.Undo)
	if first < 0 {
		return r, false
	}
	p := *r
	p.Actions = append(make([]engine.Action, 0, len(r.Actions)), r.Actions[:first]...)
	if r.Spawns != nil {
		p.Spawns = append(make([]engine.Spawn, 0, len(r.Spawns)), r.Spawns[:first]...)
	}
	for i := first; i < len(r.Actions); i++ {
		if r.Actions[i] == engine.Undo && len(p.Actions) > 0 {
			p.Actions = p.Actions[:len(p.Actions)-1]
			if p.Spawns != nil {
				p.Spawns = p.Spawns[:len(p.Spawns)-1]
			}
			continue
		}
		p.Actions = append(p.Actions, r.Actions[i])
		if r.Spawns != nil {
			p.Spawns = append(p.Spawns, r.Spawns[i])
		}
	}
	return &p, true
}
