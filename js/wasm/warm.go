package main

import (
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// warm verifies a short game of every built-in profile, seeded and
// spawn-recorded, so that what the verifier builds on first use (the
// profiles read, their rules compiled, the move tables) is built, and a
// server's first replay costs no more than its next (Verifier.warm in
// verify.js). The build's snapshot does not run it: what it builds would
// add some 200 KB to the module gzipped (docs/web.md).
func (k *kit) warm() {
	for _, game := range warmGames() {
		k.verifyFile("warm", game)
	}
	k.out = k.out[:0]
}

// warmGames returns a short game of every built-in profile, seeded (in
// JSON and YAML) and spawn-recorded.
func warmGames() (games [][]byte) {
	for _, name := range engine.BuiltinNames() {
		p, err := engine.BuiltinProfile(name)
		if err != nil {
			continue
		}
		rules, err := engine.Compile(p)
		if err != nil {
			continue
		}
		// Each profile's games spawn by its own generator (a hallabois
		// profile's by hallabois-lcg, whose seeds are numbers).
		seed := "warm"
		if p.Generator() != engine.RNGID {
			seed = "2048"
		}
		g, err := rules.NewSeeded(seed)
		if err != nil {
			continue
		}
		start := g.Board()
		r := &replay.Replay{Profile: name, Seed: &seed}
		sr := &replay.Replay{Profile: name, Start: &start}
		for i := 0; i < 20 && !g.Over(); i++ {
			legal := g.LegalMoves()
			if len(legal) == 0 {
				break
			}
			a := engine.Action(legal[i%len(legal)])
			st, err := g.Do(a)
			if err != nil {
				break
			}
			r.Actions, sr.Actions, sr.Spawns = append(r.Actions, a), append(sr.Actions, a), append(sr.Spawns, st.Spawn)
		}
		r.Claim = replay.Claim{Score: g.Score(), MaxTile: g.MaxTile(), Moves: g.Moves()}
		sr.Claim = r.Claim
		games = append(games, r.EncodeJSON(), sr.EncodeJSON(), r.EncodeYAML(80))
	}
	return games
}
