package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// readLinePlain is the line reading lineReader replaces, on bufio: a
// line with its end, at most limit bytes of it kept, a longer one read to
// its end and dropped.
func readLinePlain(br *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		frag, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(frag) > limit {
				tooLong, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		if err != bufio.ErrBufferFull {
			return line, tooLong, err
		}
	}
}

// chunkReader gives its data in reads of the sizes of sizes, in turn
// (0 is an empty read), as a pipe or a network stream may.
type chunkReader struct {
	data  []byte
	sizes []byte
	n     int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	size := len(c.data)
	if len(c.sizes) > 0 {
		size = int(c.sizes[c.n%len(c.sizes)]) % 40
		c.n++
	}
	n := copy(p[:min(len(p), size)], c.data)
	c.data = c.data[n:]
	return n, nil
}

// readAll reads every line with next, each as "line", "too long", or
// the error, and checks that no line handed out changes as reading goes
// on (a block is never written again).
func readAll(t *testing.T, next func() ([]byte, bool, error)) []string {
	var got []string
	var lines [][]byte
	var copies []string
	for {
		line, tooLong, err := next()
		switch {
		case tooLong:
			got = append(got, "too long")
		case len(line) > 0:
			got = append(got, fmt.Sprintf("%q", line))
			lines, copies = append(lines, line), append(copies, string(line))
		}
		if err != nil {
			got = append(got, err.Error())
			break
		}
	}
	for i := range lines {
		if string(lines[i]) != copies[i] {
			t.Fatalf("line %q was written over: %q", copies[i], lines[i])
		}
	}
	return got
}

// FuzzLineReader holds lineReader to the bufio reading it replaces, for
// any text, line limit and sizes of the stream's reads.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("{a}\n\n{"+strings.Repeat("x", 300)+"\n {b}\r\nc"), 100, []byte{3, 0, 39, 1})
	f.Add([]byte("a\nbb\nccc"), 2, []byte{})
	f.Add([]byte("0123456789\n"), 10, []byte{1})
	f.Add([]byte("0123456789\n"), 11, []byte{5, 0})
	f.Fuzz(func(t *testing.T, data []byte, limit int, sizes []byte) {
		limit = 1 + (limit%200+200)%200
		lr := &lineReader{r: &chunkReader{data: data, sizes: sizes}, limit: limit}
		got := readAll(t, lr.next)
		br := bufio.NewReaderSize(&chunkReader{data: data, sizes: sizes}, 16)
		want := readAll(t, func() ([]byte, bool, error) { return readLinePlain(br, limit) })
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("limit %d:\n got %s\nwant %s", limit, strings.Join(got, "|"), strings.Join(want, "|"))
		}
	})
}

// TestLineReaderLongLines: lines longer than a block are kept whole up to
// the limit, and a line beyond it is dropped without keeping it, however
// long.
func TestLineReaderLongLines(t *testing.T) {
	long := strings.Repeat("x", 3*minBlock)
	data := "a\n" + long + "\nb\n" + long + "y\n" + "c"
	lr := &lineReader{r: strings.NewReader(data), limit: len(long) + 1}
	got := readAll(t, lr.next)
	want := []string{`"a\n"`, fmt.Sprintf("%q", long+"\n"), `"b\n"`, "too long", `"c"`, "EOF"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %.200s", strings.Join(got, "|"))
	}
	if cap(lr.buf) > 2*len(long)+minBlock {
		t.Errorf("a block of %d bytes for lines of %d", cap(lr.buf), len(long))
	}
	var big bytes.Buffer
	big.WriteString(strings.Repeat("z", 40*minBlock))
	big.WriteString("\nd\n")
	lr = &lineReader{r: &big, limit: 1000}
	if got := readAll(t, lr.next); strings.Join(got, "|") != `too long|"d\n"|EOF` {
		t.Fatalf("got %q", got)
	}
	if cap(lr.buf) > 1000+minBlock {
		t.Errorf("a dropped line grew a block to %d bytes", cap(lr.buf))
	}
}
