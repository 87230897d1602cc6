package engine

import (
	"embed"
	"fmt"
	"io/fs"
	"math/bits"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/tileproof/tileproof/internal/strictyaml"
)

// WinWhen says what counts as winning.
type WinWhen uint8

const (
	// Reach: the run is won once a tile at least the win tile is on the
	// board after a move (PGS, online-2048, tile-merge).
	Reach WinWhen = iota
	// Merge: the run is won when a merge makes exactly the win tile (the
	// original game, Rosetta Code's "create a tile with the number 2048").
	Merge
)

// WinThen says what winning does.
type WinThen uint8

const (
	// Continue: winning is a milestone; play goes on until no move is left.
	Continue WinThen = iota
	// Stop: winning ends the run (result TargetReached).
	Stop
	// Ask: play stops at the win until the player chooses to keep playing
	// (the original game's "Keep going").
	Ask
)

// IllegalMove says what a move that does not change the board does.
type IllegalMove uint8

const (
	// Ignore: nothing happens; no spawn, no move counted.
	Ignore IllegalMove = iota
	// Reject: the move is an error (the state is unchanged).
	Reject
)

var (
	winWhenNames     = []string{"reach", "merge"}
	winThenNames     = []string{"continue", "stop", "ask"}
	illegalMoveNames = []string{"ignore", "reject"}
)

func (w WinWhen) String() string     { return enumName(winWhenNames, int(w)) }
func (w WinThen) String() string     { return enumName(winThenNames, int(w)) }
func (m IllegalMove) String() string { return enumName(illegalMoveNames, int(m)) }

func enumName(names []string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%d", i)
}

func enumValue(names []string, s string) (int, error) {
	if i := slices.Index(names, s); i >= 0 {
		return i, nil
	}
	return 0, fmt.Errorf("%q is not one of %s", s, strings.Join(names, ", "))
}

// SpawnWeight is one tile a spawn can make, with its integer weight.
type SpawnWeight struct {
	Value  uint64
	Weight uint64
}

// Win is a profile's win rule.
type Win struct {
	Tile uint64 // the win tile; 0 for a profile without one
	When WinWhen
	Then WinThen
}

// Profile is a named set of rule parameters. The built-in profiles are the
// rules as each source document states them ([BuiltinProfiles]); a user
// defines more in YAML ([ParseProfile]).
type Profile struct {
	Name        string // lower-case letters, digits and "-"
	Version     int    // the rules version; a change of rules gets a new one
	Title       string // a one-line summary
	Source      string // the document the rules come from
	Description string // the rules in prose, with anything the source leaves open

	Rows, Cols int
	StartTiles int           // spawns on the empty board at the start
	Spawn      []SpawnWeight // ascending by Value, which are distinct
	Win        Win
	Targets    []uint64 // win tiles a run may choose ([Profile.Setup]); empty: only Win.Tile
	OpenEnded  bool     // a run may choose to play on past the win tile
	Illegal    IllegalMove
	MoveLimit  int // counted moves after which the run ends; 0 for none
	// FinishOrder is the order the finishing conditions are checked in
	// after a counted move: TargetReached, NoMoves and MoveLimitReached,
	// each once. Seed 002 gives target, no moves, move limit; the original
	// game reports no moves before the win when both hold.
	FinishOrder []Result
	Undo        bool // one-step undo that restores board, score, moves and the next spawn
	EndRun      bool // the player may end the run early (result RunFinished)
}

// Clone returns a deep copy of p.
func (p *Profile) Clone() *Profile {
	q := *p
	q.Spawn = slices.Clone(p.Spawn)
	q.Targets = slices.Clone(p.Targets)
	q.FinishOrder = slices.Clone(p.FinishOrder)
	return &q
}

// SpawnValue reports whether a spawn can make tile v.
func (p *Profile) SpawnValue(v uint64) bool {
	return slices.ContainsFunc(p.Spawn, func(w SpawnWeight) bool { return w.Value == v })
}

// ProfileError is an invalid profile parameter; Field is its name in the
// YAML form ("win.tile").
type ProfileError struct {
	Field string
	Msg   string
}

func (e *ProfileError) Error() string { return e.Field + ": " + e.Msg }

