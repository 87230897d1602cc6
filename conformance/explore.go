package conformance

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/boardfmt"
)

// DefaultExploreSeed is the seed of exploration's random source when none
// is given: a run is reproducible from the seed its summary prints.
const DefaultExploreSeed = 2048

// DefaultExploreMaxMoves bounds one explored game: a random game ends
// long before (a few hundred moves), so the bound only stops an
// implementation that never ends a game.
const DefaultExploreMaxMoves = 5000

// ExploreArea is the folder, under the output folder, that explored cases
// are written to (so the output folder is a case pack of its own).
const ExploreArea = "explore"

// shrinkBudget bounds the case runs one shrink may make.
const shrinkBudget = 4000

// The ways exploration plays an implementation's games.
const (
	// ExploreSeeded: the implementation starts each game from a tp1 seed
	// and draws its own spawns, which must be tp1's (feature seed-tp1).
	ExploreSeeded = "seeded"
	// ExploreForced: the implementation loads the engine's start and every
	// spawn is forced to the engine's (features load-state, force-spawn).
	ExploreForced = "forced"
)

// ExploreOptions shape an exploration run.
type ExploreOptions struct {
	Games    int      // the number of random games
	Profiles []string // the profiles to play, in turn; nil: every built-in profile the implementation declares
	Seed     uint64   // the seed of the random source (games and moves)
	// Impl names the implementation as the user gave it (the --impl
	// argument), for the source of the cases written.
	Impl string
}

// ExploreReport is the outcome of an exploration run.
type ExploreReport struct {
	Impl     Hello
	ImplArg  string // the implementation as the user named it
	Seed     uint64
	Mode     string // ExploreSeeded or ExploreForced
	Profiles []string
	Games    int // games played
	Steps    int // steps compared
	// Playing is the time spent playing and comparing, shrinking left out:
	// Steps / Playing is the exploration speed.
	Playing time.Duration
	// LateGames counts the games started from a late board (see
	// [Explore]).
	LateGames   int
	Divergences []Divergence // at most one a game: a game stops at its first
}

// Divergence is the first step of one game at which the implementation
// and the engine disagree.
type Divergence struct {
	Game    int // 1-based
	Move    int // the 1-based move of the game; 0 for the start
	Profile string
	Result  Result     // the step's check, as the runner reports it
	Found   *FoundCase // the shrunk case: for the first divergence of each kind only
}

// FoundCase is a divergence shrunk to a case of the pack's format.
type FoundCase struct {
	ID    string
	YAML  []byte // the case file
	Case  *Case  // YAML, parsed back
	Moves int    // moves (and checks) of the case
	Tiles int    // tiles on its start board; 0 for a seeded start
	// Result is the case run against the implementation with the normal
	// runner: a failure of the divergence's kind, unless the divergence
	// did not reproduce (Reproduced false).
	Result     Result
	Reproduced bool
	Runs       int    // case runs the shrinking made
	File       string // where WriteCases wrote it
}

// ExploreUnsupportedError is returned when an implementation declares
// neither way exploration can follow it.
type ExploreUnsupportedError struct {
	Impl    Hello
	Missing []string
}

func (e *ExploreUnsupportedError) Error() string {
	return fmt.Sprintf("%s %s declares neither load-state with force-spawn nor seed-tp1 (it lacks %s): exploration needs one of them to make its spawns follow the engine's",
		e.Impl.Name, e.Impl.Version, strings.Join(e.Missing, ", "))
}

