package conformance

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/stats"
	"github.com/tileproof/tileproof/protocol"
)

// propertyAlpha is the false-alarm rate of each statistical property
// check: an implementation that follows the distribution fails it with
// this probability.
const propertyAlpha = 0.001

// distributionSample is the number of spawns the distribution check draws.
const distributionSample = 2000

// exhaustiveMaxExp is the largest tile exponent of the exhaustive line
// check: every line of 4 cells of tiles up to 2^exhaustiveMaxExp (and
// empty), 6^4 = 1296 lines, in every direction.
const exhaustiveMaxExp = 5

type property struct {
	name  string
	needs []string
	check func(impl Impl, p *engine.Profile, res *Result)
}

var properties = []property{
	{"same-seed-same-game", []string{protocol.SeedTP1}, sameSeedSameGame},
	{"no-spawn-after-noop", []string{protocol.LoadState}, noSpawnAfterNoop},
	{"spawn-distribution", []string{protocol.LoadState}, spawnDistribution},
	{"metamorphic", []string{protocol.LoadState}, metamorphic},
	{"exhaustive-lines", []string{protocol.LoadState}, exhaustiveLines},
}

// runProperties runs the checks no single case shows, under one profile;
// each is a result named properties/NAME. Their boards are 4x4: under a
// profile of another size each is skipped, saying so.
func runProperties(impl Impl, h Hello, p *engine.Profile, run *regexp.Regexp) []Result {
	var out []Result
	for _, prop := range properties {
		res := Result{Case: "properties/" + prop.name, Area: "properties", Profile: p.Name}
		if run != nil && !run.MatchString(res.Case) {
			continue
		}
		switch reason := missingReason(h, prop.needs); {
		case p.Rows != 4 || p.Cols != 4:
			res.Status, res.Reason = Skip, fmt.Sprintf("the property checks play on 4x4 boards; profile %s plays on %dx%d", p.Name, p.Rows, p.Cols)
		case reason != "":
			res.Status, res.Reason = Skip, reason
		default:
			prop.check(impl, p, &res)
			if res.Status == "" {
				res.Status = Pass
			}
		}
		out = append(out, res)
	}
	return out
}

// loadAndMove plays a move on a loaded state and returns the board after
// the slide; refused is true when the implementation refused the move, ok
// false when the call failed (recorded in res).
func loadAndMove(impl Impl, p *engine.Profile, b engine.Board, d engine.Direction, res *Result) (mr MoveResult, slid engine.Board, refused bool, ok bool) {
	if _, err := impl.(Loader).Load(p.Name, LoadState{Board: b}); err != nil {
		res.callFailed(err, 0, "load")
		return mr, slid, false, false
	}
	mr, err := impl.Move(d, nil)
	if err != nil {
		var refusal *RuleError
		if errors.As(err, &refusal) {
			return mr, b, true, true
		}
		res.callFailed(err, 0, "move")
		return mr, slid, false, false
	}
	c := &checker{what: "move " + d.String()}
	if c.spawn(p, b, d, nil, &mr); !c.record(res, 0) {
		return mr, slid, false, false
	}
	return mr, mr.Slid(), false, true
}

// sameSeedSameGame plays the same seed twice, and against the engine:
// the games must be the same, move for move (tp1 makes them so).
func sameSeedSameGame(impl Impl, p *engine.Profile, res *Result) {
	const seed = "tileproof-property"
	var first []State
	for round := range 2 {
		st, err := impl.New(p.Name, seed, nil)
		if err != nil {
			res.callFailed(err, 0, "new")
			return
		}
		g, _ := engine.NewGame(p, seed)
		for i := 0; i < 60 && !g.Over(); i++ {
			if st.Board != g.Board() {
				res.failBoards(BoardDiverged, i, nil, g.Board(), st.Board, "seed %q, after %d moves, the board is not tp1's", seed, i)
				return
			}
			if round == 0 {
				first = append(first, st)
			} else if first[i] != st {
				res.failBoards(BoardDiverged, i, nil, first[i].Board, st.Board, "seed %q played twice: the games differ after %d moves", seed, i)
				return
			}
			d := g.LegalMoves()[0]
			mr, err := impl.Move(d, nil)
			if err != nil {
				if !res.driverFailure(err, i+1, "move") {
					res.fail(IllegalHandled, i+1, "move %s: %v", d, err)
				}
				return
			}
			g.Move(d)
			st = mr.State
		}
	}
}

