package analyze

import (
	"context"
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// Clairvoyant is the clairvoyance test of a seeded game: whether its
// moves use spawns that were not yet visible more than chance allows.
//
// At each position with two legal moves or more, an oracle values each
// move by the board after it with the tile the game's generator would
// spawn there (read from the engine), then one more move by the
// expectimax heuristic. Placebo oracles do the same with tiles drawn from
// another generator, as the profile weighs them. A player who cannot see
// the coming spawns agrees with the true oracle as often as with a
// placebo: Hits is the count of positions where the move played is the
// true oracle's best, Expected the placebos' average count, and Z =
// (Hits - Expected) / sqrt(sum of p(1-p)) with p each position's placebo
// agreement rate.
type Clairvoyant struct {
	Positions int     `json:"positions"` // positions where the oracles disagree
	Hits      int     `json:"hits"`
	Expected  float64 `json:"expected"`
	Z         float64 `json:"z"`
}

// placebos is the number of placebo oracles a position is compared with.
const placebos = 24

// clairvoyance runs the test on seeded replay r under profile p, over its
// first maxMoves counted moves.
func clairvoyance(ctx context.Context, r *replay.Replay, p *engine.Profile, maxMoves int) (*Clairvoyant, error) {
	rules, start, err := startOf(p, r)
	if err != nil {
		return nil, err
	}
	h := fnv.New64a()
	h.Write([]byte(*r.Seed))
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x636c6169727679)) // "clairvy"
	o := &oracle{ev: newExpectimax(2), spawns: spawnTiles(p.Spawn)}
	var c Clairvoyant
	var variance float64
	_, _, err = walk(ctx, start, r, maxMoves, func(_ int, g *engine.Game, d engine.Direction) bool {
		b, ok := toBitboard(g.Board())
		if !ok {
			return false
		}
		real, ok := realSpawns(rules, g)
		if !ok {
			return false
		}
		hit, p0 := o.position(b, d, real, rng)
		if p0 > 0 && p0 < 1 || hit != (p0 == 1) {
			c.Positions++
			c.Expected += p0
			variance += p0 * (1 - p0)
			if hit {
				c.Hits++
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	if variance > 0 {
		c.Z = (float64(c.Hits) - c.Expected) / math.Sqrt(variance)
	}
	return &c, nil
}

// realSpawns returns, for each direction, the cell and exponent of the
// tile the game's generator spawns after that move (exp 0 for a move that
// is not legal); ok is false when the game cannot be copied.
func realSpawns(rules *engine.Rules, g *engine.Game) (s [4]spawnAt, ok bool) {
	st := g.State()
	st.Prev = nil
	for _, d := range engine.Directions {
		if !g.Legal(d) {
			continue
		}
		g2, err := rules.Load(st)
		if err != nil {
			return s, false
		}
		step, err := g2.Move(d)
		if err != nil || !step.Changed {
			continue
		}
		e := uint8(0)
		for v := step.Spawn.Value; v > 1; v >>= 1 {
			e++
		}
		if e > maxBitExp {
			return s, false
		}
		s[d] = spawnAt{cell: 4*step.Spawn.Row + step.Spawn.Col, exp: e}
	}
	return s, true
}

// spawnAt is a tile spawned at a cell.
type spawnAt struct {
	cell int
	exp  uint8
}

// oracle values moves knowing the tile that follows each, by
// expectimax-2.
type oracle struct {
	ev     *expectimax
	spawns []spawnTile
}

// best returns the set of moves (a bit per direction) within the near
// margin of the best, when the tile after each move d is at[d].
func (o *oracle) best(b bitboard, at [4]spawnAt) uint8 {
	var v [4]float64
	top := math.Inf(-1)
	for _, d := range engine.Directions {
		v[d] = math.Inf(-1)
		s, ok := b.slide(d)
		if !ok || s == b || at[d].exp == 0 {
			continue
		}
		v[d] = o.ev.maxNode(s.with(at[d].cell, at[d].exp), 1, 1, o.spawns)
		top = max(top, v[d])
	}
	var set uint8
	for d, x := range v {
		if !math.IsInf(x, -1) && (top-x)/o.ev.h.empty <= nearMargin {
			set |= 1 << d
		}
	}
	return set
}

// position returns whether move d played from b is among the true
// oracle's best (real being the true tiles), and the placebo oracles'
// rate of agreement.
func (o *oracle) position(b bitboard, d engine.Direction, real [4]spawnAt, rng *rand.Rand) (bool, float64) {
	o.ev.loss = o.ev.h.score(b) - float64(8*o.ev.h.loss)
	hit := o.best(b, real)&(1<<d) != 0
	agree := 0
	for range placebos {
		// One draw for the tile and one for the cell, shared by the four
		// moves, as a seeded generator's next draws are.
		u, cellDraw := rng.Float64(), rng.Uint64()
		e := o.spawns[len(o.spawns)-1].exp
		for _, s := range o.spawns {
			if u < s.prob {
				e = s.exp
				break
			}
			u -= s.prob
		}
		var at [4]spawnAt
		for _, dd := range engine.Directions {
			if real[dd].exp == 0 {
				continue
			}
			s, _ := b.slide(dd)
			n := s.empties()
			nth := int(cellDraw % uint64(n))
			for i := range 16 {
				if s.exp(i) == 0 {
					if nth == 0 {
						at[dd] = spawnAt{i, e}
						break
					}
					nth--
				}
			}
		}
		if o.best(b, at)&(1<<d) != 0 {
			agree++
		}
	}
	return hit, float64(agree) / placebos
}
