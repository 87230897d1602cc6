package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/htmlview"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/replay/batchfiles"
	"github.com/tileproof/tileproof/replay/jsonl"
	"github.com/tileproof/tileproof/termview"
)

// verifyFlags are the flags of tileproof verify.
type verifyFlags struct {
	json         bool
	strict       bool
	analyze      bool
	report       string
	reportPages  int
	reportTop    int
	workers      int
	profileFiles []string
	timesKeyFile string
}

func (c *cli) verifyCommand() *cobra.Command {
	var f verifyFlags
	cmd := &cobra.Command{
		Use:   "verify [flags] FILE|DIR|-...",
		Short: "verify replays: files, directories, or JSON Lines on stdin (-)",
		Long: `Verify recorded games (replays) against the rules: each is replayed from its seed or its
recorded spawns and its claimed figures checked. A verdict a replay (ok, ending "; suspicious:
N spawn warnings" when its spawns are unlikely under the profile; FAIL with the first
divergence, the replay says / the rules give; or error for an unreadable one), then a summary.

A FILE is read as given. A DIR is searched for replay files (.yaml, .yml, .json, and .jsonl,
whose every line is a replay; manifest.yaml files are not replays): regular files only, links
and other special files inside a directory are skipped with a note, as are hidden ones (a name
beginning with a dot) and a case pack (a directory holding pack.yaml, as conform
--observe-out DIR writes in DIR/cases). - reads JSON Lines from stdin. The format:
docs/replay-format.md.

Exit status 1 when a replay is invalid (or, with --strict, a spawn-recorded one has
implausible spawns), 2 when one cannot be read (or, with --analyze, its analysis cannot be
written).`,
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.json, "json", false, "print one JSON verdict a line (the summary goes to stderr)")
	fl.BoolVar(&f.analyze, "analyze", false, "add to each valid game's verdict the comparison of its moves with reference evaluators and players of tileproof analyze (docs/analyze.md): its band and statement, with --json its report as \"analysis\", with --report its section on the game's page and a column of bands")
	fl.BoolVar(&f.strict, "strict", false, "fail (exit 1) a valid replay whose spawns the plausibility tests warn about, as a leaderboard may want")
	fl.StringVar(&f.report, "report", "", "also write an HTML summary to `FILE` (report.html, say), with a viewer page per replay in report_files beside it (docs/viewer-html.md)")
	numFlag(fl, &f.reportPages, "report-pages", 1000, "with --report, at most `N` viewer pages of the replays that need your eyes (suspicious, invalid, the top scores), and as many of the other valid ones")
	numFlag(fl, &f.reportTop, "report-top", 10, "with --report, the `N` top scores listed (and paged) among the replays that need your eyes")
	numFlag(fl, &f.workers, "workers", 0, "`N` replays verified in parallel (0: one a CPU)")
	fl.StringArrayVar(&f.profileFiles, "profile", nil, "a profile YAML `FILE` (repeatable); a replay uses it when its profile: names the file's name:")
	fl.StringVar(&f.timesKeyFile, "times-key-file", "", "also check each replay's think times against the key in `FILE` of the signed server that dealt it (as serve --key-file takes it): whether they are the times it measured (with --analyze, the analysis's too; with --report, the pages say it); the verdict on the game does not change")
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.verify(cmd, &f, args) })
	return cmd
}

