package lineproto

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// echo answers a line with itself in brackets.
func echo(line []byte) ([]byte, error) { return []byte("[" + string(line) + "]"), nil }

// TestServe: blank lines get no answer, a line too long is refused and
// the next still answered, the last line needs no newline, and an error
// of the answer ends the loop with the answers before it written.
func TestServe(t *testing.T) {
	long := strings.Repeat("x", MaxLine)
	for _, tc := range []struct{ in, want string }{
		{"a\n\n  \nb", "[a]\n[b]\n"},
		{"a\r\nb\n", "[a\r]\n[b]\n"},
		{"a\n" + long + "x\nb\n", "[a]\n" + `{"id":null,"ok":false,"error":"bad-request","message":"a request line longer than 1048576 bytes"}` + "\n[b]\n"},
		// 1 MiB before the newline is a line (docs/protocol.md), with
		// its newline or without, at the end.
		{long + "\nb\n", "[" + long + "]\n[b]\n"},
		{long, "[" + long + "]\n"},
		{long + "x", `{"id":null,"ok":false,"error":"bad-request","message":"a request line longer than 1048576 bytes"}` + "\n"},
		{"", ""},
	} {
		var out bytes.Buffer
		if err := Serve(strings.NewReader(tc.in), &out, echo); err != nil || out.String() != tc.want {
			got := out.String()
			t.Errorf("%.40q: %v, %.200q, want %.200q", tc.in, err, got, tc.want)
		}
	}
	stop := errors.New("stop")
	var out bytes.Buffer
	err := Serve(strings.NewReader("a\nstop\nb\n"), &out, func(line []byte) ([]byte, error) {
		if string(line) == "stop" {
			return nil, stop
		}
		return echo(line)
	})
	if err != stop || out.String() != "[a]\n" {
		t.Errorf("%v, %q; want stop after [a]", err, out.String())
	}
}

// FuzzServe: whatever the input, one answer for each line that is not
// blank, in order.
func FuzzServe(f *testing.F) {
	f.Add("a\n\nb")
	f.Add(" \r\n\t\n")
	f.Fuzz(func(t *testing.T, in string) {
		var want strings.Builder
		for _, l := range strings.SplitAfter(in, "\n") {
			if l = strings.TrimSuffix(l, "\n"); strings.TrimSpace(l) != "" {
				want.WriteString("[" + l + "]\n")
			}
		}
		var out bytes.Buffer
		if err := Serve(strings.NewReader(in), &out, echo); err != nil || out.String() != want.String() {
			t.Fatalf("%q: %v, %q, want %q", in, err, out.String(), want.String())
		}
	})
}
