// Package protocol holds the wire forms that tileproof's implementation
// drivers and its reference server share, so that one statement of each
// serves both: the exec protocol of docs/protocol.md and
// docs/protocol.schema.json (JSON Lines between the conformance runner and
// an adapter: its requests, answers, error words and limits), the HTTP API
// of docs/api.md (the
// tile-merge API shape, served by tileproof serve), and the names of the
// features an implementation declares.
//
// (The reference adapter under conformance/testdata/adapter reads the exec
// protocol on its own, from the docs alone, on purpose: it is a second,
// independent reading of the same text.)
package protocol

import (
	"fmt"

	"github.com/tileproof/tileproof/engine"
)

// The features an implementation can declare (docs/case-format.md).
const (
	LoadState   = "load-state"   // starts from a given state
	ForceSpawn  = "force-spawn"  // places a given tile after a move instead of drawing one
	SeedTP1     = "seed-tp1"     // draws its spawns from tp1, from a given seed
	Undo        = "undo"         // takes back the last counted move
	EndRun      = "end-run"      // ends the run by the player's choice
	KeepPlaying = "keep-playing" // plays on after the win, when the win asks
	Setup       = "setup"        // takes a run's choice of target and finish
)

// SizeFeature is the feature of a board size: "size:RxC".
func SizeFeature(rows, cols int) string { return fmt.Sprintf("size:%dx%d", rows, cols) }

// KnownFeature reports whether f is a feature this protocol defines: one
// of the constants above, or size:RxC with R and C from 2 to 8 (the
// feature of docs/protocol.schema.json).
func KnownFeature(f string) bool {
	switch f {
	case LoadState, ForceSpawn, SeedTP1, Undo, EndRun, KeepPlaying, Setup:
		return true
	}
	var r, c int
	n, _ := fmt.Sscanf(f, "size:%dx%d", &r, &c)
	return n == 2 && f == SizeFeature(r, c) && r >= engine.MinSide && r <= engine.MaxSide && c >= engine.MinSide && c <= engine.MaxSide
}
