package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/conformance/driver"
	"github.com/tileproof/tileproof/htmlview"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/internal/strictyaml"
	"github.com/tileproof/tileproof/replay/batchfiles"
)

// conformFlags are the flags of tileproof conform.
type conformFlags struct {
	impl, cases, profiles, run, junit, html, expect, baseline  string
	json, strict, properties, verbose, acceptChanged, failFast bool
	timeout, startTimeout, runTimeout                          time.Duration
	exploreGames, observeGames                                 int
	exploreSeed                                                uint64
	exploreOut, observeOut                                     string
}

func (c *cli) conformCommand() *cobra.Command {
	var f conformFlags
	cmd := &cobra.Command{
		Use:   "conform --impl IMPL [flags]",
		Short: "run the conformance suite against an implementation",
		Long: `Run the conformance suite against an implementation: the case pack (built in, or --cases
DIR) under every profile the implementation declares, and the property checks
(docs/conformance.md). A line per failing case, with the boards side by side, then a
summary per area. A case runs once for each profile it applies to, so the total counts
runs, not cases; a case that needs a feature the implementation does not declare is
skipped (-v lists each with its reason), or, when the profile's own rules rule that
feature out (a board size other than the profile's; undo, End run or keep playing where
the profile has none), not applicable: n/a, counted apart from the skips; so is a property
check the suite has for 4x4 boards only, under a profile of another size.

IMPL is exec:COMMAND (an adapter speaking the exec protocol, docs/protocol.md),
http://HOST:PORT (a server of the tile-merge API shape, docs/api.md), or builtin (the
engine itself, a self-check that must pass).

With --explore N, play N random games against the implementation instead, compared with
the engine step by step; the first divergence of each kind is shrunk to a case.

An implementation that can neither load a state nor take a tp1 seed starts every game
itself, so no case can start where it needs: its own games are observed instead
(--observe N, on request for any implementation), each spawn it reports copied into the
engine and every step compared, with the spawns' statistics over all the games.

A case on a state no game reaches (an empty board, a tile no game makes; the case's
unreachable key) is reported apart: its failure does not fail the run (with --strict it
does). With --baseline, a failure that fails differently (another class, step or
mismatched fields) is changed and fails the run unless --accept-changed; the JSON report's
gate and the JUnit file give the same verdict as the exit status.

A run has a deadline, --run-timeout (30m by default; 0: none); Ctrl-C (or SIGTERM) stops
it as well. Either way the implementation is ended, the checks the run did not reach or
finish are reported as not-run (never a pass) in every report, which are written all
the same, and the run fails.

Exit status 1 when a check fails or did not run (with --strict, also a skip, not one
not applicable, an unexpected pass or a failure on an unreachable state); 2 when no
check could run at all (as for a usage error); 130 after Ctrl-C (143 after SIGTERM), the
reports written.`,
	}
	fl := cmd.Flags()
	fl.StringVar(&f.impl, "impl", "", "the implementation: exec:`COMMAND`, http://HOST:PORT, or builtin (required)")
	fl.StringVar(&f.cases, "cases", "", "a case pack `DIR` (default: the pack built into tileproof)")
	fl.StringVar(&f.profiles, "profile", "", "run only these `PROFILES` (comma-separated; default: all the implementation declares)")
	fl.StringVar(&f.run, "run", "", "run only the cases whose AREA/ID matches this `REGEXP`")
	fl.BoolVar(&f.json, "json", false, "print the report as JSON")
	fl.StringVar(&f.junit, "junit", "", "also write the report as JUnit XML to `FILE`")
	fl.StringVar(&f.html, "html", "", "also write a page of the failures to the HTML `FILE`, each board divergence as three boards side by side")
	fl.BoolVar(&f.strict, "strict", false, "for certification: a skipped case (not one not applicable to its profile) or an unexpected pass also fails the run")
	fl.BoolVar(&f.failFast, "fail-fast", false, "end the run at its first unexpected failure: the checks after it are reported not-run")
	fl.StringVar(&f.expect, "expect", "", "a YAML `FILE` of known deviations: CASE or CASE@PROFILE: reason")
	fl.StringVar(&f.baseline, "baseline", "", "an earlier JSON report `FILE`: show only regressions, fixes and changed failures (another class, step or fields), and fail on regressions and changed failures")
	fl.BoolVar(&f.acceptChanged, "accept-changed", false, "with --baseline: a failure that fails differently from the baseline does not fail the run")
	fl.DurationVar(&f.timeout, "timeout", 5*time.Second, "the exec and HTTP drivers' timeout for each request, a `DURATION` such as 5s")
	startTimeoutFlag(fl, &f.startTimeout)
	fl.DurationVar(&f.runTimeout, "run-timeout", defaultRunTimeout, "the most (a `DURATION`) the whole run may take: past it the run stops, the checks it did not reach or finish reported as not-run, which fails it (0: no bound)")
	fl.BoolVar(&f.properties, "properties", true, "run the property checks (--properties=false: none)")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "also list the skipped cases, with why, and the expected failures")
	numFlag(fl, &f.exploreGames, "explore", 0, "instead of the cases, play `N` random games against the implementation, compare every step with the engine, and shrink the first divergence of each kind to a case")
	numFlag(fl, &f.exploreSeed, "seed", conformance.DefaultSeed, "with --explore or --observe: the `SEED` of the random games")
	fl.StringVar(&f.exploreOut, "explore-out", "", "with --explore: write the shrunk cases into `DIR`, a case pack: DIR/pack.yaml, DIR/explore/*.yaml (default: nothing is written; the report shows each case)")
	numFlag(fl, &f.observeGames, "observe", 0, fmt.Sprintf("also observe `N` of the implementation's own games, played through new and move alone, every step compared with the engine (by default %d when it can neither load a state nor take a tp1 seed; 0: none)", conformance.DefaultObserveGames))
	fl.StringVar(&f.observeOut, "observe-out", "", "write the games of observed divergences into `DIR`, as replays verify and show reproduce, and (when the implementation can load a state) their shrunk cases, a pack in DIR/cases (default: nothing is written; the report lists each divergence)")
	cmd.RegisterFlagCompletionFunc("profile", completeProfiles)
	cmd.RegisterFlagCompletionFunc("impl", cobra.FixedCompletions([]string{"builtin", "exec:", "http://"}, cobra.ShellCompDirectiveNoSpace))
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.conform(cmd, &f, args) })
	return cmd
}

