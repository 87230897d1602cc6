package engine

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/tileproof/tileproof/internal/strictyaml"
)

// profileFile is the YAML form of a profile, read by [ParseProfile] and
// written by [Profile.MarshalYAML]. Pointer fields are optional: absent,
// they keep the base profile's value.
type profileFile struct {
	Name        string            `yaml:"name"`
	Base        string            `yaml:"base,omitempty"`
	Version     *int              `yaml:"version,omitempty"`
	Title       *string           `yaml:"title,omitempty"`
	Source      *string           `yaml:"source,omitempty"`
	Description *string           `yaml:"description,omitempty"`
	Rows        *int              `yaml:"rows,omitempty"`
	Cols        *int              `yaml:"cols,omitempty"`
	StartTiles  *int              `yaml:"startTiles,omitempty"`
	Unstated    []string          `yaml:"unstated,omitempty,flow"`
	Spawn       map[uint64]uint64 `yaml:"spawn,omitempty,flow"`
	Win         *winFile          `yaml:"win,omitempty,flow"`
	Targets     *[]uint64         `yaml:"targets,omitempty,flow"`
	OpenEnded   *bool             `yaml:"openEnded,omitempty"`
	IllegalMove *string           `yaml:"illegalMove,omitempty"`
	MoveLimit   *int              `yaml:"moveLimit,omitempty"`
	FinishOrder []string          `yaml:"finishOrder,omitempty,flow"`
	GameOver    *string           `yaml:"gameOver,omitempty"`
	Undo        *bool             `yaml:"undo,omitempty"`
	EndRun      *bool             `yaml:"endRun,omitempty"`
	Break       *breakFile        `yaml:"break,omitempty,flow"`
	RNG         *string           `yaml:"rng,omitempty"`
}

type winFile struct {
	Tile *uint64 `yaml:"tile,omitempty"`
	When *string `yaml:"when,omitempty"`
	Then *string `yaml:"then,omitempty"`
}

// breakFile is the YAML form of a break rule. A profile without a break
// leaves it out; "limit: 0" in a profile with a base removes the base's.
type breakFile struct {
	Limit       *int    `yaml:"limit,omitempty"`
	Below       *uint64 `yaml:"below,omitempty"`
	Price       *uint64 `yaml:"price,omitempty"`
	WhenNoMoves *string `yaml:"whenNoMoves,omitempty"`
}

// MarshalYAML writes the profile in the form [ParseProfile] reads, every
// parameter stated (no base), so that yaml.Marshal(p) is a profile file:
// what a file with a base resolves to, or a profile made in code.
func (p *Profile) MarshalYAML() (any, error) {
	str := func(s fmt.Stringer) *string { t := s.String(); return &t }
	f := profileFile{Name: p.Name, Version: &p.Version, Title: &p.Title, Source: &p.Source, Description: &p.Description,
		Rows: &p.Rows, Cols: &p.Cols, StartTiles: &p.StartTiles, Spawn: map[uint64]uint64{},
		Win:       &winFile{Tile: &p.Win.Tile, When: str(p.Win.When), Then: str(p.Win.Then)},
		OpenEnded: &p.OpenEnded, IllegalMove: str(p.Illegal), GameOver: str(p.GameOver), MoveLimit: &p.MoveLimit, Undo: &p.Undo, EndRun: &p.EndRun,
		Unstated: p.Unstated}
	for _, w := range p.Spawn {
		f.Spawn[w.Value] = w.Weight
	}
	if br := p.Break; br.Limit > 0 {
		f.Break = &breakFile{Limit: &br.Limit, Below: &br.Below, Price: &br.Price, WhenNoMoves: str(br.WhenNoMoves)}
	}
	if len(p.Targets) > 0 {
		f.Targets = &p.Targets
	}
	if p.RNG != "" {
		f.RNG = &p.RNG
	}
	for _, r := range p.FinishOrder {
		name, err := r.MarshalText()
		if err != nil {
			return nil, err
		}
		f.FinishOrder = append(f.FinishOrder, string(name))
	}
	return f, nil
}

// defaultProfile holds the parameters of a profile file without a base:
// the rules every source document shares (docs/profiles.md).
var defaultProfile = Profile{
	Version:     1,
	Rows:        4,
	Cols:        4,
	StartTiles:  2,
	Spawn:       []SpawnWeight{{2, 9}, {4, 1}},
	Win:         Win{Tile: 2048},
	FinishOrder: []Result{TargetReached, NoMoves, MoveLimitReached},
}

// MaxProfileFile is the longest profile file a program of the module reads.
const MaxProfileFile = 1 << 20

