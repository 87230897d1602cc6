package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tileproof/tileproof/cases"
	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/internal/strictyaml"
)

func (c *cli) cases(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(c.stderr, "usage: "+usageLine("cases lint")+" | "+usageLine("cases import-pgs"))
		return exitBadUsage
	}
	switch args[0] {
	case "lint":
		return c.casesLint(args[1:])
	case "import-pgs":
		return c.importPGS(args[1:])
	}
	return c.fail(exitBadUsage, "cases: unknown subcommand %q (lint or import-pgs)", args[0])
}

// packFS returns the case pack in dir, or the embedded one for "".
func packFS(dir string) fs.FS {
	if dir == "" {
		return cases.FS
	}
	return os.DirFS(dir)
}

func (c *cli) casesLint(args []string) int {
	fs := c.flags("cases lint")
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	dir := "cases"
	if fs.NArg() > 0 {
		dir = fs.Arg(0)
	}
	pack, err := conformance.LoadPack(os.DirFS(dir))
	if err != nil {
		return c.reportPackErrors(dir, err)
	}
	problems := conformance.Lint(pack)
	for _, p := range problems {
		fmt.Fprintf(c.stdout, "%s\n", p)
	}
	fmt.Fprintf(c.stdout, "%d cases in %s: %d problems\n", len(pack.Cases), dir, len(problems))
	if len(problems) > 0 {
		return exitFailed
	}
	return exitOK
}

// reportPackErrors prints a pack's decoding errors with the folder.
func (c *cli) reportPackErrors(dir string, err error) int {
	var list strictyaml.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			e.File = filepath.Join(dir, e.File)
			fmt.Fprintf(c.stderr, "%s\n", e)
		}
		return c.fail(exitBadUsage, "%d errors in the case pack %s", len(list), dir)
	}
	return c.fail(exitBadUsage, "%s: %v", dir, err)
}

func (c *cli) importPGS(args []string) int {
	fs := c.flags("cases import-pgs")
	name := fs.String("name", "pgs-imported", "the name of the profile the document's rules become")
	profileOut := fs.String("profile-out", "", "write the profile to this file")
	output := fs.String("o", "", "write the cases to this file instead of stdout")
	// Flags may follow the file.
	var file string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		file, args = args[0], args[1:]
	}
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	}
	if file == "" {
		fs.Usage()
		return exitBadUsage
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return c.fail(exitBadUsage, "cases import-pgs: %v", err)
	}
	p, caseYAML, err := conformance.ImportPGS(data, *name, "PGS document "+filepath.Base(file))
	if err != nil {
		return c.fail(exitBadUsage, "cases import-pgs: %s: %v", file, err)
	}
	if *profileOut != "" {
		if err := os.WriteFile(*profileOut, profileYAML(p), 0o644); err != nil {
			return c.fail(exitBadUsage, "cases import-pgs: %v", err)
		}
	}
	if *output != "" {
		if err := os.WriteFile(*output, caseYAML, 0o644); err != nil {
			return c.fail(exitBadUsage, "cases import-pgs: %v", err)
		}
		return exitOK
	}
	c.stdout.Write(caseYAML)
	return exitOK
}