func (c *cli) verify(cmd *cobra.Command, f *verifyFlags, args []string) int {
	if len(args) == 0 {
		return c.usageFail(cmd)
	}
	switch {
	case f.workers < 0:
		return c.fail(exitBadUsage, "verify: --workers %d: give 1 or more, or 0 for one a CPU", f.workers)
	case f.workers == 0:
		f.workers = runtime.GOMAXPROCS(0)
	}
	v, err := newVerifier("verify", f.profileFiles)
	if err != nil {
		return c.fail(exitBadUsage, "verify: %v", err)
	}
	ctx := cmd.Context()
	x, err := newExtras(ctx, v, f.timesKeyFile, f.analyze)
	if err != nil {
		return c.fail(exitBadUsage, "verify: %v", err)
	}
	verifyOne := x.verifyFile(v)
	var report *htmlview.BatchReport
	if f.report == "" {
		for _, name := range []string{"report-pages", "report-top"} {
			if cmd.Flags().Changed(name) {
				return c.fail(exitBadUsage, "verify: --%s needs --report FILE, the report it shapes", name)
			}
		}
	} else {
		switch {
		case f.reportPages < 0:
			return c.fail(exitBadUsage, "verify: --report-pages %d: give 0 or more", f.reportPages)
		case f.reportTop < 0:
			return c.fail(exitBadUsage, "verify: --report-top %d: give 0 or more", f.reportTop)
		}
		if report, err = htmlview.CreateBatchReport(f.report, args, v, f.reportPages, f.reportTop); err != nil {
			return c.fail(exitBadUsage, "verify: --report: %v", err)
		}
		report.SetExtras(x.add) // before each page is written: the pages show them
		verifyOne = report.Verify
	}
	var sum replay.Summary
	times := map[replay.TimesState]int{}
	var progressOut io.Writer // stderr when it is a terminal
	if f := terminalFile(c.stderr); f != nil {
		progressOut = f
	}
	progress := termview.StartProgress(progressOut, func(el time.Duration) string {
		// How many failed so far, for the one watching a long batch.
		failed := ""
		if n := sum.NotValid(); n > 0 {
			failed = fmt.Sprintf(" (%d not valid)", n)
		}
		return fmt.Sprintf("verified %s%s, %d moves (%.0f moves/s)", plural(int(sum.Count()), "replay"), failed, sum.Moves(), float64(sum.Moves())/el.Seconds())
	})
	inputs := make(chan replay.Input, 256) // the batch takes what has arrived, up to a chunk at once
	var listErr error
	go func() {
		defer close(inputs)
		listErr = batchfiles.Read(ctx, args, c.stdin, inputs, func(path, why string) {
			sum.Skip()
			if report != nil { // the report counts and names them too
				report.Skip(path, why)
			}
			progress.ClearWhile(func() {
				fmt.Fprintf(c.stderr, "tileproof: verify: skipped %s: %s\n", safetext.Name(path), why)
			})
		})
	}()
	// The verdicts are written through a buffer that goes out whenever the
	// batch waits for more, so a stream still gets each verdict as soon as
	// it is ready.
	out := bufio.NewWriterSize(c.stdout, 64<<10)
	var line []byte
	replay.VerifyBatch(ctx, inputs, f.workers, verifyOne, func(vd replay.Verdict) {
		if f.strict {
			vd = vd.Strict() // every view says what the exit status says
		}
		sum.Add(vd)
		times[vd.ThinkTimes.State()]++
		if report != nil {
			report.Add(vd)
		}
		if f.json {
			line = jsonl.AppendVerdict(line[:0], vd)
			out.Write(line)
		} else {
			printVerdict(out, vd)
		}
	}, func() { progress.ClearWhile(func() { out.Flush() }) })
	progress.Stop()
	unwritten := x.reportUnwritten(c.stderr, "verify") // an analysis JSON cannot hold: the run failed
	if listErr != nil {
		if report != nil {
			report.Abandon()
		}
		return c.fail(exitBadUsage, "verify: %v", listErr)
	}
	summaryOut := c.stdout
	if f.json {
		summaryOut = c.stderr
	}
	sum.Write(summaryOut)
	if f.timesKeyFile != "" {
		fmt.Fprintf(summaryOut, "think times: %s sealed by the key given, %d with times NOT sealed by it, %d without times\n",
			plural(times[replay.TimesSealed], "replay"), times[replay.TimesNotSealed], times[replay.TimesNone])
	}
	if f.analyze {
		fmt.Fprintf(summaryOut, "analysis: %d strong, %d review, %d consistent, %d insufficient (not analysed, or too little to place); a band is for a person to review, never a finding of cheating\n",
			x.bands[analyze.Strong], x.bands[analyze.Review], x.bands[analyze.Consistent], x.bands[analyze.Insufficient])
	}
	if report != nil {
		pages, unpaged, stale, err := report.Finish("tileproof verify " + strings.Join(args, " "))
		if err != nil {
			return c.fail(exitBadUsage, "verify: --report: %v", err)
		}
		fmt.Fprintf(c.stderr, "wrote %s, with %s in %s\n", safetext.Terminal(f.report), plural(pages, "replay page"), safetext.Terminal(report.Dir()))
		if stale > 0 {
			fmt.Fprintf(c.stderr, "removed %s of an earlier report from %s\n", plural(stale, "page"), safetext.Terminal(report.Dir()))
		}
		if unpaged > 0 {
			have := "have"
			if unpaged == 1 {
				have = "has"
			}
			fmt.Fprintf(c.stderr, "%s %s no page: --report-pages %d caps the pages of the replays that need your eyes, and of the others\n", plural(unpaged, "replay"), have, f.reportPages)
		}
	}
	switch {
	case sum.Unreadable() || unwritten:
		return exitBadUsage
	case !sum.AllValid():
		return exitFailed
	}
	return exitOK
}

