package conformance

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/strictyaml"
)

// Contract is the rules-contract version of the case packs this runner
// understands.
const Contract = 1

// Pack is a set of cases: the pack.yaml of a cases folder and every case
// file below it.
type Pack struct {
	Name     string
	Version  string
	Contract int
	Cases    []*Case
}

// Case is one conformance case: a starting state and steps, each with what
// must follow.
type Case struct {
	Area        string   // the folder under the pack: core, pgs, rosetta, ...
	ID          string   // unique in the pack
	Description string   // what the case shows
	Source      string   // where it comes from
	Profiles    []string // the profiles it applies to; "all" for every one
	Needs       []string // features it needs, those its content implies included
	File        string   // the file it was read from, for messages
	Line        int
	Start       Start
	Steps       []Step
}

// Name returns the case's full name, AREA/ID.
func (c *Case) Name() string { return c.Area + "/" + c.ID }

// AppliesTo reports whether the case applies to a profile.
func (c *Case) AppliesTo(profile string) bool {
	return slices.Contains(c.Profiles, "all") || slices.Contains(c.Profiles, profile)
}

// Start is a case's starting state: a given board (with score, moves and
// flags), or a tp1 seed.
type Start struct {
	Board       *engine.Board `yaml:"board"`
	Score       uint64        `yaml:"score"`
	Moves       int           `yaml:"moves"`
	Won         bool          `yaml:"won"`
	KeepPlaying bool          `yaml:"keepPlaying"`
	Seed        *string       `yaml:"seed"`
	// Setup is the run's choice where the profile offers one: online-2048's
	// target and finish, PGS continue mode (feature setup).
	Setup *Setup `yaml:"setup"`
}

// Setup is a run's choice of target tile and open-ended play.
type Setup struct {
	Target    uint64 `yaml:"target" json:"target,omitempty"`
	OpenEnded bool   `yaml:"openEnded" json:"openEnded,omitempty"`
}

// Step is one action of a case and what must follow it.
type Step struct {
	Move   *engine.Direction // a move, or
	Action string            // undo, end-run or keep-playing; neither: a check only
	Spawn  *engine.Spawn     // the spawn to force after the move
	Expect Expect
	Line   int
}

// Expect is what must hold after a step; nil fields are not checked.
type Expect struct {
	Board   *engine.Board // after the slide, before the spawn
	After   *engine.Board // after the step, spawn included
	Row     *RowExpect
	Cell    *CellExpect
	Gained  *uint64
	Changed *bool
	Spawned *bool
	Score   *uint64
	Moves   *int
	MaxTile *uint64
	Legal   *[]engine.Direction
	Won     *bool
	Over    *bool
	Result  *engine.Result
	Error   string // illegal-move, finished, unsupported or no-undo
}

// RowExpect is one row after the slide; nil cells are empty.
type RowExpect struct {
	Index int       `yaml:"index"`
	Cells []*uint64 `yaml:"cells"`
}

// CellExpect is one cell after the slide.
type CellExpect struct {
	Row   int    `yaml:"row"`
	Col   int    `yaml:"col"`
	Value uint64 `yaml:"value"`
}

var caseID = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// The refusals an expectation can name.
var refusals = []string{"illegal-move", "finished", "unsupported", "no-undo", "not-stopped"}

// The features a case can need.
const (
	FeatureLoadState   = "load-state"
	FeatureForceSpawn  = "force-spawn"
	FeatureSeedTP1     = "seed-tp1"
	FeatureUndo        = "undo"
	FeatureEndRun      = "end-run"
	FeatureKeepPlaying = "keep-playing"
	FeatureSetup       = "setup"
)

// SizeFeature is the feature of a board size: "size:RxC".
func SizeFeature(rows, cols int) string { return fmt.Sprintf("size:%dx%d", rows, cols) }

func knownFeature(f string) bool {
	switch f {
	case FeatureLoadState, FeatureForceSpawn, FeatureSeedTP1, FeatureUndo, FeatureEndRun, FeatureKeepPlaying, FeatureSetup:
		return true
	}
	var r, c int
	n, _ := fmt.Sscanf(f, "size:%dx%d", &r, &c)
	return n == 2 && f == SizeFeature(r, c) && r >= engine.MinSide && r <= engine.MaxSide && c >= engine.MinSide && c <= engine.MaxSide
}

