package main

import (
	"os"

	"github.com/tileproof/tileproof/replay"
)

// shown is a replay loaded for viewing: the file, the replay, its verdict
// and its frames (replay.Verifier.Trace).
type shown struct {
	name    string
	replay  *replay.Replay
	verdict replay.Verdict
	frames  []replay.Frame
}

func (c *cli) show(args []string) int {
	fs := c.flags("show")
	step := fs.Int("step", -1, "the step to show: 0 the start, N after action N (default: the last)")
	asHTML := fs.Bool("html", false, "write one self-contained HTML page instead (needs -o)")
	output := fs.String("o", "", "the HTML file to write")
	var profileFiles multiFlag
	fs.Var(&profileFiles, "profile", "a profile YAML file that the replay may name (repeatable)")
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return c.fail(exitBadUsage, "show: give one replay file")
	}
	v, err := newVerifier(profileFiles)
	if err != nil {
		return c.fail(exitBadUsage, "show: %v", err)
	}
	name := fs.Arg(0)
	data, err := os.ReadFile(name)
	if err != nil {
		return c.fail(exitBadUsage, "show: %v", err)
	}
	r, err := replay.Decode(name, data)
	if err != nil {
		return c.fail(exitBadUsage, "show: %v", err)
	}
	s := &shown{name: name, replay: r}
	s.verdict, s.frames = v.Trace(r)
	s.verdict.Name = name
	if len(s.frames) == 0 {
		why := s.verdict.Error
		if d := s.verdict.Divergence; why == "" && d != nil {
			why = d.Gives() // a bad start board
		}
		return c.fail(exitBadUsage, "show: %s cannot be replayed: %s: %s", name, s.verdict.Reason, why)
	}
	if *step > len(s.frames)-1 || *step < 0 && flagSet(fs, "step") {
		return c.fail(exitBadUsage, "show: --step %d: %s has steps 0 to %d", *step, name, len(s.frames)-1)
	}
	if *step < 0 {
		*step = len(s.frames) - 1
	}
	if *asHTML {
		if *output == "" {
			return c.fail(exitBadUsage, "show: --html needs -o FILE")
		}
		return c.showHTML(s, *output)
	}
	if *output != "" {
		return c.fail(exitBadUsage, "show: -o goes with --html")
	}
	return c.showTerminal(s, *step)
}