// Explore plays random games against an implementation and compares every
// step with the engine: the board after the slide, the points gained,
// changed, the spawn, the board after, the score and move count, won and
// over and the result, and the legal moves. An implementation with
// seed-tp1 starts each game from a seed and draws its own spawns; one
// with load-state and force-spawn loads the engine's start and has every
// spawn forced. Random play from an empty board seldom gets past 256, so
// with load-state and force-spawn every other game starts instead from a
// late board: a crowded board of large tiles, often with a pair that
// makes the win tile, where the win, the end of the game and the two
// together are a move or two away. The first divergence of each kind is shrunk to a short
// case (see [FoundCase]); the others are counted. Errors are usage
// errors: the implementation's hello failed, a profile it does not
// declare, or neither way to follow it ([*ExploreUnsupportedError]).
func Explore(impl Impl, opts ExploreOptions) (*ExploreReport, error) {
	if opts.Games <= 0 {
		return nil, fmt.Errorf("the number of games to explore must be positive, not %d", opts.Games)
	}
	hello, err := helloOf(impl)
	if err != nil {
		return nil, err
	}
	canLoad := hello.Has(FeatureLoadState) && hello.Has(FeatureForceSpawn)
	seeded := hello.Has(FeatureSeedTP1)
	if !canLoad && !seeded {
		return nil, &ExploreUnsupportedError{hello, missingFeatures(hello, []string{FeatureLoadState, FeatureForceSpawn, FeatureSeedTP1})}
	}
	profiles, err := exploreProfiles(hello, opts.Profiles)
	if err != nil {
		return nil, err
	}
	rep := &ExploreReport{Impl: hello, ImplArg: opts.Impl, Seed: opts.Seed, Mode: ExploreForced, Profiles: profiles}
	if seeded {
		rep.Mode = ExploreSeeded
	}
	shrunk := map[Status]bool{}
	for game := 1; game <= opts.Games; game++ {
		p, _ := engine.BuiltinProfile(profiles[(game-1)%len(profiles)])
		x := &explorer{impl: impl, hello: hello, p: p, seeded: seeded, canLoad: canLoad,
			seed: fmt.Sprintf("explore-%d-%d", opts.Seed, game), rng: rand.New(rand.NewPCG(opts.Seed, uint64(game)))}
		if canLoad && game%2 == 0 {
			x.late, x.seeded = true, false
			rep.LateGames++
		}
		t := time.Now()
		d := x.play(DefaultExploreMaxMoves)
		rep.Playing += time.Since(t)
		rep.Games++
		rep.Steps += x.steps
		if d == nil {
			continue
		}
		d.Game = game
		if !shrunk[d.Result.Status] {
			shrunk[d.Result.Status] = true
			fc, err := x.shrink(d, rep)
			if err != nil {
				return nil, err
			}
			d.Found = fc
		}
		rep.Divergences = append(rep.Divergences, *d)
	}
	return rep, nil
}

// exploreProfiles returns the profiles to play: the ones asked for, which
// the implementation must declare, or every built-in one it declares; a
// profile needs its board size declared too.
func exploreProfiles(h Hello, asked []string) ([]string, error) {
	var out []string
	for _, name := range cmpList(asked, h.Profiles) {
		if asked != nil && !slices.Contains(h.Profiles, name) {
			return nil, fmt.Errorf("the implementation does not declare profile %q (it declares %s)", name, strings.Join(h.Profiles, ", "))
		}
		p, err := engine.BuiltinProfile(name)
		if err != nil {
			if asked != nil {
				return nil, fmt.Errorf("profile %q: exploration compares with the engine, so it plays built-in profiles only", name)
			}
			continue
		}
		if (p.Rows != 4 || p.Cols != 4) && !h.Has(SizeFeature(p.Rows, p.Cols)) {
			if asked != nil {
				return nil, fmt.Errorf("profile %q plays on %dx%d, and the implementation does not declare %s", name, p.Rows, p.Cols, SizeFeature(p.Rows, p.Cols))
			}
			continue
		}
		out = append(out, name)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the implementation declares no built-in profile to explore (it declares %s)", strings.Join(h.Profiles, ", "))
	}
	return out, nil
}

func cmpList(a, b []string) []string {
	if a != nil {
		return a
	}
	return b
}

// exploreMove is one action of an explored game: a move, with the spawn
// the engine placed after it (nil when the move changed nothing or was
// refused), or undo, End run or keep playing.
type exploreMove struct {
	Act   engine.Action
	Spawn *engine.Spawn
}

// explorer plays one game.
type explorer struct {
	impl    Impl
	hello   Hello
	p       *engine.Profile
	seeded  bool // the implementation draws its own spawns from the tp1 seed
	canLoad bool // load-state and force-spawn
	late    bool // the game starts from a late board (lateBoard), loaded
	seed    string
	rng     *rand.Rand
	steps   int

	history []engine.State // the engine's state before each move
	moves   []exploreMove
}

