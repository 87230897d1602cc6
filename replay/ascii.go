package replay

// plainPrefix returns the length of the longest prefix of s that is
// printable ASCII (' ' to '~') without a double quote or a backslash: the
// text a JSON string holds as it is. It reads 8 bytes at a time, the
// whole of a long move log's time in the JSON reader and writer
// otherwise.
func plainPrefix[T string | []byte](s T) int {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// A byte's high bit is set in bad when it is below ' ' (x-' '
		// wraps), above '~' (x+1 reaches 0x80, or x has the bit), or '"'
		// or '\\' (x xor the character is zero), and for no other byte.
		// A borrow or a carry crosses into the next byte only from a byte
		// found.
		bad := (x - ' '*ones) | (x + ones | x) | zeroBytes(x^'"'*ones) | zeroBytes(x^'\\'*ones)
		if bad&high != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			break
		}
	}
	return i
}

// isSpace reports whether c is JSON's white space, which move logs and
// think times may hold too: a space, tab, CR or LF.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// zeroBytes has a byte's high bit set where x's byte is zero (and
// perhaps in the bytes after one: enough to say whether there is one).
func zeroBytes(x uint64) uint64 { return (x - 0x0101010101010101) &^ x }
