package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// TestSpawnLogFits checks that record refuses a spawn-recorded game past
// the actions verify reads, and only that: an 8x8 game played to its end
// at random has some 7 million actions.
func TestSpawnLogFits(t *testing.T) {
	b, err := engine.NewBoard(8, 8)
	if err != nil {
		t.Fatal(err)
	}
	full := make([]engine.Action, replay.MaxSpawnLogActions+1)
	for _, tc := range []struct {
		r    *replay.Replay
		impl bool
		fits bool
	}{
		{&replay.Replay{Start: &b, Actions: full[:replay.MaxSpawnLogActions]}, false, true},
		{&replay.Replay{Start: &b, Actions: full}, false, false},
		{&replay.Replay{Start: &b, Actions: full}, true, false},
		{&replay.Replay{Actions: full}, false, true}, // seeded: no such bound
	} {
		err := spawnLogFits(tc.r, tc.impl)
		if (err == nil) != tc.fits {
			t.Errorf("%d actions, spawn-recorded %v: %v", len(tc.r.Actions), tc.r.Start != nil, err)
		}
		if err != nil && !strings.Contains(err.Error(), fmt.Sprintf("%d actions; a spawn-recorded replay holds at most %d", len(full), replay.MaxSpawnLogActions)) {
			t.Errorf("the message: %v", err)
		}
		// --impl records spawn by spawn whatever the flags: leaving out
		// --spawns is no way round there.
		if err != nil && strings.Contains(err.Error(), "--spawns") == tc.impl {
			t.Errorf("the message, --impl %v: %v", tc.impl, err)
		}
	}
}
