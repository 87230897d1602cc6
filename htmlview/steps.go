package htmlview

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// A viewer page carries its game as the start board and one record a
// step, gzip-compressed and written in base64url: a step costs a few
// bytes, so a page is a small multiple of its replay whatever the
// replay's shape (a log of move+undo pairs compresses to almost nothing).
// The page's script inflates the records (the browser's
// DecompressionStream) and applies them in turn: it sets the cells a
// record names, it never slides or merges a tile itself.
//
// A record (after the start, one a step):
//
//	byte    the action (engine.Action, 0 to 7) | the flags below
//	[flags&recScore]  zigzag varint: the score's change
//	[flags&recMoves]  zigzag varint: the counted moves' change
//	[flags&recGained] varint: the points the move's merges earned
//	[flags&recState]  byte: won<<7 | the result (engine.Result)
//	byte    n, the cells that changed; n pairs (cell, exponent)
//	[flags&recSpawn]  byte: the cell of the tile that appeared
//	[flags&recSpawn]  byte m; m pairs (from, to): where the slide took
//	        each tile that moved (a merge is two tiles to one cell), for
//	        the animation only; m is 0 when the slide is not known
//
// Cells are row-major, 0 to 63; exponents 0 (empty) to 52.
const (
	recSpawn  = 1 << 3
	recScore  = 1 << 4
	recMoves  = 1 << 5
	recGained = 1 << 6
	recState  = 1 << 7
)

// stepStream writes the records of a game's steps as the verifier hands
// out its frames, holding only the last frame and the compressed bytes.
type stepStream struct {
	n     int // frames seen
	first replay.Frame
	prev  replay.Frame
	buf   bytes.Buffer
	z     *gzip.Writer
	rec   []byte
}

func (s *stepStream) add(f replay.Frame) {
	if s.n == 0 {
		s.first, s.prev, s.n = f, f, 1
		s.z, _ = gzip.NewWriterLevel(&s.buf, gzip.BestCompression)
		return
	}
	p := s.prev
	r := s.rec[:0]
	head := byte(f.Action) & 7
	r = append(r, 0)
	if f.Spawn != nil {
		head |= recSpawn
	}
	if f.Score != p.Score {
		head |= recScore
		r = binary.AppendVarint(r, int64(f.Score-p.Score))
	}
	if f.Moves != p.Moves {
		head |= recMoves
		r = binary.AppendVarint(r, int64(f.Moves-p.Moves))
	}
	if f.Gained != 0 {
		head |= recGained
		r = binary.AppendUvarint(r, f.Gained)
	}
	if f.Won != p.Won || f.Result != p.Result {
		head |= recState
		r = append(r, stateByte(f))
	}
	r[0] = head
	cols := f.Board.Cols()
	at := len(r)
	r = append(r, 0)
	changed := 0
	for row := range f.Board.Rows() {
		for c := range cols {
			if e := f.Board.Exp(row, c); p.Board.Rows() != f.Board.Rows() || e != p.Board.Exp(row, c) {
				r = append(r, byte(row*cols+c), byte(e))
				changed++
			}
		}
	}
	r[at] = byte(changed)
	if f.Spawn != nil {
		r = append(r, byte(f.Spawn.Row*cols+f.Spawn.Col))
		r = appendSlide(r, p.Board, f)
	}
	s.rec = r
	s.z.Write(r) // into a bytes.Buffer: cannot fail
	s.prev = f
	s.n++
}

func stateByte(f replay.Frame) byte {
	b := byte(f.Result) & 0x7f
	if f.Won {
		b |= 0x80
	}
	return b
}

// finish flushes the compressed records and returns them.
func (s *stepStream) finish() []byte {
	if s.z != nil {
		s.z.Close()
		s.z = nil
	}
	return s.buf.Bytes()
}

// appendSlide appends the slide of the counted move that led from board
// before to frame f: m, then (from, to) for each tile that moved. The
// tiles are matched line by line, in the direction of the move, against
// the board after the slide (f's board without the tile that appeared):
// a tile of the slid line is one tile of the same value or two of half
// its value. When the boards do not match so (a profile of other merges),
// m is 0 and the page draws the step without the slide.
func appendSlide(r []byte, before engine.Board, f replay.Frame) []byte {
	d, ok := f.Action.Direction()
	after := f.Board
	rows, cols := after.Rows(), after.Cols()
	at := len(r)
	r = append(r, 0)
	if !ok || before.Rows() != rows || before.Cols() != cols {
		return r
	}
	spawn := f.Spawn.Row*cols + f.Spawn.Col
	lines, length := rows, cols
	if d == engine.Up || d == engine.Down {
		lines, length = cols, rows
	}
	// cell returns the k-th cell of line l, counted from the edge the
	// tiles move to.
	cell := func(l, k int) int {
		switch d {
		case engine.Left:
			return l*cols + k
		case engine.Right:
			return l*cols + cols - 1 - k
		case engine.Up:
			return k*cols + l
		}
		return (rows-1-k)*cols + l
	}
	exp := func(b engine.Board, c int) int { return b.Exp(c/cols, c%cols) }
	m := 0
	for l := range lines {
		var from [engine.MaxSide]int
		nf := 0
		for k := range length {
			if c := cell(l, k); exp(before, c) != 0 {
				from[nf] = c
				nf++
			}
		}
		i := 0
		for k := range length {
			c := cell(l, k)
			if c == spawn {
				continue
			}
			e := after.Exp(c/cols, c%cols)
			if e == 0 {
				continue
			}
			switch {
			case i < nf && exp(before, from[i]) == e:
				if from[i] != c {
					r = append(r, byte(from[i]), byte(c))
					m++
				}
				i++
			case i+1 < nf && exp(before, from[i]) == e-1 && exp(before, from[i+1]) == e-1:
				for _, fc := range from[i : i+2] {
					if fc != c {
						r = append(r, byte(fc), byte(c))
						m++
					}
				}
				i += 2
			default:
				return r[:at+1]
			}
		}
		if i != nf {
			return r[:at+1]
		}
	}
	r[at] = byte(m)
	return r
}