var profileName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Validate checks every parameter; errors are [*ProfileError].
func (p *Profile) Validate() error {
	bad := func(field, format string, args ...any) error {
		return &ProfileError{field, fmt.Sprintf(format, args...)}
	}
	switch {
	case !profileName.MatchString(p.Name) || len(p.Name) > 64:
		return bad("name", "%q is not a profile name (lower-case letters, digits and single hyphens, at most 64)", p.Name)
	case p.Version < 1:
		return bad("version", "%d; a rules version is 1 or more", p.Version)
	case p.Rows < MinSide || p.Rows > MaxSide:
		return bad("rows", "%d is outside %d to %d", p.Rows, MinSide, MaxSide)
	case p.Cols < MinSide || p.Cols > MaxSide:
		return bad("cols", "%d is outside %d to %d", p.Cols, MinSide, MaxSide)
	case p.StartTiles < 1 || p.StartTiles > p.Rows*p.Cols:
		return bad("startTiles", "%d; a %dx%d board takes 1 to %d", p.StartTiles, p.Rows, p.Cols, p.Rows*p.Cols)
	case len(p.Spawn) == 0:
		return bad("spawn", "no tiles; a spawn needs at least one value with a weight")
	case p.MoveLimit < 0:
		return bad("moveLimit", "%d is negative (0 means no limit)", p.MoveLimit)
	case p.Win.When > Merge:
		return bad("win.when", "invalid value %d", p.Win.When)
	case p.Win.Then > Ask:
		return bad("win.then", "invalid value %d", p.Win.Then)
	case p.Illegal > Reject:
		return bad("illegalMove", "invalid value %d", p.Illegal)
	}
	var total uint64
	for i, w := range p.Spawn {
		if _, err := tileExp(w.Value); err != nil || w.Value == 0 {
			return bad("spawn", "%d is not a tile", w.Value)
		}
		if i > 0 && w.Value <= p.Spawn[i-1].Value {
			return bad("spawn", "values must be distinct and ascending")
		}
		if w.Weight == 0 || w.Weight > 1<<32 {
			return bad("spawn", "tile %d has weight %d; a weight is 1 to 2^32", w.Value, w.Weight)
		}
		total += w.Weight
	}
	if total > 1<<32 {
		return bad("spawn", "the weights add up to %d, above 2^32", total)
	}
	if p.Win.Tile != 0 {
		if _, err := tileExp(p.Win.Tile); err != nil {
			return bad("win.tile", "%v", err)
		}
	} else if p.Win.When != Reach || p.Win.Then != Continue || len(p.Targets) > 0 || p.OpenEnded {
		return bad("win.tile", "0 (no win) takes no other win settings")
	}
	for i, t := range p.Targets {
		if _, err := tileExp(t); err != nil || t == 0 {
			return bad(fmt.Sprintf("targets.%d", i), "%d is not a tile", t)
		}
	}
	if len(p.Targets) > 0 && !slices.Contains(p.Targets, p.Win.Tile) {
		return bad("targets", "do not include the win tile %d", p.Win.Tile)
	}
	order := slices.Clone(p.FinishOrder)
	slices.Sort(order)
	if !slices.Equal(order, []Result{TargetReached, NoMoves, MoveLimitReached}) {
		return bad("finishOrder", "%v: list target-reached, no-moves and move-limit, each once", p.FinishOrder)
	}
	return nil
}

// Setup returns the profile as a run sets it up: with target as its win
// tile (one of Targets, or the win tile itself) and, when openEnded, play
// going on past it. Profiles without those choices refuse them.
func (p *Profile) Setup(target uint64, openEnded bool) (*Profile, error) {
	if target != p.Win.Tile && !slices.Contains(p.Targets, target) {
		if len(p.Targets) == 0 {
			return nil, fmt.Errorf("profile %s has the fixed win tile %d, not %d", p.Name, p.Win.Tile, target)
		}
		return nil, fmt.Errorf("profile %s offers the targets %s, not %d", p.Name, joinUints(p.Targets), target)
	}
	if openEnded && !p.OpenEnded && p.Win.Then != Continue {
		return nil, fmt.Errorf("profile %s has no open-ended play", p.Name)
	}
	q := p.Clone()
	q.Win.Tile = target
	if openEnded {
		q.Win.Then = Continue
	}
	return q, nil
}

// SpawnValues returns the values the profile spawns, for messages: "2 and
// 4".
func (p *Profile) SpawnValues() string {
	s := make([]string, len(p.Spawn))
	for i, w := range p.Spawn {
		s[i] = fmt.Sprint(w.Value)
	}
	return strings.Join(s, " and ")
}

func joinUints(vs []uint64) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}

// profileFile is the YAML form of a profile. Pointer fields are optional:
// absent, they keep the base profile's value.
type profileFile struct {
	Name        string            `yaml:"name"`
	Base        string            `yaml:"base"`
	Version     *int              `yaml:"version"`
	Title       *string           `yaml:"title"`
	Source      *string           `yaml:"source"`
	Description *string           `yaml:"description"`
	Rows        *int              `yaml:"rows"`
	Cols        *int              `yaml:"cols"`
	StartTiles  *int              `yaml:"startTiles"`
	Spawn       map[uint64]uint64 `yaml:"spawn"`
	Win         *struct {
		Tile *uint64 `yaml:"tile"`
		When *string `yaml:"when"`
		Then *string `yaml:"then"`
	} `yaml:"win"`
	Targets     *[]uint64 `yaml:"targets"`
	OpenEnded   *bool     `yaml:"openEnded"`
	IllegalMove *string   `yaml:"illegalMove"`
	MoveLimit   *int      `yaml:"moveLimit"`
	FinishOrder []string  `yaml:"finishOrder"`
	Undo        *bool     `yaml:"undo"`
	EndRun      *bool     `yaml:"endRun"`
}

