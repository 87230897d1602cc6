// Command tileproof replays and checks 2048-style tile-merge games: replay
// verification, the conformance suite, the rules engine's line merge and
// games. Run "tileproof --help" for the commands and "tileproof COMMAND
// --help" for a command's flags.
//
// The command line is parsed by spf13/cobra (flags anywhere among the
// arguments, --help everywhere, suggestions for a mistyped command, shell
// completion); each command's file holds its flags and its wiring, and the
// work is in the library packages.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/peer/hallabois"
)

// Exit codes, the same for every command.
const (
	exitOK       = 0 // everything checked out
	exitFailed   = 1 // the input was read, and it fails: an illegal move, an invalid replay, a failing case
	exitBadUsage = 2 // a usage error or input that cannot be read
)

// cli holds a command's streams, so that tests can run it in-process, and
// the exit code of the command that ran.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	code           int
	// named are the arguments (and flag values) that hold a newline or
	// a tab, which a message keeps as they are: fail shows them escaped
	// where a message names them (safetext.TerminalNamed).
	named []string
}

func main() {
	c := &cli{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	os.Exit(c.main(os.Args[1:]))
}

// main runs the command line args and returns the exit code.
func (c *cli) main(args []string) int {
	hallabois.Generator() // registers hallabois-lcg with the engine, for the replays that pin it
	for _, a := range args {
		if strings.ContainsAny(a, "\n\t") {
			if i := strings.IndexByte(a, '='); strings.HasPrefix(a, "-") && i > 0 {
				a = a[i+1:] // --flag=VALUE
			}
			c.named = append(c.named, a, filepath.Base(a), strings.TrimSuffix(filepath.Base(a), filepath.Ext(a)))
		}
	}
	root := c.rootCommand()
	args, cmd, err := protectArgs(root, args)
	if err != nil {
		return c.usageError(cmd, err)
	}
	root.SetArgs(args)
	root.SetIn(c.stdin)
	root.SetOut(c.stdout)
	root.SetErr(c.stderr)
	if cmd, err = root.ExecuteC(); err != nil {
		return c.usageError(cmd, err)
	}
	return c.code
}

// sortingOff turns cobra's sorting of the commands off once.
var sortingOff sync.Once

// rootCommand returns the command tree. It is built anew for every run
// and reads nothing (no file, no profile).
func (c *cli) rootCommand() *cobra.Command {
	// The commands listed in the order they are added. A global of
	// cobra's: set once, so that runs in parallel (tests) do not race.
	sortingOff.Do(func() { cobra.EnableCommandSorting = false })
	root := &cobra.Command{
		Use:   "tileproof COMMAND [ARGS]",
		Short: "tileproof replays and checks 2048-style tile-merge games",
		Long: "tileproof replays and checks 2048-style tile-merge games: it verifies recorded games\n" +
			"against the rules, and runs a conformance suite against other implementations.",
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	version := root.Flags().Bool("version", false, "print the versions, as tileproof version does")
	root.RunE = c.run(func(cmd *cobra.Command, args []string) int {
		if *version {
			return c.printVersion()
		}
		return c.usageFail(cmd)
	})
	// The commands, by group in the help, in order.
	add := func(group, title string, cmds ...*cobra.Command) {
		if group != "" {
			root.AddGroup(&cobra.Group{ID: group, Title: title})
		}
		for _, cmd := range cmds {
			cmd.GroupID = group
			cmd.Flags().SortFlags = false
			root.AddCommand(cmd)
		}
	}
	add("replays", "Replays (recorded games)", c.verifyCommand(), c.showCommand(), c.playCommand(), c.recordCommand(), c.importCommand(), c.analyzeCommand())
	add("conformance", "Conformance (another implementation under the suite)", c.conformCommand(), c.matrixCommand(), c.casesCommand())
	add("rules", "The rules", c.lineCommand(), c.profilesCommand(), c.serveCommand())
	add("", "", c.versionCommand())
	root.SetHelpTemplate(helpTemplate)
	root.SetUsageTemplate(usageTemplate)
	root.SetFlagErrorFunc(flagError)
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, sub := range root.Commands() {
		switch sub.Name() {
		case "help": // cobra's, for its completion; an unknown command is a usage error
			sub.Use, sub.Short, sub.Long = "help [COMMAND]", "print a command's help, as --help does", ""
			sub.Run, sub.RunE = nil, c.run(func(_ *cobra.Command, args []string) int {
				cmd, rest, err := root.Find(args)
				if err != nil || len(rest) > 0 {
					msg := fmt.Sprintf("help: unknown command %q", strings.Join(args, " "))
					return c.fail(exitBadUsage, "%s", withSuggestion(msg, root, args[0]))
				}
				cmd.InitDefaultHelpFlag()
				cmd.Help()
				return exitOK
			})
		case "completion":
			// A summary in the words of the others; without a shell it is
			// a usage error.
			sub.Short = "print a shell completion script: bash, zsh, fish or powershell"
			sub.RunE = c.run(func(cmd *cobra.Command, _ []string) int { return c.usageFail(cmd) })
		}
	}
	return root
}

// run adapts a command's function, which returns its exit code, to cobra.
func (c *cli) run(f func(cmd *cobra.Command, args []string) int) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		c.code = f(cmd, unprotect(args))
		return nil
	}
}

