package conformance

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/tileproof/tileproof/engine"
)

// Exec is an implementation in any language, run as a process that speaks
// the exec protocol (docs/protocol.md) on its stdin and stdout. A crash, a
// timeout or a malformed answer fails the step with a DriverError and the
// process is restarted for the next request.
type Exec struct {
	Command string        // run with sh -c
	Timeout time.Duration // for each request; 0 means 5 s
	Stderr  io.Writer     // where the process's stderr goes, prefixed; nil: os.Stderr

	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan lineOrErr
	nextID int
	hello  *Hello
}

type lineOrErr struct {
	line []byte
	err  error
}

// wire is a protocol request or response; fields are present as the op
// needs them.
type wire struct {
	ID          int           `json:"id"`
	Op          string        `json:"op,omitempty"`
	OK          *bool         `json:"ok,omitempty"`
	Error       string        `json:"error,omitempty"`
	Message     string        `json:"message,omitempty"`
	Protocol    int           `json:"protocol,omitempty"`
	Name        string        `json:"name,omitempty"`
	Version     string        `json:"version,omitempty"`
	Profiles    []string      `json:"profiles,omitempty"`
	Features    []string      `json:"features,omitempty"`
	Profile     string        `json:"profile,omitempty"`
	Setup       *Setup        `json:"setup,omitempty"`
	Seed        string        `json:"seed,omitempty"`
	Rows        int           `json:"rows,omitempty"`
	Cols        int           `json:"cols,omitempty"`
	Board       [][]uint64    `json:"board,omitempty"`
	Score       *uint64       `json:"score,omitempty"`
	Moves       *int          `json:"moves,omitempty"`
	Won         *bool         `json:"won,omitempty"`
	KeepPlaying *bool         `json:"keepPlaying,omitempty"`
	Direction   string        `json:"direction,omitempty"`
	Spawn       *engine.Spawn `json:"spawn,omitempty"`
	Changed     *bool         `json:"changed,omitempty"`
	Gained      *uint64       `json:"gained,omitempty"`
	Legal       []string      `json:"legal,omitempty"`
	State       *wireState    `json:"state,omitempty"`
}

type wireState struct {
	Board  [][]uint64 `json:"board"`
	Score  uint64     `json:"score"`
	Moves  int        `json:"moves"`
	Won    bool       `json:"won"`
	Over   bool       `json:"over"`
	Result string     `json:"result"`
}

func (e *Exec) timeout() time.Duration {
	if e.Timeout > 0 {
		return e.Timeout
	}
	return 5 * time.Second
}

// start runs the process and says hello.
func (e *Exec) start() error {
	cmd := exec.Command("sh", "-c", e.Command)
	ownGroup(cmd)
	cmd.WaitDelay = time.Second // a child that keeps stderr open cannot hold up a restart
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	w := e.Stderr
	if w == nil {
		w = os.Stderr
	}
	cmd.Stderr = &prefixWriter{w: w, prefix: "impl: "}
	if err := cmd.Start(); err != nil {
		return &DriverError{Crash, fmt.Sprintf("cannot start %q: %v", e.Command, err)}
	}
	lines := make(chan lineOrErr, 1)
	go func() {
		r := bufio.NewReaderSize(stdout, 1<<16)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 && err == nil {
				lines <- lineOrErr{line: line}
				continue
			}
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			lines <- lineOrErr{err: err}
			close(lines)
			return
		}
	}()
	e.cmd, e.stdin, e.lines = cmd, stdin, lines
	resp, err := e.roundTrip(wire{Op: "hello", Protocol: ProtocolVersion})
	if err != nil {
		return err
	}
	h := Hello{Name: resp.Name, Version: resp.Version, Protocol: resp.Protocol, Profiles: resp.Profiles, Features: resp.Features}
	if h.Protocol != ProtocolVersion {
		e.stop()
		return &DriverError{ProtocolError, fmt.Sprintf("hello: the implementation speaks protocol %d; this runner speaks %d", h.Protocol, ProtocolVersion)}
	}
	if e.hello == nil {
		e.hello = &h
	}
	return nil
}

// stop kills the process; the next request starts a new one.
func (e *Exec) stop() {
	if e.cmd == nil {
		return
	}
	e.stdin.Close()
	killProcess(e.cmd)
	e.cmd.Wait()
	e.cmd = nil
}

// call sends one request and returns the response; a RuleError when the
// implementation answers ok: false.
func (e *Exec) call(req wire) (wire, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cmd == nil {
		if err := e.start(); err != nil {
			return wire{}, err
		}
	}
	resp, err := e.roundTrip(req)
	if err != nil {
		return wire{}, err
	}
	if !*resp.OK {
		return resp, &RuleError{Code: resp.Error, Message: resp.Message}
	}
	return resp, nil
}