// defaultProfile holds the parameters of a profile file without a base:
// the rules DESIGN.md gives for all profiles.
var defaultProfile = Profile{
	Version:     1,
	Rows:        4,
	Cols:        4,
	StartTiles:  2,
	Spawn:       []SpawnWeight{{2, 9}, {4, 1}},
	Win:         Win{Tile: 2048},
	FinishOrder: []Result{TargetReached, NoMoves, MoveLimitReached},
}

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
	return parseProfile(file, data, loadBuiltin)
}

// parseProfile reads a profile, looking its base up with base (nil: a base
// is not allowed, as in the built-in profiles themselves).
func parseProfile(file string, data []byte, base func(string) (*Profile, error)) (*Profile, error) {
	var f profileFile
	if err := strictyaml.Decode(file, data, &f); err != nil {
		return nil, err
	}
	lines := strictyaml.Lines(data)
	fail := func(field string, err error) error {
		return strictyaml.ErrorList{strictyaml.At(file, lines, field, err.Error())}
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
	}
	p.Name = f.Name
	set(&p.Version, f.Version)
	set(&p.Title, f.Title)
	set(&p.Source, f.Source)
	set(&p.Description, f.Description)
	set(&p.Rows, f.Rows)
	set(&p.Cols, f.Cols)
	set(&p.StartTiles, f.StartTiles)
	set(&p.Targets, f.Targets)
	set(&p.OpenEnded, f.OpenEnded)
	set(&p.MoveLimit, f.MoveLimit)
	set(&p.Undo, f.Undo)
	set(&p.EndRun, f.EndRun)
	if f.Spawn != nil {
		p.Spawn = p.Spawn[:0]
		for v, w := range f.Spawn {
			p.Spawn = append(p.Spawn, SpawnWeight{v, w})
		}
		slices.SortFunc(p.Spawn, func(a, b SpawnWeight) int { return cmpUint(a.Value, b.Value) })
	}
	if f.Win != nil {
		set(&p.Win.Tile, f.Win.Tile)
		if err := setEnum(&p.Win.When, f.Win.When, winWhenNames); err != nil {
			return nil, fail("win.when", err)
		}
		if err := setEnum(&p.Win.Then, f.Win.Then, winThenNames); err != nil {
			return nil, fail("win.then", err)
		}
	}
	if err := setEnum(&p.Illegal, f.IllegalMove, illegalMoveNames); err != nil {
		return nil, fail("illegalMove", err)
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

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

//go:embed profiles/*.yaml
var profileFiles embed.FS

var builtins = sync.OnceValues(func() (map[string]*Profile, error) {
	m := map[string]*Profile{}
	names, err := fs.Glob(profileFiles, "profiles/*.yaml")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		data, err := profileFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		p, err := parseProfile("engine/"+name, data, nil)
		if err != nil {
			return nil, err
		}
		if "profiles/"+p.Name+".yaml" != name {
			return nil, fmt.Errorf("engine/%s names profile %s", name, p.Name)
		}
		m[p.Name] = p
	}
	return m, nil
})

// loadBuiltin returns a copy of a built-in profile.
func loadBuiltin(name string) (*Profile, error) {
	m, err := builtins()
	if err != nil {
		return nil, err
	}
	if p, ok := m[name]; ok {
		return p.Clone(), nil
	}
	return nil, fmt.Errorf("no built-in profile %q (the built-ins are %s)", name, strings.Join(BuiltinNames(), ", "))
}

// BuiltinProfile returns a copy of the built-in profile of that name.
func BuiltinProfile(name string) (*Profile, error) { return loadBuiltin(name) }

// BuiltinNames returns the names of the built-in profiles, sorted.
func BuiltinNames() []string {
	m, _ := builtins()
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// BuiltinProfileYAML returns the YAML definition of a built-in profile.
func BuiltinProfileYAML(name string) ([]byte, error) {
	if _, err := loadBuiltin(name); err != nil {
		return nil, err
	}
	return profileFiles.ReadFile("profiles/" + name + ".yaml")
}

// log2 returns the exponent of a power of two.
func log2(v uint64) uint8 { return uint8(bits.TrailingZeros64(v)) }
