package driver

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/internal/testkit"
	"github.com/tileproof/tileproof/protocol"
)

// The test binary is also a family of broken implementations of the exec
// protocol, each a way an implementation can go wrong that the reference
// adapter's hooks do not cover: run with TILEPROOF_FAKE=MODE (fake
// returns the command), it plays that part on its stdin and stdout.

// runsAtOnce is how many parallel tests run at once: a run over exec
// waits on its implementation's process (a hung one on its timeouts) as
// much as it works, so more than GOMAXPROCS; and TestForwardingPipe's
// quiet group is three runs at once.
const runsAtOnce = 4

func TestMain(m *testing.M) {
	if mode := os.Getenv("TILEPROOF_FAKE"); mode != "" {
		os.Exit(runFake(mode))
	}
	testkit.MainAtOnce(m, runsAtOnce) // removes the adapter and forwarder built
}

// fake returns the command line of the fake implementation MODE.
func fake(t testing.TB, mode string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("TILEPROOF_FAKE='%s' exec '%s'", mode, exe)
}

const (
	fakeHello = `{"id":%d,"ok":true,"protocol":1,"name":"fake","version":"1","profiles":["classic"],"features":["load-state","force-spawn"]}`
	fakeState = `"state":{"board":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"score":0,"moves":0,"won":false,"over":false,"result":"playing"}`
)

// fakeAnswer is a proper answer to a request, whatever it asks.
func fakeAnswer(id int, op string) string {
	switch op {
	case "hello":
		return fmt.Sprintf(fakeHello, id)
	case "move":
		return fmt.Sprintf(`{"id":%d,"ok":true,"changed":false,"gained":0,"spawn":null,%s}`, id, fakeState)
	case "legal":
		return fmt.Sprintf(`{"id":%d,"ok":true,"legal":["down","right"]}`, id)
	}
	return fmt.Sprintf(`{"id":%d,"ok":true,%s}`, id, fakeState)
}

// runFake plays the part of mode: its name, then a space and its
// argument.
//
//	silent             answers hello, then nothing
//	endless-line       answers hello, then a line without end
//	profiles N         hello lists classic N times
//	stderr N           writes N bytes to stderr, then answers everything
//	stderr-hostile     writes hostileStderr to stderr, then answers everything
//	close-stdout       answers hello, closes stdout and runs on
//	exit-after-hello   answers hello, then exits with status 7 at the next request
//	panic-after-hello  answers hello, then at the next request writes panicStderr to stderr and exits with status 2
//	no-state           answers hello, then {"id":N,"ok":true} to everything
//	bare-refusal       answers hello, then {"id":N,"ok":false} to everything
//	word W             answers hello, then ok: false with error W to everything
//	long-refusal       answers hello, then illegal-move to everything, its message the longest allowed (65,536 four-byte characters)
//	wrong-id           answers hello, then each request with the next one's id
//	deaf               answers hello, then reads no more but answers legal to every id to come
//	window N           answers hello, then nothing until N requests wait, then each as it comes
//	slow D             answers everything, each after D
//	slow-start D       starts D late (before it reads hello), then answers everything
func runFake(mode string) int {
	name, arg, _ := strings.Cut(mode, " ")
	n, _ := strconv.Atoi(arg)
	if name == "slow-start" {
		d, _ := time.ParseDuration(arg)
		time.Sleep(d)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<21)
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) {
		out.WriteString(s + "\n")
		out.Flush()
	}
	// The longest refusal's message, made once, not for each request.
	var longMessage string
	if name == "long-refusal" {
		longMessage = strings.Repeat("\U0001F600", protocol.MaxMessageLength)
	}
	var pending []struct {
		id int
		op string
	}
	for first := true; in.Scan(); first = false {
		var req struct {
			ID int    `json:"id"`
			Op string `json:"op"`
		}
		json.Unmarshal(in.Bytes(), &req)
		if first {
			switch name {
			case "profiles":
				say(fmt.Sprintf(`{"id":%d,"ok":true,"protocol":1,"name":"fake","version":"1","profiles":[%s],"features":[]}`, req.ID, strings.Repeat(`"classic",`, n-1)+`"classic"`))
			case "stderr":
				os.Stderr.Write([]byte(strings.Repeat("x", n)))
				say(fakeAnswer(req.ID, req.Op))
			case "stderr-hostile":
				os.Stderr.WriteString(hostileStderr)
				say(fakeAnswer(req.ID, req.Op))
			default:
				say(fakeAnswer(req.ID, req.Op))
			}
			continue
		}
		switch name {
		case "silent":
		case "endless-line":
			chunk := strings.Repeat("x", 1<<16)
			for {
				if _, err := out.WriteString(chunk); err != nil {
					return 1
				}
			}
		case "close-stdout":
			os.Stdout.Close()
			time.Sleep(time.Hour)
		case "exit-after-hello":
			return 7
		case "panic-after-hello":
			os.Stderr.WriteString(panicStderr)
			return 2
		case "no-state":
			say(fmt.Sprintf(`{"id":%d,"ok":true}`, req.ID))
		case "deaf":
			for id := req.ID; ; id++ {
				if _, err := out.WriteString(fakeAnswer(id, "legal") + "\n"); err != nil {
					return 1
				}
			}
		case "wrong-id":
			say(fakeAnswer(req.ID+1, req.Op))
		case "bare-refusal":
			say(fmt.Sprintf(`{"id":%d,"ok":false}`, req.ID))
		case "word":
			say(fmt.Sprintf(`{"id":%d,"ok":false,"error":%q,"message":"as asked"}`, req.ID, arg))
		case "long-refusal":
			say(fmt.Sprintf(`{"id":%d,"ok":false,"error":"illegal-move","message":"%s"}`, req.ID, longMessage))
		case "window":
			pending = append(pending, struct {
				id int
				op string
			}{req.ID, req.Op})
			if len(pending) >= n {
				for _, p := range pending {
					out.WriteString(fakeAnswer(p.id, p.op) + "\n")
				}
				out.Flush()
				pending, n = nil, 1
			}
		case "slow":
			d, _ := time.ParseDuration(arg)
			time.Sleep(d)
			say(fakeAnswer(req.ID, req.Op))
		default:
			say(fakeAnswer(req.ID, req.Op))
		}
	}
	return 0
}

// driverError returns err as a *DriverError, failing the test otherwise.
func driverError(t *testing.T, err error) *conformance.DriverError {
	t.Helper()
	var de *conformance.DriverError
	if !errors.As(err, &de) {
		t.Fatalf("%v (%T), want a *DriverError", err, err)
	}
	return de
}

func wantDriverError(t *testing.T, err error, status conformance.Status, msg ...string) {
	t.Helper()
	de := driverError(t, err)
	if de.Status != status {
		t.Errorf("status %s (%s), want %s", de.Status, de.Msg, status)
	}
	for _, m := range msg {
		if !strings.Contains(de.Msg, m) {
			t.Errorf("the error %q does not say %q", de.Msg, m)
		}
	}
}
