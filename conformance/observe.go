package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/boardfmt"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/player"
	"github.com/tileproof/tileproof/protocol"
	"github.com/tileproof/tileproof/replay"
)

// DefaultObserveGames is the number of games an observation plays when
// none is given.
const DefaultObserveGames = 20

// openingSpawns is the number of spawns, after the start, that make a
// game's opening for the repeated-openings check.
const openingSpawns = 30

// ObserveOptions shape an observation run.
type ObserveOptions struct {
	Games    int      // the number of games; 0: DefaultObserveGames
	Seed     uint64   // the seed of the players and of the moves that change nothing
	Profiles []string // the profiles to play, in turn; nil: every profile the implementation declares
	Known    []*engine.Profile
	// MaxMoves bounds a game's counted moves; 0: the bound exploration
	// plays to, which stops only an implementation that never ends a game.
	MaxMoves int
	// Impl is the implementation as the command line named it, for the
	// source of the cases written.
	Impl string
}

// ObserveResult is the outcome of an observation run.
type ObserveResult struct {
	Impl     Hello
	Seed     uint64
	Profiles []string
	Games    int // games played
	Steps    int // steps compared
	Playing  time.Duration
	// Results are the observation's checks, under each profile, as the
	// runner reports its cases (area "observe"): observe/steps (every
	// step of every game), observe/spawn-values, observe/spawn-ranks,
	// observe/spawn-cells (the spawns of all the games against the
	// profile's distribution) and observe/repeated-openings.
	Results []CaseResult
	// Divergences are the first divergence of each kind, each with its
	// game up to and including it.
	Divergences []Observed
	// Stopped says why the run ended before its games were all played
	// (the context's cause: a deadline, an interrupt); "" when it ended
	// on its own. The checks it did not finish are then not run.
	Stopped string
}

// Observed is a divergence found in an observed game.
type Observed struct {
	Game    int // 1-based
	Move    int // the 1-based action of the game; 0 for the start
	Profile string
	Player  string
	Result  CaseResult
	// Replay is the game up to and including the divergence, as the
	// implementation played it: a spawn-recorded replay whose claim is
	// the implementation's state, so tileproof verify shows where it left
	// the rules (a divergence that is not a counted move, such as a legal
	// move refused, shows in the claim).
	Replay *replay.Replay
	File   string // where WriteReplays wrote it
	// Found is the divergence shrunk to a case, as exploration shrinks
	// one, when the implementation can load a state and take a forced
	// spawn (nil otherwise, and for a divergence at the start).
	Found *FoundCase
}

