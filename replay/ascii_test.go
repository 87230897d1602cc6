package replay

import (
	"math/rand/v2"
	"testing"
)

// plainPrefixPlain is plainPrefix a byte at a time.
func plainPrefixPlain(s []byte) int {
	for i, c := range s {
		if c < ' ' || c > '~' || c == '"' || c == '\\' {
			return i
		}
	}
	return len(s)
}

// TestPlainPrefix puts every byte at every place of a 24-byte text of
// plain characters, after another byte at random and with neighbours
// that make borrows and carries (NUL, 0xFF, 0x7F), and checks plainPrefix
// on the text as a string and as bytes against the byte-by-byte reading.
func TestPlainPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, fill := range []byte{'a', ' ', '~', '!', '[', '#'} {
		for at := range 24 {
			for c := range 256 {
				for _, before := range []int{-1, rng.IntN(24)} {
					for _, other := range []byte{0, 0xFF, 0x7F, '"', byte(rng.IntN(256))} {
						b := make([]byte, 24)
						for i := range b {
							b[i] = fill
						}
						if before >= 0 {
							b[before] = other
						}
						b[at] = byte(c)
						want := plainPrefixPlain(b)
						if got := plainPrefix(b); got != want {
							t.Fatalf("plainPrefix(%q) = %d, want %d", b, got, want)
						}
						if got := plainPrefix(string(b)); got != want {
							t.Fatalf("plainPrefix(string %q) = %d, want %d", b, got, want)
						}
					}
				}
			}
		}
	}
}
