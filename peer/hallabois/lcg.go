package hallabois

import (
	"strconv"
	"strings"
	"sync"

	"github.com/tileproof/tileproof/engine"
)

// RNGID names the second format's spawn procedure (its generator, the cell
// and value draws and the two start tiles) in a tileproof replay's rng
// field and in the second format's profiles, beside tileproof's own tp1.
const RNGID = "hallabois-lcg"

// Generator returns the second format's generator as the engine plays
// it, registering it with the engine at the first call: a seed is a
// 32-bit number in plain decimal ([ParseSeed]); each spawn draws the cell
// (modulo the empty cells), then the value (modulo the profile's spawn
// weights' total: 2, 2, 2 or 4 under the hallabois-4x4 and hallabois-3x3
// profiles' weights 3 and 1). A program calls it before it verifies or
// plays a game pinning hallabois-lcg (cmd/tileproof does as it starts a
// command), not in an init function: no package does work when a
// program starts.
func Generator() engine.Generator {
	registered.Do(func() { registered.gen = engine.RegisterGenerator(lcgDef) })
	return registered.gen
}

var registered struct {
	sync.Once
	gen engine.Generator
}

var lcgDef = engine.GeneratorDef{
	Name:     RNGID,
	Seed:     seedState,
	Draw:     drawSpawn,
	MaxState: 1<<32 - 1,
}

// seedState reads a seed as the generator's first state.
func seedState(s string) (uint64, error) {
	v, err := ParseSeed(s)
	return uint64(v), err
}

// drawSpawn makes a spawn's two draws for the engine: the cell, then the
// value.
func drawSpawn(state uint64, empty int) (next, v uint64, nth int) {
	g := LCG{uint32(state)}
	nth = int(g.Next() % uint32(empty))
	v = uint64(g.Next())
	return uint64(g.State), v, nth
}

// ParseSeed reads a hallabois-lcg seed: a number from 0 to 4294967295 in
// plain decimal, with no sign, leading zero or white space, so that every
// seed has one written form. Errors are [*engine.SeedError].
func ParseSeed(s string) (uint32, error) {
	switch {
	case s == "" || len(s) > 10:
		return 0, &engine.SeedError{Seed: s, Msg: "a hallabois-lcg seed is a number from 0 to 4294967295 in plain decimal"}
	case strings.Trim(s, "0123456789") != "" || s[0] == '0' && len(s) > 1:
		return 0, &engine.SeedError{Seed: s, Msg: "a hallabois-lcg seed is a number from 0 to 4294967295 in plain decimal (no sign, leading zero or white space)"}
	}
	v, err := strconv.ParseUint(s, 10, 32)
	if err != nil { // a number of ten digits above 2^32-1
		return 0, &engine.SeedError{Seed: s, Msg: "above 4294967295; a hallabois-lcg seed is a 32-bit number"}
	}
	return uint32(v), nil
}

// LCG is the second format's generator: a linear congruential generator
// whose state is 32 bits. Each draw computes 1103515245*state + 12345
// modulo 2^32, then modulo 2^31-1, and that is both the new state and the
// draw. The seed is the first state.
type LCG struct{ State uint32 }

// Next advances the generator and returns the draw.
func (g *LCG) Next() uint32 {
	g.State = (1103515245*g.State + 12345) % 2147483647 // uint32: the product wraps at 2^32
	return g.State
}

// spawnValues are the tiles a spawn picks from, one draw modulo 4: a 4 one
// time in four.
var spawnValues = [4]uint64{2, 2, 2, 4}

// Spawn places one tile the way the peer does: the first draw picks an
// empty cell (modulo the number of empty cells, counted row by row from
// the top left), the second the value. On a full board it places nothing
// and draws nothing. It returns the cell's index (y*W+x) and the value, or
// -1 and 0.
func (g *LCG) Spawn(b Grid) (cell int, value uint64) {
	n := b.Empty()
	if n == 0 {
		return -1, 0
	}
	k := int(g.Next() % uint32(n))
	for i, v := range b.Cells {
		if v == 0 {
			if k == 0 {
				cell = i
				break
			}
			k--
		}
	}
	value = spawnValues[g.Next()%4]
	b.Cells[cell] = value
	return cell, value
}

// Start returns the board a second-format game starts from: an empty board
// of w columns and h rows with two tiles spawned from seed, and the
// generator after them.
func Start(w, h int, seed uint32) (Grid, LCG) {
	b := NewBoard(w, h)
	g := LCG{seed}
	g.Spawn(b)
	g.Spawn(b)
	return b, g
}
