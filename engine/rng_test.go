package engine

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/tileproof/tileproof/internal/plain"
)

// The tp1 test vectors published in docs/tp1.md. They were computed by
// three implementations: this package, internal/plain and a short Python
// script (hashlib and 64-bit arithmetic), which agree.
var tp1Vectors = []struct {
	seed  string
	key   uint64
	draws [3]uint64
}{
	{"7", 0x7902699be42c8a8e, [3]uint64{0xd453dfeae1476663, 0xdbd0a02725e205ee, 0xd5da13cdbfb0ff31}},
	{"  7  ", 0x7902699be42c8a8e, [3]uint64{0xd453dfeae1476663, 0xdbd0a02725e205ee, 0xd5da13cdbfb0ff31}},
	{"0", 0x5feceb66ffc86f38, [3]uint64{0x382c6b40f7954d1f, 0xc1092206809911a2, 0xf31b4330c5f03705}},
	{"2048-practice", 0x9978de802fbf5898, [3]uint64{0x14e954d1edfc9235, 0xcfce026fcb80a45f, 0xb2c2e5c27a1db6c9}},
	{"héllo wörld ✓", 0xc2a59c71097b678d, [3]uint64{0xd11b2c1fd506fba0, 0xdfd0e577751d0a1f, 0x77a15aedf60be97e}},
	{"\u00a0日本語\u3000", 0x77710aedc74ecfa3, [3]uint64{0xa16b051b3bce5893, 0x2babf6d97e858de2, 0xfc0228cbceee5b25}},
}

func TestTP1Vectors(t *testing.T) {
	for _, v := range tp1Vectors {
		key, err := SeedKey(v.seed)
		if err != nil || key != v.key {
			t.Errorf("SeedKey(%q) = %#x, %v; want %#x", v.seed, key, err, v.key)
		}
		rng, err := NewRNG(v.seed)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range v.draws {
			if got := rng.Next(); got != want {
				t.Errorf("seed %q draw %d = %#x, want %#x", v.seed, i+1, got, want)
			}
		}
	}
}

// TestSplitMix64Reference checks the generator against the published
// SplitMix64 outputs for state 0.
func TestSplitMix64Reference(t *testing.T) {
	r := RNGFromState(0)
	for _, want := range []uint64{0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F} {
		if got := r.Next(); got != want {
			t.Errorf("draw = %#x, want %#x", got, want)
		}
	}
	if golden := uint64(0x9E3779B97F4A7C15); r.State() != 3*golden {
		t.Errorf("state after 3 draws = %#x", r.State())
	}
}

func TestSeedKeyMatchesPlain(t *testing.T) {
	for _, s := range []string{"a", "\t x\n", "seed with inner  spaces", strings.Repeat("é", 96), "\u2028z\u2029",
		strings.Repeat("a", 96), "\vx\f", "\x1cx\x1f", "x\u00a0", "\u0085x"} {
		got, err := SeedKey(s)
		want, perr := plain.Key(s)
		if err != nil || perr != nil || got != want {
			t.Errorf("SeedKey(%q) = %#x, %v; plain %#x, %v", s, got, err, want, perr)
		}
	}
}

// TestPlainSeed checks the seeds NormalizeSeed takes without decoding
// against the general path's answer, at each edge of the shortcut: ASCII
// white space at either end (every one of the six), characters that are
// not white space, non-ASCII bytes, valid or not, and the length limit.
func TestPlainSeed(t *testing.T) {
	seeds := []string{"x", "x\x7f", "\x00x", "\x1cx\x1f", "x y", strings.Repeat("a", 96), strings.Repeat("a", 97),
		" " + strings.Repeat("a", 96), "x\u00a0", "\u0085x", "x\x85", "\xc3", "é"}
	for _, c := range " \t\n\v\f\r" {
		seeds = append(seeds, "x"+string(c), string(c)+"x")
	}
	for _, s := range seeds {
		got, err := NormalizeSeed(s)
		want, werr := normalizeDecoded(s)
		if got != want || (err == nil) != (werr == nil) {
			t.Errorf("NormalizeSeed(%q) = %q, %v; decoded, %q, %v", s, got, err, want, werr)
		}
		if plainSeed(s) && (got != s || err != nil) {
			t.Errorf("plainSeed(%q), but it normalizes to %q, %v", s, got, err)
		}
	}
}

// normalizeDecoded is NormalizeSeed's rule written out plainly.
func normalizeDecoded(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", errors.New("invalid")
	}
	t := strings.TrimFunc(s, unicode.IsSpace)
	if n := utf8.RuneCountInString(t); n == 0 || n > MaxSeedLength {
		return "", errors.New("length")
	}
	return t, nil
}

func TestSeedErrors(t *testing.T) {
	for _, s := range []string{"", "   ", "\u3000\n", strings.Repeat("a", 97), " " + strings.Repeat("ü", 97) + " ", "\xff"} {
		_, err := SeedKey(s)
		var se *SeedError
		if !errors.As(err, &se) {
			t.Errorf("SeedKey(%q) = %v, want a *SeedError", s, err)
		}
	}
	if _, err := SeedKey(" " + strings.Repeat("ü", 96) + "\n"); err != nil {
		t.Errorf("a 96-character seed: %v", err)
	}
}

// TestOpeningSeed7 is the published opening board of seed "7" in every
// built-in 4x4 profile (all have two start tiles; the draws of this seed
// give the same values under weights 2:9, 4:1 and the hallabois 2:3, 4:1).
func TestOpeningSeed7(t *testing.T) {
	want := mustBoard(t, "2 . . ./. . . ./. . . ./. . 4 .")
	n := 0
	for _, name := range BuiltinNames() {
		if p := mustProfile(t, name); p.Rows != 4 || p.Cols != 4 {
			continue
		}
		n++
		g, err := NewGame(mustProfile(t, name), "7")
		if err != nil {
			t.Fatal(err)
		}
		if g.Board() != want {
			t.Errorf("%s: opening of seed 7:\n%s\nwant\n%s", name, g.Board(), want)
		}
	}
	if n < 7 {
		t.Errorf("%d built-in 4x4 profiles", n)
	}
}

func FuzzSeedKey(f *testing.F) {
	f.Add("7")
	f.Add(" \u00a0x ")
	f.Add("\x1cx\r")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := SeedKey(s)
		want, perr := plain.Key(s)
		if (err == nil) != (perr == nil) || got != want {
			t.Fatalf("SeedKey(%q) = %#x, %v; plain %#x, %v", s, got, err, want, perr)
		}
	})
}