func (e *Exec) roundTrip(req wire) (wire, error) {
	e.nextID++
	req.ID = e.nextID
	line, _ := json.Marshal(req)
	if _, err := e.stdin.Write(append(line, '\n')); err != nil {
		e.stop()
		return wire{}, &DriverError{Crash, fmt.Sprintf("%s: the implementation is not reading its input (%v)", req.Op, err)}
	}
	select {
	case got := <-e.lines:
		if got.err != nil {
			e.stop()
			state := "exited"
			if e.cmd != nil && e.cmd.ProcessState != nil {
				state = e.cmd.ProcessState.String()
			}
			return wire{}, &DriverError{Crash, fmt.Sprintf("%s: the implementation %s without answering", req.Op, state)}
		}
		var resp wire
		if err := json.Unmarshal(got.line, &resp); err != nil {
			e.stop()
			return wire{}, &DriverError{ProtocolError, fmt.Sprintf("%s: the answer is not JSON: %q", req.Op, truncate(string(got.line), 120))}
		}
		if resp.ID != req.ID || resp.OK == nil {
			e.stop()
			return wire{}, &DriverError{ProtocolError, fmt.Sprintf("%s: the answer %s is not a response to request %d (it needs \"id\": %d and \"ok\")", req.Op, truncate(string(got.line), 120), req.ID, req.ID)}
		}
		return resp, nil
	case <-time.After(e.timeout()):
		e.stop()
		return wire{}, &DriverError{Timeout, fmt.Sprintf("%s: no answer within %s", req.Op, e.timeout())}
	}
}

func truncate(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// Hello starts the process (once) and returns its declaration.
func (e *Exec) Hello() (Hello, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.hello == nil {
		if err := e.start(); err != nil {
			return Hello{}, err
		}
	}
	return *e.hello, nil
}

// New starts a game.
func (e *Exec) New(profile, seed string, setup *Setup) (State, error) {
	resp, err := e.call(wire{Op: "new", Profile: profile, Seed: seed, Setup: setup})
	if err != nil {
		return State{}, err
	}
	return resp.state()
}

// Load starts from a given state.
func (e *Exec) Load(profile string, st LoadState) (State, error) {
	resp, err := e.call(wire{Op: "load", Profile: profile, Setup: st.Setup, Rows: st.Board.Rows(), Cols: st.Board.Cols(), Board: st.Board.Values(),
		Score: &st.Score, Moves: &st.Moves, Won: &st.Won, KeepPlaying: &st.KeepPlaying})
	if err != nil {
		return State{}, err
	}
	return resp.state()
}

// Move plays a move.
func (e *Exec) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	req := wire{Op: "move", Direction: d.String()}
	if spawn != nil {
		req.Spawn = spawn
	}
	resp, err := e.call(req)
	if err != nil {
		return MoveResult{}, err
	}
	st, err := resp.state()
	if err != nil {
		return MoveResult{}, err
	}
	return moveResult(st, resp.Changed, resp.Gained, resp.Spawn)
}

// moveResult assembles a move's outcome from an answer's fields, which
// both wire drivers name alike.
func moveResult(st State, changed *bool, gained *uint64, spawn *engine.Spawn) (MoveResult, error) {
	if changed == nil {
		return MoveResult{}, &DriverError{ProtocolError, "move: the answer has no \"changed\""}
	}
	mr := MoveResult{Changed: *changed, State: st, Spawn: spawn}
	if gained != nil {
		mr.Gained = *gained
	}
	return mr, nil
}

// Legal asks for the legal moves.
func (e *Exec) Legal() ([]engine.Direction, error) {
	resp, err := e.call(wire{Op: "legal"})
	if err != nil {
		return nil, err
	}
	out := []engine.Direction{}
	for _, name := range resp.Legal {
		d, err := engine.ParseDirection(name)
		if err != nil {
			return nil, &DriverError{ProtocolError, "legal: " + err.Error()}
		}
		out = append(out, d)
	}
	return out, nil
}

// Do plays undo, end-run or keep-playing.
func (e *Exec) Do(action string) (State, error) {
	resp, err := e.call(wire{Op: action})
	if err != nil {
		return State{}, err
	}
	return resp.state()
}

// Close ends the process.
func (e *Exec) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stop()
	return nil
}

func (w wire) state() (State, error) {
	if w.State == nil {
		return State{}, &DriverError{ProtocolError, w.Op + ": the answer has no \"state\""}
	}
	return w.State.state("the state's board")
}

// state converts a state as both wire drivers read it; where names the
// board in an error.
func (ws *wireState) state(where string) (State, error) {
	b, err := engine.BoardFromValues(ws.Board)
	if err != nil {
		return State{}, &DriverError{ProtocolError, where + ": " + err.Error()}
	}
	return State{Board: b, Score: ws.Score, Moves: ws.Moves, Won: ws.Won, Over: ws.Over, Result: ws.Result}, nil
}

// prefixWriter writes each line with a prefix.
type prefixWriter struct {
	w      io.Writer
	prefix string
	mid    bool
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		if !p.mid {
			io.WriteString(p.w, p.prefix)
		}
		i := strings.IndexByte(string(b), '\n')
		if i < 0 {
			p.w.Write(b)
			p.mid = true
			break
		}
		p.w.Write(b[:i+1])
		p.mid = false
		b = b[i+1:]
	}
	return n, nil
}
