package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/tileproof/tileproof/conformance/explore"
)

// exploreOpts are the flags of conform --explore.
type exploreOpts struct {
	games int
	seed  uint64
	out   string
}

func exploreFlags(fs *pflag.FlagSet, ex *exploreOpts) {
	intFlag(fs, &ex.games, "explore", 0, "instead of the cases, play `N` random games against the implementation, compare every step with the engine, and shrink the first divergence of each kind to a case")
	uint64Flag(fs, &ex.seed, "seed", explore.DefaultSeed, "with --explore: the `SEED` of the random games")
	fs.StringVar(&ex.out, "explore-out", "", "with --explore: write the shrunk cases into `DIR`, a case pack: DIR/pack.yaml, DIR/explore/*.yaml (default: nothing is written; the report shows each case)")
}

// exploreFlagNames are the flags of conform that apply to --explore.
var exploreFlagNames = []string{"impl", "profile", "timeout", "start-timeout", "run-timeout", "explore", "seed", "explore-out"}

// exploreRequested reports whether the command line asks for
// exploration: --explore or one of its own flags.
func exploreRequested(fs *pflag.FlagSet) bool {
	return fs.Changed("explore") || fs.Changed("seed") || fs.Changed("explore-out")
}

func (c *cli) conformExplore(run *run, fs *pflag.FlagSet, ex exploreOpts, implArg, profiles string, timeout implTimeouts) int {
	var other []string
	fs.Visit(func(f *pflag.Flag) {
		if !slices.Contains(exploreFlagNames, f.Name) {
			other = append(other, "--"+f.Name)
		}
	})
	switch {
	case ex.games <= 0:
		return c.fail(exitBadUsage, "conform: --seed and --explore-out need --explore N, a positive number of games (not %d)", ex.games)
	case len(other) > 0:
		return c.fail(exitBadUsage, "conform: %s does not apply to --explore (it takes --impl, --profile, --seed, --explore-out, --timeout and --run-timeout)", strings.Join(other, ", "))
	}
	opts := explore.Options{Games: ex.games, Seed: ex.seed, Impl: implArg}
	if profiles != "" {
		opts.Profiles = strings.Split(profiles, ",")
	}
	impl, err := c.openImpl(run, implArg, opts.Profiles, timeout)
	if err != nil {
		return c.fail(exitBadUsage, "conform: %v", err)
	}
	defer impl.Close()
	rep, err := explore.Explore(run, impl, opts)
	if err != nil { // a usage error: hello failed, a profile, or no way to follow the implementation
		if code := c.interrupted(run, "conform --explore"); code != 0 {
			return code
		}
		return c.fail(exitBadUsage, "conform --explore: %v", err)
	}
	if ex.out != "" {
		if _, err := rep.WriteCases(ex.out); err != nil {
			rep.WriteText(c.stdout)
			return c.fail(exitBadUsage, "conform --explore: writing the cases: %v", err)
		}
	}
	rep.WriteText(c.stdout)
	if code := c.interrupted(run, "conform --explore"); code != 0 {
		return code
	}
	if len(rep.Divergences) > 0 || rep.Stopped != "" {
		return exitFailed
	}
	fmt.Fprintln(c.stdout, "no divergence")
	return exitOK
}
