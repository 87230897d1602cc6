package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/replay/batchfiles"
)

// shown is a replay loaded for viewing: the file, the replay, its verdict
// and its frames (replay.Verifier.Trace).
type shown struct {
	name    string
	replay  *replay.Replay
	verdict replay.Verdict
	frames  []replay.Frame
}

// showFlags are the flags of tileproof show.
type showFlags struct {
	step         int
	stepSet      bool
	html         bool
	analyze      bool
	output       string
	profileFiles []string
	timesKeyFile string
}

func (c *cli) showCommand() *cobra.Command {
	var f showFlags
	cmd := &cobra.Command{
		Use:   "show [flags] REPLAY",
		Short: "show a replay: the board at a step, stepping on a terminal, or an HTML page",
		Long: `Show a replay: the board at a step, with the move and the spawn that led there, and the
replay's verdict (VALID, or INVALID with the first divergence: the replay says / the rules
give). On a terminal (stdin and stdout both), step through the game with the arrow keys or
n/p, Home/End or g/G, q to quit. With --html, write one self-contained HTML page instead
(docs/viewer-html.md); with --analyze too, the page has a section of the evidence of computer
play that tileproof analyze gives a valid game (docs/analyze.md); with --times-key-file,
whether the replay's think times are sealed by the signed server whose key is given.

An invalid replay is shown (its frames stop at the divergence) and exits 1, as verify does;
a replay that cannot be read or replayed exits 2.`,
	}
	fl := cmd.Flags()
	fl.Var(&decimal[int]{p: &f.step, unset: "the last"}, "step", "the step to show: 0 the start, `N` after action N")
	fl.BoolVar(&f.html, "html", false, "write one self-contained HTML page instead (needs -o)")
	fl.StringVarP(&f.output, "output", "o", "", "with --html, the HTML `FILE` to write")
	fl.BoolVar(&f.analyze, "analyze", false, "with --html, add to the page of a valid game its evidence of computer play, as tileproof verify --analyze gives it (docs/analyze.md)")
	fl.StringArrayVar(&f.profileFiles, "profile", nil, "a profile YAML `FILE` (repeatable); the replay uses it when its profile: names the file's name:")
	fl.StringVar(&f.timesKeyFile, "times-key-file", "", "with --html, also check the replay's think times against the key in `FILE` of the signed server that dealt it, as tileproof verify --times-key-file does, and say on the page whether they are sealed")
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int {
		f.stepSet = cmd.Flags().Changed("step")
		return c.show(&f, args)
	})
	return cmd
}

func (c *cli) show(f *showFlags, args []string) int {
	if len(args) != 1 {
		return c.fail(exitBadUsage, "show: give one replay file")
	}
	if f.html && f.output == "" {
		return c.fail(exitBadUsage, "show: --html needs -o FILE")
	}
	if !f.html && f.output != "" {
		return c.fail(exitBadUsage, "show: -o goes with --html")
	}
	if !f.html && f.analyze {
		return c.fail(exitBadUsage, "show: --analyze goes with --html")
	}
	if !f.html && f.timesKeyFile != "" {
		return c.fail(exitBadUsage, "show: --times-key-file goes with --html")
	}
	name := args[0]
	if f.html {
		if err := notAnInput("-o", f.output, append([]string{name, f.timesKeyFile}, f.profileFiles...)...); err != nil {
			return c.fail(exitBadUsage, "show: %v", err)
		}
	}
	v, err := newVerifier(f.profileFiles)
	if err != nil {
		return c.fail(exitBadUsage, "show: %v", err)
	}
	// Bounded as verify bounds a file, and a regular file only: a link to
	// /dev/zero or a named pipe is refused, never read or waited on.
	data, err := batchfiles.ReadRegular(name, batchfiles.MaxReplaySize)
	if err != nil {
		return c.fail(exitBadUsage, "show: %v", err)
	}
	r, err := replay.Decode(name, data)
	if err != nil {
		return c.fail(exitBadUsage, "show: %v", err)
	}
	if f.html {
		x, err := newExtras(context.Background(), v, f.timesKeyFile, f.analyze)
		if err != nil {
			return c.fail(exitBadUsage, "show: %v", err)
		}
		return c.showHTML(v, name, r, f, x) // never holds the frames
	}
	s := &shown{name: name, replay: r}
	s.verdict, s.frames = v.Trace(r)
	s.verdict.Name = name
	step, code := c.showStep(f, s.verdict, len(s.frames))
	if code != exitOK {
		return code
	}
	if code = c.showTerminal(s, step); code != exitOK || s.verdict.Valid {
		return code
	}
	return exitFailed // an invalid replay, shown
}

// showStep returns the step to show of a replay of frames frames and
// verdict vd, the last one unless --step says; a replay with no frame
// (it cannot be replayed) or a --step it does not have is a usage error.
func (c *cli) showStep(f *showFlags, vd replay.Verdict, frames int) (int, int) {
	if frames == 0 {
		why := vd.Error
		if d := vd.Divergence; why == "" && d != nil {
			why = d.Gives() // a bad start board
		}
		return 0, c.fail(exitBadUsage, "show: %s cannot be replayed: %s: %s", vd.Name, vd.Reason, why)
	}
	last := frames - 1
	if !f.stepSet {
		return last, exitOK
	}
	if f.step < 0 || f.step > last {
		return 0, c.fail(exitBadUsage, "show: --step %d: %s has steps 0 to %d", f.step, vd.Name, last)
	}
	return f.step, exitOK
}
