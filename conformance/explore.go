package conformance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/protocol"
)

// DefaultSeed is the seed of exploration's random source when none is
// given: a run is reproducible from the seed its summary prints.
const DefaultSeed = 2048

// defaultMaxMoves bounds one explored game: a random game ends long
// before (a few hundred moves), so the bound only stops an implementation
// that never ends a game.
const defaultMaxMoves = 5000

// exploreArea is the folder, under the output folder, that explored cases are
// written to (so the output folder is a case pack of its own).
const exploreArea = "explore"

// shrinkBudget bounds the case runs one shrink may make.
const shrinkBudget = 4000

// The ways exploration plays an implementation's games.
const (
	// Seeded: the implementation starts each game from a tp1 seed and
	// draws its own spawns, which must be tp1's (feature seed-tp1).
	Seeded = "seeded"
	// Forced: the implementation loads the engine's start and every spawn
	// is forced to the engine's (features load-state, force-spawn).
	Forced = "forced"
)

// ExploreOptions shape an exploration run ([Explore]).
type ExploreOptions struct {
	Games    int      // the number of random games
	Profiles []string // the profiles to play, in turn; nil: every profile the implementation declares
	Seed     uint64   // the seed of the random source (games and moves)
	// Impl names the implementation as the user gave it (the --impl
	// argument), for the source of the cases written.
	Impl string
	// Known are profiles beside the built-in ones (profile files), by
	// name.
	Known []*engine.Profile
}

// Exploration is the outcome of an exploration run.
type Exploration struct {
	Impl     Hello
	ImplArg  string // the implementation as the user named it
	Seed     uint64
	Mode     string // Seeded or Forced
	Profiles []string
	Games    int // games played
	Steps    int // steps compared
	// Playing is the time spent playing and comparing, shrinking left out:
	// Steps / Playing is the exploration speed.
	Playing time.Duration
	// LateGames counts the games started from a late board (see
	// [Explore]).
	LateGames int
	// Divergences are at most one a game (a game stops at its first),
	// the first of each kind as a case's result keeps it (the
	// implementation's message to 4 KiB), each later one with its words
	// (its reason, its mismatches) cut to 200 bytes: they are counted,
	// not shown.
	Divergences []ExploreDivergence
	// Stopped says why the run ended before its games were all played
	// (the context's cause: a deadline, an interrupt); "" when it ended
	// on its own. The game under way when it stopped is not counted.
	Stopped string
}

// ExploreDivergence is the first step of one game at which the implementation
// and the engine disagree.
type ExploreDivergence struct {
	Game    int // 1-based
	Move    int // the 1-based move of the game; 0 for the start
	Profile string
	Result  CaseResult // the step's check, as the runner reports it
	Found   *FoundCase // the shrunk case: for the first divergence of each kind only
}

// UnsupportedError is returned when an implementation declares neither
// way exploration can follow it.
type UnsupportedError struct {
	Impl    Hello
	Missing []string
}

// Error says which features the implementation lacks for exploration.
func (e *UnsupportedError) Error() string {
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
// together are a move or two away. The first divergence of each kind is
// shrunk to a short case (see [FoundCase]); the others are counted.
// Errors are usage errors: the implementation's hello failed, a profile
// it does not declare or that is not known, or neither way to follow it
// ([*UnsupportedError]). Once ctx is done (a deadline, an interrupt) no
// further game begins and the report of the games played is returned,
// saying why in [Exploration.Stopped].
func Explore(ctx context.Context, impl Impl, opts ExploreOptions) (*Exploration, error) {
	if opts.Games <= 0 {
		return nil, fmt.Errorf("the number of games to explore must be positive, not %d", opts.Games)
	}
	hello, err := HelloOf(impl)
	if err != nil {
		return nil, err
	}
	_, loader := impl.(Loader)
	canLoad := loader && hello.Has(protocol.LoadState) && hello.Has(protocol.ForceSpawn)
	seeded := hello.Has(protocol.SeedTP1)
	if !canLoad && !seeded {
		missing := slices.DeleteFunc([]string{protocol.LoadState, protocol.ForceSpawn, protocol.SeedTP1}, hello.Has)
		return nil, &UnsupportedError{hello, missing}
	}
	profiles, err := profilesOf(hello, opts.Profiles, opts.Known)
	if err != nil {
		return nil, err
	}
	rep := &Exploration{Impl: hello, ImplArg: opts.Impl, Seed: opts.Seed, Mode: Forced, Profiles: profileNames(profiles)}
	if seeded {
		rep.Mode = Seeded
	}
	shrunk := map[Status]bool{}
	for game := 1; game <= opts.Games; game++ {
		if ctx.Err() != nil {
			rep.Stopped = context.Cause(ctx).Error()
			break
		}
		p := profiles[(game-1)%len(profiles)]
		x := &explorer{impl: impl, hello: hello, p: p, seeded: seeded, canLoad: canLoad,
			seed: fmt.Sprintf("explore-%d-%d", opts.Seed, game), rng: rand.New(rand.NewPCG(opts.Seed, uint64(game)))}
		if canLoad && game%2 == 0 {
			x.late, x.seeded = true, false
			rep.LateGames++
		}
		t := time.Now()
		d := x.play(defaultMaxMoves)
		rep.Playing += time.Since(t)
		if ctx.Err() != nil {
			rep.Stopped = context.Cause(ctx).Error()
			break // the game under way: cut short, not counted
		}
		rep.Games++
		rep.Steps += x.steps
		if d == nil {
			continue
		}
		d.Game = game
		if !shrunk[d.Result.Status] {
			shrunk[d.Result.Status] = true
			if d.Found, err = x.shrink(ctx, d, rep); err != nil {
				return nil, err
			}
		} else {
			d.Result = briefResult(d.Result)
		}
		rep.Divergences = append(rep.Divergences, *d)
	}
	return rep, nil
}

// briefLength is how much of a divergence's words exploration keeps,
// in bytes, once its kind has one: it is counted, not shown.
const briefLength = 200

// briefResult returns res with its reason and mismatches' words cut to
// briefLength bytes, copied: a run keeps a divergence a game
// (docs/security.md).
func briefResult(res CaseResult) CaseResult {
	res.Reason = safetext.Cut(res.Reason, briefLength)
	res.Mismatches = slices.Clone(res.Mismatches)
	for i := range res.Mismatches {
		m := &res.Mismatches[i]
		m.Text, m.Want, m.Got = safetext.Cut(m.Text, briefLength), safetext.Cut(m.Want, briefLength), safetext.Cut(m.Got, briefLength)
	}
	return res
}

// profilesOf returns the profiles to play: the ones asked for, which the
// implementation must declare, or every one it declares that is known; a
// profile needs its board size declared too.
func profilesOf(h Hello, asked []string, known []*engine.Profile) ([]*engine.Profile, error) {
	profiles, err := Profiles(h, asked, known)
	if err != nil {
		return nil, err
	}
	var out []*engine.Profile
	for _, p := range profiles {
		if (p.Rows != 4 || p.Cols != 4) && !h.hasUnder(p.Name, protocol.SizeFeature(p.Rows, p.Cols)) {
			if asked != nil {
				return nil, fmt.Errorf("profile %q plays on %dx%d, and the implementation does not declare %s", p.Name, p.Rows, p.Cols, protocol.SizeFeature(p.Rows, p.Cols))
			}
			continue
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the implementation declares no profile to explore (it declares %s)", strings.Join(h.Profiles, ", "))
	}
	return out, nil
}