// Observe checks an implementation that can only start games and move (a
// compiled program, a terminal game, a sealed web build) through its own
// games ([PlayObserved]), the players turn about (random, and every third
// game expectimax, which reaches the win and the late game), and tests the
// spawns of all its games together: their distribution, and games that
// repeat each other (a generator seeded by the clock). Errors are usage
// errors: the implementation's hello failed, or a profile it does not
// declare or that is not known. Once ctx is done (a deadline, an
// interrupt) no further game begins, the game under way is not counted,
// and the checks left unfinished are [NotRun] (a divergence found before
// stays the failure it is); Stopped says why.
func Observe(ctx context.Context, impl Impl, opts ObserveOptions) (*ObserveResult, error) {
	games := opts.Games
	if games == 0 {
		games = DefaultObserveGames
	}
	if games < 0 {
		return nil, fmt.Errorf("the number of games to observe must be positive, not %d", games)
	}
	hello, err := HelloOf(impl)
	if err != nil {
		return nil, err
	}
	profiles, err := profilesOf(hello, opts.Profiles, opts.Known)
	if err != nil {
		return nil, err
	}
	rep := &ObserveResult{Impl: hello, Seed: opts.Seed, Profiles: profileNames(profiles)}
	// Each profile's statistical tests share the run's false-alarm rate.
	alpha := falseAlarmRate / float64(4*len(profiles))
	legal := LegalOffered(impl)
	canLoad := hello.Has(protocol.LoadState) && hello.Has(protocol.ForceSpawn)
	for _, p := range profiles {
		o := &observer{p: p, counter: replay.NewSpawnCounter(p)}
		steps := CaseResult{Case: "observe/steps", Area: ObserveArea, Profile: p.Name}
		shown := map[Status]bool{}
		for game := 1; game <= games && ctx.Err() == nil; game++ {
			name := "random"
			if game%3 == 0 {
				name = "expectimax"
			}
			pl, _ := player.New(name, opts.Seed*1000+uint64(game))
			t := time.Now()
			g, err := PlayObserved(impl, p, pl, ObservedGameOptions{MaxMoves: opts.MaxMoves, Legal: legal, Noop: opts.Seed*1000 + uint64(game), KeepPlaying: hello.Has(protocol.KeepPlaying)})
			rep.Playing += time.Since(t)
			if ctx.Err() != nil {
				break // the game under way: cut short, not counted
			}
			if err != nil {
				return nil, err
			}
			rep.Games++
			rep.Steps += g.Steps
			o.add(g)
			if d := g.Divergence; d != nil {
				if !steps.Status.Failed() {
					steps.Status, steps.Step, steps.Reason, steps.Mismatches = d.Status, d.Step, fmt.Sprintf("game %d (%s): %s", game, name, d.Reason), d.Mismatches
					steps.Start, steps.Want, steps.Got = d.Start, d.Want, d.Got
				}
				if !shown[d.Status] {
					shown[d.Status] = true
					ob := Observed{Game: game, Move: d.Step, Profile: p.Name, Player: name, Result: *d, Replay: g.Replay}
					if canLoad && len(g.moves) > 0 {
						x := &explorer{impl: impl, hello: hello, p: p, canLoad: true, observed: true, history: g.history, moves: g.moves}
						ob.Found, err = x.shrink(ctx, &ExploreDivergence{Game: game, Move: len(g.moves), Profile: p.Name, Result: *d}, &Exploration{Impl: hello, ImplArg: opts.Impl, Seed: opts.Seed})
						if err != nil {
							return nil, err
						}
					}
					rep.Divergences = append(rep.Divergences, ob)
				}
			}
		}
		if steps.Status == "" {
			steps.Status = Pass
		}
		results := append([]CaseResult{steps}, o.results(alpha)...)
		if ctx.Err() != nil {
			rep.Stopped = context.Cause(ctx).Error()
			for i, r := range results {
				if i > 0 || !r.Status.Failed() { // a sample cut short decides nothing
					results[i] = notRun(r, ctx)
				}
			}
		}
		rep.Results = append(rep.Results, results...)
	}
	return rep, nil
}

// LegalOffered reports whether the implementation lists legal moves: a
// LegalLister that does not refuse the request (before any game, a
// refusal is all the answer can be).
func LegalOffered(impl Impl) bool {
	ll, ok := impl.(LegalLister)
	if !ok {
		return false
	}
	_, err := ll.Legal()
	var refusal *RuleError
	return !errors.Is(err, ErrNoLegal) && !(errors.As(err, &refusal) && refusal.Code == "unsupported")
}

// ObservedGameOptions shape one observed game.
type ObservedGameOptions struct {
	MaxMoves int  // bounds the counted moves; 0: as [ObserveOptions.MaxMoves]
	Legal    bool // the implementation lists legal moves: compare them
	// Noop seeds the choice of moves that change nothing, one move in ten;
	// 0: none are played.
	Noop uint64
	// KeepPlaying plays on after a win that asks (the implementation
	// declares keep-playing).
	KeepPlaying bool
}

// ObservedGame is an observed game.
type ObservedGame struct {
	Replay     *replay.Replay // the game as the implementation played it (its claim the implementation's state)
	Steps      int            // steps compared
	Divergence *CaseResult    // the first step that left the rules; nil when none did
	spawns     []engine.Spawn // each counted move's spawn
	afters     []engine.Board // each counted move's board, spawn included
	// history is the mirror's state before each action played, moves the
	// actions with the implementation's spawns: what exploration shrinks
	// a divergence from.
	history []engine.State
	moves   []move
}

