package replay

import (
	"crypto/sha256"
	"encoding/hex"

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
	set := func(id fieldID) { f.has |= 1 << id }
	set(fProfile)
	f.text[fProfile] = c.p.Name
	set(fRules)
	f.num[fRules] = uint64(c.p.Version)
	if s := c.setup; s != (engine.Setup{}) {
		set(fSetup)
		if s.Target != 0 {
			set(fTarget)
			f.num[fTarget] = s.Target
		}
		if s.OpenEnded {
			set(fOpenEnded)
			f.flag[fOpenEnded] = true
		}
	}
	if seed != nil {
		set(fRNG)
		f.text[fRNG] = g.Generator().String() // the generator the game was verified with
		set(fSeed)
		f.text[fSeed] = *seed
	} else {
		set(fStart)
		f.start = *r.Start
	}
	if r.SeedCommitment != "" {
		set(fCommitment)
		f.text[fCommitment] = r.SeedCommitment
	}
	set(fMoves)
	f.movesOf = r
	board, won, over, result := g.Board(), g.Won(), g.Over(), g.Result()
	f.setClaim(Claim{Score: g.Score(), MaxTile: g.MaxTile(), Moves: g.Moves(), Board: &board, Won: &won, Over: &over, Result: &result})
	return f.appendJSON(b, replayFields)
}
