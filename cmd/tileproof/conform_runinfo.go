package main

import (
	"cmp"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tileproof/tileproof/conformance"
)

// rerunFlags are the flags of conform that choose the implementation
// and the pack, which a command re-running one case repeats.
var rerunFlags = []string{"impl", "cases", "timeout", "start-timeout"}

// runInfo says how the run of cmd was made: its date (started), its
// command line (the flags given), the command line that re-runs its
// implementation on its pack, and the folder of its cases' files.
func runInfo(cmd *cobra.Command, f *conformFlags, started time.Time) conformance.RunInfo {
	info := conformance.RunInfo{Date: started.UTC().Truncate(time.Second), CasesDir: cmp.Or(f.cases, "cases")}
	info.Command = []string{"tileproof", "conform"}
	cmd.Flags().Visit(func(fl *pflag.Flag) { info.Command = append(info.Command, flagArgs(fl)...) })
	info.Rerun = []string{"tileproof", "conform"}
	for _, name := range rerunFlags {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
			info.Rerun = append(info.Rerun, flagArgs(fl)...)
		}
	}
	return info
}

// flagArgs returns a flag given as the arguments that give it again:
// "--name value", or a boolean's "--name" (or "--name=false").
func flagArgs(fl *pflag.Flag) []string {
	if fl.Value.Type() == "bool" {
		if fl.Value.String() == "true" {
			return []string{"--" + fl.Name}
		}
		return []string{"--" + fl.Name + "=" + fl.Value.String()}
	}
	return []string{"--" + fl.Name, fl.Value.String()}
}
