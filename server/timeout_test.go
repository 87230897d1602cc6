package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// timeout is the read and write timeouts of the servers of these tests:
// long enough that a busy machine does not stall a request's head past
// it, short enough for a test.
const timeout = time.Second

// newTimedServer starts a server whose read and write timeouts are d, as
// tileproof serve's are 30 s, and returns its address.
func newTimedServer(t *testing.T, d time.Duration) string {
	t.Helper()
	s, err := NewWith(builtins(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(s)
	ts.Config.ReadTimeout = d
	ts.Config.WriteTimeout = d
	ts.Start()
	t.Cleanup(ts.Close)
	return strings.TrimPrefix(ts.URL, "http://")
}

// slowRequest sends a request's head, announcing length bytes of body,
// and sent of them, then nothing more; it returns the answer, read
// within 10 s, and its body.
func slowRequest(t *testing.T, addr, path, ctype string, length int, sent string) (*http.Response, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s", path, addr, ctype, length, sent)
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%s, its body stalled: no answer: %v", path, err)
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s, its body stalled: the answer %d cut short: %q: %v", path, resp.StatusCode, data, err)
	}
	return resp, string(data)
}

// TestReadTimeoutAnswered: a request whose body is still coming when the
// server's read timeout passes is answered 408, saying so and what to
// do, also though the write timeout counts from the same start (before:
// 400 "reading the request: read tcp 127.0.0.1:8048->...: i/o timeout",
// when the answer got out before the write timeout at all).
func TestReadTimeoutAnswered(t *testing.T) {
	addr := newTimedServer(t, timeout)
	for _, c := range []struct{ path, ctype, what string }{
		{"/api/verify", "application/json", "the replay"},
		{"/api/verify", "application/yaml", "the replay"},
		{"/api/games/tile-merge/action", "application/json", "the request"},
	} {
		t.Run(c.path+" "+c.ctype, func(t *testing.T) {
			t.Parallel()
			resp, body := slowRequest(t, addr, c.path, c.ctype, 1000, `{"profile":`)
			want := c.what + " did not all come in time: the server's read timeout"
			if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(body, want) || !strings.Contains(body, "send it again") {
				t.Errorf("its body stalled: %d %s, want 408 with %q", resp.StatusCode, body, want)
			}
			if !resp.Close {
				t.Errorf("its body stalled: the connection is kept open, its body unread")
			}
		})
	}
}

// TestVerifyLinesReadTimeout: a JSON Lines request cut off by the read
// timeout inside a line gets the verdicts of the lines before, then one
// for that line saying it was cut off and what to do, and no other.
// Before, the line's start was verified as if it were the whole line
// (malformed: "invalid JSON"), or, the write timeout passed too, the
// answer ended with no verdict of it: a batch cut short looked whole.
func TestVerifyLinesReadTimeout(t *testing.T) {
	addr := newTimedServer(t, timeout)
	line := `{"profile":"tile-merge","seed":"7","moves":"","claim":{"score":0,"maxTile":4,"moves":0}}` + "\n"
	for _, c := range []struct{ name, sent string }{
		{"inside a line", line + `{"profile":"tile-merge",`},
		{"at a line's start", line + line},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			resp, body := slowRequest(t, addr, "/api/verify", "application/jsonl", 10000, c.sent)
			lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
			cut := strings.Count(c.sent, "\n") + 1
			if resp.StatusCode != 200 || len(lines) != cut {
				t.Fatalf("%d, %d verdicts, want %d:\n%s", resp.StatusCode, len(lines), cut, body)
			}
			for i, l := range lines[:cut-1] {
				if !strings.HasPrefix(l, fmt.Sprintf(`{"name":"request:%d","valid":true,`, i+1)) {
					t.Errorf("verdict %d: %s", i+1, l)
				}
			}
			want := fmt.Sprintf(`{"name":"request:%d","valid":false,"reason":"malformed","error":"request:%d: the request was cut off before this line's end: the server's read timeout`, cut, cut)
			if last := lines[cut-1]; !strings.HasPrefix(last, want) || !strings.Contains(last, "send this line and those after it in another request") {
				t.Errorf("the last verdict: %s\nwant one beginning %s", last, want)
			}
		})
	}
}

// TestVerifyLinesPastTheBody: a JSON Lines body past MaxVerifyBody ends
// with one verdict of the line it ended in, saying so; the line's start
// is not verified (before, it was, as if it were the whole line: two
// verdicts of one name, the first "invalid JSON").
func TestVerifyLinesPastTheBody(t *testing.T) {
	ts := newTestServer(t, "")
	line := `{"profile":"tile-merge","seed":"7","moves":"","claim":{"score":0,"maxTile":4,"moves":0}}` + "\n"
	var b strings.Builder
	b.WriteString(line)
	blank := strings.Repeat(" ", 1<<20-1) + "\n" // a line with no replay: no verdict
	k := 1
	for b.Len()+len(blank) < MaxVerifyBody-len(line)/2 {
		b.WriteString(blank)
		k++
	}
	b.WriteString(strings.Repeat(" ", MaxVerifyBody-len(line)/2-b.Len()))
	b.WriteString(line + line) // the first of the two across the bound
	k++
	code, body, _ := postVerify(t, ts.URL, "application/jsonl", b.String())
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	want := fmt.Sprintf(`{"name":"request:%d","valid":false,"reason":"malformed","error":"request:%d: the request is larger than %d bytes; send the rest in another"}`, k, k, MaxVerifyBody)
	if code != 200 || len(lines) != 2 || !strings.HasPrefix(lines[0], `{"name":"request:1","valid":true,`) || lines[1] != want {
		t.Errorf("a body past %d bytes: %d\n%s\nwant the first line's verdict, then\n%s", MaxVerifyBody, code, body, want)
	}
}
