package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tileproof/tileproof/replay"
)

// plainRead is the obvious reading Read must agree with: the whole input
// split at newlines, each non-blank line an input named NAME:LINE, too
// long past limit bytes (its newline counted), not a replay unless it
// starts with {.
func plainRead(name string, data []byte, limit int) []string {
	var out []string
	lines := bytes.SplitAfter(data, []byte("\n"))
	for i, l := range lines {
		if len(l) == 0 {
			continue
		}
		n := fmt.Sprintf("%s:%d", name, i+1)
		text := l
		if i == 0 {
			text = bytes.TrimPrefix(l, []byte("\ufeff"))
		}
		switch {
		case len(l) > limit:
			out = append(out, n+" too long")
		case len(bytes.TrimSpace(text)) == 0:
		case bytes.TrimLeft(text, " \t")[0] != '{':
			out = append(out, n+" not an object")
		default:
			out = append(out, n+" "+string(bytes.TrimRight(text, "\r\n")))
		}
	}
	return out
}

// read gives Read's inputs in plainRead's words, the reader handing out
// one byte at a time when slow (so that every line crosses reads).
func read(data []byte, limit, buffer int, slow bool) []string {
	var got []string
	var r = bytes.NewReader(data)
	var src = iotestReader(r, slow)
	Read("f", bufio.NewReaderSize(src, buffer), limit, func(in replay.Input) bool {
		switch {
		case in.Err != nil && strings.Contains(in.Err.Error(), "longer than"):
			got = append(got, in.Name+" too long")
		case in.Err == errNotObject:
			got = append(got, in.Name+" not an object")
		case in.Err != nil:
			got = append(got, in.Name+" error "+in.Err.Error())
		default:
			got = append(got, in.Name+" "+string(in.Data))
		}
		return true
	}, func() {})
	return got
}

func iotestReader(r *bytes.Reader, slow bool) interface{ Read([]byte) (int, error) } {
	if slow {
		return iotest.OneByteReader(r)
	}
	return r
}

func TestReadLines(t *testing.T) {
	data := []byte("{\"a\":1}\n\n  \nnot json\n{" + strings.Repeat("x", 40) + "}\r\n{\"b\":2}")
	want := []string{`f:1 {"a":1}`, "f:4 not an object", "f:5 too long", `f:6 {"b":2}`}
	for _, slow := range []bool{false, true} {
		got := read(data, 32, 16, slow)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("slow %v:\n got %q\nwant %q", slow, got, want)
		}
	}
	// Lines of the limit, 32 bytes with the newline, and one byte past
	// it, each over three reads of the 16-byte buffer.
	at := "{" + strings.Repeat("a", 29) + "}"
	data = []byte(at + "\n" + at + " \n" + at + "\n")
	want = []string{"f:1 " + at, "f:2 too long", "f:3 " + at}
	if got := read(data, 32, 16, false); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("at the limit:\n got %q\nwant %q", got, want)
	}
	// A byte-order mark (Windows PowerShell 5's UTF-8) starts the first
	// line, not its object; anywhere else it is not JSON.
	data = []byte("\ufeff{\"a\":1}\n\ufeff{\"b\":2}\n")
	want = []string{`f:1 {"a":1}`, "f:2 not an object"}
	for _, slow := range []bool{false, true} {
		if got := read(data, 32, 16, slow); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("a byte-order mark, slow %v:\n got %q\nwant %q", slow, got, want)
		}
	}
}

