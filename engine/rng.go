package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tileproof/tileproof/internal/strictyaml"
)

// RNGID names the seeded spawn generator the engine implements. A replay
// can pin it so that its verdict never silently changes meaning.
const RNGID = "tp1"

// MaxSeedLength is the most characters (code points) a seed text may have
// after trimming.
const MaxSeedLength = 96

// SeedError is returned for a seed text that tp1 does not accept.
type SeedError struct {
	Seed string
	Msg  string
}

// Error names the seed, cut when it is long (a message never echoes a
// long input whole).
func (e *SeedError) Error() string {
	return fmt.Sprintf("seed %s: %s", strictyaml.Quote(e.Seed, 100), e.Msg)
}

// NormalizeSeed returns the seed text tp1 hashes: s with leading and
// trailing Unicode White_Space removed. What remains must be valid UTF-8
// of 1 to [MaxSeedLength] code points.
func NormalizeSeed(s string) (string, error) {
	if plainSeed(s) {
		return s, nil
	}
	if !utf8.ValidString(s) {
		return "", &SeedError{s, "not valid UTF-8"}
	}
	// strings.TrimSpace trims exactly the Unicode White_Space characters.
	t := strings.TrimSpace(s)
	switch n := utf8.RuneCountInString(t); {
	case n == 0:
		return "", &SeedError{s, "empty once white space is trimmed; a seed has 1 to 96 characters"}
	case n > MaxSeedLength:
		return "", &SeedError{s, fmt.Sprintf("%d characters once trimmed; a seed has 1 to 96", n)}
	}
	return t, nil
}

// plainSeed reports whether s is a seed that normalizing leaves as it is
// and that needs no decoding to count: 1 to [MaxSeedLength] ASCII bytes,
// neither the first nor the last white space. Most seeds are, and
// checking one is much cheaper than the general path (docs/engine.md).
func plainSeed(s string) bool {
	if len(s) == 0 || len(s) > MaxSeedLength || asciiSpace(s[0]) || asciiSpace(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiSpace reports whether c is one of the ASCII characters with the
// Unicode White_Space property.
func asciiSpace(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }

// SeedKey returns the tp1 key of a seed text: the first 8 bytes, big-endian,
// of the SHA-256 of its normalized UTF-8 text.
func SeedKey(seed string) (uint64, error) {
	t, err := NormalizeSeed(seed)
	if err != nil {
		return 0, err
	}
	sum := sha256.Sum256([]byte(t))
	return binary.BigEndian.Uint64(sum[:8]), nil
}

// RNG is the tp1 spawn generator, SplitMix64. The zero RNG is valid (its
// state is 0); seed one with [NewRNG]. It is a value: copying it copies
// its position in the stream, which is how an undo restores the next spawn.
type RNG struct {
	state uint64
}

// NewRNG returns the tp1 generator for a seed text.
func NewRNG(seed string) (RNG, error) {
	key, err := SeedKey(seed)
	return RNG{key}, err
}

// RNGFromState returns a generator whose state is s: [RNG.State] of
// another generator restores it, and a key from [SeedKey] starts it.
func RNGFromState(s uint64) RNG { return RNG{s} }

// State returns the generator's state, from which [RNGFromState] resumes.
func (r RNG) State() uint64 { return r.state }

// rngGamma is what each tp1 draw adds to the state.
const rngGamma = 0x9E3779B97F4A7C15

// Next returns the next draw.
func (r *RNG) Next() uint64 {
	r.state += rngGamma
	return splitMix(r.state)
}

// splitMix is SplitMix64's output function: the draw for a state.
func splitMix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}
