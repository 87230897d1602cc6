// Package batch gives the games of games.Batch as replays and as JSON
// Lines, for the benchmarks of the command and of the kit's verifier. It
// is imported by tests only.
package batch

import (
	"github.com/tileproof/tileproof/internal/testkit/games"
	"github.com/tileproof/tileproof/replay"
)

// Replays returns the n games of games.Batch as replays, seeded (the
// seed and the actions) and spawn-recorded (the start, the actions and
// the spawns), with the same claims, and the counted moves of one set.
func Replays(n int) (seeded, spawned []*replay.Replay, moves int) {
	for _, g := range games.Batch(n) {
		claim := replay.Claim{Score: g.Score, MaxTile: g.MaxTile, Moves: g.Moves}
		seed, start := g.Seed, g.Start
		seeded = append(seeded, &replay.Replay{Profile: "tile-merge", Seed: &seed, Actions: g.Actions, Claim: claim})
		spawned = append(spawned, &replay.Replay{Profile: "tile-merge", Start: &start, Actions: g.Actions, Spawns: g.Spawns, Claim: claim})
		moves += g.Moves
	}
	return seeded, spawned, moves
}

// JSONLines encodes rs as JSON, a replay a line.
func JSONLines(rs []*replay.Replay) []byte {
	var out []byte
	for _, r := range rs {
		out = append(append(out, r.EncodeJSON()...), '\n')
	}
	return out
}
