package conformance

import (
	"errors"
	"time"

	"github.com/tileproof/tileproof/engine"
)

// HTTP is a server shaped like the tile-merge API of seed 000 (see
// docs/protocol.md, "The HTTP driver").
type HTTP struct {
	BaseURL string
	Timeout time.Duration
}

var errHTTPTodo = errors.New("the http driver is not written yet")

// Hello asks the server what it can do.
func (h *HTTP) Hello() (Hello, error) { return Hello{}, errHTTPTodo }

// New starts a game.
func (h *HTTP) New(profile, seed string) (State, error) { return State{}, errHTTPTodo }

// Load starts from a state.
func (h *HTTP) Load(profile string, st LoadState) (State, error) { return State{}, errHTTPTodo }

// Move plays a move.
func (h *HTTP) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	return MoveResult{}, errHTTPTodo
}

// Legal returns the legal moves.
func (h *HTTP) Legal() ([]engine.Direction, error) { return nil, errHTTPTodo }

// Do plays an action.
func (h *HTTP) Do(action string) (State, error) { return State{}, errHTTPTodo }

// Close does nothing.
func (h *HTTP) Close() error { return nil }
