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
// # Other games' pieces: what peer/hallabois uses
//
// The engine holds no code of any one peer's game. peer/hallabois (the
// hallabois game) plays through three hooks the engine offers every game:
//
//   - An action: the break ([Break], [Game.Break], B in a move log). It
//     is a rule any profile may set, stated as data ([BreakRule]: a
//     limit, a tile below which it clears, a price, and whether it is
//     allowed with no move left; [BreakNoMoves]), like undo and End run:
//     the replay format writes it as one more action letter and the
//     conformance cases put it to every implementation. Nothing in it is
//     the hallabois game's but the numbers its profiles give it.
//   - A generator: a spawn generator other than tp1 is registered from
//     outside ([RegisterGenerator], [GeneratorDef]). peer/hallabois
//     registers hallabois-lcg at the first call of its Generator;
//     cmd/tileproof calls it as each command starts. The
//     generator's code is in peer/hallabois, not here.
//   - Profiles: a profile is data ([ParseProfile] reads any profile file,
//     and a caller passes the result wherever a profile goes). The four
//     hallabois profiles (hallabois-4x4, hallabois-3x3 and the first
//     format's two) are shipped among the built-ins
//     (engine/profiles/*.yaml) rather than registered from outside,
//     because the case pack and every reader of a replay resolve a
//     profile by name ([BuiltinProfile]) with no import of a peer's
//     package: a replay naming hallabois-4x4 verifies in any program.
//     Two of them name their generator (rng: hallabois-lcg), which a
//     program that verifies their seeded replays registers first.
//
// Everything else of the hallabois game (its recording formats, its
// validator's rules and findings, its generator) is in peer/hallabois.
package engine
