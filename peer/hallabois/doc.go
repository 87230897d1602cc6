// Package hallabois reads the game recordings of hallabois/twothousand-forty-eight,
// the one other public 2048 replay validator, and checks them by its rules.
//
// That repository (a Rust library, MIT licence) records games in two text
// formats, both read here into this package's own types:
//
//   - the first format ([ParseV1]): every entry holds the board before a
//     move, the tile that appeared after it and the move's direction;
//   - the second format ([ParseV2]): a board size, a seed and the moves,
//     the moves packed as base-6 digits into base64; the spawns come from
//     the peer's own generator ([LCG]).
//
// [ValidateV1] and [ValidateV2] are a deliberately plain, independent
// implementation of the peer's rules: its moves, its spawns (a 4 one time in
// four), the win that lets play go on, and the "break", which clears the
// tiles below 16 for a price in points, at most three times a game. They
// give a recording the verdict the peer's validator gives it, with the score
// and the first problem, and list what the peer lets pass that tileproof's
// rules would not. They are the oracle the engine's hallabois profiles are
// checked against; docs/peers.md states the rules with the source lines they
// come from.
//
// [Convert] turns a recording into a tileproof replay (what tileproof
// import hallabois writes): a second-format game a seeded replay under
// the profile of its board with rng hallabois-lcg, a first-format game a
// spawn-recorded one, breaks as B, and the claim the plain validator's
// figures. tileproof verify then checks it with the engine.
//
// Licence: the formats, the generator and the rules were read from the
// peer's public source (src/ and its tests) and written anew here; no code
// was copied. Its recorded games are not part of this repository: the tests
// read them from ../shared/hallabois beside it.
package hallabois
