package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/tileproof/tileproof/conformance"
)

// exploreFlagNames are the flags of conform that apply to --explore.
var exploreFlagNames = []string{"impl", "profile", "timeout", "start-timeout", "run-timeout", "explore", "seed", "explore-out"}

// exploreRequested reports whether the command line asks for
// exploration: --explore or one of its own flags (--seed without
// --observe, which takes it too).
func exploreRequested(fs *pflag.FlagSet) bool {
	return fs.Changed("explore") || fs.Changed("seed") && !fs.Changed("observe") || fs.Changed("explore-out")
}

func (c *cli) conformExplore(run *run, fs *pflag.FlagSet, f *conformFlags, profiles []string) int {
	var other []string
	fs.Visit(func(f *pflag.Flag) {
		if !slices.Contains(exploreFlagNames, f.Name) {
			other = append(other, "--"+f.Name)
		}
	})
	switch {
	case f.exploreGames <= 0:
		return c.fail(exitBadUsage, "conform: --seed and --explore-out need --explore N, a positive number of games (not %d), or --seed --observe N", f.exploreGames)
	case len(other) > 0:
		return c.fail(exitBadUsage, "conform: %s does not apply to --explore (it takes --impl, --profile, --seed, --explore-out, --timeout and --run-timeout)", strings.Join(other, ", "))
	}
	opts := conformance.ExploreOptions{Games: f.exploreGames, Seed: f.exploreSeed, Impl: f.impl, Profiles: profiles}
	impl, err := c.openImpl(run, f.impl, opts.Profiles, f.timeout, f.startTimeout)
	if err != nil {
		return c.fail(exitBadUsage, "conform: %v", err)
	}
	defer impl.Close()
	rep, err := conformance.Explore(run, impl, opts)
	if err != nil { // a usage error: hello failed, a profile, or no way to follow the implementation
		if code := c.interrupted(run, "conform --explore"); code != 0 {
			return code
		}
		return c.fail(exitBadUsage, "conform --explore: %v", err)
	}
	if f.exploreOut != "" {
		if _, err := rep.WriteCases(f.exploreOut); err != nil {
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
