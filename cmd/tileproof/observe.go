package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"time"

	"github.com/spf13/pflag"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/conformance/explore"
	"github.com/tileproof/tileproof/protocol"
)

// observeOpts are the flags of conform's observation of an
// implementation's own games.
type observeOpts struct {
	games int
	out   string
}

func observeFlags(fs *pflag.FlagSet, o *observeOpts) {
	intFlag(fs, &o.games, "observe", 0, fmt.Sprintf("also observe `N` of the implementation's own games, played through new and move alone, every step compared with the engine (by default %d when it can neither load a state nor take a tp1 seed; 0: none)", explore.DefaultObserveGames))
	fs.StringVar(&o.out, "observe-out", "", "write the games of observed divergences into `DIR`, as replays verify and show reproduce, and (when the implementation can load a state) their shrunk cases, a pack in DIR/cases (default: nothing is written; the report lists each divergence)")
}

// observing reports how many games to observe: the number asked for, or
// by default some when the implementation declares neither load-state
// nor seed-tp1 (so that no case can start where it wants) and --run, if
// given, selects observe/.
func observing(fs *pflag.FlagSet, o observeOpts, h conformance.Hello, run *regexp.Regexp) int {
	if fs.Changed("observe") {
		return o.games
	}
	if h.Has(protocol.LoadState) || h.Has(protocol.SeedTP1) || run != nil && !run.MatchString("observe/steps") {
		return 0
	}
	return explore.DefaultObserveGames
}

// observe plays the observed games and adds their checks to the report
// (area observe), writing each divergence's game to the --observe-out
// folder when one is given (nothing is written otherwise); with text
// output it prints the observation's summary first. The error is a
// usage error.
func (c *cli) observe(ctx context.Context, impl conformance.Impl, implArg string, rep *conformance.Report, opts conformance.Options, o observeOpts, games int, text bool) error {
	start := time.Now()
	defer func() { rep.Duration += time.Since(start) }()
	obs, err := explore.Observe(ctx, impl, explore.ObserveOptions{Games: games, Seed: explore.DefaultSeed, Profiles: opts.Profiles, Known: opts.Known, Impl: implArg})
	if err != nil {
		return err
	}
	if o.out != "" {
		if _, err := obs.WriteReplays(o.out); err != nil {
			return fmt.Errorf("--observe-out: %v", err)
		}
		if _, err := obs.WriteCases(filepath.Join(o.out, "cases")); err != nil {
			return fmt.Errorf("--observe-out: %v", err)
		}
	}
	if text {
		obs.WriteText(c.stdout)
		fmt.Fprintln(c.stdout)
	}
	rep.Append(opts.Expectations, obs.Results...)
	return nil
}