// ParseProfile reads a profile from its YAML form; file names it in errors,
// which give the line of the field at fault. A profile may name a built-in
// profile as its base and change only some parameters:
//
//	name: classic-8s
//	base: classic
//	spawn: {2: 8, 4: 1, 8: 1}
//
// Without a base, absent parameters take the defaults of docs/profiles.md.
func ParseProfile(file string, data []byte) (*Profile, error) {
	return parseProfile(file, data, BuiltinProfile)
}

// parseProfile reads a profile, looking its base up with base (nil: a base
// is not allowed, as in the built-in profiles themselves).
func parseProfile(file string, data []byte, base func(string) (*Profile, error)) (*Profile, error) {
	var f profileFile
	pos, err := strictyaml.DecodeAt(file, data, &f)
	if err != nil {
		return nil, err
	}
	fail := func(field string, err error) error {
		return strictyaml.ErrorList{strictyaml.At(file, pos, field, err.Error())}
	}
	p := defaultProfile.Clone()
	if f.Base != "" {
		if base == nil {
			return nil, fail("base", fmt.Errorf("a built-in profile states every parameter and has no base"))
		}
		b, err := base(f.Base)
		if err != nil {
			return nil, fail("base", err)
		}
		p = b
		// The base's title and description speak of the base's rules: a
		// file that changes them without its own says whose they are.
		p.Title = fmt.Sprintf("%s, as this file changes it", b.Title)
		p.Description = fmt.Sprintf("The rules of %s with the parameters this file sets.", b.Name)
	}
	p.Name = f.Name
	set(&p.Version, f.Version)
	set(&p.Title, f.Title)
	set(&p.Source, f.Source)
	set(&p.Description, f.Description)
	set(&p.Rows, f.Rows)
	set(&p.Cols, f.Cols)
	set(&p.StartTiles, f.StartTiles)
	// What a base's source leaves unstated, the file states: only the
	// file's own list counts.
	p.Unstated = f.Unstated
	set(&p.Targets, f.Targets)
	set(&p.OpenEnded, f.OpenEnded)
	set(&p.MoveLimit, f.MoveLimit)
	set(&p.Undo, f.Undo)
	set(&p.EndRun, f.EndRun)
	set(&p.RNG, f.RNG)
	if f.Spawn != nil {
		p.Spawn = p.Spawn[:0]
		for v, w := range f.Spawn {
			p.Spawn = append(p.Spawn, SpawnWeight{v, w})
		}
		slices.SortFunc(p.Spawn, func(a, b SpawnWeight) int { return cmp.Compare(a.Value, b.Value) })
	}
	win := cmp.Or(f.Win, &winFile{})
	set(&p.Win.Tile, win.Tile)
	for _, e := range []struct {
		field string
		err   error
	}{
		{"win.when", setEnum(&p.Win.When, win.When, winWhenNames)},
		{"win.then", setEnum(&p.Win.Then, win.Then, winThenNames)},
		{"illegalMove", setEnum(&p.Illegal, f.IllegalMove, illegalMoveNames)},
		{"gameOver", setEnum(&p.GameOver, f.GameOver, gameOverNames)},
		{"break.whenNoMoves", setBreak(&p.Break, f.Break)},
	} {
		if e.err != nil {
			return nil, fail(e.field, e.err)
		}
	}
	if f.FinishOrder != nil {
		p.FinishOrder = nil
		for _, name := range f.FinishOrder {
			var r Result
			if err := r.UnmarshalText([]byte(name)); err != nil {
				return nil, fail("finishOrder", err)
			}
			p.FinishOrder = append(p.FinishOrder, r)
		}
	}
	if err := p.Validate(); err != nil {
		pe := err.(*ProfileError)
		return nil, fail(pe.Field, err)
	}
	return p, nil
}

// setBreak applies a file's break block to the base's rule: "limit: 0"
// removes the break, so that the other settings are the zero ones unless
// the block gives them (which Validate refuses).
func setBreak(b *BreakRule, f *breakFile) error {
	if f == nil {
		return nil
	}
	if f.Limit != nil && *f.Limit == 0 {
		*b = BreakRule{}
	}
	set(&b.Limit, f.Limit)
	set(&b.Below, f.Below)
	set(&b.Price, f.Price)
	return setEnum(&b.WhenNoMoves, f.WhenNoMoves, breakNoMovesNames)
}

func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

func setEnum[T ~uint8](dst *T, src *string, names []string) error {
	if src == nil {
		return nil
	}
	i, err := enumValue(names, *src)
	*dst = T(i)
	return err
}