// noSpawnAfterNoop loads boards where a move changes nothing and checks
// no tile appears (checkSpawn fails a spawn after a move that did not
// change the board) and the move is not counted.
func noSpawnAfterNoop(impl Impl, p *engine.Profile, res *Result) {
	boards := []string{"2 . . ./. . . ./. . . ./. . . .", "2 4 . ./4 2 . ./. . . ./. . . .", "2 4 8 16/. . . ./. . . ./. . . ."}
	for _, text := range boards {
		b, _ := engine.ParseBoard(text)
		for _, d := range engine.Directions {
			if b.Legal(d) {
				continue
			}
			mr, _, refused, ok := loadAndMove(impl, p, b, d, res)
			if !ok {
				return
			}
			if !refused && (mr.Changed || mr.State.Moves != 0) {
				res.fail(LegalityDiffer, 0, "on\n%s\nmove %s changes nothing, but the implementation reports changed %v, %d moves", b, d, mr.Changed, mr.State.Moves)
				return
			}
		}
	}
}

// spawnDistribution draws distributionSample spawns on a board with one
// tile, which a move right sends to the end of row 0 leaving 15 empty
// cells, and tests the values against the profile's weights (exact
// binomial or chi-square) and the cells against uniform (chi-square), each
// at propertyAlpha.
func spawnDistribution(impl Impl, p *engine.Profile, res *Result) {
	b, _ := engine.ParseBoard("2 . . ./. . . ./. . . ./. . . .")
	values := map[uint64]int{}
	cells := make([]float64, 16)
	for range distributionSample {
		mr, _, refused, ok := loadAndMove(impl, p, b, engine.Right, res)
		if !ok {
			return
		}
		if refused || mr.Spawn == nil {
			res.fail(SpawnWrong, 0, "moving right on\n%s\ngave no spawn", b)
			return
		}
		values[mr.Spawn.Value]++
		cells[mr.Spawn.Row*4+mr.Spawn.Col]++
	}
	var total float64
	for _, w := range p.Spawn {
		total += float64(w.Weight)
	}
	var pv float64
	if len(p.Spawn) == 2 {
		hi := p.Spawn[1]
		pv = stats.BinomialTwoSided(distributionSample, values[hi.Value], float64(hi.Weight)/total)
	} else {
		obs, exp := make([]float64, len(p.Spawn)), make([]float64, len(p.Spawn))
		for i, w := range p.Spawn {
			obs[i], exp[i] = float64(values[w.Value]), distributionSample*float64(w.Weight)/total
		}
		stat, k := stats.ChiSquare(obs, exp)
		pv = stats.ChiSquareSF(stat, k-1)
	}
	if pv < propertyAlpha {
		res.fail(SpawnWrong, 0, "the spawned values %v in %d spawns are unlikely under the weights %v (p = %.2g < %g)", values, distributionSample, p.Spawn, pv, propertyAlpha)
		return
	}
	expected := make([]float64, 16)
	for c := 1; c < 16; c++ {
		if c != 3 {
			expected[c] = distributionSample / 15.0
		}
	}
	if cells[3] > 0 {
		res.fail(SpawnWrong, 0, "a tile spawned on the occupied cell (0, 3)")
		return
	}
	stat, k := stats.ChiSquare(cells, expected)
	if pc := stats.ChiSquareSF(stat, k-1); pc < propertyAlpha {
		res.fail(SpawnWrong, 0, "the spawns' cells %v are unlikely under uniform placement over the 15 empty cells (p = %.2g < %g)", cells, pc, propertyAlpha)
	}
}

