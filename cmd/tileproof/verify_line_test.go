package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tileproof/tileproof/replay"
)

// syncBuffer is a buffer the command writes while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestVerifyStreamsVerdicts: verify --json - answers each line of a
// stream that sends one replay at a time before the next arrives (the
// verdicts go through a buffer, which must go out whenever the batch
// waits), as a leaderboard piping its submissions through verify needs.
func TestVerifyStreamsVerdicts(t *testing.T) {
	data, err := os.ReadFile("../../replays/minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.Decode("minimal.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	line := append(r.EncodeJSON(), '\n')
	in, feed := io.Pipe()
	var out syncBuffer
	c := &cli{stdin: in, stdout: &out, stderr: io.Discard}
	done := make(chan int)
	go func() { done <- c.main([]string{"verify", "--json", "-"}) }()
	for i := 1; i <= 5; i++ {
		if _, err := feed.Write(line); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for strings.Count(out.String(), "\n") < i {
			if time.Now().After(deadline) {
				t.Fatalf("no verdict for line %d while the stream waits; stdout so far: %q", i, out.String())
			}
			time.Sleep(time.Millisecond)
		}
		if !strings.Contains(out.String(), fmt.Sprintf(`"name":"stdin:%d","valid":true`, i)) {
			t.Fatalf("line %d: %q", i, out.String())
		}
	}
	feed.Close()
	if code := <-done; code != exitOK {
		t.Errorf("exit %d", code)
	}
}
