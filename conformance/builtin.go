package conformance

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// Builtin is the built-in engine as an implementation: every built-in
// profile (and the profiles of Profiles), every feature. It is what
// `cases lint` runs the cases against, and the reference the property
// checks compare with.
type Builtin struct {
	// Seed is the tp1 seed of the spawns that are not forced, for games
	// started by Load and by New without a seed; each uses Seed plus a
	// counter.
	Seed string
	// Profiles are profiles it plays beside the built-in ones, by name.
	Profiles []*engine.Profile
	games    int
	game     *engine.Game
	rules    map[rulesKey]*engine.Rules // Load's, compiled once a key
}

// rulesKey is what Load's compiled rules are kept by: the profile (its
// entry of Profiles, or none and its name for a built-in one), the
// setup, and the board's size.
type rulesKey struct {
	name       string
	own        *engine.Profile
	setup      engine.Setup
	set        bool
	rows, cols int
}

// nextSeed is the seed of the next game the engine starts its own way.
func (b *Builtin) nextSeed() string {
	b.games++
	return fmt.Sprintf("%s-%d", cmp.Or(b.Seed, "builtin"), b.games)
}

// Hello declares every built-in profile (and Profiles) and every feature.
func (b *Builtin) Hello() (Hello, error) {
	h := Hello{Name: "tileproof-engine", Version: "builtin", Protocol: protocol.Version, Profiles: engine.BuiltinNames(),
		Features: []string{protocol.LoadState, protocol.ForceSpawn, protocol.SeedTP1, protocol.Undo, protocol.EndRun, protocol.KeepPlaying, protocol.Setup}}
	for _, p := range b.Profiles {
		h.Profiles = append(h.Profiles, p.Name)
	}
	for r := engine.MinSide; r <= engine.MaxSide; r++ {
		for c := engine.MinSide; c <= engine.MaxSide; c++ {
			h.Features = append(h.Features, protocol.SizeFeature(r, c))
		}
	}
	return h, nil
}

// AddProfileFiles adds the profile files among names (paths, or names
// ending in .yaml or .yml, as --profile gives them) to the profiles b
// plays, so that a run may ask for one: the engine plays any profile. A
// name of a built-in profile is left alone.
func (b *Builtin) AddProfileFiles(names []string) error {
	for _, name := range names {
		if !isProfileFile(name) {
			continue
		}
		p, err := readProfileFile(name, "the profile file asked for")
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(b.Profiles, func(q *engine.Profile) bool { return q.Name == p.Name }) {
			b.Profiles = append(b.Profiles, p)
		}
	}
	return nil
}

func (b *Builtin) profile(name string, setup *engine.Setup) (*engine.Profile, error) {
	var p *engine.Profile
	var err error
	if i := slices.IndexFunc(b.Profiles, func(q *engine.Profile) bool { return q.Name == name }); i >= 0 {
		p = b.Profiles[i]
	} else if p, err = engine.BuiltinProfile(name); err != nil {
		return nil, err
	}
	if setup == nil {
		return p, nil
	}
	if p, err = p.WithSetup(*setup); err != nil {
		return nil, &RuleError{"unsupported", err.Error()}
	}
	return p, nil
}

// New starts a tp1 game from seed; without one, from a seed of its own.
func (b *Builtin) New(profile, seed string, setup *engine.Setup) (ImplState, error) {
	p, err := b.profile(profile, setup)
	if err != nil {
		return ImplState{}, err
	}
	if seed == "" {
		seed = b.nextSeed()
	}
	if b.game, err = engine.NewGame(p, seed); err != nil {
		return ImplState{}, err
	}
	return engineState(b.game), nil
}

// Load starts from st, on a board of any size: the profile's size is
// taken from the board, as a case on another size asks.
func (b *Builtin) Load(profile string, st LoadState) (ImplState, error) {
	r, err := b.loadRules(profile, st.Setup, st.Board.Rows(), st.Board.Cols())
	if err != nil {
		return ImplState{}, err
	}
	rng, err := engine.NewRNG(b.nextSeed())
	if err != nil {
		return ImplState{}, err
	}
	b.game, err = r.Load(engine.State{Board: st.Board, Score: st.Score, Moves: st.Moves, RNG: &rng, Won: st.Won, KeepPlaying: st.KeepPlaying})
	if err != nil {
		return ImplState{}, err
	}
	return engineState(b.game), nil
}

// loadRules returns the rules Load plays profile by under setup on a
// board of rows by cols, compiled once for each: the property checks
// load thousands of boards, and a profile's copy and compilation were
// most of a load (docs/conformance.md, BenchmarkSuite).
func (b *Builtin) loadRules(profile string, setup *engine.Setup, rows, cols int) (*engine.Rules, error) {
	key := rulesKey{name: profile, rows: rows, cols: cols}
	if i := slices.IndexFunc(b.Profiles, func(q *engine.Profile) bool { return q.Name == profile }); i >= 0 {
		key.own = b.Profiles[i]
	}
	if setup != nil {
		key.setup, key.set = *setup, true
	}
	if r, ok := b.rules[key]; ok {
		return r, nil
	}
	p, err := b.profile(profile, setup)
	if err != nil {
		return nil, err
	}
	p = p.Clone()
	p.Rows, p.Cols = rows, cols
	p.StartTiles = min(p.StartTiles, rows*cols)
	r, err := engine.Compile(p)
	if err != nil {
		return nil, err
	}
	if b.rules == nil {
		b.rules = make(map[rulesKey]*engine.Rules)
	}
	b.rules[key] = r
	return r, nil
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
func (b *Builtin) Do(action string) (ImplState, error) {
	if b.game == nil {
		return ImplState{}, &DriverError{ProtocolError, action + " before new or load"}
	}
	a, _, ok := stepAction(action)
	if !ok {
		return ImplState{}, &RuleError{"unsupported", "unknown action " + action}
	}
	if _, err := b.game.Do(a); err != nil {
		return ImplState{}, ruleError(err)
	}
	return engineState(b.game), nil
}

// Close does nothing.
func (b *Builtin) Close() error { return nil }

func engineState(g *engine.Game) ImplState {
	return ImplState{Board: g.Board(), Score: g.Score(), Moves: g.Moves(), Won: g.Won(), Over: g.Over(), Result: resultName(g.Result())}
}

// ruleError names an engine error as the protocol does.
func ruleError(err error) error {
	code := engine.Refusal(err)
	if code == "" {
		code = "error"
	}
	return &RuleError{code, err.Error()}
}
