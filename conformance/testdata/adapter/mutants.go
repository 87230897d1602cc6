package main

// mutant is one deliberately broken variant of the adapter: a realistic bug
// the conformance suite should catch. Each is one switch on its name at the
// point of the bug (search the code for "MUTANT").
type mutant struct {
	name, breaks string
}

// mutants is the catalogue, grouped by the rule they break.
var mutants = []mutant{
	// Merging.
	{"greedy-double-merge", "merging repeats until nothing merges: [2 2 2 2] left gives [8 . . .], not [4 4 . .]"},
	{"merge-priority-reversed", "the pair farthest from the destination edge merges first: [2 2 2 .] left gives [2 4 . .]"},
	{"merge-chain", "a tile made by a merge merges again with the next equal tile: [2 2 4 .] left gives [8 . . .]"},
	{"no-compress-before-merge", "neighbours merge before the gaps close, so tiles separated by a gap do not merge: [2 . 2 .] left gives [2 2 . .]"},
	// Spawning and the generator.
	{"spawn-after-noop", "a move that changes nothing (ignored by the profile) still spawns a tile"},
	{"spawn-fifty-fifty", "2 and 4 spawn equally often (draw mod 2), not 9:1"},
	{"always-spawn-2", "every spawn is a 2, never a 4 (the value draw is made and ignored)"},
	{"spawn-on-occupied", "the spawn cell is draw mod all cells, not mod the empty ones, so it can land on (and replace) a tile"},
	{"spawn-first-empty-cell", "every spawn goes to the first empty cell (the cell draw is made and ignored)"},
	{"rng-advances-on-noop", "a move that changes nothing still makes the two draws of a spawn, so later spawns differ"},
	{"tp1-no-trim", "the seed is hashed without trimming its white space: \" 7 \" starts differently from \"7\""},
	// Scoring.
	{"score-both-tiles", "a merge scores twice the new tile ([2 2] scores 8)"},
	{"score-old-value", "a merge scores the value of one old tile, half the right amount ([2 2] scores 2)"},
	// Game over and finishing.
	{"game-over-ignores-vertical", "game over when the board is full and no row has an equal pair, ignoring equal pairs in columns"},
	{"game-over-when-full", "game over as soon as the board is full, equal neighbours or not"},
	{"finish-order-swapped", "a move that reaches the target and leaves no moves finishes with no-moves instead of target-reached"},
	{"move-limit-off-by-one", "online-2048's run finishes after 100,001 counted moves instead of 100,000"},
	// Winning.
	{"win-does-not-stop", "in the stop and ask profiles, reaching the win tile sets won but does not end or pause the run (under rosetta, whose source does not say the win ends it, a reading the suite takes)"},
	{"win-at-1024", "the win tile is half the profile's: 1024 wins"},
	{"keep-playing-clears-won", "keep playing (classic) resumes play by clearing won instead of remembering the choice"},
	// Illegal moves.
	{"illegal-move-counted", "a move that changes nothing (ignored by the profile) still counts as a move"},
	{"illegal-move-not-rejected", "tile-merge and rosetta accept a move that changes nothing (ok, changed false) instead of the error illegal-move"},
	{"legal-actions-include-noop", "legal lists all four directions, those that change nothing included (and after the end)"},
	{"up-down-swapped", "the move up slides down and down slides up"},
	// Undo and End run.
	{"undo-does-not-restore-spawn", "undo restores board, score and moves but not the generator, so replaying the move spawns a different tile"},
	{"undo-twice", "undo can take back two moves in a row, not one"},
	{"end-run-wrong-result", "End run finishes the run with result no-moves instead of run-finished"},
}

// hooks are the test hooks for the runner's failure handling, selected with
// --mutant like the mutants but not in the catalogue: they break the
// protocol, not the rules.
var hooks = []mutant{
	{"crash-on-move", "exits with status 3, without answering, on the 5th move request"},
	{"hang-on-move", "stops answering on the 5th move request until it is killed"},
	{"garbage-on-legal", "answers a legal request with a line that is not JSON"},
}
