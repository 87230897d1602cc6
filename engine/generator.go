package engine

import (
	"fmt"
	"strings"
)

// Generator is a seeded spawn generator: how a seed makes a game's spawns.
// A replay names it in its rng field. tp1 is the default and the one
// recommended (docs/tp1.md); HallaboisLCG is there to check the seeded
// games of the hallabois second format as they were played.
type Generator uint8

const (
	// TP1 is tileproof's own generator (docs/tp1.md): SplitMix64 keyed by
	// the SHA-256 of the seed text; each spawn draws the value, then the
	// cell.
	TP1 Generator = iota
	// HallaboisLCG is the generator of the hallabois second format
	// (docs/peers.md): a linear congruential generator with a 32-bit
	// state, the seed a number from 0 to 2^32-1; each spawn draws the
	// cell, then the value.
	HallaboisLCG
)

// LCGID names the hallabois generator in a replay's rng field.
const LCGID = "hallabois-lcg"

var generatorNames = []string{RNGID, LCGID}

// String returns the generator's name in a replay: tp1 or hallabois-lcg.
func (g Generator) String() string { return enumName(generatorNames, int(g)) }

// ParseGenerator returns the generator a replay's rng field names.
func ParseGenerator(name string) (Generator, error) {
	for i, n := range generatorNames {
		if n == name {
			return Generator(i), nil
		}
	}
	return 0, fmt.Errorf("no spawn generator %q (the generators are %s)", name, strings.Join(generatorNames, ", "))
}

// Seed returns the seed text as the generator reads it: tp1's trimmed
// text ([NormalizeSeed]), or a hallabois-lcg seed as it is written, which
// must already be its one form ([LCGSeed]). Errors are [*SeedError].
func (g Generator) Seed(s string) (string, error) {
	if g == HallaboisLCG {
		_, err := LCGSeed(s)
		return s, err
	}
	return NormalizeSeed(s)
}

// LCGSeed reads a hallabois-lcg seed: a number from 0 to 4294967295 in
// plain decimal, with no sign, leading zero or white space, so that every
// seed has one written form. Errors are [*SeedError].
func LCGSeed(s string) (uint32, error) {
	if s == "" || len(s) > 10 {
		return 0, &SeedError{s, "a hallabois-lcg seed is a number from 0 to 4294967295 in plain decimal"}
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' || c == '0' && i == 0 && len(s) > 1 {
			return 0, &SeedError{s, "a hallabois-lcg seed is a number from 0 to 4294967295 in plain decimal (no sign, leading zero or white space)"}
		}
		v = v*10 + uint64(c-'0')
	}
	if v > 1<<32-1 {
		return 0, &SeedError{s, "above 4294967295; a hallabois-lcg seed is a 32-bit number"}
	}
	return uint32(v), nil
}

// lcgNext advances the hallabois generator's state and returns it, which
// is also the draw: 1103515245*state + 12345 modulo 2^32, then modulo
// 2^31-1.
func lcgNext(state uint32) uint32 { return (1103515245*state + 12345) % 2147483647 }

// drawLCG makes the two hallabois draws of a spawn on a board with empty
// empty cells: which empty cell (0-based, row-major), then the tile's
// exponent (the draw modulo the total spawn weight, placed among the
// weights as tp1's value draw is).
func (g *Game) drawLCG(empty int) (exp uint8, nth int) {
	s := lcgNext(uint32(g.st.rng.state))
	nth = int(s % uint32(empty))
	s = lcgNext(s)
	g.st.rng.state = uint64(s)
	return g.r.spawnExp(uint64(s)), nth
}
