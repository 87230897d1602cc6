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
		fits bool
	}{
		{&replay.Replay{Start: &b, Actions: full[:replay.MaxSpawnLogActions]}, true},
		{&replay.Replay{Start: &b, Actions: full}, false},
		{&replay.Replay{Actions: full}, true}, // seeded: no such bound
	} {
		err := spawnLogFits(tc.r)
		if (err == nil) != tc.fits {
			t.Errorf("%d actions, spawn-recorded %v: %v", len(tc.r.Actions), tc.r.Start != nil, err)
		}
		if err != nil && !strings.Contains(err.Error(), fmt.Sprintf("%d actions; a spawn-recorded replay holds at most %d", len(full), replay.MaxSpawnLogActions)) {
			t.Errorf("the message: %v", err)
		}
	}
}
