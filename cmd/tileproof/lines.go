package main

import (
	"bytes"
	"io"
)

// lineReader splits a stream into lines without copying each: it reads
// blocks of at least minBlock bytes and hands out lines as slices of
// them. A block is never written again once a line of it is handed out,
// so a line stays valid while a worker verifies it; the rest of a block
// moves to a new one. It keeps at most limit bytes of a line: a longer
// line is read to its end and dropped.
type lineReader struct {
	r          io.Reader
	limit      int
	buf        []byte // the block; buf[start:] is read and not handed out
	start      int
	err        error // the reader's, once it has given one
	emptyReads int
}

const minBlock = 64 << 10

// next returns the next line with its end ("\n") if it has one, or
// tooLong for a line of more than limit bytes, dropped; err is the
// stream's error (io.EOF at its end) once every line before it is
// returned, the last line, without an end, with it.
func (lr *lineReader) next() (line []byte, tooLong bool, err error) {
	for {
		if i := bytes.IndexByte(lr.buf[lr.start:], '\n'); i >= 0 {
			line = lr.buf[lr.start : lr.start+i+1 : lr.start+i+1]
			lr.start += i + 1
			if len(line) > lr.limit {
				return nil, true, nil
			}
			return line, false, nil
		}
		if lr.err != nil {
			line, lr.buf, lr.start = lr.buf[lr.start:], nil, 0
			if len(line) > lr.limit {
				return nil, true, lr.err
			}
			return line, false, lr.err
		}
		if len(lr.buf)-lr.start > lr.limit {
			// A line longer than the limit: drop what is read of it and
			// read on to its end.
			return nil, true, lr.skip()
		}
		lr.fill()
	}
}

// fill reads more of the stream after the part not handed out, in a new
// block when the present one is full.
func (lr *lineReader) fill() {
	rest := lr.buf[lr.start:]
	if len(lr.buf) == cap(lr.buf) {
		// Room to double the part kept (a line is at most limit bytes, so
		// at most limit and a block more), and at least a block.
		block := make([]byte, len(rest), min(max(minBlock, 2*len(rest)), lr.limit+minBlock))
		copy(block, rest)
		lr.buf, lr.start = block, 0
	}
	n, err := lr.r.Read(lr.buf[len(lr.buf):cap(lr.buf)])
	lr.buf = lr.buf[:len(lr.buf)+n]
	switch {
	case err != nil:
		lr.err = err
	case n > 0:
		lr.emptyReads = 0
	default:
		// As bufio does: a reader that keeps giving nothing is broken.
		if lr.emptyReads++; lr.emptyReads >= 100 {
			lr.err = io.ErrNoProgress
		}
	}
}

// skip drops the stream up to the end of the present line, none of which
// is in the block after start, and returns the stream's error if it ends
// first.
func (lr *lineReader) skip() error {
	lr.buf, lr.start = nil, 0 // the lines handed out keep their block
	for {
		if lr.err != nil {
			return lr.err
		}
		lr.fill()
		if i := bytes.IndexByte(lr.buf, '\n'); i >= 0 {
			lr.start = i + 1
			return nil
		}
		lr.buf = lr.buf[:0] // nothing of this block was handed out
	}
}
