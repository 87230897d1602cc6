// Package lineproto is what the module's two exec adapters (the reference
// adapter in conformance/testdata/adapter and the 2048.c adapter) share
// of docs/protocol.md's exec protocol: the loop that reads one request a
// line and writes one answer a line, and the answers whose shape does not
// depend on the game. It knows nothing of the rules.
package lineproto

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// MaxLine bounds a request line, in bytes, its newline included.
const MaxLine = 1 << 20

// Refusal is an answer with ok false.
type Refusal struct {
	ID      *int64 `json:"id"` // null for a line that is not a request
	OK      bool   `json:"ok"`
	Error   string `json:"error"`
	Message string `json:"message"`
}

// Hello is the answer to hello.
type Hello struct {
	ID       int64    `json:"id"`
	OK       bool     `json:"ok"`
	Protocol int      `json:"protocol"`
	Name     string   `json:"name"`
	Version  string   `json:"version"`
	Profiles []string `json:"profiles"`
	Features []string `json:"features"`
}

// Refuse returns the refusal with the error word and the message, to the
// request of id (nil: the line was not a request).
func Refuse(id *int64, word, format string, args ...any) []byte {
	return Marshal(Refusal{ID: id, Error: word, Message: fmt.Sprintf(format, args...)})
}

// Marshal returns v's JSON; v is an answer's plain struct.
func Marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the answers are plain structs
	}
	return b
}

// Serve answers the request lines of r on w until r ends, and returns
// nil then. Blank lines are skipped; each other line, its newline
// removed, is given to answer, whose answer is written with a newline. A
// line longer than [MaxLine] is read to its end and refused as
// bad-request with a null id. The answers are buffered while whole
// requests wait in r (a runner that pipelines them) and written before
// Serve can wait for more. An error of answer, or of writing, ends Serve
// with that error, the answers before it written.
func Serve(r io.Reader, w io.Writer, answer func(line []byte) ([]byte, error)) error {
	in := bufio.NewReaderSize(r, 64<<10)
	out := bufio.NewWriterSize(w, 32<<10)
	for {
		line, err := readLine(in)
		var resp []byte
		switch {
		case err == errTooLong:
			resp = Refuse(nil, "bad-request", "a request line longer than %d bytes", MaxLine)
		case len(bytes.TrimSpace(line)) > 0:
			var aerr error
			if resp, aerr = answer(line); aerr != nil {
				out.Flush()
				return aerr
			}
		}
		if resp != nil {
			out.Write(resp)
			out.WriteByte('\n')
		}
		if pending, _ := in.Peek(in.Buffered()); err != nil || bytes.IndexByte(pending, '\n') < 0 {
			if werr := out.Flush(); werr != nil {
				return werr
			}
		}
		switch err {
		case nil, errTooLong:
		case io.EOF:
			return nil
		default:
			return err
		}
	}
}

var errTooLong = fmt.Errorf("request line too long")

// readLine reads one line without its newline; a line longer than
// MaxLine is read to its end and dropped (errTooLong).
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		if len(line)+len(part) > MaxLine {
			for err == bufio.ErrBufferFull {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && err != io.EOF {
				return nil, err
			}
			return nil, errTooLong
		}
		line = append(line, part...)
		if err != bufio.ErrBufferFull {
			return bytes.TrimSuffix(line, []byte("\n")), err
		}
	}
}
