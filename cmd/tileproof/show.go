package main

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/replay/batchfiles"
)

// shown is a replay loaded for viewing: the file, the replay, its verdict
// and the frames held of it (replay.Verifier.Walk), in the order of their
// steps: all of them for a game of at most maxHeldFrames steps, else the
// first ones, the one --step names and the last; total is the game's.
type shown struct {
	name    string
	replay  *replay.Replay
	verdict replay.Verdict
	frames  []replay.Frame
	total   int // the game's frames: steps 0 to total-1
	digits  int // the widest tile of the game, in digits (at least 4)
}

// maxHeldFrames bounds the frames show holds to step through on a
// terminal, which held one for every action of a log of any length
// (docs/viewer-terminal.md has the figures). 2^18 is more than twice the
// longest game recorded; a longer one is stepped through its first
// frames, the step asked for and its last, and --step shows any other.
const maxHeldFrames = 1 << 18

// walkFrames verifies r, holding the frames s shows: every frame up to
// maxHeldFrames-2 when interactive, the frame of step (-1: none) and the
// last one.
func (s *shown) walkFrames(v *replay.Verifier, interactive bool, step int) {
	s.digits = 4
	var last replay.Frame
	lastHeld := true
	s.verdict = v.Walk(s.replay, func(f replay.Frame) {
		s.digits = max(s.digits, len(strconv.FormatUint(f.Board.MaxTile(), 10)))
		n := s.total // f's position in the game
		lastHeld = n == 0 || n == step || interactive && n < maxHeldFrames-2
		if lastHeld {
			s.frames = append(s.frames, f)
		}
		last = f
		s.total++
	})
	if !lastHeld {
		s.frames = append(s.frames, last)
	}
}

// at returns the position in s.frames of the frame of step, or of the
// last frame held before it.
func (s *shown) at(step int) int {
	i, _ := slices.BinarySearchFunc(s.frames, step, func(f replay.Frame, step int) int { return f.Step - step })
	if i == len(s.frames) || s.frames[i].Step != step {
		i--
	}
	return max(i, 0)
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
	f := showFlags{step: -1} // -1: none asked for (walkFrames)
	cmd := &cobra.Command{
		Use:   "show [flags] REPLAY",
		Short: "show a replay: the board at a step, stepping on a terminal, or an HTML page",
		Long: `Show a replay: the board at a step, with the move and the spawn that led there, and the
replay's verdict (VALID, or INVALID with the first divergence: the replay says / the rules
give). On a terminal (stdin and stdout both), step through the game with the arrow keys or
n/p, Home/End or g/G, q to quit. With --html, write one self-contained HTML page instead
(docs/viewer-html.md); with --analyze too, the page has a section comparing a valid game's
moves with reference evaluators and players, as tileproof analyze does (docs/analyze.md);
with --times-key-file, whether the replay's think times are sealed by the signed server whose
key is given.

REPLAY is a file, or a line of a JSON Lines file as verify names it, FILE.jsonl:LINE.
An invalid replay is shown (its frames stop at the divergence) and exits 1, as verify does;
a replay that cannot be read or replayed exits 2.`,
	}
	fl := cmd.Flags()
	fl.Var(&decimal[int]{p: &f.step, unset: "the last"}, "step", "the step to show: 0 the start, `N` after action N")
	fl.BoolVar(&f.html, "html", false, "write one self-contained HTML page instead (needs -o)")
	fl.StringVarP(&f.output, "output", "o", "", "with --html, the HTML `FILE` to write")
	fl.BoolVar(&f.analyze, "analyze", false, "with --html, add to the page of a valid game the comparison of its moves with reference evaluators and players, as tileproof verify --analyze gives it (docs/analyze.md)")
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
	if name == "-" {
		return c.fail(exitBadUsage, "show: it reads a replay from a file, not stdin (on a terminal, stdin is its keys): save the replay to a file and name it")
	}
	if f.html {
		inputs := append([]string{name, f.timesKeyFile}, f.profileFiles...)
		if i := strings.LastIndexByte(name, ':'); i > 0 {
			inputs = append(inputs, name[:i]) // FILE.jsonl:LINE
		}
		if err := notAnInput("-o", f.output, inputs...); err != nil {
			return c.fail(exitBadUsage, "show: %v", err)
		}
	}
	v, err := newVerifier("show", f.profileFiles)
	if err != nil {
		return c.fail(exitBadUsage, "show: %v", err)
	}
	// Bounded as verify bounds a file, and a regular file only: a link to
	// /dev/zero or a named pipe is refused, never read or waited on.
	name, data, err := readShown(name)
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
	_, _, interactive := c.terminals()
	s.walkFrames(v, interactive, f.step)
	s.verdict.Name = name
	step, code := c.showStep(f, s.verdict, s.total)
	if code != exitOK {
		return code
	}
	if code = c.showTerminal(s, s.at(step)); code != exitOK || s.verdict.Valid {
		return code
	}
	return exitFailed // an invalid replay, shown
}

// readShown reads the replay show names: a file, or a line of a JSON
// Lines file as verify names it, FILE.jsonl:LINE (or FILE.jsonl holding
// one replay), returning its name as verify gives it.
func readShown(name string) (string, []byte, error) {
	if strings.HasSuffix(name, ".jsonl") {
		return batchfiles.ReadJSONLine(name, 0)
	}
	if i := strings.LastIndexByte(name, ':'); i > 0 && strings.HasSuffix(name[:i], ".jsonl") {
		if n, err := strconv.Atoi(name[i+1:]); err == nil && n > 0 && strings.Trim(name[i+1:], "0123456789") == "" {
			if _, err := os.Stat(name); err != nil { // not a file of that name
				return batchfiles.ReadJSONLine(name[:i], n)
			}
		}
	}
	data, err := batchfiles.ReadRegular(name, batchfiles.MaxReplaySize)
	return name, data, err
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
