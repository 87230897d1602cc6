package main

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/internal/strictyaml"
	"github.com/tileproof/tileproof/replay/batchfiles"
)

func (c *cli) casesCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cases (show CASE... | lint [DIR] | import-pgs FILE [flags])",
		Short: "print, check or import conformance cases",
		Long: `Work on conformance cases (docs/case-format.md): print a case of a pack, lint a case pack
against the engine, or import the test cases and rules of a PGS document.`,
		DisableFlagsInUseLine:      true,
		SuggestionsMinimumDistance: 2,
	}
	cmd.RunE = c.unknownSub("cases: unknown subcommand %q (show, lint or import-pgs)")
	cmd.AddCommand(c.casesShowCommand(), c.casesLintCommand(), c.importPGSCommand())
	return cmd
}

func (c *cli) casesShowCommand() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "show CASE... [flags]",
		Short: "print a case of a pack",
		Long: `Print each CASE (AREA/ID, as a report names it) of the pack built into tileproof, or of
--cases DIR, as a case file of its own (docs/case-format.md), after a comment naming its
file and line: what a failure's FILE:LINE points at, without a clone of the repository.`,
	}
	cmd.Flags().StringVar(&dir, "cases", "", "a case pack `DIR` (default: the pack built into tileproof)")
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.casesShow(cmd, dir, args) })
	return cmd
}

func (c *cli) casesShow(cmd *cobra.Command, dir string, names []string) int {
	if len(names) == 0 {
		return c.usageFail(cmd)
	}
	pack, err := loadPack(dir)
	if err != nil {
		return c.reportPackErrors(dir, err)
	}
	for i, name := range names {
		k := pack.Case(name)
		if k == nil {
			return c.fail(exitBadUsage, "cases show: no case %s in %s (a case is AREA/ID, as a report names it)", safetext.Terminal(strconv.Quote(name)), cmp.Or(dir, builtinPackName))
		}
		if i > 0 {
			fmt.Fprintln(c.stdout)
		}
		// A pack from outside may hold any text: escaped for the terminal.
		fmt.Fprintf(c.stdout, "# %s:%d\n%s", safetext.Terminal(filepath.Join(cmp.Or(dir, "cases"), k.File)), k.Line, safetext.TerminalLines(string(k.YAML())))
	}
	return exitOK
}

// loadPack reads the case pack in the folder dir
// (conformance.LoadPackDir: through the folder alone, regular files only,
// bounded), or the built-in one for "".
func loadPack(dir string) (*conformance.Pack, error) {
	if dir == "" {
		return conformance.DefaultPack()
	}
	return conformance.LoadPackDir(dir)
}

func (c *cli) casesLintCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lint [DIR]",
		Short: "check a case pack against the engine",
		Long: `Check a case pack against the engine: every case must decode, name a known source
(docs/sources.md), and pass against the rules, with an expectation that does not depend on
the random spawn. DIR is a pack's folder; without it, ./cases when the current directory
is the repository (it holds cases/pack.yaml), else the pack built into tileproof.`,
	}
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.casesLint(args) })
	return cmd
}

// builtinPackName names the pack built into the binary in messages.
const builtinPackName = "the built-in pack"

func (c *cli) casesLint(args []string) int {
	if len(args) > 1 {
		return c.fail(exitBadUsage, "cases lint: give one folder, or none")
	}
	dir := ""
	if len(args) == 1 {
		dir = args[0]
	} else if info, err := os.Stat(filepath.Join("cases", "pack.yaml")); err == nil && info.Mode().IsRegular() {
		dir = "cases"
	}
	pack, err := loadPack(dir)
	if err != nil {
		return c.reportPackErrors(dir, err)
	}
	problems := conformance.Lint(pack)
	for _, p := range problems {
		fmt.Fprintf(c.stdout, "%s\n", p)
	}
	fmt.Fprintf(c.stdout, "%s in %s: %s\n", plural(len(pack.Cases), "case"), cmp.Or(dir, builtinPackName), plural(len(problems), "problem"))
	if len(problems) > 0 {
		return exitFailed
	}
	return exitOK
}

// reportPackErrors prints a pack's decoding errors with the folder ("" for
// the built-in pack).
func (c *cli) reportPackErrors(dir string, err error) int {
	var list strictyaml.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			// The pack's file names and what it holds are outside text.
			e.File = filepath.Join(dir, e.File)
			fmt.Fprintf(c.stderr, "%s\n", safetext.TerminalNamed(e.Error(), e.File))
		}
		return c.fail(exitBadUsage, "%s in the case pack %s", plural(len(list), "error"), cmp.Or(dir, builtinPackName))
	}
	return c.fail(exitBadUsage, "%s: %v", cmp.Or(dir, builtinPackName), err)
}

type importPGSFlags struct {
	name, profileOut, output string
}

func (c *cli) importPGSCommand() *cobra.Command {
	var f importPGSFlags
	cmd := &cobra.Command{
		Use:   "import-pgs FILE [flags]",
		Short: "import a PGS document's test cases and rules",
		Long: `Import a PGS 2048 skeleton's document (docs/sources.md): its testCases become a case file
(keeping their ids) and its rules a profile.`,
	}
	fl := cmd.Flags()
	fl.SortFlags = false
	fl.StringVar(&f.name, "name", "pgs-imported", "the `NAME` of the profile the document's rules become")
	fl.StringVar(&f.profileOut, "profile-out", "", "write the profile to `FILE`")
	fl.StringVarP(&f.output, "output", "o", "", "write the cases to `FILE` instead of stdout")
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.importPGS(cmd, &f, args) })
	return cmd
}

func (c *cli) importPGS(cmd *cobra.Command, f *importPGSFlags, args []string) int {
	if len(args) != 1 {
		return c.usageFail(cmd)
	}
	file := args[0]
	for _, out := range []struct{ flag, path string }{{"-o", f.output}, {"--profile-out", f.profileOut}} {
		if err := notAnInput(out.flag, out.path, file); out.path != "" && err != nil {
			return c.fail(exitBadUsage, "cases import-pgs: %v", err)
		}
	}
	data, err := batchfiles.ReadRegular(file, maxPGSSize)
	if err != nil {
		return c.fail(exitBadUsage, "cases import-pgs: %v", err)
	}
	p, caseYAML, err := conformance.ImportPGS(data, f.name, conformance.ImportedSource+filepath.Base(file))
	if err != nil {
		return c.fail(exitBadUsage, "cases import-pgs: %s: %v", file, err)
	}
	if f.profileOut != "" {
		data, err := profileYAML(p)
		if err == nil {
			err = os.WriteFile(f.profileOut, data, 0o644)
		}
		if err != nil {
			return c.fail(exitBadUsage, "cases import-pgs: %v", err)
		}
	}
	if f.output != "" {
		if err := os.WriteFile(f.output, caseYAML, 0o644); err != nil {
			return c.fail(exitBadUsage, "cases import-pgs: %v", err)
		}
		return exitOK
	}
	c.stdout.Write(caseYAML)
	return exitOK
}

// maxPGSSize bounds a PGS document: the skeleton is a few kilobytes.
const maxPGSSize = 16 << 20
