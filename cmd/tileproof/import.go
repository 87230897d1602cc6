package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/peer/hallabois"
	"github.com/tileproof/tileproof/replay/batchfiles"
)

func (c *cli) importCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import hallabois FILE... [flags]",
		Short: "turn another validator's recordings into replays: hallabois",
		Long: `Turn the recorded games of another replay validator into tileproof replays, to verify
them with tileproof verify (docs/peers.md). One format so far: hallabois, the two recording
formats of hallabois/twothousand-forty-eight.`,
		DisableFlagsInUseLine:      true,
		SuggestionsMinimumDistance: 2,
	}
	cmd.RunE = c.unknownSub("import: unknown format %q (hallabois)")
	cmd.AddCommand(c.importHallaboisCommand())
	return cmd
}

type importFlags struct {
	output, profileOut string
}

func (c *cli) importHallaboisCommand() *cobra.Command {
	var f importFlags
	cmd := &cobra.Command{
		Use:   "hallabois FILE... [-o FILE|DIR]",
		Short: "turn hallabois recordings (both formats) into replays",
		Long: `Turn recordings of hallabois/twothousand-forty-eight into tileproof replays (docs/peers.md).
Both formats are read: the first (each move's board, spawn and direction) becomes a
spawn-recorded replay under profile hallabois-v1-3x3 or hallabois-v1-4x4, the second (a seed
and the moves) a seeded replay under hallabois-3x3 or hallabois-4x4 with rng hallabois-lcg.
A break is B in the move log. The claim is the game's figures by the hallabois rules.

Without -o the replays go to stdout, one JSON replay a line, which tileproof verify - reads.
-o FILE writes the one recording's replay to FILE (YAML; JSON for a .json FILE); -o DIR
(an existing folder, or a path ending in /) writes each as DIR/NAME.yaml. A board other
than 3x3 and 4x4 has no built-in profile: --profile-out PDIR writes the one its replays name
to PDIR/NAME.yaml, for verify --profile (keep PDIR apart from the replays' folder, as verify
DIR reads every .yaml file there as a replay).

What the replay leaves out (a first-format game's last move, which nothing checks, end
markers that change nothing) is noted on stderr. A first-format recording the hallabois
validator finds inconsistent, or that holds what a replay cannot say, is refused with its
file and entry (exit 1); an unreadable one is an error with the file, entry and byte (exit 2).
A second-format game that the hallabois rules find invalid is written as recorded:
tileproof verify then says where it fails.`,
	}
	cmd.Flags().StringVarP(&f.output, "output", "o", "", "write to `FILE` (one recording), or into it when it is a directory (DIR), instead of stdout")
	cmd.Flags().StringVar(&f.profileOut, "profile-out", "", "write the profiles that are not built in into `PDIR`, one NAME.yaml each")
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.importHallabois(cmd, &f, args) })
	return cmd
}

// importHallabois imports each recording, going on after one that fails,
// and returns 2 if one could not be read or written, else 1 if one was
// refused, else 0.
func (c *cli) importHallabois(cmd *cobra.Command, f *importFlags, args []string) int {
	if len(args) == 0 {
		return c.fail(exitBadUsage, "import hallabois: give one or more recording files\nRun \"tileproof import hallabois --help\" for usage.")
	}
	const name = "import hallabois"
	dir := ""
	if f.output != "" {
		info, err := os.Stat(f.output)
		switch {
		case err == nil && info.IsDir():
			dir = f.output
		case strings.HasSuffix(f.output, "/"):
			if err := os.MkdirAll(f.output, 0o755); err != nil {
				return c.fail(exitBadUsage, "%s: -o: %v", name, err)
			}
			dir = f.output
		case len(args) > 1:
			return c.fail(exitBadUsage, "%s: -o %s: %d recordings need a folder (an existing one, or a path ending in /)", name, f.output, len(args))
		}
	}
	code := exitOK
	var imported, refused, unreadable int
	written := map[string]string{} // output path: the recording written there
	profiles := map[string]bool{}  // profile files written
	note := func(format string, a ...any) {
		fmt.Fprintf(c.stderr, "tileproof: %s: %s\n", name, safetext.TerminalNamed(fmt.Sprintf(format, a...), c.named...)) // it names the file and quotes the recording
	}
	unreadableNote := func(format string, a ...any) { // a recording not read or not written
		note(format, a...)
		unreadable++
		code = exitBadUsage
	}
	for _, file := range args {
		imp, err := importRecording(file)
		var ce *hallabois.ConvertError
		switch {
		case errors.As(err, &ce):
			note("%v", err)
			refused++
			code = max(code, exitFailed)
			continue
		case err != nil:
			unreadableNote("%v", err)
			continue
		}
		unit := "entry"
		if imp.Replay.Start == nil {
			unit = "move"
		}
		for _, n := range imp.Notes {
			note("%s: %s %d: %s", file, unit, n.At, n.Msg)
		}
		if pr := imp.Result.Problem; pr != nil {
			note("%s: %s %d: the hallabois rules find the game invalid here (%s: %s); the replay is written as recorded, and tileproof verify says where it fails", file, unit, pr.At, pr.Kind, pr.Msg)
		}
		out := f.output
		if dir != "" {
			out = filepath.Join(dir, strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))+".yaml")
		}
		if out == "" {
			if err := writeReplay(c.stdout, imp.Replay, true); err != nil {
				return c.fail(exitBadUsage, "%s: %v", name, err)
			}
		} else {
			if prev, ok := written[out]; ok {
				unreadableNote("%s: its replay would go to %s, where %s's went", file, out, prev)
				continue
			}
			written[out] = file
			if err := notAnInput("-o", out, args...); err != nil {
				unreadableNote("%s: %v", file, err)
				continue
			}
			err := writeFile(out, func(w io.Writer) error { return writeReplay(w, imp.Replay, filepath.Ext(out) == ".json") })
			if err != nil {
				unreadableNote("%v", err)
				continue
			}
		}
		imported++
		if !imp.Builtin {
			p := imp.Profile
			switch path := filepath.Join(f.profileOut, p.Name+".yaml"); {
			case f.profileOut == "":
				note("%s: profile %s is not built in; --profile-out DIR writes it, for tileproof verify --profile", file, p.Name)
			case !profiles[path]:
				err := notAnInput("--profile-out", path, args...)
				if err == nil {
					err = os.MkdirAll(filepath.Dir(path), 0o755)
				}
				var data []byte
				if err == nil {
					data, err = profileYAML(p)
				}
				if err == nil {
					err = os.WriteFile(path, data, 0o644)
				}
				if err != nil {
					note("%v", err)
					code = exitBadUsage
					continue
				}
				profiles[path] = true
				note("%s: profile %s is not built in; it is written to %s: verify with --profile %s", file, p.Name, path, path)
			}
		}
	}
	if len(args) > 1 {
		fmt.Fprintf(c.stderr, "%s: %d imported, %d refused, %d unreadable\n", plural(len(args), "recording"), imported, refused, unreadable)
	}
	return code
}

// importRecording reads and converts one recording file: a
// *hallabois.ConvertError when it cannot be a replay, another error when
// it cannot be read.
func importRecording(file string) (*hallabois.Import, error) {
	// Bounded by what the first format's reader takes (the second's takes
	// less); a pipe or a device refused, as show does.
	data, err := batchfiles.ReadRegular(file, hallabois.MaxV1Bytes)
	if err != nil {
		return nil, err
	}
	rec, err := hallabois.Parse(file, data)
	if err != nil {
		return nil, err
	}
	return hallabois.Convert(file, rec)
}