// metamorphic checks what needs no expected answer, on random boards: a
// move left is the mirror of a move right on the mirrored board (and up of
// down); the tile sum after a move is the sum before plus the spawned
// tile; the points gained are the tiles the merges made (the potential
// difference of docs/replay-format.md).
func metamorphic(impl Impl, p *engine.Profile, res *Result) {
	rng := rand.New(rand.NewPCG(2048, 4096))
	for range 150 {
		var b engine.Board
		for !b.Legal(engine.Left) || !b.Legal(engine.Right) || !b.Legal(engine.Up) || !b.Legal(engine.Down) {
			b, _ = engine.NewBoard(4, 4)
			for i := range 16 {
				if rng.IntN(2) == 0 {
					b.Set(i/4, i%4, 2<<rng.IntN(4))
				}
			}
		}
		for _, pair := range [][2]engine.Direction{{engine.Left, engine.Right}, {engine.Up, engine.Down}} {
			mirror := mirrorBoard(b, pair[0] == engine.Left)
			mrA, slidA, _, ok := loadAndMove(impl, p, b, pair[0], res)
			if !ok {
				return
			}
			mrB, slidB, _, ok := loadAndMove(impl, p, mirror, pair[1], res)
			if !ok {
				return
			}
			if want := mirrorBoard(slidA, pair[0] == engine.Left); want != slidB || mrA.Gained != mrB.Gained {
				res.failBoards(BoardDiverged, 0, &mirror, want, slidB, "moving %s on\n%s\nis not the mirror of moving %s on the mirrored board (gained %d and %d)", pair[0], b, pair[1], mrA.Gained, mrB.Gained)
				return
			}
			if sum := mrA.State.Board.Sum(); sum != b.Sum()+mrA.Spawn.Value {
				res.fail(BoardDiverged, 0, "moving %s on\n%s\nthe tiles add up to %d, not %d + the spawned %d", pair[0], b, sum, b.Sum(), mrA.Spawn.Value)
				return
			}
			if want := slidA.Potential() - b.Potential(); mrA.Gained != want {
				res.fail(ScoreDiverged, 0, "moving %s on\n%s\ngained %d points; the tiles the merges made add up to %d", pair[0], b, mrA.Gained, want)
				return
			}
		}
	}
}

func mirrorBoard(b engine.Board, horizontal bool) engine.Board {
	out, _ := engine.NewBoard(b.Rows(), b.Cols())
	for r := range b.Rows() {
		for c := range b.Cols() {
			if horizontal {
				out.Set(r, b.Cols()-1-c, b.At(r, c))
			} else {
				out.Set(b.Rows()-1-r, c, b.At(r, c))
			}
		}
	}
	return out
}

// exhaustiveLines compares, for every line of 4 cells of exponents 0 to
// exhaustiveMaxExp, the slide in every direction with the engine's.
func exhaustiveLines(impl Impl, p *engine.Profile, res *Result) {
	const n = exhaustiveMaxExp + 1
	for code := range n * n * n * n {
		for _, d := range engine.Directions {
			b, _ := engine.NewBoard(4, 4)
			for i, c := 0, code; i < 4; i, c = i+1, c/n {
				if e := c % n; e > 0 {
					if d == engine.Left || d == engine.Right {
						b.Set(0, i, 1<<e)
					} else {
						b.Set(i, 0, 1<<e)
					}
				}
			}
			if b.Empty() == 16 {
				continue
			}
			want, _ := b.Slide(d)
			mr, slid, refused, ok := loadAndMove(impl, p, b, d, res)
			if !ok {
				return
			}
			switch {
			case want.Changed && refused:
				res.fail(IllegalHandled, 0, "moving %s on\n%s\nchanges the board, but the implementation refused it", d, b)
			case !want.Changed && !refused && mr.Changed:
				res.fail(LegalityDiffer, 0, "moving %s on\n%s\nchanges nothing, but the implementation reports a change", d, b)
			case want.Changed && (slid != want.Board || mr.Gained != want.Gained):
				res.failBoards(BoardDiverged, 0, &b, want.Board, slid, "moving %s on\n%s\n(gained %d, the rules give %d)", d, b, mr.Gained, want.Gained)
			default:
				continue
			}
			return
		}
	}
}
