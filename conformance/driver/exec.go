package driver

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

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
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
	hello  *conformance.Hello
}

type lineOrErr struct {
	line []byte
	err  error
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
		return &conformance.DriverError{Status: conformance.Crash, Msg: fmt.Sprintf("cannot start %q: %v", e.Command, err)}
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
	resp, err := e.roundTrip(protocol.Message{Op: "hello", Protocol: protocol.Version})
	if err != nil {
		return err
	}
	h := conformance.Hello{Name: resp.Name, Version: resp.Version, Protocol: resp.Protocol, Profiles: resp.Profiles, Features: resp.Features}
	if h.Protocol != protocol.Version {
		e.stop()
		return &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("hello: the implementation speaks protocol %d; this runner speaks %d", h.Protocol, protocol.Version)}
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
func (e *Exec) call(req protocol.Message) (protocol.Message, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cmd == nil {
		if err := e.start(); err != nil {
			return protocol.Message{}, err
		}
	}
	resp, err := e.roundTrip(req)
	if err != nil {
		return protocol.Message{}, err
	}
	if !*resp.OK {
		return resp, &conformance.RuleError{Code: resp.Error, Message: resp.Message}
	}
	return resp, nil
}

func (e *Exec) roundTrip(req protocol.Message) (protocol.Message, error) {
	e.nextID++
	req.ID = e.nextID
	line, _ := json.Marshal(req)
	if _, err := e.stdin.Write(append(line, '\n')); err != nil {
		e.stop()
		return protocol.Message{}, &conformance.DriverError{Status: conformance.Crash, Msg: fmt.Sprintf("%s: the implementation is not reading its input (%v)", req.Op, err)}
	}
	select {
	case got := <-e.lines:
		if got.err != nil {
			e.stop()
			state := "exited"
			if e.cmd != nil && e.cmd.ProcessState != nil {
				state = e.cmd.ProcessState.String()
			}
			return protocol.Message{}, &conformance.DriverError{Status: conformance.Crash, Msg: fmt.Sprintf("%s: the implementation %s without answering", req.Op, state)}
		}
		var resp protocol.Message
		if err := json.Unmarshal(got.line, &resp); err != nil {
			e.stop()
			return protocol.Message{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%s: the answer is not JSON: %q", req.Op, truncate(string(got.line), 120))}
		}
		if resp.ID != req.ID || resp.OK == nil {
			e.stop()
			return protocol.Message{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%s: the answer %s is not a response to request %d (it needs \"id\": %d and \"ok\")", req.Op, truncate(string(got.line), 120), req.ID, req.ID)}
		}
		return resp, nil
	case <-time.After(e.timeout()):
		e.stop()
		return protocol.Message{}, &conformance.DriverError{Status: conformance.Timeout, Msg: fmt.Sprintf("%s: no answer within %s", req.Op, e.timeout())}
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
func (e *Exec) Hello() (conformance.Hello, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.hello == nil {
		if err := e.start(); err != nil {
			return conformance.Hello{}, err
		}
	}
	return *e.hello, nil
}

// New starts a game.
func (e *Exec) New(profile, seed string, setup *engine.Setup) (conformance.State, error) {
	resp, err := e.call(protocol.Message{Op: "new", Profile: profile, Seed: seed, Setup: setup})
	if err != nil {
		return conformance.State{}, err
	}
	return answerState(resp)
}

// Load starts from a given state.
func (e *Exec) Load(profile string, st conformance.LoadState) (conformance.State, error) {
	resp, err := e.call(protocol.Message{Op: "load", Profile: profile, Setup: st.Setup, Rows: st.Board.Rows(), Cols: st.Board.Cols(), Board: st.Board.Values(),
		Score: &st.Score, Moves: &st.Moves, Won: &st.Won, KeepPlaying: &st.KeepPlaying})
	if err != nil {
		return conformance.State{}, err
	}
	return answerState(resp)
}

// Move plays a move.
func (e *Exec) Move(d engine.Direction, spawn *engine.Spawn) (conformance.MoveResult, error) {
	req := protocol.Message{Op: "move", Direction: d.String()}
	if spawn != nil {
		req.Spawn = spawn
	}
	resp, err := e.call(req)
	if err != nil {
		return conformance.MoveResult{}, err
	}
	st, err := answerState(resp)
	if err != nil {
		return conformance.MoveResult{}, err
	}
	return moveResult(st, resp.Changed, resp.Gained, resp.Spawn)
}

// moveResult assembles a move's outcome from an answer's fields, which
// both wire drivers name alike.
func moveResult(st conformance.State, changed *bool, gained *uint64, spawn *engine.Spawn) (conformance.MoveResult, error) {
	if changed == nil {
		return conformance.MoveResult{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: "move: the answer has no \"changed\""}
	}
	mr := conformance.MoveResult{Changed: *changed, State: st, Spawn: spawn}
	if gained != nil {
		mr.Gained = *gained
	}
	return mr, nil
}

// Legal asks for the legal moves.
func (e *Exec) Legal() ([]engine.Direction, error) {
	resp, err := e.call(protocol.Message{Op: "legal"})
	if err != nil {
		return nil, err
	}
	out := []engine.Direction{}
	for _, name := range resp.Legal {
		d, err := engine.ParseDirection(name)
		if err != nil {
			return nil, &conformance.DriverError{Status: conformance.ProtocolError, Msg: "legal: " + err.Error()}
		}
		out = append(out, d)
	}
	return out, nil
}

// Do plays undo, end-run or keep-playing.
func (e *Exec) Do(action string) (conformance.State, error) {
	resp, err := e.call(protocol.Message{Op: action})
	if err != nil {
		return conformance.State{}, err
	}
	return answerState(resp)
}

// Close ends the process.
func (e *Exec) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stop()
	return nil
}

// answerState returns the state of an answer.
func answerState(m protocol.Message) (conformance.State, error) {
	if m.State == nil {
		return conformance.State{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: m.Op + ": the answer has no \"state\""}
	}
	return fromWire(*m.State, "the state's board")
}

// fromWire converts a state as both drivers read it; where names the
// board in an error.
func fromWire(ws protocol.State, where string) (conformance.State, error) {
	b, err := engine.BoardFromValues(ws.Board)
	if err != nil {
		return conformance.State{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: where + ": " + err.Error()}
	}
	return conformance.State{Board: b, Score: ws.Score, Moves: ws.Moves, Won: ws.Won, Over: ws.Over, Result: ws.Result}, nil
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
