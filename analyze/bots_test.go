package analyze

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/player"
	"github.com/tileproof/tileproof/replay"
)

// A bot chooses a move for the tests' and benchmarks' populations; g is
// the game, b its board as a bitboard.
type bot interface {
	choose(g *engine.Game, b bitboard) engine.Direction
}

// evalBot plays an evaluator's best move; with noise > 0 it plays a
// uniformly random legal move at that rate, with temp > 0 it draws a move
// with probability proportional to exp(value/(temp*unit)) (softmax).
type evalBot struct {
	ev     evaluator
	noise  float64
	temp   float64
	rng    *rand.Rand
	spawns []spawnTile
}

func (eb *evalBot) choose(g *engine.Game, b bitboard) engine.Direction {
	legal := g.LegalMoves()
	if eb.noise > 0 && eb.rng.Float64() < eb.noise {
		return legal[eb.rng.IntN(len(legal))]
	}
	v := eb.ev.values(b, eb.spawns)
	best := engine.Direction(0)
	top := math.Inf(-1)
	for _, d := range legal {
		if v[d] > top {
			best, top = d, v[d]
		}
	}
	if eb.temp > 0 {
		u := eb.ev.unit(top) * eb.temp
		var w [4]float64
		sum := 0.0
		for _, d := range legal {
			if !math.IsInf(v[d], -1) {
				w[d] = math.Exp((v[d] - top) / u)
				sum += w[d]
			}
		}
		x := eb.rng.Float64() * sum
		for _, d := range legal {
			if x < w[d] {
				return d
			}
			x -= w[d]
		}
	}
	return best
}

// playerBot is a player of package player: a bot the analysis does not
// ship as an evaluator.
type playerBot struct{ p player.Player }

func (pb playerBot) choose(g *engine.Game, _ bitboard) engine.Direction { return pb.p.Choose(g) }

// clairvoyantBot knows the next spawn: it values each move by the board
// with the tile the generator will put there, then an expectimax search
// two moves deep.
type clairvoyantBot struct {
	rules *engine.Rules
	ev    *expectimax
	sp    []spawnTile
}

func (cb *clairvoyantBot) choose(g *engine.Game, b bitboard) engine.Direction {
	real, _ := realSpawns(cb.rules, g)
	cb.ev.loss = cb.ev.h.score(b) - 8*cb.ev.h.loss
	clear(cb.ev.cache)
	best, top := g.LegalMoves()[0], math.Inf(-1)
	for _, d := range g.LegalMoves() {
		s, ok := b.slide(d)
		if !ok || real[d].exp == 0 {
			continue
		}
		if v := cb.ev.maxNode(s.with(real[d].cell, real[d].exp), 2, 1, cb.sp); v > top {
			best, top = d, v
		}
	}
	return best
}

var tileMerge = func() *engine.Rules {
	p, err := engine.BuiltinProfile("tile-merge")
	if err != nil {
		panic(err)
	}
	r, err := engine.Compile(p)
	if err != nil {
		panic(err)
	}
	return r
}()

var tileMergeSpawns = func() []spawnTile {
	p, _ := engine.BuiltinProfile("tile-merge")
	return spawnTiles(p.Spawn)
}()

// playBot plays a tile-merge game from seed with bot, at most limit moves,
// and returns it as a replay.
func playBot(tb testing.TB, bt bot, seed string, limit int) *replay.Replay {
	g, err := tileMerge.NewGame(seed)
	if err != nil {
		tb.Fatal(err)
	}
	var acts []engine.Action
	for !g.Over() && len(acts) < limit {
		b, ok := toBitboard(g.Board())
		if !ok {
			break
		}
		d := bt.choose(g, b)
		if _, err := g.Move(d); err != nil {
			tb.Fatalf("bot move %v: %v", d, err)
		}
		acts = append(acts, engine.Action(d))
	}
	s := seed
	return &replay.Replay{Profile: "tile-merge", Seed: &s, Actions: acts,
		Claim: replay.Claim{Score: g.Score(), MaxTile: g.MaxTile(), Moves: g.Moves()}}
}

// blockBot plays in blocks of 50 moves: engine's moves in the first
// tenths of each ten blocks, person's in the rest.
type blockBot struct {
	engine, person bot
	tenths, moves  int
}

func (bb *blockBot) choose(g *engine.Game, b bitboard) engine.Direction {
	block := bb.moves / 50 % 10
	bb.moves++
	if block < bb.tenths {
		return bb.engine.choose(g, b)
	}
	return bb.person.choose(g, b)
}

func newEvalBot(ev evaluator, noise, temp float64, seed uint64) *evalBot {
	return &evalBot{ev: ev, noise: noise, temp: temp, rng: rand.New(rand.NewPCG(seed, 7)), spawns: tileMergeSpawns}
}