func (c *cli) conform(cmd *cobra.Command, f *conformFlags, args []string) int {
	if len(args) > 0 {
		return c.fail(exitBadUsage, "conform: unexpected argument %q", args[0])
	}
	if f.impl == "" {
		return c.fail(exitBadUsage, "conform: give --impl: exec:COMMAND (an adapter, docs/protocol.md), http://HOST:PORT (a server, docs/api.md), or builtin (the engine itself, a self-check)")
	}
	run := newRun(cmd.Context(), f.runTimeout)
	defer run.stop()
	var profiles []string
	if f.profiles != "" {
		profiles = strings.Split(f.profiles, ",")
	}
	if exploreRequested(cmd.Flags()) {
		return c.conformExplore(run, cmd.Flags(), f, profiles)
	}
	pack, err := loadPack(f.cases)
	if err != nil {
		return c.reportPackErrors(f.cases, err)
	}
	opts := conformance.Options{Profiles: profiles, Properties: f.properties, FailFast: f.failFast}
	if f.run != "" {
		if opts.Run, err = regexp.Compile(f.run); err != nil {
			return c.fail(exitBadUsage, "conform: --run: %v", err)
		}
	}
	if f.expect != "" {
		if opts.Expectations, err = readExpectations(f.expect); err != nil {
			return c.fail(exitBadUsage, "conform: %v", err)
		}
	}
	impl, err := c.openImpl(run, f.impl, opts.Profiles, f.timeout, f.startTimeout)
	if err != nil {
		return c.fail(exitBadUsage, "conform: %v", err)
	}
	defer impl.Close()
	started := time.Now()
	rep, err := conformance.Run(run, pack, impl, opts)
	if err != nil {
		if code := c.interrupted(run, "conform"); code != 0 {
			return code
		}
		return c.fail(exitBadUsage, "conform: %v", err)
	}
	rep.RunInfo = runInfo(cmd, f, started)
	rep.Describe(pack)
	if games := observing(cmd.Flags(), f.observeGames, rep.Impl, opts.Run); games > 0 {
		if err := c.observe(run, impl, rep, opts, f, games); err != nil {
			return c.fail(exitBadUsage, "conform --observe: %v", err)
		}
	}
	gopts := conformance.GateOptions{AcceptChanged: f.acceptChanged, Strict: f.strict}
	if f.baseline != "" {
		if gopts.Baseline, err = readReportFile(f.baseline); err != nil {
			return c.fail(exitBadUsage, "conform: --baseline: %v", err)
		}
		gopts.BaselineFile = f.baseline
	}
	gate := rep.Gate(gopts)
	// The one verdict, the gate: the exit status, the text, the JSON, the
	// JUnit and the page all say it.
	if f.junit != "" {
		if err := writeFile(f.junit, rep.WriteJUnit); err != nil {
			return c.fail(exitBadUsage, "conform: --junit: %v", err)
		}
	}
	if f.html != "" {
		if err := writeFile(f.html, func(w io.Writer) error { return htmlview.Conformance(w, rep) }); err != nil {
			return c.fail(exitBadUsage, "conform: --html: %v", err)
		}
	}
	if f.json {
		rep.WriteJSON(c.stdout)
	} else if f.baseline != "" {
		writeGate(c.stdout, gate)
	} else {
		rep.WriteText(c.stdout, f.verbose)
		writeTotalNote(c.stdout, rep, f.verbose)
	}
	if code := c.interrupted(run, "conform"); code != 0 {
		return code
	}
	if reason := nothingRan(rep); reason != "" {
		return c.fail(exitBadUsage, "conform: no check could run: %s", reason)
	}
	if gate.Pass {
		return exitOK
	}
	if gate.Baseline == "" && gate.Failed == 0 {
		// --strict, or checks not run, failed the run on what the text
		// does not count as a failure: say what.
		fmt.Fprintf(c.stderr, "tileproof: conform: %s\n", safetext.Terminal(gate.Line()))
	}
	return exitFailed
}

