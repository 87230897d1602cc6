package main

// The rules of the five built-in profiles, written plainly from
// docs/profiles.md and engine/profiles/*.yaml. Every mutant is a switch on
// the mutant name at the point of its bug: search for "MUTANT".

const (
	maxTile = int64(1) << 52   // the largest tile
	maxSafe = int64(1)<<53 - 1 // the largest score
)

type weight struct{ value, weight int64 }

type profile struct {
	name       string
	startTiles int
	spawn      []weight // ascending by value
	winTile    int64    // 0: none
	winWhen    string   // reach or merge
	winThen    string   // continue, stop or ask
	illegal    string   // ignore or reject
	moveLimit  int64    // 0: none
	undo       bool
	endRun     bool
	// noMovesFirst: when a move both reaches the target and leaves no
	// moves, the result is no-moves (classic, as the original game).
	noMovesFirst bool
	// emptyOver: an empty board, which no move changes, is over (rosetta,
	// "loses if no valid moves are possible"); the others end a run only
	// on a full board with no merge (gameOver in engine/profiles/*.yaml).
	emptyOver bool
}

var std = []weight{{2, 9}, {4, 1}}

// The built-in profiles, as engine/profiles/*.yaml give them. All are 4x4;
// a loaded board of another size plays by the same rules on that size.
var profiles = []profile{
	{name: "classic", startTiles: 2, spawn: std, winTile: 2048, winWhen: "merge", winThen: "ask", illegal: "ignore", noMovesFirst: true},
	{name: "tile-merge", startTiles: 2, spawn: std, winTile: 2048, winWhen: "reach", winThen: "continue", illegal: "reject"},
	{name: "pgs", startTiles: 2, spawn: std, winTile: 2048, winWhen: "reach", winThen: "stop", illegal: "ignore"},
	{name: "online-2048", startTiles: 2, spawn: std, winTile: 2048, winWhen: "reach", winThen: "stop", illegal: "ignore", moveLimit: 100000, undo: true, endRun: true},
	{name: "rosetta", startTiles: 2, spawn: std, winTile: 2048, winWhen: "merge", winThen: "stop", illegal: "reject", emptyOver: true},
}

var profileOrder = []string{"classic", "tile-merge", "pgs", "online-2048", "rosetta"}

// builtin returns the built-in profile of a name, nil for none.
func builtin(name string) *profile {
	for i := range profiles {
		if profiles[i].name == name {
			return &profiles[i]
		}
	}
	return nil
}

// Results, as docs/replay-format.md names them.
const (
	playing       = "playing"
	targetReached = "target-reached"
	noMoves       = "no-moves"
	moveLimit     = "move-limit"
	runFinished   = "run-finished"
)
