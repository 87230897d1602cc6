package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/spf13/cobra"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/replay/batchfiles"
)

// analyzeFlags are the flags of tileproof analyze.
type analyzeFlags struct {
	json, deep, noClairvoyance bool
	maxMoves                   int
	reference                  string
	buildReference, source     string
	profileFiles               []string
	timesKeyFile               string
}

func (c *cli) analyzeCommand() *cobra.Command {
	var f analyzeFlags
	cmd := &cobra.Command{
		Use:   "analyze [flags] REPLAY|DIR|-...",
		Short: "compare verified games' moves with reference evaluators and players (docs/analyze.md)",
		Long: `Compare each move of a verified game with the moves reference evaluators prefer
(expectimax-2, expectimax-1 and corner-1; expectimax-3 too with --deep), sum the figures up per
game (agreement on non-trivial moves, losses, errors on crowded boards, and for a seeded game a
clairvoyance test), and place the game against a reference set of games by known players.

Each game gets a band: consistent (not unusually close to the evaluators for a reference
player), review (unusually close: review suggested), strong (very unusually close: review
suggested) or insufficient (not placed: too short a game, moves taken back by undo, or a
reference too thin for it). A band says how the moves compare, not who played them: it is a
statistical statement for a person to review, never a finding of cheating. docs/analyze.md
gives the figures, the thresholds and how they were measured.

Inputs are read as tileproof verify reads them. --json prints one JSON line a game. Exit status
1 when a replay is not valid or cannot be analysed, 2 when one cannot be read or its report
cannot be written.

--build-reference NAME writes a reference set made of the games given (games by players known
to be people) to stdout, with the thresholds of the built-in one, for --reference.`,
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.json, "json", false, "print one JSON line a game")
	fl.BoolVar(&f.deep, "deep", false, "add expectimax-3 to the evaluators (about ten times slower)")
	fl.BoolVar(&f.noClairvoyance, "no-clairvoyance", false, "skip the clairvoyance test of seeded games")
	numFlag(fl, &f.maxMoves, "max-moves", 0, fmt.Sprintf("analyse at most the first `N` counted moves of each game (0: %d)", analyze.DefaultMaxMoves))
	fl.StringVar(&f.reference, "reference", "", "place the games against the reference set in `FILE` instead of the built-in one")
	fl.StringVar(&f.buildReference, "build-reference", "", "write a reference set named `NAME` made of these games to stdout")
	fl.StringVar(&f.source, "source", "", "with --build-reference, the games' source, in `WORDS`")
	fl.StringArrayVar(&f.profileFiles, "profile", nil, "a profile YAML `FILE` (repeatable), as tileproof verify takes")
	fl.StringVar(&f.timesKeyFile, "times-key-file", "", "check each game's think times against the key in `FILE` of the signed server that dealt it (as serve --key-file takes it)")
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.analyze(cmd, &f, args) })
	return cmd
}