// play plays the game and returns its first divergence, or nil.
func (x *explorer) play(maxMoves int) *Divergence {
	var g *engine.Game
	var err error
	if x.late {
		// The engine draws the spawns (forced on the implementation) from
		// a generator of the game's own random source.
		b, rng := x.lateBoard(), engine.RNGFromState(x.rng.Uint64())
		g, err = engine.Load(x.p, engine.State{Board: b, Score: b.Potential(), RNG: &rng})
	} else {
		g, err = engine.NewGame(x.p, x.seed)
	}
	if err != nil {
		return x.diverged(0, Result{Status: ProtocolError, Reason: "the engine cannot start the game: " + err.Error()})
	}
	res := Result{Profile: x.p.Name}
	var st State
	if x.seeded {
		st, err = x.impl.New(x.p.Name, x.seed, nil)
	} else {
		st, err = x.impl.Load(x.p.Name, LoadState{Board: g.Board(), Score: g.Score()})
	}
	if err != nil {
		res.callFailed(err, 0, "the start state")
		return x.diverged(0, res)
	}
	if x.seeded {
		// The start is tp1's too.
		x.steps++
		if !runStep(x.impl, x.p, checkStep(g), 1, &st, &res) {
			return x.diverged(0, res)
		}
	}
	for n := 1; n <= maxMoves; n++ {
		over := g.Over()
		a := x.choose(g)
		x.history = append(x.history, g.State())
		step, err := g.Do(a)
		m := exploreMove{Act: a}
		if err == nil && step.Changed {
			sp := step.Spawn
			m.Spawn = &sp
		}
		x.moves = append(x.moves, m)
		cs, err := caseStep(g, m, step, err, !x.seeded, true)
		if err != nil {
			res.fail(ProtocolError, n, "", "the engine failed: %v", err)
			return x.diverged(n, res)
		}
		x.steps++
		if !runStep(x.impl, x.p, cs, n, &st, &res) {
			return x.diverged(n, res)
		}
		if over && g.Over() {
			break // one action after the end, which both refuse
		}
	}
	return nil
}

// lateBoard returns a board of the profile's size with zero to four
// empty cells and tiles from 2 to half the win tile (1024 when the profile
// has none), no two equal tiles side by side; in half of them two tiles of
// half the win tile sit side by side in the first row, so that a move
// makes the win tile, and on a full board it may be the last move.
func (x *explorer) lateBoard() engine.Board {
	rows, cols := x.p.Rows, x.p.Cols
	b, _ := engine.NewBoard(rows, cols)
	top := 10
	if w := x.p.Win.Tile; w >= 4 {
		top = bits.Len64(w) - 2
	}
	pair := -1
	if x.rng.IntN(2) == 0 {
		pair = x.rng.IntN(cols - 1)
	}
	for r := range rows {
		for c := range cols {
			v := uint64(1) << (1 + x.rng.IntN(top))
			if r == 0 && (c == pair || c == pair+1) {
				v = 1 << top
			} else if top > 2 {
				for (c > 0 && b.At(r, c-1) == v) || (r > 0 && b.At(r-1, c) == v) {
					v = 1 << (1 + x.rng.IntN(top))
				}
			}
			b.Set(r, c, v)
		}
	}
	empty := x.rng.IntN(min(5, rows*cols-1))
	for _, i := range x.rng.Perm(rows * cols)[:empty] {
		b.Set(i/cols, i%cols, 0)
	}
	return b
}

func (x *explorer) diverged(move int, res Result) *Divergence {
	res.Case, res.Area, res.Profile = "", "", x.p.Name
	return &Divergence{Move: move, Profile: x.p.Name, Result: res}
}

// choose picks the next action. Where the profile has them and the
// implementation declares them: keep playing half the time when the run
// has stopped at a win that asks, undo one time in ten (refused, too,
// where there is nothing to undo), End run one time in 150. Otherwise a
// move: most often one the engine says is legal, sometimes any direction
// (a move that changes nothing, or none left).
func (x *explorer) choose(g *engine.Game) engine.Action {
	p := x.p
	switch {
	case g.AwaitingKeep() && x.hello.Has(FeatureKeepPlaying) && x.rng.IntN(2) == 0:
		return engine.KeepPlaying
	case p.Undo && x.hello.Has(FeatureUndo) && x.rng.IntN(10) == 0:
		return engine.Undo
	case p.EndRun && x.hello.Has(FeatureEndRun) && x.rng.IntN(150) == 0:
		return engine.EndRun
	}
	legal := g.LegalMoves()
	if len(legal) > 0 && x.rng.IntN(8) != 0 {
		return engine.Action(legal[x.rng.IntN(len(legal))])
	}
	return engine.Action(engine.Directions[x.rng.IntN(len(engine.Directions))])
}

