package hallabois

import (
	"encoding/base64"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// The writers of both formats: only the tests write recordings (to build
// test data and to check that a parsed recording reads back the same).

// String writes the recording in the first format, the way the peer writes
// it: the size first, then each entry's cells, "+" and its spawn (nothing
// after the "+" when it has none), ";" and its direction text (for an
// entry without one, the peer's: "0" to "3", "b" for a break, "f" for the
// end).
func (r *V1) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%dx%dS", r.W, r.H)
	for i, e := range r.Entries {
		if i > 0 {
			sb.WriteByte(':')
		}
		for j, v := range e.Board.Cells {
			if j > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(strconv.FormatUint(v, 10))
		}
		sb.WriteByte('+')
		if s := e.Spawn; s != nil {
			fmt.Fprintf(&sb, "%d,%d.%d", s.X, s.Y, s.Value)
		}
		sb.WriteByte(';')
		t := e.DirText
		if t == "" {
			t = [...]string{"0", "1", "2", "3", "b", "f"}[e.Dir]
		}
		sb.WriteString(t)
	}
	return sb.String()
}

// String writes the recording's first line in the second format, as the
// peer writes it: "::2:W:H:SEED:MOVES". The moves are packed the other way
// round from [ParseV2], so a recording whose last move is not the end
// marker reads back the same.
func (r *V2) String() string {
	return fmt.Sprintf("::2:%d:%d:%d:%s", r.W, r.H, r.Seed, encodeMoves(r.Moves))
}

// encodeMoves packs moves as base-6 digits into base64.
func encodeMoves(moves []Dir) string {
	n := len(moves)
	if n == 0 {
		return ""
	}
	digit := func(d Dir) int64 { return int64(slices.Index(v2Dirs[:], d)) }
	v := base6(moves, digit)
	// As many base-64 digits as 6^(n-1) has, or as the number has.
	bits := v.BitLen()
	p := new(big.Int).Exp(big.NewInt(6), big.NewInt(int64(n-1)), nil)
	count := max((bits+5)/6, (p.BitLen()+5)/6)
	raw := make([]byte, count)
	for i := range raw {
		for b := range 6 {
			raw[i] |= byte(v.Bit(6*i+b)) << b
		}
	}
	return base64.RawStdEncoding.EncodeToString(raw)
}

// base6 returns the number whose base-6 digits, least significant first,
// are the moves' digits, splitting the list in halves so that long lists
// take time near linear.
func base6(moves []Dir, digit func(Dir) int64) *big.Int {
	if len(moves) <= 16 {
		v := new(big.Int)
		for i := len(moves) - 1; i >= 0; i-- {
			v.Mul(v, big.NewInt(6))
			v.Add(v, big.NewInt(digit(moves[i])))
		}
		return v
	}
	m := len(moves) / 2
	lo, hi := base6(moves[:m], digit), base6(moves[m:], digit)
	hi.Mul(hi, new(big.Int).Exp(big.NewInt(6), big.NewInt(int64(m)), nil))
	return hi.Add(hi, lo)
}
