package conformance

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/tileproof/tileproof/engine"
)

// Impl is an implementation under test, as a driver reaches it. Methods
// return a [*RuleError] when the implementation refuses a step by its
// rules, and a [*DriverError] when the driver could not get a proper
// answer (a crash, a timeout, a protocol error).
type Impl interface {
	// Hello returns what the implementation is and can do.
	Hello() (Hello, error)
	// New starts a game; seed is a tp1 seed, "" for an implementation
	// without seed-tp1; setup, when not nil, is the run's choice (feature
	// setup).
	New(profile, seed string, setup *Setup) (State, error)
	// Load starts from a given state (feature load-state).
	Load(profile string, st LoadState) (State, error)
	// Move plays a move; spawn, when not nil, is the tile to place after
	// the slide (feature force-spawn).
	Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error)
	// Legal returns the moves that change the board now.
	Legal() ([]engine.Direction, error)
	// Do plays "undo", "end-run" or "keep-playing".
	Do(action string) (State, error)
	// Close ends the implementation.
	Close() error
}

// Hello is an implementation's declaration of itself.
type Hello struct {
	Name     string   `json:"name"`
	Version  string   `json:"version"`
	Protocol int      `json:"protocol"`
	Profiles []string `json:"profiles"`
	Features []string `json:"features"`
}

// Has reports whether the implementation declares a feature.
func (h Hello) Has(feature string) bool { return slices.Contains(h.Features, feature) }

// State is a game's state as an implementation reports it.
type State struct {
	Board  engine.Board `json:"board"`
	Score  uint64       `json:"score"`
	Moves  int          `json:"moves"`
	Won    bool         `json:"won"`
	Over   bool         `json:"over"`
	Result string       `json:"result,omitempty"` // "" when the implementation does not report it
}

// LoadState is a state to load.
type LoadState struct {
	Setup       *Setup // the run's choice, when not nil (feature setup)
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
	State   State
}

// Slid returns the board after the move's slide, before its spawn: the
// board reported with the spawned tile taken away.
func (mr MoveResult) Slid() engine.Board {
	b := mr.State.Board
	if mr.Spawn != nil {
		b.Set(mr.Spawn.Row, mr.Spawn.Col, 0)
	}
	return b
}

// RuleError is a step the implementation refused by its rules. Code is
// illegal-move, finished, unsupported or no-undo (or another word an
// implementation uses).
type RuleError struct {
	Code    string
	Message string
}

func (e *RuleError) Error() string { return e.Code + ": " + e.Message }

// DriverError is a failure to get a proper answer from an implementation.
type DriverError struct {
	Status Status // Crash, Timeout or ProtocolError
	Msg    string
}

func (e *DriverError) Error() string { return fmt.Sprintf("%s: %s", e.Status, e.Msg) }

// Builtin is the built-in engine as an implementation: every built-in
// profile, every feature. It is what `cases lint` runs the cases
// against, and the reference the property checks compare with.
type Builtin struct {
	// Seed is the tp1 seed of the spawns that are not forced, for games
	// started by Load; each Load uses Seed plus a counter.
	Seed  string
	loads int
	game  *engine.Game
}

// Hello declares every built-in profile and every feature.
func (b *Builtin) Hello() (Hello, error) {
	h := Hello{Name: "tileproof-engine", Version: "builtin", Protocol: ProtocolVersion, Profiles: engine.BuiltinNames(),
		Features: []string{FeatureLoadState, FeatureForceSpawn, FeatureSeedTP1, FeatureUndo, FeatureEndRun, FeatureKeepPlaying, FeatureSetup}}
	for r := engine.MinSide; r <= engine.MaxSide; r++ {
		for c := engine.MinSide; c <= engine.MaxSide; c++ {
			h.Features = append(h.Features, SizeFeature(r, c))
		}
	}
	return h, nil
}

func (b *Builtin) profile(name string, setup *Setup) (*engine.Profile, error) {
	p, err := engine.BuiltinProfile(name)
	if err != nil || setup == nil {
		return p, err
	}
	target := setup.Target
	if target == 0 {
		target = p.Win.Tile
	}
	p, err = p.Setup(target, setup.OpenEnded)
	if err != nil {
		return nil, &RuleError{"unsupported", err.Error()}
	}
	return p, nil
}

// New starts a tp1 game.
func (b *Builtin) New(profile, seed string, setup *Setup) (State, error) {
	p, err := b.profile(profile, setup)
	if err != nil {
		return State{}, err
	}
	if b.game, err = engine.NewGame(p, seed); err != nil {
		return State{}, err
	}
	return engineState(b.game), nil
}

// Load starts from st, on a board of any size: the profile's size is
// taken from the board, as a case on another size asks.
func (b *Builtin) Load(profile string, st LoadState) (State, error) {
	p, err := b.profile(profile, st.Setup)
	if err != nil {
		return State{}, err
	}
	p = p.Clone()
	p.Rows, p.Cols = st.Board.Rows(), st.Board.Cols()
	p.StartTiles = min(p.StartTiles, p.Rows*p.Cols)
	b.loads++
	rng, err := engine.NewRNG(fmt.Sprintf("%s-%d", cmp.Or(b.Seed, "builtin"), b.loads))
	if err != nil {
		return State{}, err
	}
	b.game, err = engine.Load(p, engine.State{Board: st.Board, Score: st.Score, Moves: st.Moves, RNG: &rng, Won: st.Won, KeepPlaying: st.KeepPlaying})
	if err != nil {
		return State{}, err
	}
	return engineState(b.game), nil
}

// Move plays a move, with a forced spawn when given.
func (b *Builtin) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	if b.game == nil {
		return MoveResult{}, &DriverError{ProtocolError, "move before new or load"}
	}
	var step engine.Step
	var err error
	if spawn != nil {
		step, err = b.game.MoveSpawn(d, *spawn)
	} else {
		step, err = b.game.Move(d)
	}
	if err != nil {
		return MoveResult{}, ruleError(err)
	}
	mr := MoveResult{Changed: step.Changed, Gained: step.Gained, State: engineState(b.game)}
	if step.Changed {
		sp := step.Spawn
		mr.Spawn = &sp
	}
	return mr, nil
}

// Legal returns the game's legal moves.
func (b *Builtin) Legal() ([]engine.Direction, error) {
	if b.game == nil {
		return nil, &DriverError{ProtocolError, "legal before new or load"}
	}
	return b.game.LegalMoves(), nil
}

// Do plays undo, end-run or keep-playing.
func (b *Builtin) Do(action string) (State, error) {
	if b.game == nil {
		return State{}, &DriverError{ProtocolError, action + " before new or load"}
	}
	var err error
	switch action {
	case "undo":
		err = b.game.Undo()
	case "end-run":
		err = b.game.EndRun()
	case "keep-playing":
		err = b.game.KeepPlaying()
	default:
		return State{}, &RuleError{"unsupported", "unknown action " + action}
	}
	if err != nil {
		return State{}, ruleError(err)
	}
	return engineState(b.game), nil
}

// Close does nothing.
func (b *Builtin) Close() error { return nil }

func engineState(g *engine.Game) State {
	res, _ := g.Result().MarshalText()
	return State{Board: g.Board(), Score: g.Score(), Moves: g.Moves(), Won: g.Won(), Over: g.Over(), Result: string(res)}
}

// ruleError names an engine error as the protocol does.
func ruleError(err error) error {
	code := engine.Refusal(err)
	if code == "" {
		code = "error"
	}
	return &RuleError{code, err.Error()}
}
