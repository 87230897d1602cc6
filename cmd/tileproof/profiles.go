package main

import (
	"cmp"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/replay/batchfiles"
)

// loadSetupProfile loads a profile and applies a run's choice of target
// tile (0: the profile's own) and open-ended play, where one is made; the
// setup is what a replay of the run records, nil when none was made.
func loadSetupProfile(name string, target uint64, openEnded bool) (*engine.Profile, *engine.Setup, error) {
	p, err := loadProfile(name)
	if err != nil || target == 0 && !openEnded {
		return p, nil, err
	}
	setup := engine.Setup{Target: cmp.Or(target, p.Win.Tile), OpenEnded: openEnded}
	if p, err = p.WithSetup(setup); err != nil {
		return nil, nil, err
	}
	return p, &setup, nil
}

// loadProfile returns a built-in profile by name, or reads a profile file
// when name is a path (it holds a "/" or ends in .yaml or .yml): only a
// regular file, of at most engine.MaxProfileFile bytes.
func loadProfile(name string) (*engine.Profile, error) {
	if !strings.Contains(name, "/") && !strings.HasSuffix(name, ".yaml") && !strings.HasSuffix(name, ".yml") {
		return engine.BuiltinProfile(name)
	}
	data, err := batchfiles.ReadRegular(name, engine.MaxProfileFile)
	if err != nil {
		return nil, err
	}
	return engine.ParseProfile(name, data)
}

func (c *cli) profilesCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "profiles [NAME|FILE]",
		Short: "list the profiles, or print one as YAML",
		Long: `List the built-in rule profiles (docs/profiles.md), or print one as YAML: a built-in
profile as it is written (with the sources it quotes), a profile FILE as it resolves, its
base applied and every parameter stated, as the engine will play it.`,
		ValidArgsFunction: completeProfiles,
	}
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.profiles(cmd, args) })
	return cmd
}

func (c *cli) profiles(cmd *cobra.Command, args []string) int {
	switch len(args) {
	case 0:
		tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tVERSION\tWIN\tILLEGAL MOVE\tTITLE")
		for _, name := range engine.BuiltinNames() {
			p, _ := engine.BuiltinProfile(name)
			fmt.Fprintf(tw, "%s\t%d\t%d (%s, %s)\t%s\t%s\n", p.Name, p.Version, p.Win.Tile, p.Win.When, p.Win.Then, p.Illegal, p.Title)
		}
		tw.Flush()
		return exitOK
	case 1:
		name := args[0]
		if data, err := engine.BuiltinProfileYAML(name); err == nil {
			c.stdout.Write(data)
			return exitOK
		}
		p, err := loadProfile(name)
		var data []byte
		if err == nil {
			data, err = profileYAML(p)
		}
		if err != nil {
			return c.fail(exitBadUsage, "profiles: %v", err)
		}
		fmt.Fprintf(c.stdout, "# %s, resolved: every parameter as the engine plays it\n", safetext.Terminal(name))
		c.stdout.Write(data)
		return exitOK
	}
	return c.usageFail(cmd)
}

// completeProfiles completes a profile argument: the built-in names, and
// YAML files.
func completeProfiles(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if cmd.Name() == "profiles" && len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp // one profile at most
	}
	return engine.BuiltinNames(), cobra.ShellCompDirectiveDefault
}

// profileYAML writes a profile as a profile file: every parameter stated,
// a character a terminal acts on or a reader is misled by written as an
// escape (safetext.YAML).
func profileYAML(p *engine.Profile) ([]byte, error) {
	data, err := safetext.YAML(p)
	if err != nil {
		return nil, fmt.Errorf("profile %s: %v", safetext.Terminal(p.Name), err)
	}
	return data, nil
}
