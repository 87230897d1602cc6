package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tileproof/tileproof/internal/nearname"
)

// helpTemplate is every command's help: its description, its usage
// (usageTemplate), its examples and the exit status.
const helpTemplate = `{{with or .Long .Short}}{{trimRightSpace .}}

{{end}}{{.UsageString}}{{with .Example}}
Examples:
{{.}}
{{end}}
{{if .HasAvailableSubCommands}}Run "{{.CommandPath}} COMMAND --help" for a command's flags.
{{end}}Exit status: 0 all good, 1 the input fails a check, 2 a usage error or unreadable input.
`

// usageTemplate is a command's usage line, its commands by group (its
// own groups, then the commands in none, as "Other", or "Commands" when it
// has no group) and its flags, each flag once with its default.
const usageTemplate = `usage: {{.UseLine}}
{{$cmd := .}}{{if .HasAvailableSubCommands}}{{range $g := .Groups}}{{$first := true}}
{{- range $cmd.Commands}}{{if and .IsAvailableCommand (eq .GroupID $g.ID)}}{{if $first}}{{$first = false}}
{{$g.Title}}:
{{end}}  {{rpad .Name .NamePadding}} {{.Short}}
{{end}}{{end}}{{end}}{{$first := true}}
{{- range $cmd.Commands}}{{if and .IsAvailableCommand (not .GroupID)}}{{if $first}}{{$first = false}}
{{if $cmd.Groups}}Other{{else}}Commands{{end}}:
{{end}}  {{rpad .Name .NamePadding}} {{.Short}}
{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}
Flags:
{{.LocalFlags.FlagUsagesWrapped 100}}{{end}}`

// flagError rewords the flag parser's error about a flag's value: the
// flag, the value and what it must be (by the flag's type); to an unknown
// flag of cmd it adds the flag meant, when one is close (as cobra
// suggests commands).
func flagError(cmd *cobra.Command, err error) error {
	if ne, ok := errors.AsType[*pflag.NotExistError](err); ok && ne.GetSpecifiedName() != "" {
		if near := nearestFlag(cmd.Flags(), ne.GetSpecifiedName()); near != "" {
			return fmt.Errorf("%w; did you mean --%s?", err, near)
		}
		return err
	}
	iv, ok := errors.AsType[*pflag.InvalidValueError](err)
	if !ok {
		return err
	}
	f := iv.GetFlag()
	var want string
	switch f.Value.Type() {
	case "bool":
		want = "true or false"
	case "duration":
		want = "a duration such as 500ms, 5s or 1m"
	case "int":
		want = "an integer"
	case "count", "uint64":
		want = "a whole number, 0 or more"
	default:
		return fmt.Errorf("--%s %q: %v", f.Name, iv.GetValue(), errors.Unwrap(err))
	}
	return fmt.Errorf("--%s %q: want %s", f.Name, iv.GetValue(), want)
}

// argMark marks an argument that looks like a negative number, so that
// the flag parser takes it for an argument; run removes it. No argument
// of a command line holds a NUL byte.
const argMark = "\x00"

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
		case len(a) >= 2 && a[0] == '-' && '0' <= a[1] && a[1] <= '9': // a negative number
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
		d := nearname.Distance(strings.ToLower(name), f.Name)
		if len(name) >= 3 && strings.HasPrefix(f.Name, name) {
			d = 1
		}
		if d < bestDist {
			best, bestDist = f.Name, d
		}
	})
	return best
}
