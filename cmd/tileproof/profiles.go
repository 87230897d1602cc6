package main

import (
	"cmp"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/tileproof/tileproof/engine"
	"go.yaml.in/yaml/v3"
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
// when name is a path (it holds a "/" or ends in .yaml or .yml).
func loadProfile(name string) (*engine.Profile, error) {
	if !strings.Contains(name, "/") && !strings.HasSuffix(name, ".yaml") && !strings.HasSuffix(name, ".yml") {
		return engine.BuiltinProfile(name)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return engine.ParseProfile(name, data)
}

func (c *cli) profiles(args []string) int {
	fs := c.flags("profiles")
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	switch fs.NArg() {
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
		name := fs.Arg(0)
		if data, err := engine.BuiltinProfileYAML(name); err == nil {
			c.stdout.Write(data)
			return exitOK
		}
		if _, err := loadProfile(name); err != nil {
			return c.fail(exitBadUsage, "profiles: %v", err)
		}
		data, _ := os.ReadFile(name)
		c.stdout.Write(data)
		return exitOK
	}
	fs.Usage()
	return exitBadUsage
}

// profileYAML writes a profile as a profile file: every parameter stated.
func profileYAML(p *engine.Profile) []byte {
	data, err := yaml.Marshal(p)
	if err != nil {
		panic(err) // a profile's every field is of a kind YAML writes
	}
	return data
}