// checkStep is a step that only checks the state: the board, score and
// flags, and the legal moves.
func checkStep(g *engine.Game) Step {
	var e Expect
	fillState(&e, g)
	return Step{Expect: e}
}

func fillState(e *Expect, g *engine.Game) {
	after, score, moves, won, over, result := g.Board(), g.Score(), g.Moves(), g.Won(), g.Over(), g.Result()
	legal := g.LegalMoves()
	if legal == nil {
		legal = []engine.Direction{}
	}
	e.After, e.Score, e.Moves, e.Won, e.Over, e.Result, e.Legal = &after, &score, &moves, &won, &over, &result, &legal
}

// caseStep is the step of an action the engine has just played (step and
// err are what its Do or MoveSpawn returned): the move and its spawn when
// forced, or the action, and what must follow; full is false for the
// brief form (the board after only).
func caseStep(g *engine.Game, m exploreMove, step engine.Step, err error, forced, full bool) (Step, error) {
	var cs Step
	d, isMove := m.Act.Direction()
	if isMove {
		cs.Move = &d
	} else {
		cs.Action = m.Act.String()
	}
	if err != nil {
		code := engine.Refusal(err)
		if code == "" || code == "bad-spawn" {
			return cs, err
		}
		cs.Expect.Error = code
		return cs, nil
	}
	if forced && step.Changed {
		sp := step.Spawn
		cs.Spawn = &sp
	}
	if !full {
		after := g.Board()
		cs.Expect.After = &after
		return cs, nil
	}
	if !isMove {
		fillState(&cs.Expect, g)
		return cs, nil
	}
	slid := g.Board()
	if step.Changed {
		slid.Set(step.Spawn.Row, step.Spawn.Col, 0)
	}
	gained, changed := step.Gained, step.Changed
	cs.Expect.Board, cs.Expect.Gained, cs.Expect.Changed, cs.Expect.Spawned = &slid, &gained, &changed, &changed
	fillState(&cs.Expect, g)
	return cs, nil
}

// candidate is a case shrinking tries: a start (a tp1 seed, or a state to
// load) and moves.
type candidate struct {
	seed  string       // a tp1 start when not ""; with a loaded start, the spawns are forced
	start engine.State // otherwise the state to load
	moves []exploreMove
}

func (c candidate) with(moves []exploreMove) candidate {
	c.moves = moves
	return c
}

// build plays the candidate on the engine and returns its steps: full
// expectations on the last, the board after on the others.
func (c candidate) build(p *engine.Profile) ([]Step, error) {
	var g *engine.Game
	var err error
	if c.seed != "" {
		g, err = engine.NewGame(p, c.seed)
	} else {
		st := c.start
		g, err = engine.Load(p, engine.State{Board: st.Board, Score: st.Score, Moves: st.Moves, Won: st.Won, KeepPlaying: st.KeepPlaying})
	}
	if err != nil {
		return nil, err
	}
	if len(c.moves) == 0 {
		return []Step{checkStep(g)}, nil
	}
	var steps []Step
	for i, m := range c.moves {
		var step engine.Step
		var err error
		d, isMove := m.Act.Direction()
		switch {
		case !isMove:
			step, err = g.Do(m.Act)
		case c.seed == "":
			step, err = g.MoveSpawn(d, fitSpawn(p, g.Board(), d, m.Spawn))
		default:
			step, err = g.Move(d)
		}
		cs, err := caseStep(g, m, step, err, c.seed == "", i == len(c.moves)-1)
		if err != nil {
			return nil, err
		}
		steps = append(steps, cs)
	}
	return steps, nil
}

// fitSpawn returns the spawn to force after move d on b: the recorded
// spawn when its cell is empty after the slide, else the first empty cell,
// with the recorded value (the profile's smallest when there is none).
// When the move changes nothing the spawn is not used, and any will do.
func fitSpawn(p *engine.Profile, b engine.Board, d engine.Direction, recorded *engine.Spawn) engine.Spawn {
	sp := engine.Spawn{Value: p.Spawn[0].Value}
	if recorded != nil {
		sp = *recorded
	}
	s, err := b.Slide(d)
	if err != nil || !s.Changed || s.Board.At(sp.Row, sp.Col) == 0 {
		return sp
	}
	for r := range s.Board.Rows() {
		for c := range s.Board.Cols() {
			if s.Board.At(r, c) == 0 {
				sp.Row, sp.Col = r, c
				return sp
			}
		}
	}
	return sp
}

