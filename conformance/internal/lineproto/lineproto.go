// Package lineproto is the adapters' side of docs/protocol.md's exec
// protocol, shared by the module's two exec adapters (the reference
// adapter in conformance/testdata/adapter and the 2048.c adapter): the
// loop that reads one request a line and writes one answer a line, the
// reading of a request line, and the answers. It knows nothing of the
// rules, and it is written apart from the runner's side (protocol and
// conformance/driver) on purpose: a second reading of the page.
package lineproto

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// MaxLine bounds a request line, in bytes before its newline
// (docs/protocol.md: at most 1 MiB).
const MaxLine = 1 << 20

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
			resp = Refuse(0, "bad-request", "a request line longer than %d bytes", MaxLine)
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

// errTooLong is a line over MaxLine.
var errTooLong = errors.New("request line too long")

// readLine reads one line without its newline; a line longer than
// MaxLine is read to its end and dropped (errTooLong).
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		if len(line)+len(bytes.TrimSuffix(part, []byte("\n"))) > MaxLine {
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
