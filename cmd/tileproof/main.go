// Command tileproof replays and checks 2048-style tile-merge games: the
// rules engine's line merge and games, replay verification and the
// conformance suite. Run "tileproof help" for the commands.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// Exit codes, the same for every command.
const (
	exitOK       = 0 // everything checked out
	exitFailed   = 1 // the input was read, and it fails: an illegal move, an invalid replay, a failing case
	exitBadUsage = 2 // a usage error or input that cannot be read
)

// cli holds a command's streams, so that tests can run it in-process.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

type command struct {
	name, args, summary string
	run                 func(c *cli, args []string) int
}

func commands() []command {
	return []command{
		{"line", "[--json JSON|-] [CELL...]", "merge one line left, as seed 004's merge-line tool does", (*cli).line},
		{"play", "[--seed S] [--profile P] [--moves LOG] [--json] [-o FILE]", "play moves from a seed and show the game; without --moves, play at the terminal", (*cli).play},
		{"verify", "[--json] [--workers N] [--report FILE.html [--report-pages N]] [--profile FILE]... FILE|DIR|-...", "verify replays: files, directories, or JSON Lines on stdin (-)", (*cli).verify},
		{"record", "--seed S [--profile P] (--moves LOG | --player NAME) [--games N] [--spawns] [--json] [-o FILE]", "record games as replays, from a move log or by a built-in player", (*cli).record},
		{"show", "[--step N] [--html -o FILE] [--profile FILE]... REPLAY", "show a replay: the board at a step, stepping on a terminal, or an HTML page", (*cli).show},
		{"conform", "--impl builtin|exec:CMD|http://HOST:PORT [--profile P] [--run REGEX] [--json] [--junit FILE] [--html FILE] [--strict] [--expect FILE] [--baseline FILE] | --explore N [--seed S] [--explore-out DIR]", "run the conformance suite against an implementation", (*cli).conform},
		{"matrix", "REPORT.json...", "print conformance reports as one Markdown matrix: implementations by case area", (*cli).matrix},
		{"cases", "lint [DIR] | import-pgs FILE [--name N] [--profile-out FILE] [-o FILE]", "check the case pack against the engine; import a PGS document's test cases and rules", (*cli).cases},
		{"serve", "[--addr HOST:PORT] [--key-file FILE] [--profiles P,...] [--forced-spawns]", "serve the games over HTTP in the tile-merge API shape (docs/api.md)", (*cli).serve},
		{"profiles", "[NAME|FILE]", "list the profiles, or print one as YAML", (*cli).profiles},
	}
}

func main() {
	c := &cli{os.Stdin, os.Stdout, os.Stderr}
	os.Exit(c.main(os.Args[1:]))
}

func (c *cli) main(args []string) int {
	if len(args) == 0 {
		c.usage(c.stderr)
		return exitBadUsage
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" {
		c.usage(c.stdout)
		return exitOK
	}
	for _, cmd := range commands() {
		if cmd.name == name {
			return cmd.run(c, args[1:])
		}
	}
	fmt.Fprintf(c.stderr, "tileproof: unknown command %q\n", name)
	c.usage(c.stderr)
	return exitBadUsage
}

func (c *cli) usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tileproof COMMAND [ARGS]")
	fmt.Fprintln(w)
	for _, cmd := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n  %9s   %s\n", cmd.name, cmd.args, "", cmd.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Exit status: 0 all good, 1 the input fails a check, 2 usage or unreadable input.")
}

// flags returns a flag set for a command ("verify", or "cases lint" for a
// subcommand) that reports to stderr, its usage line from commands.
func (c *cli) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {
		fmt.Fprintf(c.stderr, "usage: %s\n", usageLine(name))
		fs.PrintDefaults()
	}
	return fs
}

// usageLine returns "tileproof NAME ARGS" for a command, or for a
// subcommand ("cases lint") the alternative of its command's ARGS that
// starts with its name.
func usageLine(name string) string {
	top, sub, _ := strings.Cut(name, " ")
	for _, cmd := range commands() {
		if cmd.name != top {
			continue
		}
		if sub == "" {
			return "tileproof " + name + " " + cmd.args
		}
		for _, alt := range strings.Split(cmd.args, " | ") {
			if strings.HasPrefix(alt, sub+" ") || alt == sub {
				return "tileproof " + top + " " + alt
			}
		}
	}
	return "tileproof " + name
}

// parse parses flags; ok is false (and code the exit code) when the
// command should stop: for -h, or a usage error.
func (c *cli) parse(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitBadUsage, false
	}
	return 0, true
}

// fail reports an error and returns code.
func (c *cli) fail(code int, format string, args ...any) int {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(c.stderr, "tileproof: "+strings.TrimRight(msg, "\n"))
	return code
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