// The YAML forms.
type packFile struct {
	Name     string `yaml:"name"`
	Version  string `yaml:"version"`
	Contract int    `yaml:"contract"`
}

type caseFile struct {
	Source   string     `yaml:"source"`
	Profiles []string   `yaml:"profiles"`
	Needs    []string   `yaml:"needs"`
	Cases    []caseNode `yaml:"cases"`
}

type caseNode struct {
	ID          string     `yaml:"id"`
	Description string     `yaml:"description"`
	Source      string     `yaml:"source"`
	Profiles    []string   `yaml:"profiles"`
	Needs       []string   `yaml:"needs"`
	Start       Start      `yaml:"start"`
	Steps       []stepNode `yaml:"steps"`
}

type stepNode struct {
	Move   string        `yaml:"move"`
	Action string        `yaml:"action"`
	Spawn  *engine.Spawn `yaml:"spawn"`
	Expect expectNode    `yaml:"expect"`
}

type expectNode struct {
	Board   *engine.Board `yaml:"board"`
	After   *engine.Board `yaml:"after"`
	Row     *RowExpect    `yaml:"row"`
	Cell    *CellExpect   `yaml:"cell"`
	Gained  *uint64       `yaml:"gained"`
	Changed *bool         `yaml:"changed"`
	Spawned *bool         `yaml:"spawned"`
	Score   *uint64       `yaml:"score"`
	Moves   *int          `yaml:"moves"`
	MaxTile *uint64       `yaml:"maxTile"`
	Legal   *[]string     `yaml:"legal"`
	Won     *bool         `yaml:"won"`
	Over    *bool         `yaml:"over"`
	Result  *string       `yaml:"result"`
	Error   string        `yaml:"error"`
}

