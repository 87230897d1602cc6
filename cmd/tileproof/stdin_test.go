package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// letters is an endless stdin of one letter.
type letters byte

func (l letters) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(l)
	}
	return len(p), nil
}

// TestStdinBounded: what a command reads from stdin it reads up to a
// bound, and past it fails saying so, never cut short and read on.
func TestStdinBounded(t *testing.T) {
	for _, tc := range []struct {
		args []string
		say  string
	}{
		{[]string{"record", "--seed", "7", "--moves", "-"}, "tileproof: record: --moves -: stdin: larger than 64 MiB\n"},
		{[]string{"line", "--json", "-"}, "tileproof: line: reading stdin: larger than 1 MiB\n"},
	} {
		var out, errOut bytes.Buffer
		c := &cli{stdin: io.LimitReader(letters('L'), 100<<20), stdout: &out, stderr: &errOut}
		if code := c.main(tc.args); code != exitBadUsage || out.Len() != 0 || errOut.String() != tc.say {
			t.Errorf("%s: exit %d, stdout %d bytes, stderr %q; want exit 2 saying %q", strings.Join(tc.args, " "), code, out.Len(), errOut.String(), tc.say)
		}
	}
}
