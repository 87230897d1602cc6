// Package engine holds the rules of 2048-style tile-merge games: boards of
// 2x2 to 8x8 cells, the four moves, scoring, legality and game over, the
// named rule profiles, the tp1 seeded spawn generator and the game state
// machine (new game, move, undo, End run, finishing conditions).
//
// The engine does no I/O. Everything that replays a game in tileproof goes
// through it, so it is written to be exactly right first and fast second:
// every action goes through one path ([Game.Move] and its kin), and
// [Game.Play] hands 4x4 move logs to one replay loop on a packed board,
// whose every result is checked in the tests against the general path and
// a plain, independent implementation (docs/engine.md).
//
// Tiles are stored as exponents: a cell holding 2^e stores e, and 0 is an
// empty cell. The largest tile the engine accepts or makes is 2^52
// ([MaxTile]), so that every tile and score is a safe integer in
// JavaScript and JSON.
//
// # Other games' pieces
//
// A peer's game brings what is its own through hooks: a spawn generator
// other than tp1 is registered from outside ([RegisterGenerator]), and
// peer/hallabois registers the hallabois game's (hallabois-lcg) when a
// program asks for it; cmd/tileproof does as each command starts. Two of
// the hallabois game's pieces stay in the engine, on purpose:
//
//   - The break ([Break], [Game.Break], B in a move log) is a rule of
//     every profile, stated as data ([BreakRule]: a limit, a tile below
//     which it clears, a price, and whether it is allowed with no move
//     left), like undo and End run: any profile may set one, the replay
//     format writes it as one more action letter, and the conformance
//     cases put it to every implementation. Nothing in it is the
//     hallabois game's but the numbers its profiles give it.
//   - The four hallabois profiles (hallabois-4x4, hallabois-3x3 and the
//     first format's two) are built-in profiles like the others: the
//     conformance cases name them, and every reader of a replay resolves
//     a profile by name, with no import of a peer's package. They are
//     data (engine/profiles/*.yaml), and two of them name their generator
//     (rng: hallabois-lcg), which a program that verifies their seeded
//     replays registers.
package engine