// LoadPack reads the pack at the root of fsys: pack.yaml and every other
// .yaml file below it, each a case file. Errors name the file and line;
// every file is read and all its errors reported, as a
// [strictyaml.ErrorList].
func LoadPack(fsys fs.FS) (*Pack, error) {
	data, err := fs.ReadFile(fsys, "pack.yaml")
	if err != nil {
		return nil, fmt.Errorf("a case pack needs pack.yaml: %w", err)
	}
	var pf packFile
	if err := strictyaml.Decode("pack.yaml", data, &pf); err != nil {
		return nil, err
	}
	if pf.Contract != Contract {
		return nil, strictyaml.ErrorList{strictyaml.At("pack.yaml", strictyaml.Lines(data), "contract",
			fmt.Sprintf("the pack is written for rules contract %d; this runner knows contract %d only", pf.Contract, Contract))}
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
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		cases, err := ParseCases(f, data)
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

// ParseCases reads one case file; file is its path in the pack (the area
// is its folder). Every error in the file is reported, with its line.
func ParseCases(file string, data []byte) ([]*Case, error) {
	var cf caseFile
	if err := strictyaml.Decode(file, data, &cf); err != nil {
		return nil, err
	}
	lines := strictyaml.Lines(data)
	var errs strictyaml.ErrorList
	fail := func(p, format string, args ...any) {
		errs = append(errs, strictyaml.At(file, lines, p, fmt.Sprintf(format, args...)))
	}
	area := path.Dir(file)
	if area == "." {
		area = ""
	}
	if len(cf.Cases) == 0 {
		fail("cases", "no cases")
	}
	var out []*Case
	for i, cn := range cf.Cases {
		at := fmt.Sprintf("cases.%d", i)
		c := &Case{Area: area, ID: cn.ID, Description: cn.Description, Source: cmp.Or(cn.Source, cf.Source),
			Profiles: cn.Profiles, File: file, Line: lines[at], Start: cn.Start}
		if c.Profiles == nil {
			c.Profiles = cf.Profiles
		}
		switch {
		case !caseID.MatchString(cn.ID):
			fail(at+".id", "case id %q: use lower-case letters, digits, - and _", cn.ID)
		case c.Source == "":
			fail(at, "case %s names no source (set source on the case or the file)", cn.ID)
		case len(c.Profiles) == 0:
			fail(at, "case %s names no profiles (set profiles on the case or the file)", cn.ID)
		case (cn.Start.Board == nil) == (cn.Start.Seed == nil):
			fail(at+".start", "case %s: start needs a board or a seed (one of them)", cn.ID)
		case len(cn.Steps) == 0:
			fail(at, "case %s has no steps", cn.ID)
		}
		needs := append(slices.Clone(cf.Needs), cn.Needs...)
		if b := cn.Start.Board; b != nil {
			needs = append(needs, FeatureLoadState)
			if b.Rows() != 4 || b.Cols() != 4 {
				needs = append(needs, SizeFeature(b.Rows(), b.Cols()))
			}
		}
		if cn.Start.Seed != nil {
			needs = append(needs, FeatureSeedTP1)
		}
		if cn.Start.Setup != nil {
			needs = append(needs, FeatureSetup)
		}
		for j, sn := range cn.Steps {
			sat := fmt.Sprintf("%s.steps.%d", at, j)
			st, more, err := parseStep(sn)
			if err != nil {
				fail(sat, "case %s, step %d: %v", cn.ID, j+1, err)
				continue
			}
			st.Line = lines[sat]
			needs = append(needs, more...)
			c.Steps = append(c.Steps, st)
		}
		for _, f := range needs {
			if !knownFeature(f) {
				fail(at+".needs", "case %s: unknown feature %q", cn.ID, f)
			}
		}
		slices.Sort(needs)
		c.Needs = slices.Compact(needs)
		out = append(out, c)
	}
	if len(errs) > 0 {
		return out, errs
	}
	return out, nil
}

// parseStep checks one step and returns the features it needs.
func parseStep(sn stepNode) (Step, []string, error) {
	var st Step
	var needs []string
	switch {
	case sn.Move != "" && sn.Action != "":
		return st, nil, errors.New("a step has a move or an action, not both")
	case sn.Move != "":
		d, err := engine.ParseDirection(sn.Move)
		if err != nil {
			return st, nil, err
		}
		st.Move = &d
	case sn.Action != "":
		switch sn.Action {
		case "undo":
			needs = append(needs, FeatureUndo)
		case "end-run":
			needs = append(needs, FeatureEndRun)
		case "keep-playing":
			needs = append(needs, FeatureKeepPlaying)
		default:
			return st, nil, fmt.Errorf("unknown action %q (undo, end-run or keep-playing)", sn.Action)
		}
		st.Action = sn.Action
	}
	if sn.Spawn != nil {
		if st.Move == nil {
			return st, nil, errors.New("a forced spawn needs a move")
		}
		st.Spawn = sn.Spawn
		needs = append(needs, FeatureForceSpawn)
	}
	e := sn.Expect
	st.Expect = Expect{Board: e.Board, After: e.After, Row: e.Row, Cell: e.Cell, Gained: e.Gained, Changed: e.Changed,
		Spawned: e.Spawned, Score: e.Score, Moves: e.Moves, MaxTile: e.MaxTile, Won: e.Won, Over: e.Over, Error: e.Error}
	if e.Legal != nil {
		legal := []engine.Direction{}
		for _, name := range *e.Legal {
			d, err := engine.ParseDirection(name)
			if err != nil {
				return st, nil, fmt.Errorf("legal: %v", err)
			}
			legal = append(legal, d)
		}
		st.Expect.Legal = &legal
	}
	if e.Result != nil {
		var r engine.Result
		if err := r.UnmarshalText([]byte(*e.Result)); err != nil {
			return st, nil, fmt.Errorf("result: %v", err)
		}
		st.Expect.Result = &r
	}
	if e.Error != "" && !slices.Contains(refusals, e.Error) {
		return st, nil, fmt.Errorf("error %q is not one of %s", e.Error, strings.Join(refusals, ", "))
	}
	return st, needs, nil
}