// shrinker searches for a smaller candidate with the same kind of
// divergence, running each as a case with the normal runner.
type shrinker struct {
	impl Impl
	p    *engine.Profile
	kind Status
	runs int
}

// test reports whether the candidate, run as a case, still diverges with
// the same kind; the candidate's moves are cut after the failing step.
func (s *shrinker) test(c *candidate) bool {
	if s.runs >= shrinkBudget {
		return false
	}
	steps, err := c.build(s.p)
	if err != nil {
		return false
	}
	s.runs++
	res := Result{}
	runCase(s.impl, &Case{Steps: steps, Start: c.caseStart()}, s.p.Name, &res)
	if res.Status != s.kind {
		return false
	}
	if len(c.moves) > 0 && res.Step >= 1 && res.Step < len(c.moves) {
		// The moves after the failing step are not needed, if the
		// divergence is the same with full expectations on it.
		cut := c.with(c.moves[:res.Step])
		if s.test(&cut) {
			*c = cut
		}
	}
	return true
}

func (c candidate) caseStart() Start {
	if c.seed != "" {
		seed := c.seed
		return Start{Seed: &seed}
	}
	b := c.start.Board
	return Start{Board: &b, Score: c.start.Score, Moves: c.start.Moves, Won: c.start.Won, KeepPlaying: c.start.KeepPlaying}
}

// shrink turns a divergence into a small case: from the state just before
// the diverging move when the implementation can load it (going back
// further when that does not reproduce it), else the game's moves from
// its seed; then fewer moves, then (from a loaded state) fewer and smaller
// tiles, a smaller score, fewer counted moves, smaller spawns.
func (x *explorer) shrink(d *Divergence, rep *ExploreReport) (*FoundCase, error) {
	s := &shrinker{impl: x.impl, p: x.p, kind: d.Result.Status}
	n := d.Move // moves[:n] were played, the last one diverging
	var found *candidate
	if x.canLoad && n > 0 && s.kind != Timeout {
		for k := 1; found == nil; k *= 2 {
			from := max(0, n-k)
			c := candidate{start: x.history[from], moves: slices.Clone(x.moves[from:n])}
			if s.test(&c) {
				found = &c
			}
			if from == 0 {
				break
			}
		}
	}
	if found == nil && x.seeded && s.kind != Timeout {
		c := candidate{seed: x.seed, moves: slices.Clone(x.moves[:n])}
		if s.test(&c) {
			found = &c
		}
	}
	reproduced := found != nil
	if found == nil {
		// It does not reproduce alone (or it is a timeout, too slow to
		// shrink): the game as it was played.
		if x.seeded {
			found = &candidate{seed: x.seed, moves: x.moves[:n]}
		} else {
			found = &candidate{start: x.history[0], moves: x.moves[:n]}
		}
	} else {
		s.minimize(found)
	}
	return x.writeCase(d, rep, *found, s, reproduced)
}

