package conformance

import (
	"errors"
	"fmt"
	"slices"

	"github.com/tileproof/tileproof/engine"
)

// Impl is an implementation under test, as a driver reaches it: it says
// what it is, starts games and plays moves. What else it can do it offers
// as the optional interfaces [Loader], [LegalLister] and [Doer], the way
// an fs.FS offers fs.ReadDirFS: a Go implementation implements those it
// has. Methods return a [*RuleError] when the implementation refuses a
// step by its rules, and a [*DriverError] when the driver could not get a
// proper answer (a crash, a timeout, a protocol error).
type Impl interface {
	// Hello returns what the implementation is and can do.
	Hello() (Hello, error)
	// New starts a game; seed is a tp1 seed, "" for an implementation
	// without seed-tp1; setup, when not nil, is the run's choice (feature
	// setup).
	New(profile, seed string, setup *engine.Setup) (ImplState, error)
	// Move plays a move; spawn, when not nil, is the tile to place after
	// the slide (feature force-spawn).
	Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error)
	// Close ends the implementation.
	Close() error
}

// Loader is an [Impl] that starts from a given state (feature
// load-state).
type Loader interface {
	Load(profile string, st LoadState) (ImplState, error)
}

// LegalLister is an [Impl] that lists the moves that change the board now.
// Without it, expectations of the legal moves are not checked; nor are
// they when Legal returns an error that is [ErrNoLegal] (a driver's
// implementation that answers it does not list them).
type LegalLister interface {
	Legal() ([]engine.Direction, error)
}

// ErrNoLegal is the error of a [LegalLister] whose implementation does
// not list legal moves (over the exec protocol, legal answered
// unsupported-op): the legal moves go unchecked, which is no failure.
var ErrNoLegal = errors.New("the implementation does not list legal moves")

// Doer is an [Impl] that plays the run's other actions: "undo",
// "end-run" or "keep-playing" (features undo, end-run, keep-playing).
type Doer interface {
	Do(action string) (ImplState, error)
}

// OneMove is one independent game of a single move: a state to load, and
// the move to play on it.
type OneMove struct {
	State LoadState
	Move  engine.Direction
}

// OneMoveResult is what the move of a [OneMove] did, or why it did not:
// Err is a [*RuleError] for a refusal, a [*DriverError] for a call that
// failed.
type OneMoveResult struct {
	Move MoveResult
	Err  error
}

// Pipeliner is a [Loader] that plays many independent games of one move
// in one call, so that a driver can send all the requests before it reads
// the answers (the property checks play thousands). The results are in
// the order of the games, one each.
type Pipeliner interface {
	PlayAll(profile string, games []OneMove) []OneMoveResult
}

// Hello is an implementation's declaration of itself.
type Hello struct {
	Name     string   `json:"name"`
	Version  string   `json:"version"`
	Protocol int      `json:"protocol"`
	Profiles []string `json:"profiles"`
	Features []string `json:"features"` // under every profile
	// ProfileFeatures are features that hold under one profile only,
	// beside Features: a server's game of one board size, say.
	ProfileFeatures map[string][]string `json:"profileFeatures,omitempty"`
}

// Has reports whether the implementation declares a feature under every
// profile.
func (h Hello) Has(feature string) bool { return slices.Contains(h.Features, feature) }

// hasUnder reports whether the implementation declares a feature under
// a profile: under every profile, or under that one.
func (h Hello) hasUnder(profile, feature string) bool {
	return h.Has(feature) || slices.Contains(h.ProfileFeatures[profile], feature)
}

// ImplState is a game's state as an implementation reports it.
type ImplState struct {
	Board  engine.Board `json:"board"`
	Score  uint64       `json:"score"`
	Moves  int          `json:"moves"`
	Won    bool         `json:"won"`
	Over   bool         `json:"over"`
	Result string       `json:"result,omitempty"` // "" when the implementation does not report it
}

// LoadState is a state to load.
type LoadState struct {
	Setup       *engine.Setup // the run's choice, when not nil (feature setup)
	Board       engine.Board
	Score       uint64
	Moves       int
	Won         bool
	KeepPlaying bool
}

// MoveResult is what a move did.
type MoveResult struct {
	Changed bool
	Gained  uint64
	Spawn   *engine.Spawn // nil when no tile appeared
	State   ImplState
}

// slid returns the board after the move's slide, before its spawn: the
// board reported with the spawned tile taken away.
func (mr MoveResult) slid() engine.Board {
	b := mr.State.Board
	if sp := mr.Spawn; sp != nil && sp.Row >= 0 && sp.Row < b.Rows() && sp.Col >= 0 && sp.Col < b.Cols() {
		b.Set(sp.Row, sp.Col, 0)
	}
	return b
}

// RuleError is a step the implementation refused by its rules. Code is
// illegal-move, finished, unsupported, no-undo or not-stopped (or another
// word an implementation uses).
type RuleError struct {
	Code    string
	Message string
}

// Error returns the refusal as CODE: MESSAGE.
func (e *RuleError) Error() string { return e.Code + ": " + e.Message }

// DriverError is a failure to get a proper answer from an implementation.
type DriverError struct {
	Status Status // Crash, Timeout or ProtocolError
	Msg    string
}

// Error returns the failure as STATUS: MESSAGE.
func (e *DriverError) Error() string { return fmt.Sprintf("%s: %s", e.Status, e.Msg) }
