package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// exitStatusLine ends the help of every command.
const exitStatusLine = "Exit status: 0 all good, 1 the input fails a check, 2 a usage error or unreadable input."

// writeHelp writes cmd's help: its description, its usage and the exit
// status.
func writeHelp(w io.Writer, cmd *cobra.Command) {
	about := cmd.Long
	if about == "" {
		about = cmd.Short
	}
	if about != "" {
		fmt.Fprintf(w, "%s\n\n", strings.TrimRight(about, "\n"))
	}
	writeUsage(w, cmd)
	if cmd.Example != "" {
		fmt.Fprintf(w, "\nExamples:\n%s\n", cmd.Example)
	}
	fmt.Fprintln(w)
	if cmd.HasAvailableSubCommands() {
		fmt.Fprintf(w, "Run \"%s COMMAND --help\" for a command's flags.\n", cmd.CommandPath())
	}
	fmt.Fprintln(w, exitStatusLine)
}

// writeUsage writes cmd's usage line, its commands (by group) and its
// flags, each flag once with its default.
func writeUsage(w io.Writer, cmd *cobra.Command) {
	fmt.Fprintf(w, "usage: %s\n", cmd.UseLine())
	if cmd.HasAvailableSubCommands() {
		width := 0
		for _, sub := range cmd.Commands() {
			width = max(width, len(sub.Name()))
		}
		other := "Other"
		if len(cmd.Groups()) == 0 {
			other = "Commands"
		}
		groups := append(cmd.Groups(), &cobra.Group{Title: other})
		for _, g := range groups {
			var lines []string
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && sub.GroupID == g.ID {
					lines = append(lines, fmt.Sprintf("  %-*s  %s", width, sub.Name(), sub.Short))
				}
			}
			if len(lines) > 0 {
				fmt.Fprintf(w, "\n%s:\n%s\n", strings.TrimSuffix(g.Title, ":"), strings.Join(lines, "\n"))
			}
		}
	}
	if flags := cmd.LocalFlags(); flags.HasAvailableFlags() {
		fmt.Fprintf(w, "\nFlags:\n%s", flags.FlagUsagesWrapped(100))
	}
	if flags := cmd.InheritedFlags(); flags.HasAvailableFlags() {
		fmt.Fprintf(w, "\nFlags of %s:\n%s", cmd.Parent().CommandPath(), flags.FlagUsagesWrapped(100))
	}
}

// flagWant says what a flag's value must be, by the flag's type.
func flagWant(typ string) (string, bool) {
	switch typ {
	case "bool":
		return "true or false", true
	case "duration":
		return "a duration such as 500ms, 5s or 1m", true
	case "int":
		return "an integer", true
	case "count", "uint64":
		return "a whole number, 0 or more", true
	}
	return "", false
}

// flagError rewords the flag parser's error about a flag's value: the
// flag, the value and what it must be; to an unknown flag of cmd it adds
// the flag meant, when one is close (as cobra suggests commands).
func flagError(cmd *cobra.Command, err error) error {
	var ne *pflag.NotExistError
	if errors.As(err, &ne) && ne.GetSpecifiedName() != "" {
		if near := nearestFlag(cmd.Flags(), ne.GetSpecifiedName()); near != "" {
			return fmt.Errorf("%w; did you mean --%s?", err, near)
		}
		return err
	}
	var iv *pflag.InvalidValueError
	if errors.As(err, &iv) {
		f := iv.GetFlag()
		if want, ok := flagWant(f.Value.Type()); ok {
			return fmt.Errorf("--%s %q: want %s", f.Name, iv.GetValue(), want)
		}
		return fmt.Errorf("--%s %q: %v", f.Name, iv.GetValue(), errors.Unwrap(err))
	}
	return err
}

// argMark marks an argument that looks like a negative number, so that
// the flag parser takes it for an argument; run removes it. No argument
// of a command line holds a NUL byte.
const argMark = "\x00"

// negativeNumber reports whether a looks like a negative number: a dash
// and a digit.
func negativeNumber(a string) bool {
	return len(a) >= 2 && a[0] == '-' && '0' <= a[1] && a[1] <= '9'
}

// protectArgs prepares a command line for the flag parser:
//
//   - an argument that looks like a negative number ("-4", in
//     tileproof line 2 -4) is marked as an argument: no flag is a digit;
//   - a flag written with one dash ("-json") is an error that says to
//     write two: the flag parser would read it as the shorthands -j -s -o
//     -n, and "-open-ended" as -o with the value "pen-ended".
//
// Flag values are left as they are. It returns the arguments and the
// command they are for.
func protectArgs(root *cobra.Command, args []string) ([]string, *cobra.Command, error) {
	cmd, _, err := root.Find(args)
	if err != nil || cmd == root {
		return args, root, nil
	}
	flags := cmd.Flags()
	out := make([]string, len(args))
	copy(out, args)
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return out, cmd, nil
		case negativeNumber(a):
			out[i] = argMark + a
		case strings.HasPrefix(a, "--"):
			name, _, inline := strings.Cut(a[2:], "=")
			if f := flags.Lookup(name); f != nil && f.NoOptDefVal == "" && !inline {
				i++ // its value
			}
		case len(a) == 2 && a[0] == '-':
			if f := flags.ShorthandLookup(a[1:]); f != nil && f.NoOptDefVal == "" {
				i++
			}
		case len(a) > 2 && a[0] == '-':
			name, _, _ := strings.Cut(a[1:], "=")
			if flags.Lookup(name) != nil {
				return nil, cmd, fmt.Errorf("%s: a flag takes two dashes: --%s", a, a[1:])
			}
		}
	}
	return out, cmd, nil
}

// unprotect removes protectArgs' marks.
func unprotect(args []string) []string {
	for i, a := range args {
		args[i] = strings.TrimPrefix(a, argMark)
	}
	return args
}

// nearestFlag returns the flag of fs that name most likely misspells: the
// one that name begins, or the nearest within two edits; "" when none is.
func nearestFlag(fs *pflag.FlagSet, name string) string {
	best, bestDist := "", 3
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := editDistance(strings.ToLower(name), f.Name)
		if len(name) >= 3 && strings.HasPrefix(f.Name, name) {
			d = 1
		}
		if d < bestDist {
			best, bestDist = f.Name, d
		}
	})
	return best
}

// editDistance is the Levenshtein distance of a and b: the fewest
// insertions, deletions and substitutions of bytes that make one the
// other.
func editDistance(a, b string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