func (c *cli) analyze(cmd *cobra.Command, f *analyzeFlags, args []string) int {
	if len(args) == 0 {
		return c.usageFail(cmd)
	}
	if f.maxMoves < 0 {
		return c.fail(exitBadUsage, "analyze: --max-moves %d: give 0 or more", f.maxMoves)
	}
	if f.buildReference != "" && f.source == "" {
		return c.fail(exitBadUsage, "analyze: --build-reference needs --source: where the games come from")
	}
	v, err := newVerifier("analyze", f.profileFiles)
	if err != nil {
		return c.fail(exitBadUsage, "analyze: %v", err)
	}
	ctx := cmd.Context()
	key, err := timesKeyFile(f.timesKeyFile)
	if err != nil {
		return c.fail(exitBadUsage, "analyze: %v", err)
	}
	opts := analyze.Options{Deep: f.deep, Clairvoyance: !f.noClairvoyance, MaxMoves: f.maxMoves, CheckTimes: timesCheck(key)}
	if f.reference != "" {
		data, err := batchfiles.ReadRegular(f.reference, 4<<20)
		if err == nil {
			opts.Reference, err = analyze.ParseReference(data)
		}
		if err != nil {
			return c.fail(exitBadUsage, "analyze: --reference %s: %v", safetext.Terminal(f.reference), err)
		}
	}
	// The built-in reference places the games, or gives --build-reference
	// its thresholds: a build that cannot use it says so once.
	builtin, err := analyze.BuiltinReference()
	if err != nil && (opts.Reference == nil || f.buildReference != "") {
		return c.fail(exitBadUsage, "analyze: %v", err)
	}
	inputs := make(chan replay.Input, 16)
	var listErr error
	go func() {
		defer close(inputs)
		listErr = batchfiles.Read(ctx, args, c.stdin, inputs, func(path, why string) {
			fmt.Fprintf(c.stderr, "tileproof: analyze: skipped %s: %s\n", safetext.Name(path), why)
		})
	}()
	out := bufio.NewWriter(c.stdout)
	defer out.Flush()
	code := exitOK
	var reports []*analyze.GameReport
	for in := range inputs {
		if in.Release != nil {
			in.Release() // analyzed one at a time: the budget bounds what is read ahead
		}
		name := safetext.Name(in.Name)
		if in.Err != nil {
			// The error may quote the name (open NAME: ...): shown as
			// verify shows an unreadable replay's error.
			fmt.Fprintf(c.stderr, "tileproof: analyze: %s: %s\n", name, safetext.TerminalNamed(in.Err.Error(), in.Name))
			code = exitBadUsage
			continue
		}
		r, err := replay.Decode(in.Name, in.Data)
		if err != nil {
			fmt.Fprintf(c.stderr, "tileproof: analyze: %s: %s\n", name, safetext.Terminal(err.Error()))
			code = exitBadUsage
			continue
		}
		rep, err := analyze.Analyze(ctx, v, name, r, opts)
		if err != nil {
			fmt.Fprintf(c.stderr, "tileproof: analyze: %s: %s\n", name, safetext.Terminal(err.Error()))
			if errors.Is(err, analyze.ErrNotAnalysable) && code == exitOK {
				code = exitFailed
			}
			continue
		}
		if f.buildReference != "" {
			reports = append(reports, rep)
			continue
		}
		if got := c.writeAnalysis(out, name, rep, f.json); got != exitOK {
			code = got
		}
	}
	if listErr != nil {
		return c.fail(exitBadUsage, "analyze: %v", listErr)
	}
	if f.buildReference != "" {
		ref := analyze.BuildReference(f.buildReference, f.source, reports, builtin)
		if got := c.writeReference(out, f.buildReference, ref); got != exitOK {
			return got
		}
	}
	return code
}

// writeAnalysis writes the report rep of the game called name (shown
// safely already) to out: one JSON line (asJSON) or the text for
// people. A report JSON cannot hold (a figure NaN or infinite) writes no
// line: the error goes to stderr, naming the game, and the code returned
// says the run failed.
func (c *cli) writeAnalysis(out io.Writer, name string, rep *analyze.GameReport, asJSON bool) int {
	if !asJSON {
		printAnalysis(out, rep)
		return exitOK
	}
	line, err := json.Marshal(rep)
	if err != nil {
		fmt.Fprintf(c.stderr, "tileproof: analyze: %s: the report cannot be written as JSON: %s\n", name, safetext.Terminal(err.Error()))
		return exitBadUsage
	}
	out.Write(append(line, '\n'))
	return exitOK
}

// writeReference writes the reference set ref that --build-reference
// NAME made to out; one JSON cannot hold is an error, and no output.
func (c *cli) writeReference(out io.Writer, name string, ref *analyze.Reference) int {
	data, err := json.MarshalIndent(ref, "", "  ")
	if err != nil {
		return c.fail(exitBadUsage, "analyze: --build-reference %s: the reference cannot be written as JSON: %v", safetext.Terminal(name), err)
	}
	out.Write(append(data, '\n'))
	return exitOK
}