// nothingRan says why no check of the report ran, "" when one did: every
// result skipped (the first reason given), or none at all.
func nothingRan(rep *conformance.Report) string {
	if len(rep.Results) == 0 {
		return "nothing matches the selection"
	}
	if slices.ContainsFunc(rep.Results, func(res conformance.CaseResult) bool { return res.Status != conformance.Skip }) {
		return ""
	}
	return fmt.Sprintf("all %s skipped (the first: %s)", plural(len(rep.Results), "check"), rep.Results[0].Reason)
}

// writeTotalNote says under the summary what its total counts, and when
// cases were skipped, how to see why.
func writeTotalNote(w io.Writer, rep *conformance.Report, verbose bool) {
	cases := map[string]bool{}
	runs, props, observed := 0, 0, 0
	for _, res := range rep.Results {
		switch res.Area {
		case conformance.PropertiesArea:
			props++
		case conformance.ObserveArea:
			observed++
		default:
			cases[res.Case] = true
			runs++
		}
	}
	also := plural(props, "property check")
	switch {
	case observed > 0 && props == 0:
		also = plural(observed, "observation check")
	case observed > 0:
		also += " and " + plural(observed, "observation check")
	}
	fmt.Fprintf(w, "  (total: %s of %s, each under every profile it applies to, and %s)\n",
		plural(runs, "run"), plural(len(cases), "case"), also)
	_, total := rep.Summaries()
	if total.Skipped > 0 && !verbose {
		fmt.Fprintf(w, "  (%d skipped: each needs a feature or a board size the implementation does not declare%s; -v lists them with why)\n", total.Skipped, skipsByFeature(rep))
	}
	if total.NotApplicable > 0 && !verbose {
		count := ""
		if strconv.IntSize == 32 { // conformance's pastInt
			count = ", or starts past 2^31-1 moves, the most a 32-bit build counts"
		}
		fmt.Fprintf(w, "  (%d not applicable: each needs a board size, undo, End run or keep playing its profile's rules do not have, or is a case the engine cannot derive under a profile file's rules or a property check the suite has for 4x4 boards only%s; not skips, they do not fail --strict; -v lists them with why)\n", total.NotApplicable, count)
	}
}