// unknownSub is the run of a command made of subcommands: without one,
// its usage (a usage error); with an argument no subcommand is, the error
// unknown (a format with a %q for the argument) and the subcommand meant,
// when one is close.
func (c *cli) unknownSub(unknown string) func(*cobra.Command, []string) error {
	return c.run(func(cmd *cobra.Command, args []string) int {
		if len(args) == 0 {
			return c.usageFail(cmd)
		}
		return c.fail(exitBadUsage, "%s", withSuggestion(fmt.Sprintf(unknown, args[0]), cmd, args[0]))
	})
}

// withSuggestion adds to msg the subcommand of cmd that name most likely
// misspells, when one is close.
func withSuggestion(msg string, cmd *cobra.Command, name string) string {
	if s := cmd.SuggestionsFor(name); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean %s?", s[0])
	}
	return msg
}

// usageError reports a command line that cobra could not parse (an
// unknown command or flag, a bad flag value) and returns exitBadUsage.
func (c *cli) usageError(cmd *cobra.Command, err error) int {
	msg := strings.TrimRight(strings.ReplaceAll(err.Error(), argMark, ""), "\n")
	path := "tileproof"
	if cmd != nil {
		path = cmd.CommandPath()
	}
	fmt.Fprintln(c.stderr, strings.Replace(path, " ", ": ", 1)+": "+safetext.TerminalNamed(msg, c.named...)) // tileproof: import hallabois: msg; msg may quote an argument
	fmt.Fprintf(c.stderr, "Run \"%s --help\" for usage.\n", path)
	return exitBadUsage
}

// usageFail writes cmd's usage to stderr, for a command line that lacks
// what the command needs, and returns exitBadUsage.
func (c *cli) usageFail(cmd *cobra.Command) int {
	fmt.Fprint(c.stderr, cmd.UsageString())
	return exitBadUsage
}

// fail reports an error and returns code.
func (c *cli) fail(code int, format string, args ...any) int {
	msg := safetext.TerminalNamed(fmt.Sprintf(format, args...), c.named...) // it may name an outside file, or quote one
	fmt.Fprintln(c.stderr, "tileproof: "+strings.TrimRight(msg, "\n"))
	return code
}

// plural returns "1 replay", "2 replays": n and the noun, with an s unless
// n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// writeFile writes what write makes to the file path once it is all made,
// so that a failure leaves no half-written file.
func writeFile(path string, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o666)
}
