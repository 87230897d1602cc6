package main

import (
	"cmp"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/peer/hallabois"
	"github.com/tileproof/tileproof/protocol"
)

func (c *cli) versionCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "version",
		Short: "print the versions: the command's, the rules', the case pack's and the protocols'",
		Long: "Print the versions a report or a bug needs: the command's module version (from the build),\n" +
			"the rules version of each built-in profile, the case pack built in, the exec protocol and\n" +
			"the HTTP state format, and the spawn generator. tileproof --version prints the same.",
	}
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int {
		if len(args) > 0 {
			return c.fail(exitBadUsage, "version: takes no arguments")
		}
		return c.printVersion()
	})
	return cmd
}

// printVersion writes the versions, one a line.
func (c *cli) printVersion() int {
	pack, err := conformance.DefaultPack()
	if err != nil {
		return c.fail(exitBadUsage, "version: the built-in case pack: %v", err)
	}
	var rules []string
	for _, name := range engine.BuiltinNames() {
		p, err := engine.BuiltinProfile(name)
		if err != nil {
			return c.fail(exitBadUsage, "version: %v", err)
		}
		rules = append(rules, fmt.Sprintf("%s %d", p.Name, p.Version))
	}
	w := c.stdout
	fmt.Fprintf(w, "tileproof  %s\n", moduleVersion())
	fmt.Fprintf(w, "rules      %s (rules versions of the built-in profiles)\n", strings.Join(rules, ", "))
	fmt.Fprintf(w, "cases      %s %s, rules contract %d, %d cases (built in)\n", pack.Name, pack.Version, pack.Contract, len(pack.Cases))
	fmt.Fprintf(w, "protocol   exec protocol %d (docs/protocol.md), HTTP state format %s (docs/api.md)\n", protocol.Version, protocol.StateFormat)
	fmt.Fprintf(w, "generator  %s (docs/tp1.md, recommended), %s (the hallabois validator's, docs/replay-format.md)\n", engine.RNGID, hallabois.RNGID)
	return exitOK
}

// moduleVersion returns the module's version as the build recorded it
// ("v1.2.0" from go install ...@v1.2.0, "(devel)" from a source tree),
// with the module path, the VCS revision when the build recorded one, and
// the Go version.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build information)"
	}
	v := cmp.Or(bi.Main.Version, "(devel)")
	var parts []string
	if bi.Main.Path != "" {
		parts = append(parts, "module "+bi.Main.Path)
	}
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			parts = append(parts, "revision "+s.Value)
		case s.Key == "vcs.modified" && s.Value == "true":
			parts = append(parts, "with local changes")
		}
	}
	parts = append(parts, "built with "+bi.GoVersion)
	return v + ", " + strings.Join(parts, ", ")
}