// printAnalysis writes a report for people.
func printAnalysis(w io.Writer, r *analyze.GameReport) {
	fmt.Fprintf(w, "%s: %s (%s)\n", r.Name, r.Band, analyze.BandText(r.Band))
	// A bound (--max-moves) may stop the analysis before the game's
	// largest tile: the tile band reads the analysed moves' largest.
	upTo := ""
	if r.AnalysedMaxTile != r.MaxTile {
		upTo = fmt.Sprintf(" (largest tile by then %d)", r.AnalysedMaxTile)
	}
	fmt.Fprintf(w, "  %d counted moves, largest tile %d; analysed %d%s: %d forced, %d trivial, %d non-trivial\n",
		r.GameMoves, r.MaxTile, r.Analysed, upTo, r.Forced, r.Trivial, r.NonTrivial)
	if r.Undone > 0 {
		fmt.Fprintf(w, "  %d of the moves analysed were taken back (undo)\n", r.Undone)
	}
	if r.Stopped != "" {
		fmt.Fprintf(w, "  the analysis stopped before %s\n", r.Stopped)
	}
	if r.Band == analyze.Insufficient {
		fmt.Fprintf(w, "  not judged: the figures below are for a reader, and no threshold reads them\n")
	}
	for _, s := range r.Evaluators {
		// A z the reference does not place is a dash, as on the pages: its
		// 0 would read as a game in the middle of the reference players.
		agreement := "z -, not placed"
		if slices.Contains(s.Placed, "agreement") {
			// The games counted, not a percentage: a reference of three
			// games is not read as a hundred.
			above := int(math.Round(s.Percentile * float64(s.ReferenceGames) / 100))
			agreement = fmt.Sprintf("z %5s, above %d of the %d reference games modelled", zText(s.Z), above, s.ReferenceGames)
		}
		fmt.Fprintf(w, "  %-15s agreement %5.1f%% (%s)  loss mean %.2f p50 %.2f p90 %.2f p99 %.2f  large errors %.1f%% (z %s)  small errors %.1f%% (z %s)  second-best %.1f%% (z %s)  misses crowded %.1f%% open %.1f%%\n",
			s.Evaluator, 100*s.Agreement, agreement, s.MeanLoss, s.Loss50, s.Loss90, s.Loss99, 100*s.LargeErrors, placedZ(s, "large_errors", s.ErrorsZ),
			100*s.SmallErrors, placedZ(s, "small_errors", s.SmallErrorsZ), 100*s.SecondBest, placedZ(s, "second_best", s.SecondZ), 100*s.CrowdedMiss, 100*s.OpenMiss)
	}
	if cv := r.Clairvoyance; cv != nil {
		fmt.Fprintf(w, "  clairvoyance: %d of %d positions agree with the next spawn's oracle, %.1f by chance (z %.1f)\n", cv.Hits, cv.Positions, cv.Expected, cv.Z)
	}
	if tt := r.ThinkTime; tt != nil {
		switch {
		case tt.Sealed == nil:
			fmt.Fprintf(w, "  think times: the replay's word (give --times-key-file to check their seal)\n")
		case *tt.Sealed:
			fmt.Fprintf(w, "  think times: sealed by the server whose key was given\n")
		default:
			fmt.Fprintf(w, "  think times: NOT sealed by the server whose key was given: not the times it measured for this game\n")
		}
		// Over a median of 0 the spread is no figure: its 0 would read as
		// times all alike.
		spread := fmt.Sprintf("%.2f", tt.Spread)
		if tt.MedianMs <= 0 && tt.P75Ms > tt.P25Ms {
			spread = "-, the median is 0"
		}
		// Below the minimum the correlations are left out, which a dash
		// alone would read as times or a difficulty that do not vary.
		corr := func(p *float64) string { return figure(p, "%.2f") }
		if tt.Moves < analyze.MinCorrelationMoves {
			corr = func(*float64) string { return "-, too few timed moves" }
		}
		fmt.Fprintf(w, "  think time (figures for a reviewer, no band): %d moves, median %.0f ms, quartiles %.0f-%.0f ms (spread %s); rank correlation with filled cells %s, with moves not near the best %s, with the best move's lead %s; easy moves %d at %s the median, critical %d at %s\n",
			tt.Moves, tt.MedianMs, tt.P25Ms, tt.P75Ms, spread, corr(tt.CrowdedCorr), corr(tt.CriticalCorr), corr(tt.GapCorr),
			tt.Easy, figure(tt.EasyRatio, "%.2fx"), tt.Critical, figure(tt.CriticalRatio, "%.2fx"))
	}
	// The statement names the reference, whose name is its file's
	// (--reference): shown as names are.
	fmt.Fprintf(w, "  %s\n", safetext.Terminal(r.Statement))
}

// placedZ writes an evaluator's z of the statistic key, or "-" where the
// reference does not place it (EvalStats.Placed).
func placedZ(s analyze.EvalStats, key string, z float64) string {
	if !slices.Contains(s.Placed, key) {
		return "-"
	}
	return zText(z)
}

// zText writes a z-score to one decimal, a z that rounds to 0 as 0.0,
// never -0.0.
func zText(z float64) string {
	if math.Abs(z) < 0.05 {
		z = 0
	}
	return fmt.Sprintf("%.1f", z)
}

// figure writes a figure that may be undefined ("-").
func figure(p *float64, format string) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf(format, *p)
}
