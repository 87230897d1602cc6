package hallabois

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Limits of the first-format reader (docs/peers.md gives the longest game
// of the peer's corpus).
const (
	MaxV1Bytes   = 8 << 20
	MaxV1Entries = 100_000
)

// Board sizes the readers accept. The first format's own reader is right
// only for square boards (it places cell i at row i/height), and the
// peer's boards are at most 6x6.
const (
	MinSide = 2
	MaxSide = 6
)

// V1 is a first-format recording: the board size and the entries.
type V1 struct {
	W, H int
	// Sized reports whether the recording starts with its size ("4x4S");
	// without it the board is 4x4.
	Sized   bool
	Entries []V1Entry
}

// V1Entry is one entry of a first-format recording: the board before the
// move, the tile that appeared after the move (nil when the entry records
// none), the direction, and where the entry starts in the file.
type V1Entry struct {
	Board Grid
	Spawn *RecordedSpawn
	Dir   Dir
	// DirText is the direction as written. The peer reads "0" to "3" as
	// the moves up, right, down, left, "6" and "b" as a break, and
	// anything else as the end marker (its games write "f").
	DirText string
	Byte    int // 1-based byte of the file where the entry starts
}

// RecordedSpawn is a tile that appeared: column X, row Y (from the top left) and
// its value.
type RecordedSpawn struct {
	X, Y  int
	Value uint64
}

// v1Dir returns the direction of a text as the peer's reader reads it:
// every text it does not know is the end marker.
func v1Dir(text string) Dir {
	switch text {
	case "0", "1", "2", "3": // Up, Right, Down, Left
		return Dir(text[0] - '0')
	case "6", "b":
		return Break
	}
	return End
}

// ParseV1 reads a first-format recording, as the peer's reader does:
//
//	[W "x" H "S"] entry (":" entry)...
//	entry  = cells ["+" [X "," Y "." V]] ";" direction
//	cells  = the W*H tiles row by row, separated by "."
//
// It is stricter where the peer's reader would misread or panic: the board
// must be square, 2x2 to 6x6, every entry must have exactly W*H cells, a
// spawn must be on the board, and nothing may follow a field (the peer
// ignores what follows a second "S", ";", "+", "," or "."). file names the
// recording in errors, which are [*RecordingError].
func ParseV1(file string, data []byte) (*V1, error) {
	fail := func(entry, off int, format string, args ...any) error {
		return &RecordingError{File: file, Entry: entry, Byte: off + 1, Msg: fmt.Sprintf(format, args...)}
	}
	if len(data) > MaxV1Bytes {
		return nil, &RecordingError{File: file, Msg: fmt.Sprintf("%d bytes; a first-format recording is read up to %d", len(data), MaxV1Bytes)}
	}
	s := string(data)
	rec := &V1{W: 4, H: 4}
	body := 0 // offset of the first entry
	if i := strings.IndexByte(s, 'S'); i >= 0 {
		w, h, err := parseSize(s[:i])
		if err != nil {
			return nil, fail(0, 0, "the size %s before \"S\": %v", quote(s[:i]), err)
		}
		rec.W, rec.H, rec.Sized = w, h, true
		body = i + 1
		if j := strings.IndexByte(s[body:], 'S'); j >= 0 {
			return nil, fail(0, body+j, "a second \"S\"; only the size is followed by one")
		}
	}
	n := strings.Count(s[body:], ":") + 1
	if n > MaxV1Entries {
		return nil, fail(0, 0, "%d entries; a recording is read up to %d", n, MaxV1Entries)
	}
	rec.Entries = make([]V1Entry, 0, n)
	cells := rec.W * rec.H
	off := body
	for text := range strings.SplitSeq(s[body:], ":") {
		e, err := parseV1Entry(s, off, off+len(text), rec.W, rec.H, cells)
		if err != nil {
			err.File, err.Entry = file, len(rec.Entries)+1
			return nil, err
		}
		rec.Entries = append(rec.Entries, e)
		off += len(text) + 1
	}
	return rec, nil
}

// parseSize reads "WxH".
func parseSize(s string) (w, h int, err error) {
	ws, hs, ok := strings.Cut(s, "x")
	if !ok || strings.Contains(hs, "x") {
		return 0, 0, fmt.Errorf("is not WIDTHxHEIGHT")
	}
	wv, err := parseUint(ws, math.MaxInt32)
	if err != nil {
		return 0, 0, fmt.Errorf("width: %v", err)
	}
	hv, err := parseUint(hs, math.MaxInt32)
	if err != nil {
		return 0, 0, fmt.Errorf("height: %v", err)
	}
	w, h = int(wv), int(hv)
	switch {
	case w != h:
		return 0, 0, fmt.Errorf("%dx%d is not square; the format's own reader places the cells right only on square boards", w, h)
	case w < MinSide || w > MaxSide:
		return 0, 0, fmt.Errorf("%dx%d is outside %dx%d to %dx%d", w, h, MinSide, MinSide, MaxSide, MaxSide)
	}
	return w, h, nil
}

// parseV1Entry reads the entry s[off:end]. Its errors have Byte set.
func parseV1Entry(s string, off, end, w, h, cells int) (V1Entry, *RecordingError) {
	at := func(o int, format string, args ...any) *RecordingError {
		return &RecordingError{Byte: o + 1, Msg: fmt.Sprintf(format, args...)}
	}
	e := V1Entry{Byte: off + 1}
	semi := strings.IndexByte(s[off:end], ';')
	if semi < 0 {
		return e, at(off, "no \";\" and direction after the board")
	}
	semi += off
	if j := strings.IndexByte(s[semi+1:end], ';'); j >= 0 {
		return e, at(semi+1+j, "a second \";\" in the entry")
	}
	e.DirText = s[semi+1 : end]
	e.Dir = v1Dir(e.DirText)
	boardEnd := semi
	if plus := strings.IndexByte(s[off:semi], '+'); plus >= 0 {
		boardEnd = off + plus
		if j := strings.IndexByte(s[boardEnd+1:semi], '+'); j >= 0 {
			return e, at(boardEnd+1+j, "a second \"+\" in the entry")
		}
		if boardEnd+1 < semi {
			sp, err := parseSpawn(s, boardEnd+1, semi, w, h)
			if err != nil {
				return e, err
			}
			e.Spawn = sp
		}
	}
	e.Board = NewBoard(w, h)
	i, o := 0, off
	for text := range strings.SplitSeq(s[off:boardEnd], ".") {
		if i >= cells {
			return e, at(o, "more than the %d cells of a %dx%d board", cells, w, h)
		}
		v, err := parseUint(text, math.MaxUint64)
		if err != nil {
			return e, at(o, "cell %d: %v", i+1, err)
		}
		e.Board.Cells[i] = v
		i++
		o += len(text) + 1
	}
	if i < cells {
		return e, at(boardEnd, "%d cells; a %dx%d board has %d", i, w, h, cells)
	}
	return e, nil
}

// parseSpawn reads "X,Y.V" in s[off:end].
func parseSpawn(s string, off, end, w, h int) (*RecordedSpawn, *RecordingError) {
	text := s[off:end]
	bad := func(format string, args ...any) (*RecordedSpawn, *RecordingError) {
		return nil, &RecordingError{Byte: off + 1, Msg: "the spawn " + strconv.Quote(text) + ": " + fmt.Sprintf(format, args...)}
	}
	pos, val, ok := strings.Cut(text, ".")
	if !ok || strings.Contains(val, ".") {
		return bad("is not X,Y.VALUE")
	}
	xs, ys, ok := strings.Cut(pos, ",")
	if !ok || strings.Contains(ys, ",") {
		return bad("is not X,Y.VALUE")
	}
	x, err := parseUint(xs, math.MaxInt32)
	if err != nil {
		return bad("x: %v", err)
	}
	y, err := parseUint(ys, math.MaxInt32)
	if err != nil {
		return bad("y: %v", err)
	}
	v, err := parseUint(val, math.MaxUint64)
	if err != nil {
		return bad("value: %v", err)
	}
	if int(x) >= w || int(y) >= h {
		return bad("cell (%d,%d) is off the %dx%d board", x, y, w, h)
	}
	return &RecordedSpawn{int(x), int(y), v}, nil
}
