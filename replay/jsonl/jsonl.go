// Package jsonl is the JSON Lines form of a batch of replays, as `tileproof
// verify -` reads it and the verify endpoint of `tileproof serve` and the
// JavaScript kit's verifier take it: one replay in JSON a line, named
// NAME:LINE; and the verdict line each gets, the bytes of a `verify --json`
// line.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/tileproof/tileproof/replay"
)

// AppendVerdict appends vd's line as `tileproof verify --json` writes it:
// its JSON form ([replay.Verdict.AppendJSON]) with <, >, & and the line
// separators U+2028 and U+2029 escaped as encoding/json escapes them (so
// that a line is safe inside an HTML page's script), the C1 controls and
// Unicode's format characters as \uXXXX (so that a terminal showing it
// acts on none), and a newline.
func AppendVerdict(b []byte, vd replay.Verdict) []byte {
	start := len(b)
	b = vd.AppendJSON(b)
	// Only <, > and & among ASCII need escaping: the rest is looked at
	// only when a byte is not ASCII.
	if text := b[start:]; bytes.ContainsAny(text, "<>&") || !isASCII(text) {
		var escaped bytes.Buffer
		json.HTMLEscape(&escaped, text)
		b = append(b[:start], escapeTerminalRunes(escaped.Bytes())...)
	}
	return append(b, '\n')
}

// isASCII reports whether text is all ASCII, byte by byte (a search by
// rune would decode every one).
func isASCII(text []byte) bool {
	for _, c := range text {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Unreadable is the verdict of an input that could not be read (a line
// too long, a line that is not JSON, a read error), as [replay.VerifyBatch]
// gives it.
func Unreadable(name string, err error) replay.Verdict {
	return replay.Verdict{Name: name, Reason: replay.Malformed, Error: fmt.Sprintf("%s: %v", name, err)}
}

// errTooLong is the error of a line longer than limit.
func errTooLong(limit int) error { return fmt.Errorf("line longer than %d bytes", limit) }

// errNotObject is a line that is not a JSON object.
var errNotObject = errors.New("not a JSON object: a line of a JSON Lines batch is one replay in JSON")

// Read hands send each non-blank line of r as a replay named NAME:LINE
// (lines counted from 1, blank ones too): its bytes without the line end,
// or the error that keeps it from being one (a line of more than limit
// bytes, its end included, handed out as soon as it passes the limit,
// then read to its end and dropped, so that a line with no end, stdin
// from /dev/zero, gets its verdict; a line that does not start with {;
// r's error, for the line it failed in, never the line's start as if it
// were whole). It keeps at most limit bytes of
// a line and a buffer; the bytes handed to send are valid until it
// returns. Before a read that may wait for more of r, it calls idle (when
// not nil), so that a caller can write out what it has buffered. It
// returns when r ends or send returns false.
func Read(name string, r io.Reader, limit int, send func(replay.Input) bool, idle func()) {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	var long []byte // a line longer than the buffer, gathered while within limit
	for line := 1; ; line++ {
		in := replay.Input{Name: name + ":" + strconv.Itoa(line)}
		long = long[:0]
		size, sent := 0, false // the line's bytes so far; its verdict (too long) handed out before its end
		var data []byte
		var err error
		for {
			if idle != nil && br.Buffered() == 0 {
				idle()
			}
			data, err = br.ReadSlice('\n')
			size += len(data)
			full := errors.Is(err, bufio.ErrBufferFull)
			if size <= limit && (full || len(long) > 0) {
				long = append(long, data...)
				data = long
			}
			if !full {
				break
			}
			if size > limit && !sent {
				sent = true
				if !send(replay.Input{Name: in.Name, Err: errTooLong(limit)}) {
					return
				}
			}
		}
		if err != nil && err != io.EOF {
			// r failed inside this line: what came of it is not the line
			// (verified, a line cut short could pass as a whole one), so
			// its verdict is the failure's, unless it has one already.
			if !sent {
				send(replay.Input{Name: in.Name, Err: err})
			}
			return
		}
		if line == 1 {
			// A byte-order mark, which some Windows tools write, is not
			// part of the first line.
			data = bytes.TrimPrefix(data, []byte("\ufeff"))
		}
		blank := len(bytes.TrimSpace(data)) == 0
		switch {
		case sent:
		case size > limit:
			in.Err = errTooLong(limit)
		case !blank && bytes.TrimLeft(data, " \t")[0] != '{':
			in.Err = errNotObject
		case !blank:
			in.Data = bytes.TrimRight(data, "\r\n")
		}
		if (in.Err != nil || in.Data != nil) && !send(in) {
			return
		}
		if err != nil {
			return
		}
	}
}
