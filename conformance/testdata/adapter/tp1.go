package main

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"
)

// The tp1 spawn generator, written from docs/tp1.md alone (not the engine's).

const maxSeedLength = 96

// seedKey returns the tp1 key of a seed text: trim Unicode White_Space
// (strings.TrimSpace trims exactly those), check 1 to 96 code points of
// valid UTF-8, and take the first 8 bytes of SHA-256, big-endian.
func seedKey(seed string, m string) (uint64, error) {
	if !utf8.ValidString(seed) {
		return 0, fmt.Errorf("seed %q is not valid UTF-8", seed)
	}
	t := strings.TrimSpace(seed)
	switch n := utf8.RuneCountInString(t); {
	case n == 0:
		return 0, fmt.Errorf("seed %q is empty once white space is trimmed; a seed has 1 to %d characters", seed, maxSeedLength)
	case n > maxSeedLength:
		return 0, fmt.Errorf("seed %q has %d characters once trimmed; a seed has 1 to %d", seed, n, maxSeedLength)
	}
	hashed := t
	if m == "tp1-no-trim" { // MUTANT: hashes the seed as given, white space and all
		hashed = seed
	}
	sum := sha256.Sum256([]byte(hashed))
	return binary.BigEndian.Uint64(sum[:8]), nil
}

// splitmix is SplitMix64; its state is the whole generator, so copying it
// saves and restores the position in the stream.
type splitmix struct{ state uint64 }

func (r *splitmix) next() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}