// minimize reduces c in place while it keeps the divergence.
func (s *shrinker) minimize(c *candidate) {
	// Fewer moves: drop runs of moves, halving the run length.
	for chunk := max(1, len(c.moves)/2); chunk >= 1 && len(c.moves) > 1; {
		dropped := false
		for i := 0; i+chunk <= len(c.moves) && len(c.moves) > 1; {
			moves := append(slices.Clone(c.moves[:i]), c.moves[i+chunk:]...)
			try := c.with(moves)
			if s.test(&try) {
				*c, dropped = try, true
			} else {
				i += chunk
			}
		}
		if !dropped {
			chunk /= 2
		}
	}
	if c.seed != "" {
		return
	}
	for changed := true; changed && s.runs < shrinkBudget; {
		changed = false
		b := c.start.Board
		// Fewer tiles.
		for r := range b.Rows() {
			for col := range b.Cols() {
				if c.start.Board.At(r, col) == 0 {
					continue
				}
				try := *c
				try.start.Board.Set(r, col, 0)
				if s.test(&try) {
					*c, changed = try, true
				}
			}
		}
		// Smaller tiles: the smallest that keeps it.
		for r := range b.Rows() {
			for col := range b.Cols() {
				v := c.start.Board.At(r, col)
				for w := uint64(2); w < v; w *= 2 {
					try := *c
					try.start.Board.Set(r, col, w)
					if s.test(&try) {
						*c, changed = try, true
						break
					}
				}
			}
		}
		// A smaller score, fewer counted moves, no win.
		for c.start.Score > 0 {
			try := *c
			try.start.Score = 0
			if !s.test(&try) {
				try.start.Score = c.start.Score / 2
				if !s.test(&try) {
					break
				}
			}
			*c, changed = try, true
		}
		if c.start.Moves > 0 {
			try := *c
			try.start.Moves = 0
			if s.test(&try) {
				*c, changed = try, true
			}
		}
		if c.start.Won || c.start.KeepPlaying {
			try := *c
			try.start.Won, try.start.KeepPlaying = false, false
			if s.test(&try) {
				*c, changed = try, true
			}
		}
		// Smaller spawns.
		for i, m := range c.moves {
			if m.Spawn == nil || m.Spawn.Value == s.p.Spawn[0].Value {
				continue
			}
			try := c.with(slices.Clone(c.moves))
			sp := *m.Spawn
			sp.Value = s.p.Spawn[0].Value
			try.moves[i].Spawn = &sp
			if s.test(&try) {
				*c, changed = try, true
			}
		}
	}
}

