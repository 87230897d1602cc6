package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/protocol"
)

// Exec is an implementation in any language, run as a process that speaks
// the exec protocol (docs/protocol.md) on its stdin and stdout.
//
// A request that gets no proper answer (a timeout, a crash: the process
// exits or closes its stdout, or an answer that is not one: not JSON,
// longer than protocol.MaxLine, another request's, against
// docs/protocol.schema.json) fails with a [conformance.DriverError]; the
// process and every process it started are ended, and the next request
// starts it again, with a new hello. After MaxTimeouts timeouts in a row,
// or three failed starts in a row, the driver stops: every later request
// fails at once as not run, with the reason.
//
// Context bounds the whole run, the one mechanism for the run's deadline
// and for interrupts (docs/protocol.md, "The run's deadline and
// cancellation"): an answer's wait ends at the timeout or at the
// context's deadline, whichever comes first, and once the context is done
// the process and every process it started are killed at once, and the
// request under way and every later one fail with status
// [conformance.NotRun] and the context's cause, not as the
// implementation's failure.
//
// Exec is a [conformance.Pipeliner]: PlayAll writes a batch's requests
// while it reads their answers.
type Exec struct {
	Command string        // run with sh -c
	Timeout time.Duration // for each answer; 0 means 5 s
	// Context bounds the run: its deadline, its cancellation; nil means
	// context.Background(), no bound.
	Context context.Context
	// StartTimeout is the wait for hello's answer, which includes the
	// process's start: the longer of it and Timeout; 0 means
	// [StartTimeout].
	StartTimeout time.Duration
	// MaxTimeouts is how many timeouts in a row stop the driver; 0 means 3.
	MaxTimeouts int
	// Stderr is where the process's stderr goes, each line prefixed
	// "impl: ", at most StderrLimit bytes in all; nil: os.Stderr.
	Stderr io.Writer

	mu           sync.Mutex
	proc         *process
	hello        *conformance.Hello
	nextID       int
	timeouts     int // in a row
	failedStarts int // in a row
	stopped      *conformance.DriverError
	stderr       *cappedWriter
	out          []byte // the requests being written, reused
}

const (
	// StderrLimit is how much of the implementation's stderr Exec passes
	// on, over the whole run: the rest is dropped, and counted.
	StderrLimit = 1 << 20
	// defaultTimeout is the wait for an answer when the driver names
	// none.
	defaultTimeout = 5 * time.Second
	// window is how many requests a batch keeps in flight.
	window = 64
	// maxFailedStarts is how many failed starts in a row stop the driver.
	maxFailedStarts = 3
	// StartTimeout is the default wait for hello's answer, which
	// includes the process's start: a runtime (node, a JVM, Python and
	// its imports) loading on a busy machine.
	StartTimeout = 20 * time.Second
)

// call sends one request and returns its answer; err is the failure, or
// the refusal.
func (e *Exec) call(req protocol.Request) (protocol.Answer, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.ensure(); err != nil {
		return protocol.Answer{}, err
	}
	var a protocol.Answer
	var aerr error
	if _, err := e.exchange([]protocol.Request{req}, func(_ int, got protocol.Answer, err error) { a, aerr = got, err }); err != nil {
		return protocol.Answer{}, err
	}
	return a, aerr
}

// keptMessage is how much of a refusal's message PlayAll keeps, in bytes.
const keptMessage = 200

// keptRefusal returns err, but a refusal by the rules with a message
// longer than keptMessage bytes as one with the message cut, copied:
// PlayAll holds a whole batch's results at once (thousands of games: a
// message of 65,536 characters each held 1.3 GB), and the property checks
// read only that a game was refused.
func keptRefusal(err error) error {
	var re *conformance.RuleError
	if !errors.As(err, &re) || len(re.Message) <= keptMessage {
		return err
	}
	return &conformance.RuleError{Code: re.Code, Message: safetext.Cut(re.Message, keptMessage)}
}

// Hello starts the process (once) and returns its declaration, each
// profile and feature once.
func (e *Exec) Hello() (conformance.Hello, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.hello == nil {
		if err := e.ensure(); err != nil {
			return conformance.Hello{}, err
		}
	}
	return *e.hello, nil
}

// New starts a game.
func (e *Exec) New(profile, seed string, setup *engine.Setup) (conformance.ImplState, error) {
	return stateOf(e.call(protocol.Request{Op: protocol.OpNew, Profile: profile, Seed: seed, Setup: setup}))
}

// Load starts from a given state.
func (e *Exec) Load(profile string, st conformance.LoadState) (conformance.ImplState, error) {
	return stateOf(e.call(loadRequest(profile, st)))
}