// PlayObserved plays one game in the implementation through new and move
// alone, the player choosing on the engine's mirror of it: each spawn the
// implementation reports is copied into the mirror, and every step is
// compared as the runner compares a case's step (the board after the
// slide, changed, gained, the spawn on an empty cell with a value the
// profile spawns, the board after, score, moves, won, over, result, and
// the legal moves where they are listed), moves that change nothing (one
// in ten, with opts.Noop) and one move after the end included. The game
// stops at its first divergence. An error is a failure of the engine
// itself.
func PlayObserved(impl Impl, p *engine.Profile, pl player.Player, opts ObservedGameOptions) (*ObservedGame, error) {
	maxMoves := opts.MaxMoves
	if maxMoves == 0 {
		maxMoves = defaultMaxMoves
	}
	rules, err := engine.Compile(p)
	if err != nil {
		return nil, err
	}
	var noop *rand.Rand
	if opts.Noop != 0 {
		noop = rand.New(rand.NewPCG(opts.Noop, 0x6e6f6f70)) // "noop"
	}
	s := &session{impl: impl, profile: p}
	g := &ObservedGame{}
	res := CaseResult{Profile: p.Name}
	if !s.newGame("", nil, &res) {
		g.Divergence = &res
		return g, nil
	}
	start := s.state.Board
	r := &replay.Replay{Profile: p.Name, Rules: p.Version, Start: &start, Source: fmt.Sprintf("tileproof conform --observe, player %s", pl.Name())}
	g.Replay = r
	mirror, err := rules.Load(engine.State{Board: start})
	if err != nil {
		res.Status, res.Reason = BoardDiverged, fmt.Sprintf("the start board: %v", err)
		g.Divergence = &res
		return g, nil
	}
	// The start: the state a game of the rules has on that board.
	first := stateStep(mirror)
	if !opts.Legal {
		first.Expect.Legal = nil
	}
	g.Steps++
	if !s.step(first, 0, &res) {
		g.Divergence = &res
		g.claim(s.state)
		return g, nil
	}
	for n := 1; ; n++ {
		over := mirror.Over()
		rules := engineState(mirror) // the rules' state before the step
		a := choose(mirror, pl, noop, opts.KeepPlaying)
		step := actionStep(a)
		g.history = append(g.history, mirror.State())
		out, ok := s.play(step, n, &res)
		m := move{Act: a}
		if mr := out.Move; mr != nil && mr.Changed && mr.Spawn != nil {
			sp := *mr.Spawn
			m.Spawn = &sp
		}
		g.moves = append(g.moves, m)
		if !ok {
			g.Divergence = &res
			break
		}
		// The engine plays the step, with the implementation's spawn, or
		// where it reported none (a move it did not count, or a wrong
		// answer the comparison will name) the first cell the slide
		// leaves empty, with the profile's smallest value.
		var st engine.Step
		if d := step.Move; d != nil {
			var sp engine.Spawn
			if out.Move != nil && out.Move.Spawn != nil {
				sp = *out.Move.Spawn // as it is: a spawn the rules refuse is the finding
			} else {
				sp = fitSpawn(p, mirror.Board(), *d, nil)
			}
			st, err = mirror.MoveSpawn(*d, sp)
		} else {
			st, err = mirror.Do(a)
		}
		cs, err := engineStep(mirror, a, st, err, false, true)
		if err != nil && out.Move != nil && out.Move.Spawn != nil && errors.Is(err, engine.ErrBadSpawn) {
			// The implementation's spawn is one the rules do not take.
			sp := *out.Move.Spawn
			res.fail(SpawnWrong, n, "move %s: the implementation's spawn, %d at row %d, column %d, is not one the rules make: %v", *step.Move, sp.Value, sp.Row, sp.Col, err)
			g.record(a, out)
			g.Divergence = &res
			break
		}
		if err != nil {
			return nil, fmt.Errorf("observed game, action %d (%s): the engine failed: %v", n, a, err)
		}
		if !opts.Legal {
			cs.Expect.Legal = nil
		}
		g.Steps++
		passed := s.check(cs, out, n, &res)
		if passed && over && s.goneOn {
			// The implementation plays on after the win, as its
			// profile's source allows (winThen), and the profile's
			// replay cannot hold a move after its run ended there: the
			// game is recorded up to the win, claimed as the rules have
			// it (before 2026-12-07 the move was recorded, and the
			// replay failed verify with after-end).
			g.moves, g.history = g.moves[:len(g.moves)-1], g.history[:len(g.history)-1]
			g.claim(rules)
			return g, nil
		}
		g.record(a, out)
		if !passed {
			g.Divergence = &res
			break
		}
		if over && mirror.Over() || mirror.Moves() >= maxMoves {
			break // one move after the end, which both refused or ignored
		}
	}
	g.claim(s.state)
	return g, nil
}

