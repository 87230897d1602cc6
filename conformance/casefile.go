package conformance

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/strictyaml"
	"github.com/tileproof/tileproof/protocol"
	"go.yaml.in/yaml/v3"
)

// caseFile is the YAML form of a case file: what its cases share, and the
// cases.
type caseFile struct {
	Source   string   `yaml:"source,omitempty"`
	Profiles []string `yaml:"profiles,omitempty,flow"`
	Needs    []string `yaml:"needs,omitempty,flow"`
	Cases    []*Case  `yaml:"cases"`
}

// validCaseID reports whether id is a case id: lower-case letters,
// digits, - and _, beginning with a letter or a digit.
func validCaseID(id string) bool {
	for i := 0; i < len(id); i++ {
		b := id[i]
		if !('a' <= b && b <= 'z' || '0' <= b && b <= '9' || i > 0 && (b == '-' || b == '_')) {
			return false
		}
	}
	return id != ""
}

// refusals are the refusals an expectation can name.
var refusals = []string{"illegal-move", "finished", "unsupported", "no-undo", "not-stopped", "bad-spawn", "overflow"}

// stepAction returns the action other than a move that a step names, and
// the feature it needs (a switch, not a map: a map would be built when
// the program starts, which TestNoInitWork forbids).
func stepAction(name string) (engine.Action, string, bool) {
	switch name {
	case "undo":
		return engine.Undo, protocol.Undo, true
	case "end-run":
		return engine.EndRun, protocol.EndRun, true
	case "keep-playing":
		return engine.KeepPlaying, protocol.KeepPlaying, true
	}
	return 0, "", false
}

// parseCases reads one case file; file is its path in the pack (the area
// is its folder). Every error in the file is reported, with its line.
func parseCases(file string, data []byte) ([]*Case, error) {
	var cf caseFile
	pos, err := strictyaml.DecodeAt(file, data, &cf)
	if err != nil {
		return nil, err
	}
	var errs strictyaml.ErrorList
	fail := func(p, format string, args ...any) {
		errs = append(errs, strictyaml.At(file, pos, p, fmt.Sprintf(format, args...)))
	}
	area := path.Dir(file)
	if area == "." {
		area = ""
	}
	if len(cf.Cases) == 0 {
		fail("cases", "no cases")
	}
	var out []*Case
	for i, c := range cf.Cases {
		at := fmt.Sprintf("cases.%d", i)
		if c == nil {
			fail(at, "an empty case")
			continue
		}
		c.Area, c.File, c.Line = area, file, pos[at].Line
		c.Source = cmp.Or(c.Source, cf.Source)
		if c.Profiles == nil {
			c.Profiles = cf.Profiles
		}
		switch {
		case !validCaseID(c.ID):
			fail(at+".id", "case id %q: use lower-case letters, digits, - and _", c.ID)
		case c.Source == "":
			fail(at, "case %s names no source (set source on the case or the file)", c.ID)
		case len(c.Profiles) == 0:
			fail(at, "case %s names no profiles (set profiles on the case or the file)", c.ID)
		case (c.Start.Board == nil) == (c.Start.Seed == nil):
			fail(at+".start", "case %s: start needs a board or a seed (one of them)", c.ID)
		case len(c.Steps) == 0:
			fail(at, "case %s has no steps", c.ID)
		}
		needs := append(slices.Clone(cf.Needs), c.Needs...)
		needs = append(needs, c.Start.needs()...)
		for j := range c.Steps {
			sat := fmt.Sprintf("%s.steps.%d", at, j)
			st := &c.Steps[j]
			st.Line = pos[sat].Line
			more, err := st.check()
			if err != nil {
				fail(sat, "case %s, step %d: %v", c.ID, j+1, err)
				continue
			}
			needs = append(needs, more...)
		}
		for _, f := range needs {
			if !protocol.KnownFeature(f) {
				fail(at+".needs", "case %s: unknown feature %q", c.ID, f)
			}
		}
		slices.Sort(needs)
		c.Features = slices.Compact(needs)
		out = append(out, c)
	}
	if len(errs) > 0 {
		return out, errs
	}
	return out, nil
}

// needs returns the features a start implies: a loaded board (and its
// size), a seed, a setup.
func (s Start) needs() []string {
	var needs []string
	if b := s.Board; b != nil {
		needs = append(needs, protocol.LoadState)
		if b.Rows() != 4 || b.Cols() != 4 {
			needs = append(needs, protocol.SizeFeature(b.Rows(), b.Cols()))
		}
	}
	if s.Seed != nil {
		needs = append(needs, protocol.SeedTP1)
	}
	if s.Setup != nil {
		needs = append(needs, protocol.Setup)
	}
	return needs
}

// check checks one step and returns the features it needs.
func (st *CaseStep) check() ([]string, error) {
	var needs []string
	switch {
	case st.Move != nil && st.Action != "":
		return nil, errors.New("a step has a move or an action, not both")
	case st.Action != "":
		_, f, ok := stepAction(st.Action)
		if !ok {
			return nil, fmt.Errorf("unknown action %q (undo, end-run or keep-playing)", st.Action)
		}
		needs = append(needs, f)
	}
	if st.Spawn != nil {
		if st.Move == nil {
			return nil, errors.New("a forced spawn needs a move")
		}
		needs = append(needs, protocol.ForceSpawn)
	}
	if e := st.Expect.Error; e != "" && !slices.Contains(refusals, e) {
		return nil, fmt.Errorf("error %q is not one of %s", e, strings.Join(refusals, ", "))
	}
	return needs, nil
}

// encodeCases writes cases as one case file of docs/case-format.md, which
// parseCases reads back: source and profiles shared by all of them, and
// each case with the fields it sets. The cases' own Source and Profiles
// are written only where they differ from the file's.
func encodeCases(source string, profiles []string, cases []*Case) []byte {
	cf := caseFile{Source: source, Profiles: profiles}
	for _, c := range cases {
		w := *c
		if w.Source == source {
			w.Source = ""
		}
		if slices.Equal(w.Profiles, profiles) {
			w.Profiles = nil
		}
		cf.Cases = append(cf.Cases, &w)
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(cf); err != nil {
		panic(fmt.Sprintf("conformance: encoding cases: %v", err)) // every field is of a kind YAML writes
	}
	enc.Close()
	return b.Bytes()
}
