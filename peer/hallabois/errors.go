package hallabois

import (
	"fmt"
	"strconv"
)

// RecordingError is a recording that cannot be read: the file, the 1-based entry of
// a first-format recording (0 for its header or a second-format field),
// the 1-based byte in the file where the fault is (0 when there is none)
// and what is wrong.
type RecordingError struct {
	File  string
	Entry int
	Byte  int
	Msg   string
}

// Error says where the recording cannot be read and why: "FILE: entry N,
// byte B: what".
func (e *RecordingError) Error() string {
	s := e.File + ": "
	switch {
	case e.Entry > 0 && e.Byte > 0:
		s += fmt.Sprintf("entry %d, byte %d: ", e.Entry, e.Byte)
	case e.Entry > 0:
		s += fmt.Sprintf("entry %d: ", e.Entry)
	case e.Byte > 0:
		s += fmt.Sprintf("byte %d: ", e.Byte)
	}
	return s + e.Msg
}

// quote shows a piece of a recording in a message, cut to a readable
// length.
func quote(s string) string {
	const max = 24
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}

// parseUint reads a number the way the peer's reader does (Rust's
// str::parse for an unsigned type): an optional '+', then one or more
// decimal digits, leading zeros allowed, at most max.
func parseUint(s string, max uint64) (uint64, error) {
	t := s
	if len(t) > 0 && t[0] == '+' {
		t = t[1:]
	}
	if t == "" {
		return 0, fmt.Errorf("%s is not a number", quote(s))
	}
	var v uint64
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%s is not a number", quote(s))
		}
		d := uint64(c - '0')
		if v > (max-d)/10 {
			return 0, fmt.Errorf("%s is above %d", quote(s), max)
		}
		v = v*10 + d
	}
	return v, nil
}