// record adds a step the implementation played to the replay, when it
// counted it: a move that changed its board, with its spawn, or an action.
func (g *ObservedGame) record(a engine.Action, out outcome) {
	if out.Refusal != nil {
		return
	}
	r := g.Replay
	if mr := out.Move; mr != nil {
		if !mr.Changed || mr.Spawn == nil {
			return
		}
		r.Actions, r.Spawns = append(r.Actions, a), append(r.Spawns, *mr.Spawn)
		g.spawns, g.afters = append(g.spawns, *mr.Spawn), append(g.afters, mr.State.Board)
		return
	}
	r.Actions, r.Spawns = append(r.Actions, a), append(r.Spawns, engine.Spawn{})
}

// claim sets the replay's claim to the implementation's state.
func (g *ObservedGame) claim(st ImplState) {
	board := st.Board
	won, over := st.Won, st.Over
	c := replay.Claim{Score: st.Score, MaxTile: board.MaxTile(), Moves: st.Moves, Board: &board, Won: &won, Over: &over}
	var res engine.Result
	if st.Result != "" && res.UnmarshalText([]byte(st.Result)) == nil {
		c.Result = &res
	}
	g.Replay.Claim = c
}

// choose picks the next action on the mirror: keep playing at a win that
// asks (when offered), a move that changes nothing one time in ten (with
// noop), any move once the game is over (the one move after the end),
// else the player's move.
func choose(mirror *engine.Game, pl player.Player, noop *rand.Rand, keep bool) engine.Action {
	if mirror.AwaitingKeep() && keep {
		return engine.KeepPlaying
	}
	if mirror.Over() {
		return engine.Action(engine.Left)
	}
	if noop != nil && noop.IntN(10) == 0 {
		if stuck := slices.DeleteFunc(slices.Clone(engine.Directions[:]), mirror.Legal); len(stuck) > 0 {
			return engine.Action(stuck[noop.IntN(len(stuck))])
		}
	}
	return engine.Action(pl.Choose(mirror))
}

// observer pools a profile's observed games for the checks across them.
type observer struct {
	p        *engine.Profile
	counter  *replay.SpawnCounter
	openings map[string]int  // a game's start and first spawns' values, to the games that had them
	games    int             // the games long enough to have an opening
	counted  map[string]bool // the openings whose game's spawns are counted
}

// add pools game g. Its spawns join the distribution tests unless a game
// with the same opening was pooled before: a game that repeats another
// (a generator seeded by the clock) is no new sample, and counting it
// again would make the tests see a bias that is one game's luck.
func (o *observer) add(g *ObservedGame) {
	if g.Replay == nil {
		return
	}
	if o.openings == nil {
		o.openings, o.counted = map[string]int{}, map[string]bool{}
	}
	key := g.Replay.Start.String()
	for _, s := range g.spawns[:min(openingSpawns, len(g.spawns))] {
		key += fmt.Sprintf(" %d", s.Value)
	}
	if !o.counted[key] {
		o.counted[key] = true
		o.counter.Start(*g.Replay.Start)
		for i, after := range g.afters {
			o.counter.Count(after, g.spawns[i])
		}
	}
	if len(g.spawns) < openingSpawns {
		return
	}
	o.openings[key]++
	o.games++
}

// results returns the checks across the games, each statistical test at
// level alpha.
func (o *observer) results(alpha float64) []CaseResult {
	res := func(name string) CaseResult {
		return CaseResult{Case: "observe/" + name, Area: ObserveArea, Profile: o.p.Name, Status: Pass}
	}
	pl := o.counter.Result()
	check := func(name string, p float64, what string) CaseResult {
		r := res(name)
		if pl.Spawns < 50 {
			r.Status, r.Reason = Skip, fmt.Sprintf("%d spawns observed: too few to test", pl.Spawns)
		} else if p < alpha {
			r.Status, r.Reason = SpawnWrong, fmt.Sprintf("%s, in %d spawns of the observed games (p = %.2g < %g)", what, pl.Spawns, p, alpha)
		}
		return r
	}
	out := []CaseResult{
		check("spawn-values", pl.ValueP, fmt.Sprintf("the spawned values (%s) are unlikely under the weights (%s)", boardfmt.Counts(pl.Values), boardfmt.Weights(o.p.Spawn))),
		check("spawn-ranks", pl.RankP, "the spawns favour early or late empty cells"),
		check("spawn-cells", pl.CellP, "the spawns favour some cells"),
	}
	// Repeated openings: games that share their start and the values of
	// their first spawns, against what independent games of the profile's
	// distribution share by chance (a Poisson test of the pairs); none
	// where the profile's source seeds every game (newGameSeed unstated).
	r := res("repeated-openings")
	collision := startCollision(o.p) * math.Pow(spawnCollision(o.p), openingSpawns)
	if slices.Contains(o.p.Unstated, "newGameSeed") {
		r.Reason = fmt.Sprintf("not tested: the source of %s seeds every game, so its games may repeat (%d games, %d openings)", o.p.Name, o.games, len(o.openings))
	} else if o.games < 2 {
		r.Status, r.Reason = Skip, fmt.Sprintf("%d games of %d spawns or more observed: too few to compare", o.games, openingSpawns)
	} else if pairs, lambda, p := repeatTest(o.openings, o.games, collision); p < alpha {
		r.Status = SpawnWrong
		r.Reason = fmt.Sprintf("%d pairs of the %d games share their start board and their first %d spawns' values, where %.2g are expected by chance (p = %.2g < %g): the games are not independent (a generator seeded by the clock?)", pairs, o.games, openingSpawns, lambda, p, alpha)
	}
	return append(out, r)
}