// writeCase runs the candidate against the implementation, writes it as a
// case file with that result, parses it back and runs it against the
// engine (it must pass).
func (x *explorer) writeCase(d *Divergence, rep *ExploreReport, c candidate, s *shrinker, reproduced bool) (*FoundCase, error) {
	steps, err := c.build(x.p)
	if err != nil {
		return nil, fmt.Errorf("exploration: the shrunk case of game %d does not play on the engine: %v", d.Game, err)
	}
	where := fmt.Sprintf("game %d move %d", d.Game, d.Move)
	if d.Move == 0 {
		where = fmt.Sprintf("game %d, its start", d.Game)
	}
	source := fmt.Sprintf("found by tileproof conform --explore against %s (%s %s), seed %d, shrunk from %s",
		cmp.Or(rep.ImplArg, rep.Impl.Name), rep.Impl.Name, rep.Impl.Version, rep.Seed, where)
	if !reproduced {
		source = strings.Replace(source, "shrunk from", "not shrunk (it did not reproduce alone), from", 1)
	}
	start := c.caseStart()
	// The id names the profile and the kind, and a hash of the case, so
	// that cases found in other runs do not collide.
	h := fnv.New32a()
	h.Write(caseYAML("", "", "", x.p.Name, start, steps, Result{}))
	id := fmt.Sprintf("explore-%s-%s-%08x", x.p.Name, d.Result.Status, h.Sum32())
	fc := &FoundCase{ID: id, Moves: len(steps), Runs: s.runs, Reproduced: reproduced}
	if start.Board != nil {
		fc.Tiles = start.Board.Cells() - start.Board.Empty()
	}
	// Run it against the implementation, once, for its result, which the
	// description and the comment give.
	runCase(x.impl, &Case{Start: start, Steps: steps}, x.p.Name, &fc.Result)
	res := fc.Result
	fc.Reproduced = reproduced && res.Status == s.kind
	desc := fmt.Sprintf("%s %s disagrees with the rules here: %s at step %d: %s", rep.Impl.Name, rep.Impl.Version, res.Status, res.Step, firstLine(res.Reason))
	if !res.Status.Failed() {
		desc = fmt.Sprintf("%s %s diverged from the rules in an explored game (%s: %s), but not when this case runs alone", rep.Impl.Name, rep.Impl.Version, d.Result.Status, firstLine(d.Result.Reason))
	}
	fc.YAML = caseYAML(id, desc, source, x.p.Name, start, steps, res)
	file := ExploreArea + "/" + id + ".yaml"
	cases, err := ParseCases(file, fc.YAML)
	if err != nil || len(cases) != 1 {
		return nil, fmt.Errorf("exploration: the case written for game %d does not read back: %v\n%s", d.Game, err, fc.YAML)
	}
	fc.Case = cases[0]
	var onEngine Result
	runCase(&Builtin{}, fc.Case, x.p.Name, &onEngine)
	if onEngine.Status != Pass {
		return nil, fmt.Errorf("exploration: the case written for game %d fails against the engine: %s at step %d: %s", d.Game, onEngine.Status, onEngine.Step, onEngine.Reason)
	}
	return fc, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// caseYAML writes one case as a case file of the pack's format, with what
// the implementation did as a comment.
func caseYAML(id, desc, source, profile string, start Start, steps []Step, got Result) []byte {
	var sb strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&sb, format, args...) }
	w("# Found by tileproof conform --explore. To add it to the pack, copy it to an\n")
	w("# area folder of cases/ (and give it a better id and description).\n")
	if got.Status.Failed() {
		w("#\n# Against the implementation: %s at step %d\n", got.Status, got.Step)
		for _, line := range strings.Split(strings.TrimRight(got.Reason+"\n"+got.Diff, "\n"), "\n") {
			w("#   %s\n", line)
		}
	}
	w("source: %s\nprofiles: [%s]\ncases:\n  - id: %s\n    description: %s\n    start:\n", yamlString(source), profile, id, yamlString(desc))
	if start.Seed != nil {
		w("      seed: %s\n", yamlString(*start.Seed))
	} else {
		w("      board: |\n%s", gridYAML(*start.Board, "        "))
		if start.Score != 0 {
			w("      score: %d\n", start.Score)
		}
		if start.Moves != 0 {
			w("      moves: %d\n", start.Moves)
		}
		if start.Won {
			w("      won: true\n")
		}
		if start.KeepPlaying {
			w("      keepPlaying: true\n")
		}
	}
	w("    steps:\n")
	for _, st := range steps {
		lead := "      - "
		if st.Move != nil {
			w("%smove: %s\n", lead, st.Move)
			lead = "        "
		}
		if st.Action != "" {
			w("%saction: %s\n", lead, st.Action)
			lead = "        "
		}
		if sp := st.Spawn; sp != nil {
			w("%sspawn: {row: %d, col: %d, value: %d}\n", lead, sp.Row, sp.Col, sp.Value)
			lead = "        "
		}
		w("%sexpect:\n", lead)
		e, in := st.Expect, "          "
		if e.Error != "" {
			w("%serror: %s\n", in, e.Error)
		}
		if e.Board != nil {
			w("%sboard: |\n%s", in, gridYAML(*e.Board, in+"  "))
		}
		if e.Gained != nil {
			w("%sgained: %d\n", in, *e.Gained)
		}
		if e.Changed != nil {
			w("%schanged: %v\n", in, *e.Changed)
		}
		if e.Spawned != nil {
			w("%sspawned: %v\n", in, *e.Spawned)
		}
		if e.After != nil {
			w("%safter: |\n%s", in, gridYAML(*e.After, in+"  "))
		}
		if e.Score != nil {
			w("%sscore: %d\n", in, *e.Score)
		}
		if e.Moves != nil {
			w("%smoves: %d\n", in, *e.Moves)
		}
		if e.Won != nil {
			w("%swon: %v\n", in, *e.Won)
		}
		if e.Over != nil {
			w("%sover: %v\n", in, *e.Over)
		}
		if e.Result != nil {
			r, _ := e.Result.MarshalText()
			w("%sresult: %s\n", in, r)
		}
		if e.Legal != nil {
			var names []string
			for _, d := range *e.Legal {
				names = append(names, d.String())
			}
			w("%slegal: [%s]\n", in, strings.Join(names, ", "))
		}
	}
	return []byte(sb.String())
}

// gridYAML writes a board as the lines of a YAML block scalar, each
// indented: cells separated by one space, "." for empty.
func gridYAML(b engine.Board, indent string) string {
	return indent + strings.Join(boardfmt.Rows(b, 0), "\n"+indent) + "\n"
}

// Kinds returns the number of divergences of each kind.
func (r *ExploreReport) Kinds() map[Status]int {
	m := map[Status]int{}
	for _, d := range r.Divergences {
		m[d.Result.Status]++
	}
	return m
}

