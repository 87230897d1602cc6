package hallabois

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// Limits of the second-format reader (docs/peers.md weighs them against
// the peer's games): the moves field is read up to MaxV2MoveBytes decoded
// bytes; the whole file, comments included, up to MaxV2Bytes.
const (
	MaxV2Bytes     = 4 << 20
	MaxV2MoveBytes = 64 << 10
)

// V2 is a second-format recording ("seeded recording"): the board size,
// the seed and the moves. The spawns are the generator's ([LCG]).
type V2 struct {
	W, H  int
	Seed  uint32
	Moves []Dir
	// Extra is what follows the moves field after another ":", which the
	// peer ignores; Comment is everything after the first line, which the
	// peer ignores too (its games hold their final state there).
	Extra, Comment string
}

// v2Dirs are the directions of the moves field's base-6 digits.
var v2Dirs = [6]Dir{End, Up, Right, Down, Left, Break}

// ParseV2 reads a second-format recording, as the peer's reader does: only
// the first line counts, and it is
//
//	"::" VERSION ":" WIDTH ":" HEIGHT ":" SEED ":" MOVES
//
// with VERSION 2 and MOVES the moves in base64 (standard alphabet, no
// padding): its bytes are the digits, least significant first, of a number
// in base 64, and that number's digits in base 6, least significant first,
// are the moves (1 up, 2 right, 3 down, 4 left, 5 break, 0 the end marker).
// Like the peer it reads as many base-6 digits as the number 64^(n-1) has
// for n bytes, so a recording whose last moves are 0 digits keeps some of
// them. The board is 2x2 to 6x6 and the seed a 32-bit number (the
// generator's state). file names the recording in errors, which are
// [*RecordingError].
func ParseV2(file string, data []byte) (*V2, error) {
	fail := func(off int, format string, args ...any) error {
		return &RecordingError{File: file, Byte: off + 1, Msg: fmt.Sprintf(format, args...)}
	}
	if len(data) > MaxV2Bytes {
		return nil, &RecordingError{File: file, Msg: fmt.Sprintf("%d bytes; a second-format recording is read up to %d", len(data), MaxV2Bytes)}
	}
	s := string(data)
	line, comment := s, ""
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		line, comment = s[:i], s[i+1:]
		line = strings.TrimSuffix(line, "\r") // Rust's lines() takes "\r\n" as one line end
	}
	if !strings.HasPrefix(line, "::") {
		return nil, fail(0, "does not start with \"::\" (the second format's mark)")
	}
	fields := strings.Split(line[2:], ":")
	off := make([]int, len(fields)) // offset of each field
	o := 2
	for i, f := range fields {
		off[i] = o
		o += len(f) + 1
	}
	names := []string{"version", "width", "height", "seed", "moves"}
	limits := [...]uint64{math.MaxUint8, math.MaxInt32, math.MaxInt32, math.MaxUint32}
	var v [len(limits)]uint64 // the numbers: version, width, height, seed
	for i := range names {
		if i >= len(fields) {
			return nil, fail(len(line), "no %s field (the fields are %s)", names[i], strings.Join(names, ", "))
		}
		if i == len(v) {
			break // the moves, read below
		}
		var err error
		if v[i], err = parseUint(fields[i], limits[i]); err != nil {
			return nil, fail(off[i], "%s: %v", names[i], err)
		}
		switch w, h := v[1], v[2]; {
		case i == 0 && v[0] != 2:
			return nil, fail(off[0], "version %d; the second format is version 2", v[0])
		case i == 2 && (w < MinSide || w > MaxSide || h < MinSide || h > MaxSide):
			return nil, fail(off[1], "a %dx%d board is outside %dx%d to %dx%d", w, h, MinSide, MinSide, MaxSide, MaxSide)
		}
	}
	rec := &V2{W: int(v[1]), H: int(v[2]), Seed: uint32(v[3]), Comment: comment}
	if len(fields) > 5 {
		rec.Extra = strings.Join(fields[5:], ":")
	}
	moves := fields[4]
	for i := 0; i < len(moves); i++ {
		if c := moves[i]; !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/') {
			return nil, fail(off[4]+i, "moves: %s is not a base64 character (A-Z a-z 0-9 + /, no padding)", strconv.QuoteRune(rune(c)))
		}
	}
	if n := base64.RawStdEncoding.DecodedLen(len(moves)); n > MaxV2MoveBytes {
		return nil, fail(off[4], "moves: %d bytes; the moves are read up to %d", n, MaxV2MoveBytes)
	}
	raw, err := base64.RawStdEncoding.Strict().DecodeString(moves)
	if err != nil {
		at := 0
		var ce base64.CorruptInputError
		if errors.As(err, &ce) {
			at = int(ce)
		}
		return nil, fail(off[4]+at, "moves: not base64 without padding (the last group of characters is cut short, or its last character leaves bits over)")
	}
	rec.Moves = decodeMoves(raw)
	return rec, nil
}

// decodeMoves turns the moves field's bytes into the moves.
func decodeMoves(raw []byte) []Dir {
	n := len(raw)
	if n == 0 {
		return nil
	}
	// The number is the sum of raw[i]*64^i. A byte may be up to 255, so
	// it is the 6-bit low parts at bit 6i plus the 2-bit high parts at
	// bit 6i+6: two bit strings, each built in one pass.
	lo, hi := new(big.Int), new(big.Int)
	lw := make([]big.Word, (6*n+bits.UintSize-1)/bits.UintSize+1)
	hw := make([]big.Word, (6*n+6+bits.UintSize-1)/bits.UintSize+1)
	for i, b := range raw {
		putBits(lw, 6*i, uint64(b&63))
		putBits(hw, 6*i+6, uint64(b>>6))
	}
	lo.SetBits(lw)
	hi.SetBits(hw)
	v := lo.Add(lo, hi)
	var digits string
	if v.Sign() > 0 {
		digits = v.Text(6)
	}
	count := len(digits)
	if raw[n-1] == 0 {
		// The number may have fewer digits than 64^(n-1), whose length
		// the peer's reader keeps.
		p := new(big.Int).Lsh(big.NewInt(1), uint(6*(n-1)))
		count = max(count, len(p.Text(6)))
	}
	moves := make([]Dir, count)
	for i := range len(digits) {
		moves[i] = v2Dirs[digits[len(digits)-1-i]-'0']
	}
	for i := len(digits); i < count; i++ {
		moves[i] = End
	}
	return moves
}

// putBits ors v, at most 8 bits, into the bit string ws at bit pos. A
// word is 64 bits or, where int has 32 (386, arm), 32: bits.UintSize.
func putBits(ws []big.Word, pos int, v uint64) {
	i, s := pos/bits.UintSize, pos%bits.UintSize
	ws[i] |= big.Word(v << s) // the bits past the word are cut off, and go to the next
	if s > bits.UintSize-8 {
		ws[i+1] |= big.Word(v >> (bits.UintSize - s))
	}
}