// FuzzRead holds Read (a bounded buffer, lines gathered across reads,
// long lines dropped) to the plain split of the whole input, with a
// buffer smaller and larger than the limit.
func FuzzRead(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n\n{\"b\":2}"), 24, false)
	f.Add([]byte("{"+strings.Repeat("y", 100)+"}\n{}\n"), 20, true)
	f.Add([]byte(" \t{}\r\nx\n"), 17, false)
	f.Add([]byte("\ufeff{}\n\ufeff{}\n"), 17, true)
	f.Add([]byte("{"+strings.Repeat("z", 14)+"}\n{}"), 0, false) // a line one byte past the limit of 16
	f.Fuzz(func(t *testing.T, data []byte, limit int, slow bool) {
		limit = 16 + abs(limit)%200
		for _, buffer := range []int{16, 64} {
			got, want := read(data, limit, buffer, slow), plainRead("f", data, limit)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("limit %d, buffer %d:\n got %q\nwant %q", limit, buffer, got, want)
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestVerdictLine holds verify --json's line to encoding/json's text of
// the same verdict, which HTML-escapes: every verdict of the replay
// corpus, under names holding <, >, &, U+2028 and U+2029.
func TestVerdictLine(t *testing.T) {
	v := replay.NewVerifier()
	n := 0
	err := filepath.WalkDir("../../replays", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".yaml" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, name := range []string{path, path + " <script>&amp;</script>", path + "\u2028\u2029é"} {
			vd := v.VerifyFile(name, data)
			want, err := json.Marshal(vd)
			if err != nil {
				t.Fatal(err)
			}
			if got := AppendVerdict([]byte("x"), vd); string(got) != "x"+string(want)+"\n" {
				t.Errorf("%s:\n got %s\nwant %s", name, got[1:], want)
			}
			n++
		}
		return nil
	})
	if err != nil || n < 30 {
		t.Fatalf("%d verdicts: %v", n, err)
	}
}

// endless is a reader of an endless line of c, counting what it gave.
type endless struct {
	c    byte
	read int
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.c
	}
	e.read += len(p)
	if e.read > 64<<20 { // a bound for the test, far past what Read may take
		return len(p), fmt.Errorf("read %d bytes of an endless line without a verdict", e.read)
	}
	return len(p), nil
}

// TestReadEndlessLine: a line with no end (verify - < /dev/zero, which
// read on for ever and said nothing) gets its verdict, too long, once it
// passes the limit, not at its end; the next line goes on as before.
func TestReadEndlessLine(t *testing.T) {
	const limit = 1 << 20
	for _, c := range []byte{0, '{'} {
		src := &endless{c: c}
		var got []string
		Read("stdin", src, limit, func(in replay.Input) bool {
			got = append(got, fmt.Sprintf("%s %v", in.Name, in.Err))
			return false // the caller stops at the first verdict
		}, nil)
		want := fmt.Sprintf("[stdin:1 line longer than %d bytes]", limit)
		if fmt.Sprint(got) != want || src.read > limit+128<<10 {
			t.Errorf("an endless line of %q: %q after %d bytes; want %s within %d bytes", c, got, src.read, want, limit+128<<10)
		}
	}
	// A long line that does end: its verdict once, then the next line.
	in := strings.Repeat("{", 3*limit) + "\n" + `{"next":1}` + "\n"
	var got []string
	Read("stdin", strings.NewReader(in), limit, func(in replay.Input) bool {
		got = append(got, fmt.Sprintf("%s %q %v", in.Name, in.Data, in.Err))
		return true
	}, nil)
	if want := fmt.Sprintf(`[stdin:1 "" line longer than %d bytes stdin:2 "{\"next\":1}" <nil>]`, limit); fmt.Sprint(got) != want {
		t.Errorf("a long line, then another:\n got %s\nwant %s", got, want)
	}
}

// TestReadCutOff: a stream that fails inside a line gives that line the
// failure as its verdict, once, never the line's start as a whole line
// (a request cut off by a server's read timeout had its last line's
// start verified, then a second verdict of the same name), and the
// lines that ended before it as they are.
func TestReadCutOff(t *testing.T) {
	cut := errors.New("cut off")
	for _, tc := range []struct {
		data string
		want []string
	}{
		{"{\"a\":1}\n{\"b\":", []string{"f:1 {\"a\":1}", "f:2 error cut off"}},
		{"{\"a\":1}\n", []string{"f:1 {\"a\":1}", "f:2 error cut off"}},
		{"", []string{"f:1 error cut off"}},
	} {
		for _, slow := range []bool{false, true} {
			r := io.MultiReader(iotestReader(bytes.NewReader([]byte(tc.data)), slow), iotest.ErrReader(cut))
			var got []string
			Read("f", r, 1<<10, func(in replay.Input) bool {
				if in.Err != nil {
					got = append(got, in.Name+" error "+in.Err.Error())
				} else {
					got = append(got, in.Name+" "+string(in.Data))
				}
				return true
			}, nil)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q (slow %v): %q, want %q", tc.data, slow, got, tc.want)
			}
		}
	}
}
