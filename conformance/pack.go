package conformance

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/tileproof/tileproof/cases"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/internal/strictyaml"
)

// contract is the rules-contract version of the case packs this runner
// understands.
const contract = 1

// Pack is a set of cases: the pack.yaml of a cases folder and every case
// file below it.
type Pack struct {
	Name     string
	Version  string
	Contract int
	Cases    []*Case
}

// Case returns the pack's case named name (AREA/ID, as a result names
// it), or nil when it has none.
func (p *Pack) Case(name string) *Case {
	for _, c := range p.Cases {
		if c.Name() == name {
			return c
		}
	}
	return nil
}

type packFile struct {
	Name     string `yaml:"name"`
	Version  string `yaml:"version"`
	Contract int    `yaml:"contract"`
}

// DefaultPack returns the case pack built into tileproof (the cases/
// folder of its repository).
func DefaultPack() (*Pack, error) { return LoadPack(cases.FS) }

// LoadPack reads the pack at the root of fsys: pack.yaml and every other
// .yaml file below it, each a case file. Errors name the file and line;
// every file is read and all its errors reported, as a
// [strictyaml.ErrorList]. A pack whose name or version, or the name of
// one of its files, holds a control or format character
// (safetext.Terminal) is refused: each heads or names a case in every
// report of a run. A pack from outside is read with LoadPackDir, bounded.
func LoadPack(fsys fs.FS) (*Pack, error) {
	data, err := fs.ReadFile(fsys, "pack.yaml")
	if err != nil {
		return nil, fmt.Errorf("a case pack needs pack.yaml: %w", err)
	}
	var pf packFile
	pos, err := strictyaml.DecodeAt("pack.yaml", data, &pf)
	if err != nil {
		return nil, err
	}
	if pf.Contract != contract {
		return nil, strictyaml.ErrorList{strictyaml.At("pack.yaml", pos, "contract",
			fmt.Sprintf("the pack is written for rules contract %d; this runner knows contract %d only", pf.Contract, contract))}
	}
	for _, s := range []string{pf.Name, pf.Version} {
		if safetext.Terminal(s) != s {
			return nil, fmt.Errorf("pack.yaml: the pack's name and version hold no control or format character: %s", safetext.Terminal(s))
		}
	}
	pack := &Pack{Name: pf.Name, Version: pf.Version, Contract: pf.Contract}
	var files []string
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") && p != "pack.yaml" {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var errs strictyaml.ErrorList
	seen := map[string]string{}
	for _, f := range files {
		if safetext.Terminal(f) != f {
			return nil, fmt.Errorf("%s: a case pack's file names hold no control or format character", safetext.Terminal(f))
		}
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		cases, err := parseCases(f, data)
		var list strictyaml.ErrorList
		if errors.As(err, &list) {
			errs = append(errs, list...)
		} else if err != nil {
			return nil, err
		}
		for _, c := range cases {
			if prev, ok := seen[c.ID]; ok {
				errs = append(errs, &strictyaml.Error{File: f, Line: c.Line, Msg: fmt.Sprintf("case id %q is also used in %s", c.ID, prev)})
				continue
			}
			seen[c.ID] = fmt.Sprintf("%s:%d", f, c.Line)
			pack.Cases = append(pack.Cases, c)
		}
	}
	if len(errs) > 0 {
		return pack, errs
	}
	return pack, nil
}