func loadRequest(profile string, st conformance.LoadState) protocol.Request {
	return protocol.Request{Op: protocol.OpLoad, Profile: profile, Setup: st.Setup, Rows: st.Board.Rows(), Cols: st.Board.Cols(), Board: st.Board.Values(),
		Score: &st.Score, Moves: &st.Moves, Won: &st.Won, KeepPlaying: &st.KeepPlaying}
}

// Move plays a move.
func (e *Exec) Move(d engine.Direction, spawn *engine.Spawn) (conformance.MoveResult, error) {
	return moveOf(e.call(protocol.Request{Op: protocol.OpMove, Direction: d.String(), Spawn: spawn}))
}

// PlayAll plays games of one move each: a load and a move for each game,
// written while the answers are read. A game whose load is refused gets
// the refusal (its move's answer is read and dropped). At the first
// request that gets no proper answer the process is ended, as after any
// failure: that game gets the failure, and the games after it are not
// played, each failing as not run with the reason.
func (e *Exec) PlayAll(profile string, games []conformance.OneMove) []conformance.OneMoveResult {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]conformance.OneMoveResult, len(games))
	if len(games) == 0 {
		return out
	}
	failed, err := 0, e.ensure()
	if err == nil {
		reqs := make([]protocol.Request, 0, 2*len(games))
		for _, g := range games {
			reqs = append(reqs, loadRequest(profile, g.State), protocol.Request{Op: protocol.OpMove, Direction: g.Move.String()})
		}
		failed, err = e.exchange(reqs, func(i int, a protocol.Answer, err error) {
			r := &out[i/2]
			switch {
			case i%2 == 0:
				r.Err = keptRefusal(err) // the load's refusal is the game's
			case r.Err != nil: // the load was refused: the move played on another game
			default:
				r.Move, r.Err = moveOf(a, err)
				r.Err = keptRefusal(r.Err)
			}
		})
		failed /= 2
	}
	if err != nil {
		out[failed] = conformance.OneMoveResult{Err: err}
		de := &conformance.DriverError{Status: conformance.ProtocolError, Msg: err.Error()}
		errors.As(err, &de)
		rest := error(&conformance.DriverError{Status: de.Status, Msg: fmt.Sprintf("not run: game %d of %d of the batch failed before it: %s", failed+1, len(games), de.Msg)})
		if de == e.stopped {
			rest = de // the driver has stopped: the reason is the same for all
		}
		for k := failed + 1; k < len(games); k++ {
			out[k].Err = rest
		}
	}
	return out
}

// Legal asks for the legal moves.
func (e *Exec) Legal() ([]engine.Direction, error) {
	a, err := e.call(protocol.Request{Op: protocol.OpLegal})
	if err != nil {
		return nil, err
	}
	out := make([]engine.Direction, 0, len(a.Legal))
	for _, name := range a.Legal {
		d, _ := engine.ParseDirection(name) // the schema allows only the four
		out = append(out, d)
	}
	return out, nil
}

// Do plays undo, end-run or keep-playing.
func (e *Exec) Do(action string) (conformance.ImplState, error) {
	switch action {
	case protocol.OpUndo, protocol.OpEndRun, protocol.OpKeepPlaying:
	default:
		return conformance.ImplState{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: fmt.Sprintf("%q is not an action of the protocol", action)}
	}
	return stateOf(e.call(protocol.Request{Op: action}))
}

// Close ends the process and every process it started.
func (e *Exec) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.kill()
	if e.stderr != nil {
		e.stderr.close()
	}
	return nil
}

// stateOf returns the state of an answer the schema has checked, or err,
// the request's failure or refusal.
func stateOf(a protocol.Answer, err error) (conformance.ImplState, error) {
	if err != nil {
		return conformance.ImplState{}, err
	}
	return fromWire(*a.State, "the state's board")
}

// moveOf returns the outcome of a move's answer the schema has checked,
// or err, the request's failure or refusal.
func moveOf(a protocol.Answer, err error) (conformance.MoveResult, error) {
	st, err := stateOf(a, err)
	if err != nil {
		return conformance.MoveResult{}, err
	}
	return conformance.MoveResult{Changed: a.Changed, Gained: a.Gained, Spawn: a.Spawn, State: st}, nil
}

// fromWire converts a state as both drivers read it; where names the
// board in an error.
func fromWire(ws protocol.WireState, where string) (conformance.ImplState, error) {
	b, err := engine.BoardFromValues(ws.Board)
	if err != nil {
		return conformance.ImplState{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: where + ": " + err.Error()}
	}
	return conformance.ImplState{Board: b, Score: ws.Score, Moves: ws.Moves, Won: ws.Won, Over: ws.Over, Result: ws.Result}, nil
}
