// Package replay reads, writes and verifies tileproof replays: recorded
// games, as a seed plus the moves played (or a start board plus each move
// with the tile that appeared), with a claim of what they achieved. The
// format is documented in docs/replay-format.md.
package replay

import (
	"github.com/tileproof/tileproof/engine"
)

// Replay is one recorded game. Exactly one of Seed and Start is set: a
// seeded replay draws its spawns from tp1; a spawn-recorded one gives each
// spawn in its log.
type Replay struct {
	Profile string        // a profile name
	Rules   int           // the profile's rules version the replay pins; 0 when absent
	RNG     string        // the spawn generator the replay pins ("tp1" or "hallabois-lcg"); "" when absent
	Setup   *engine.Setup // the run's choice of target and finish, where the profile offers one

	Seed  *string       // the seed text, for a seeded replay
	Start *engine.Board // the start board, for a spawn-recorded replay

	// Actions is the move log; for a spawn-recorded replay, Spawns[i] is
	// the tile that appeared after action i (zero for undo, End run, keep
	// playing).
	Actions []engine.Action
	Spawns  []engine.Spawn

	// Times, when not nil, holds the think time of each action of the
	// log, in milliseconds, as the server that dealt the game measured it
	// (docs/replay-format.md, "Think times"): one a log entry. TimesSeal
	// is the server's MAC of them ("hmac-sha256:HEX"), or "".
	Times     []uint32
	TimesSeal string

	Claim          Claim
	SeedCommitment string // "sha256:HEX", published before play; "" when absent
	Source         string // where the replay comes from, for people
}

// Claim is what a replay says its game achieved. Score, MaxTile and Moves
// are required; the others are checked when present.
type Claim struct {
	Score   uint64
	MaxTile uint64
	Moves   int
	Board   *engine.Board
	Won     *bool
	Over    *bool
	Result  *engine.Result
}