// WriteCases writes the shrunk cases into dir, a case pack: each as
// dir/explore/ID.yaml, and dir/pack.yaml when dir has none, so that
// `tileproof cases lint dir` runs them. It sets each FoundCase's File and
// returns the files written.
func (r *ExploreReport) WriteCases(dir string) ([]string, error) {
	var files []string
	for i := range r.Divergences {
		fc := r.Divergences[i].Found
		if fc == nil {
			continue
		}
		if len(files) == 0 {
			if err := os.MkdirAll(filepath.Join(dir, ExploreArea), 0o777); err != nil {
				return files, err
			}
			pack := filepath.Join(dir, "pack.yaml")
			if _, err := os.Stat(pack); errors.Is(err, os.ErrNotExist) {
				data := fmt.Sprintf("# Cases found by tileproof conform --explore; lint them with tileproof cases lint %s.\nname: explored\nversion: 0.0.0\ncontract: %d\n", dir, Contract)
				if err := os.WriteFile(pack, []byte(data), 0o666); err != nil {
					return files, err
				}
			}
		}
		file := filepath.Join(dir, ExploreArea, fc.ID+".yaml")
		if err := os.WriteFile(file, fc.YAML, 0o666); err != nil {
			return files, err
		}
		fc.File = file
		files = append(files, file)
	}
	return files, nil
}

// WriteText writes the run's summary: each kind's first divergence with
// its shrunk case, then the games, the steps, the divergences by kind and
// the case files.
func (r *ExploreReport) WriteText(w io.Writer) {
	how := "its own tp1 spawns, from a seed a game"
	if r.Mode == ExploreForced {
		how = "the engine's start loaded and every spawn forced"
	}
	if r.LateGames > 0 {
		how += "; every other game from a late board, loaded, the spawns forced"
	}
	fmt.Fprintf(w, "exploring %s %s under %s: %s\n", r.Impl.Name, r.Impl.Version, strings.Join(r.Profiles, ", "), how)
	for _, d := range r.Divergences {
		if d.Found == nil {
			continue
		}
		where := fmt.Sprintf("move %d", d.Move)
		if d.Move == 0 {
			where = "the start"
		}
		fmt.Fprintf(w, "DIVERGENCE  game %d [%s] %s: %s: %s\n", d.Game, d.Profile, where, d.Result.Status, d.Result.Reason)
		if d.Result.Diff != "" {
			fmt.Fprintf(w, "%s\n", indent(strings.TrimRight(d.Result.Diff, "\n"), "    "))
		}
		fc := d.Found
		size := plural(fc.Moves, "step") + " from the game's seed"
		if fc.Case.Start.Board != nil {
			size = fmt.Sprintf("%s from a board of %s", plural(fc.Moves, "step"), plural(fc.Tiles, "tile"))
		}
		state := "shrunk"
		if !fc.Reproduced {
			state = "NOT reproduced alone; written unshrunk"
		}
		fmt.Fprintf(w, "  %s (%d case runs) to %s: %s\n", state, fc.Runs, size, cmp.Or(fc.File, fc.ID))
		if fc.Reproduced {
			fmt.Fprintf(w, "  the case fails against the implementation: %s at step %d: %s\n", fc.Result.Status, fc.Result.Step, firstLine(fc.Result.Reason))
			if fc.Result.Diff != "" {
				fmt.Fprintf(w, "%s\n", indent(strings.TrimRight(fc.Result.Diff, "\n"), "    "))
			}
		}
	}
	rate := 0.0
	if s := r.Playing.Seconds(); s > 0 {
		rate = float64(r.Steps) / s
	}
	fmt.Fprintf(w, "seed              %d\n", r.Seed)
	fmt.Fprintf(w, "games played      %d", r.Games)
	if r.LateGames > 0 {
		fmt.Fprintf(w, " (%d from a late board)", r.LateGames)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "steps compared    %d (%.0f a second)\n", r.Steps, rate)
	kinds := r.Kinds()
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, kinds[k]))
	}
	if len(parts) == 0 {
		parts = []string{"none"}
	}
	fmt.Fprintf(w, "divergences       %d: %s\n", len(r.Divergences), strings.Join(parts, ", "))
	var files []string
	for _, d := range r.Divergences {
		if d.Found != nil && d.Found.File != "" {
			files = append(files, d.Found.File)
		}
	}
	if len(files) > 0 {
		fmt.Fprintf(w, "cases written     %s\n", strings.Join(files, " "))
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