// printVerdict writes a verdict for a person: ok, FAIL or error, then
// what replay.Verdict.Explain gives. A verdict that --strict made
// implausible is a FAIL with its warnings.
//
// The file's name (safetext.Name, quoted where it could read as the
// line's words), and every message that may quote a replay, are shown
// with safetext.Terminal: a submission named "\x1b[2K\rok ..." cannot
// repaint its FAIL as ok, set the window's title or write the clipboard.
func printVerdict(w io.Writer, vd replay.Verdict) {
	e := vd.Explain()
	name := safetext.Name(vd.Name)
	e.Headline, e.Says, e.Gives = safetext.TerminalLines(e.Headline), safetext.TerminalLines(e.Says), safetext.TerminalLines(e.Gives)
	switch {
	case vd.LegalGame():
		label, suspicious := "ok    ", ""
		if !vd.Valid {
			label = "FAIL  "
		} else if n := len(vd.Warnings); n > 0 {
			suspicious = "; suspicious: " + plural(n, "spawn warning")
		}
		fmt.Fprintf(w, "%s %s: %s%s\n", label, name, e.Headline, suspicious)
		if vd.GameSHA256 != vd.SHA256 {
			fmt.Fprintf(w, "       game as played (undone moves left out): gameSha256 %s\n", vd.GameSHA256)
		}
		for _, warn := range vd.Warnings {
			fmt.Fprintf(w, "       warning: %s\n", safetext.TerminalLines(warn))
		}
		printTimesCheck(w, vd.ThinkTimes)
		if len(vd.Analysis) > 0 {
			var a struct{ Band, Statement, Reason string }
			if json.Unmarshal(vd.Analysis, &a) == nil {
				if a.Statement == "" { // a game not analysed (analysisOf): why
					a.Statement = analyze.NotAnalysed(a.Reason)
				}
				// One line: the statement names the file, whose newline
				// would otherwise start a line of its own ("ok     y.yaml").
				fmt.Fprintf(w, "       analysis: %s: %s\n", a.Band, safetext.Terminal(a.Statement))
			}
		}
	case vd.Reason.Unreadable():
		msg := vd.Error
		if !strings.HasPrefix(msg, vd.Name) {
			msg = vd.Name + ": " + msg
		}
		fmt.Fprintf(w, "error  %s\n", strings.ReplaceAll(safetext.TerminalNamed(msg, vd.Name), "\n", "\n       "))
	default:
		d := vd.Divergence
		fmt.Fprintf(w, "FAIL   %s: %s\n", name, e.Headline)
		fmt.Fprintf(w, "       the replay says: %s\n", e.Says)
		fmt.Fprintf(w, "       the rules give:  %s\n", e.Gives)
		for _, a := range e.Also {
			fmt.Fprintf(w, "       also %s\n", safetext.TerminalLines(a))
		}
		printTimesCheck(w, vd.ThinkTimes)
		if diff := d.Diff(); diff != "" {
			fmt.Fprintf(w, "       board (-claimed +real):\n%s\n", indentLines(strings.TrimRight(diff, "\n"), "         "))
		} else if d.Board != nil {
			fmt.Fprintf(w, "       board:\n%s\n", indentLines(d.Board.String(), "         "))
		}
	}
}

func indentLines(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// newVerifier returns a verifier for command (verify, show or analyze,
// whose --profile its refusal of an unknown profile names) that knows the
// built-in profiles and those of the given YAML files.
func newVerifier(command string, profileFiles []string) (*replay.Verifier, error) {
	v := replay.NewVerifier()
	v.HowToAdd = command + " --profile FILE"
	for _, f := range profileFiles {
		p, err := loadProfile(f)
		if err == nil {
			err = v.AddProfile(p)
		}
		if err != nil {
			return nil, err
		}
	}
	return v, nil
}
