// Package engine holds the rules of 2048-style tile-merge games: boards of
// 2x2 to 8x8 cells, the four moves, scoring, legality and game over, the
// named rule profiles, the tp1 seeded spawn generator and the game state
// machine (new game, move, undo, End run, finishing conditions).
//
// The engine does no I/O. Everything that replays a game in tileproof goes
// through it, so it is written to be exactly right first and fast second:
// 4x4 games run on a packed board with precomputed row tables, and every
// result of that fast path is checked in the tests against a plain,
// independent implementation.
//
// Tiles are stored as exponents: a cell holding 2^e stores e, and 0 is an
// empty cell. The largest tile the engine accepts or makes is 2^52
// ([MaxTile]), so that every tile and score is a safe integer in
// JavaScript and JSON.
package engine
