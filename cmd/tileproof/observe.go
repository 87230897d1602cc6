package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"time"

	"github.com/spf13/pflag"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/protocol"
)

// observing reports how many games to observe: the number asked for, or
// by default some when the implementation declares neither load-state
// nor seed-tp1 (so that no case can start where it wants) and --run, if
// given, selects observe/.
func observing(fs *pflag.FlagSet, games int, h conformance.Hello, run *regexp.Regexp) int {
	if fs.Changed("observe") {
		return games
	}
	if h.Has(protocol.LoadState) || h.Has(protocol.SeedTP1) || run != nil && !run.MatchString("observe/steps") {
		return 0
	}
	return conformance.DefaultObserveGames
}

// observe plays the observed games and adds their checks to the report
// (area observe), writing each divergence's game to the --observe-out
// folder when one is given (nothing is written otherwise); with text
// output it prints the observation's summary first. The error is a
// usage error.
func (c *cli) observe(ctx context.Context, impl conformance.Impl, rep *conformance.Report, opts conformance.Options, f *conformFlags, games int) error {
	start := time.Now()
	defer func() { rep.Duration += time.Since(start) }()
	obs, err := conformance.Observe(ctx, impl, conformance.ObserveOptions{Games: games, Seed: f.exploreSeed, Profiles: opts.Profiles, Known: opts.Known, Impl: f.impl})
	if err != nil {
		return err
	}
	if f.observeOut != "" {
		if _, err := obs.WriteReplays(f.observeOut); err != nil {
			return fmt.Errorf("--observe-out: %v", err)
		}
		if _, err := obs.WriteCases(filepath.Join(f.observeOut, "cases")); err != nil {
			return fmt.Errorf("--observe-out: %v", err)
		}
	}
	if !f.json && f.baseline == "" { // the text report
		obs.WriteText(c.stdout)
		fmt.Fprintln(c.stdout)
	}
	rep.Append(opts.Expectations, obs.Results...)
	return nil
}
