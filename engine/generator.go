package engine

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Generator is a seeded spawn generator: how a seed makes a game's spawns.
// A replay names it in its rng field, and a profile names the one its
// seeded games spawn by ([Profile.RNG]). [TP1] is the engine's own and
// the one recommended (docs/tp1.md); any other is registered from outside
// the engine with [RegisterGenerator] (peer/hallabois registers the
// hallabois game's).
type Generator uint8

// TP1 is tileproof's own generator (docs/tp1.md): SplitMix64 keyed by the
// SHA-256 of the seed text; each spawn draws the value, then the cell.
const TP1 Generator = 0

// GeneratorDef defines a spawn generator registered from outside the
// engine. Its state is at most 64 bits ([RNG]); a game under it plays
// every move on the general path, not the replay loop tp1 games take.
type GeneratorDef struct {
	// Name names the generator in a replay's rng field and a profile's.
	Name string
	// Seed reads a seed text as the generator's first state. A seed has
	// one written form: Seed refuses every other ([*SeedError]).
	Seed func(seed string) (state uint64, err error)
	// Draw makes a spawn's two draws on a board with empty (1 or more)
	// empty cells, from state: the new state, the value draw v (the tile
	// is the profile's spawn weights' pick of v modulo their total, as
	// tp1's value draw is placed) and nth, the empty cell (0-based,
	// row-major, below empty).
	Draw func(state uint64, empty int) (next, v uint64, nth int)
	// MaxState is the largest state a loaded game may hold.
	MaxState uint64
}

// generators holds the registered generators by their number, tp1's
// first (its functions unused: tp1 is written into the engine).
var generators = struct {
	mu   sync.RWMutex
	defs []GeneratorDef
}{defs: []GeneratorDef{{Name: RNGID, MaxState: ^uint64(0)}}}

// RegisterGenerator adds a spawn generator and returns its number. Call it
// once, before any game uses the generator: a name already taken, an empty
// name or a missing function panics.
func RegisterGenerator(def GeneratorDef) Generator {
	generators.mu.Lock()
	defer generators.mu.Unlock()
	if def.Name == "" || def.Seed == nil || def.Draw == nil {
		panic("engine: RegisterGenerator needs a name, Seed and Draw")
	}
	if slices.ContainsFunc(generators.defs, func(d GeneratorDef) bool { return d.Name == def.Name }) {
		panic("engine: generator " + def.Name + " registered twice")
	}
	if len(generators.defs) > 255 {
		panic("engine: too many generators")
	}
	generators.defs = append(generators.defs, def)
	return Generator(len(generators.defs) - 1)
}

// def returns the generator's definition, or an error for a number no
// generator has.
func (g Generator) def() (GeneratorDef, error) {
	generators.mu.RLock()
	defer generators.mu.RUnlock()
	if int(g) >= len(generators.defs) {
		return GeneratorDef{}, fmt.Errorf("invalid generator %d", g)
	}
	return generators.defs[g], nil
}

// String returns the generator's name in a replay: tp1, or the name it
// was registered under.
func (g Generator) String() string {
	if d, err := g.def(); err == nil {
		return d.Name
	}
	return fmt.Sprintf("generator %d", int(g))
}

// ParseGenerator returns the generator a replay's rng field names.
func ParseGenerator(name string) (Generator, error) {
	names := GeneratorNames()
	if i := slices.Index(names, name); i >= 0 {
		return Generator(i), nil
	}
	return 0, fmt.Errorf("no spawn generator %q (the generators are %s)", name, strings.Join(names, ", "))
}

// GeneratorNames returns the names of the generators known to this
// program, tp1's first.
func GeneratorNames() []string {
	generators.mu.RLock()
	defer generators.mu.RUnlock()
	names := make([]string, len(generators.defs))
	for i, d := range generators.defs {
		names[i] = d.Name
	}
	return names
}

// Seed returns the seed text as the generator reads it: tp1's trimmed
// text ([NormalizeSeed]), or another generator's seed as it is written,
// which must already be its one form. Errors are [*SeedError].
func (g Generator) Seed(s string) (string, error) {
	if g == TP1 {
		return NormalizeSeed(s)
	}
	d, err := g.def()
	if err != nil {
		return "", err
	}
	_, err = d.Seed(s)
	return s, err
}