// skipsByFeature says which features the skipped checks need, the most
// needed first ("; load-state for 95, force-spawn for 60"): what to
// declare to run the most. "" when no skip is for want of a feature.
func skipsByFeature(rep *conformance.Report) string {
	n := rep.SkipsByFeature()
	features := slices.Collect(maps.Keys(n))
	slices.SortFunc(features, func(a, b string) int { return cmp.Or(n[b]-n[a], strings.Compare(a, b)) })
	var sb strings.Builder
	for i, f := range features {
		if i == 0 {
			sb.WriteString(": ")
		} else {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%s for %d", safetext.Terminal(f), n[f])
	}
	return sb.String()
}

// defaultRunTimeout is --run-timeout's default, the deadline of a run
// when none is given.
const defaultRunTimeout = 30 * time.Minute

// startTimeoutFlag defines --start-timeout.
func startTimeoutFlag(fl *pflag.FlagSet, d *time.Duration) {
	fl.DurationVar(d, "start-timeout", driver.StartTimeout, "the exec driver's wait (a `DURATION`) for hello's answer, which includes the process's start (a runtime loading on a busy machine): the longer of it and --timeout")
}

// openImpl returns the implementation --impl names; timeout bounds each
// request (startTimeout, the exec driver's hello, whose answer waits on
// the process's start too), ctx the whole run (its deadline, an
// interrupt). The engine (builtin) also plays the profile files among
// profiles, the --profile asked for.
func (c *cli) openImpl(ctx context.Context, arg string, profiles []string, timeout, startTimeout time.Duration) (conformance.Impl, error) {
	switch {
	case arg == "builtin":
		b := &conformance.Builtin{}
		return b, b.AddProfileFiles(profiles)
	case strings.HasPrefix(arg, "exec:"):
		return &driver.Exec{Command: strings.TrimPrefix(arg, "exec:"), Timeout: timeout, StartTimeout: startTimeout, Context: ctx, Stderr: c.stderr}, nil
	case strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://"):
		return &driver.HTTP{BaseURL: arg, Timeout: timeout, Context: ctx}, nil
	}
	return nil, fmt.Errorf("--impl %q: want builtin, exec:COMMAND or an http:// URL", arg)
}

// readExpectations reads a known-deviations file: a YAML map of CASE or
// CASE@PROFILE to the reason the implementation fails it. Only a regular
// file is read, and no more than the YAML reader takes.
func readExpectations(file string) (map[string]string, error) {
	data, err := batchfiles.ReadRegular(file, int64(strictyaml.DefaultLimits.Bytes))
	if err != nil {
		return nil, err
	}
	var m map[string]string
	if err := strictyaml.Decode(file, data, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// writeGate writes a run against a baseline: its regressions, changed
// failures and fixes, then the counts and the verdict. What came from
// the implementation (a reason) or a report file is shown as
// safetext shows it on a terminal, each line of a reason indented under
// its change: a reason cannot add a line that reads as a change or the
// verdict, nor act on the terminal.
func writeGate(w io.Writer, g *conformance.Gate) {
	reason := func(s string) string {
		return strings.ReplaceAll(safetext.TerminalLines(s), "\n", "\n            ")
	}
	for _, ch := range g.Regressions {
		fmt.Fprintf(w, "REGRESSION  %s: %s -> %s: %s\n", safetext.Terminal(ch.Key), safetext.Terminal(string(ch.Before)), safetext.Terminal(string(ch.After)), reason(ch.Reason))
	}
	for _, ch := range g.Changed {
		word := "CHANGED   "
		if g.AcceptChanged {
			word = "changed   "
		}
		fmt.Fprintf(w, "%s  %s: %s: %s\n", word, safetext.Terminal(ch.Key), safetext.Terminal(ch.How), reason(ch.Reason))
	}
	for _, ch := range g.Fixes {
		fmt.Fprintf(w, "fixed       %s: %s -> %s\n", safetext.Terminal(ch.Key), safetext.Terminal(string(ch.Before)), safetext.Terminal(string(ch.After)))
	}
	fmt.Fprintln(w, safetext.Terminal(g.Line()))
}