// WriteReplays writes each divergence's game into dir as
// dir/observe-PROFILE-KIND-GAME.yaml (creating dir), so that tileproof
// verify and show reproduce it; it sets each Observed's File and returns
// the files written.
func (r *ObserveResult) WriteReplays(dir string) ([]string, error) {
	var files []string
	for i := range r.Divergences {
		d := &r.Divergences[i]
		if d.Replay == nil {
			continue
		}
		if len(files) == 0 {
			if err := os.MkdirAll(dir, 0o777); err != nil {
				return files, err
			}
		}
		file := filepath.Join(dir, fmt.Sprintf("observe-%s-%s-%d.yaml", d.Profile, d.Result.Status, d.Game))
		if err := os.WriteFile(file, d.Replay.EncodeYAML(80), 0o666); err != nil {
			return files, err
		}
		d.File = file
		files = append(files, file)
	}
	return files, nil
}

// WriteCases writes the divergences shrunk to cases into dir, a case
// pack laid out as exploration writes one ([Exploration.WriteCases]); it sets
// each Found's File and returns the files written.
func (r *ObserveResult) WriteCases(dir string) ([]string, error) {
	var found Exploration // WriteCases passes over a divergence with none
	for _, d := range r.Divergences {
		found.Divergences = append(found.Divergences, ExploreDivergence{Found: d.Found})
	}
	return found.WriteCases(dir)
}

// WriteText writes the run's summary: each kind's first divergence and
// where its game is, then the games, the steps and the checks. The
// implementation's name and messages are shown as safetext shows them
// on a terminal (\x1b).
func (r *ObserveResult) WriteText(w io.Writer) {
	fmt.Fprintf(w, "observing %s %s under %s: its own games through new and move, each spawn copied into the engine\n", safetext.Terminal(r.Impl.Name), safetext.Terminal(r.Impl.Version), safetext.Terminal(strings.Join(r.Profiles, ", ")))
	for _, d := range r.Divergences {
		fmt.Fprintf(w, "DIVERGENCE  game %d [%s] (%s) action %d: %s: %s\n", d.Game, safetext.Terminal(d.Profile), d.Player, d.Move, d.Result.Status, safetext.TerminalLines(d.Result.explain("    ")))
		if d.File != "" {
			fmt.Fprintf(w, "  the game up to there: %s (tileproof verify and show replay it)\n", safetext.Terminal(d.File))
		} else if d.Replay != nil {
			fmt.Fprintf(w, "  the game up to there: not written (--observe-out DIR writes it, and its shrunk case)\n")
		}
		if fc := d.Found; fc != nil && fc.File != "" {
			how := fmt.Sprintf("shrunk (%d case runs) to %s", fc.Runs, fc.size())
			if !fc.Reproduced {
				how = "NOT reproduced alone; written unshrunk"
			}
			fmt.Fprintf(w, "  as a case, %s: %s (tileproof cases lint runs it)\n", how, safetext.Terminal(fc.File))
		}
	}
	writeTally(w, r.Seed, r.Games, 0, r.Stopped, r.Steps, r.Playing)
	for _, res := range r.Results {
		fmt.Fprintf(w, "  %-28s [%s] %s", res.Case, safetext.Terminal(res.Profile), res.Status)
		if res.Reason != "" && res.Status != Pass {
			fmt.Fprintf(w, ": %s", safetext.Terminal(strings.TrimPrefix(firstLine(res.Reason), "not run: ")))
		}
		fmt.Fprintln(w)
	}
}
