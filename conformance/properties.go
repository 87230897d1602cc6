package conformance

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"

	"github.com/tileproof/tileproof/conformance/internal/chance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/boardfmt"
	"github.com/tileproof/tileproof/internal/stats"
	"github.com/tileproof/tileproof/protocol"
)

// distributionSample is the number of spawns the distribution check draws.
const distributionSample = 2000

// startSample is the number of games the start check starts.
const startSample = 200

// exhaustiveMaxExp is the largest tile exponent of the exhaustive line
// check: every line of 4 cells of tiles up to 2^exhaustiveMaxExp (and
// empty), 6^4 = 1296 lines, in every direction.
const exhaustiveMaxExp = 5

type property struct {
	name    string
	needs   []string
	tests   int  // the statistical tests it makes
	anySize bool // it plays on the profile's board, not on 4x4 boards of its own
	// check runs the property; alpha is the level of each of its
	// statistical tests.
	check func(impl Impl, p *engine.Profile, res *CaseResult, alpha float64)
	// sized, when set, runs instead of check, with what the
	// implementation declares (the board sizes it plays).
	sized func(impl Impl, h Hello, p *engine.Profile, res *CaseResult)
	// description says what the property checks, source the rule it
	// follows, cited as a case cites its source (docs/sources.md): a
	// failing property's result carries both, as a case's does.
	description, source string
}

const (
	sharedRules = "tileproof, docs/profiles.md, Rules (all profiles), "
	spawnRule   = sharedRules + `"After a legal move one tile spawns, in a cell the slide left empty, of a value drawn by the profile's spawn weights"`
	mergeRule   = sharedRules + `"a move slides every line toward its edge, compresses the gaps, merges each pair of equal neighbours once"`
)

var properties = []property{
	{"start", nil, 2, true, startBoards, nil,
		"a new game: the profile's start tiles, of values it spawns, on uniform cells; score 0, no move, its board's flags and legal moves; nothing of a game won before; starts that do not repeat",
		spawnRule},
	{"same-seed-same-game", []string{protocol.SeedTP1}, 0, false, sameSeedSameGame, nil,
		"a seed played twice gives the same game, and it is tp1's game, move by move",
		`tileproof, docs/tp1.md, Test vectors; Online 2048, Seeded tile choices`},
	{"no-spawn-after-noop", []string{protocol.LoadState}, 0, false, noSpawnAfterNoop, nil,
		"a move that changes nothing spawns nothing and is not counted; where the profile refuses it, the board is as loaded",
		sharedRules + `"A move that changes nothing spawns nothing"`},
	{"spawn-distribution", []string{protocol.LoadState}, 2, false, spawnDistribution, nil,
		"spawns on a board with 15 empty cells: values by the profile's weights, cells uniform",
		spawnRule},
	{"metamorphic", []string{protocol.LoadState}, 0, false, metamorphic, nil,
		"on random boards: a move mirrors the opposite move on the mirrored board; the tiles add up to those before and the spawn; the points are the tiles the merges made",
		mergeRule + `; ` + sharedRules + `"Each merge scores the new tile"`},
	{"exhaustive-lines", []string{protocol.LoadState}, 0, false, exhaustiveLines, nil,
		"every line of 4 cells of tiles up to 32, moved in every direction, slides as the rules slide it",
		mergeRule},
	{oneMergeName, []string{protocol.LoadState}, 0, true, nil, oneMergeFullBoards,
		"full boards with no merge, or one merge at each position (edges included), in every size declared: over, the result and the legal moves",
		sharedRules + `"The game is over when the board is full and no two neighbours across a row or a column are equal"`},
}

// propertyInfo returns what property check NAME (a result's case is
// properties/NAME) checks and its source, as a failing case's result
// carries them; nil for a name that is no property.
func propertyInfo(name string) *CaseInfo {
	for _, p := range properties {
		if p.name == name {
			return &CaseInfo{Description: p.description, Source: p.source}
		}
	}
	return nil
}

// statisticalTests returns the number of statistical tests the property
// checks make under one profile.
func statisticalTests() int {
	n := 0
	for _, p := range properties {
		n += p.tests
	}
	return n
}

// runProperties runs the checks no single case shows, under one profile;
// each is a result named properties/NAME. Most play 4x4 boards of their
// own: under a profile of another size each of those is skipped, saying
// so.
// Once ctx is done, each check not begun is not run.
func runProperties(ctx context.Context, impl Impl, h Hello, p *engine.Profile, run *regexp.Regexp, alpha float64) []CaseResult {
	var out []CaseResult
	for _, prop := range properties {
		res := CaseResult{Case: "properties/" + prop.name, Area: PropertiesArea, Profile: p.Name}
		if run != nil && !run.MatchString(res.Case) {
			continue
		}
		switch reason := missingReason(h, p.Name, prop.needs); {
		case ctx.Err() != nil:
			res = notRun(res, ctx)
		case !prop.anySize && (p.Rows != 4 || p.Cols != 4):
			res.Status, res.Reason = Skip, fmt.Sprintf("the property checks play on 4x4 boards; profile %s plays on %dx%d", p.Name, p.Rows, p.Cols)
		case reason != "":
			res.Status, res.Reason = Skip, reason
		case prop.sized != nil:
			prop.sized(impl, h, p, &res)
			if res.Status == "" {
				res.Status = Pass
			}
		default:
			prop.check(impl, p, &res, alpha)
			if res.Status == "" {
				res.Status = Pass
			}
		}
		out = append(out, res)
	}
	return out
}

// played is one game of a property check played: the move's result, and
// the board after its slide (the board loaded, when it was refused).
type played struct {
	mr      MoveResult
	slid    engine.Board
	refused bool
}

// playAll plays games of one move each, loaded boards bs and moves ds, all
// at once through a [Pipeliner] or one after another, and checks each
// move's spawn as every move is checked. ok is false when a call failed or
// a spawn was wrong, recorded in res.
func playAll(impl Impl, p *engine.Profile, bs []engine.Board, ds []engine.Direction, res *CaseResult) (out []played, ok bool) {
	var results []OneMoveResult
	if pl, can := impl.(Pipeliner); can {
		games := make([]OneMove, len(bs))
		for i := range bs {
			games[i] = OneMove{LoadState{Board: bs[i]}, ds[i]}
		}
		results = pl.PlayAll(p.Name, games)
	} else {
		for i := range bs {
			r := OneMoveResult{}
			if _, r.Err = impl.(Loader).Load(p.Name, LoadState{Board: bs[i]}); r.Err == nil {
				r.Move, r.Err = impl.Move(ds[i], nil)
			}
			results = append(results, r)
			if r.Err != nil && !isRefusal(r.Err) {
				break // the call failed: the check stops here
			}
		}
	}
	for i, r := range results {
		if r.Err != nil {
			if !isRefusal(r.Err) {
				res.callFailed(r.Err, 0, "move "+ds[i].String())
				return out, false
			}
			out = append(out, played{slid: bs[i], refused: true})
			continue
		}
		c := &checker{what: "move " + ds[i].String()}
		if c.spawn(p, bs[i], ds[i], nil, &r.Move); !c.record(res, 0) {
			return out, false
		}
		out = append(out, played{mr: r.Move, slid: r.Move.Slid()})
	}
	return out, true
}

func isRefusal(err error) bool {
	var refusal *RuleError
	return errors.As(err, &refusal)
}

// startBoards first wins a game, when the implementation loads states and
// the profile has a win tile (a new game must not keep anything of the
// game before it), then starts startSample games the implementation's own
// way (from tp1 seeds when it declares seed-tp1, when each start must be
// tp1's) and checks each start: the profile's number of start tiles, each a value it
// spawns, score 0, no counted move, not over, and the legal moves of that
// board; then, over all the starts, the tiles' values against the
// profile's weights (exact binomial, or chi-square for more values) and
// their cells against uniform over the board (chi-square), each at alpha.
func startBoards(impl Impl, p *engine.Profile, res *CaseResult, alpha float64) {
	h, _ := impl.Hello()
	seeded := h.Has(protocol.SeedTP1)
	values := map[uint64]int{}
	cells := make([]float64, p.Rows*p.Cols)
	tiles := 0
	if !winFirst(impl, p, res) {
		return
	}
	boards := map[engine.Board]int{} // the starts, counted
	for i := range startSample {
		seed := ""
		if seeded {
			seed = fmt.Sprintf("start-%d", i+1)
		}
		st, err := impl.New(p.Name, seed, nil)
		if err != nil {
			res.callFailed(err, 0, "new")
			return
		}
		b := st.Board
		boards[b]++
		if b.Rows() != p.Rows || b.Cols() != p.Cols {
			res.fail(BoardDiverged, 0, "a new game starts on a %dx%d board; profile %s plays on %dx%d", b.Rows(), b.Cols(), p.Name, p.Rows, p.Cols)
			return
		}
		if seeded {
			g, _ := engine.NewGame(p, seed)
			if b != g.Board() {
				res.failBoards(BoardDiverged, 0, nil, g.Board(), b, "seed %q starts on another board than tp1's", seed)
				return
			}
		}
		if n := b.Cells() - b.Empty(); n != p.StartTiles {
			res.failOn(SpawnWrong, nil, &b, "a new game starts with %d tiles; profile %s starts with %d", n, p.Name, p.StartTiles)
			return
		}
		for c := range b.Cells() {
			if v := b.At(c/p.Cols, c%p.Cols); v != 0 {
				if !p.SpawnValue(v) {
					res.failOn(SpawnWrong, nil, &b, "a new game starts with a %d; profile %s spawns only %s", v, p.Name, p.SpawnValues())
					return
				}
				values[v]++
				cells[c]++
				tiles++
			}
		}
		g, err := engine.Load(p, engine.State{Board: b})
		if err != nil {
			res.fail(BoardDiverged, 0, "a new game's board does not load: %v", err)
			return
		}
		if st.Score != 0 || st.Moves != 0 || st.Won != g.Won() || st.Over != g.Over() {
			res.failOn(FlagsDiffer, nil, &b, "a new game starts with score %d, %d moves, won %v, over %v; the rules give 0, 0, %v, %v", st.Score, st.Moves, st.Won, st.Over, g.Won(), g.Over())
			return
		}
		if ll, ok := impl.(LegalLister); ok {
			got, err := ll.Legal()
			if err != nil {
				if isRefusal(err) || errors.Is(err, ErrNoLegal) {
					continue // the implementation does not list legal moves
				}
				res.callFailed(err, 0, "legal")
				return
			}
			if want := g.LegalMoves(); !sameDirections(got, want) {
				res.failOn(LegalityDiffer, nil, &b, "a new game lists the legal moves %v; the rules give %v", got, want)
				return
			}
		}
	}
	// Starts repeated more than independent ones repeat (before the tests
	// of values and cells, which repeats would fail for another reason).
	if pairs, lambda, pv := chance.RepeatTest(boards, startSample, chance.StartCollision(p)); !seeded && pv < alpha {
		var common engine.Board
		for b, n := range boards {
			if n > boards[common] {
				common = b
			}
		}
		if len(boards) == 1 {
			res.failOn(SpawnWrong, nil, &common, "all %d new games start on the same board, where independent starts all agree with no real chance: the games are not independent (a generator seeded by the clock?)", startSample)
		} else {
			res.failOn(SpawnWrong, nil, &common, "%d pairs of the %d new games start on the same board (%d boards in all; the one shown %d times), where independent starts share about %.2g (p = %.2g < %g): the games are not independent (a generator seeded by the clock?)", pairs, startSample, len(boards), boards[common], lambda, pv, alpha)
		}
		return
	}
	if pv := valuesP(p, values, tiles); pv < alpha {
		res.fail(SpawnWrong, 0, "the start tiles' values (%s) in %d tiles are unlikely under the weights (%s) (p = %.2g < %g)", boardfmt.Counts(values), tiles, boardfmt.Weights(p.Spawn), pv, alpha)
		return
	}
	expected := make([]float64, len(cells))
	for c := range expected {
		expected[c] = float64(tiles) / float64(len(cells))
	}
	stat, k := stats.ChiSquare(cells, expected)
	if pc := stats.ChiSquareSF(stat, k-1); pc < alpha {
		res.fail(SpawnWrong, 0, "the start tiles' cells %v are unlikely under uniform placement over the %d cells (p = %.2g < %g)", cells, len(cells), pc, alpha)
	}
}

// winFirst plays one winning move, when the implementation loads states
// (it declares load-state) and the profile has a win tile: two halves of
// the win tile merged left on an otherwise empty board. What the move gives is not checked here (the
// cases check wins); ok is false when a call failed, recorded in res. A
// refusal (the implementation loads no such board) is not a failure: the
// starts are checked all the same.
func winFirst(impl Impl, p *engine.Profile, res *CaseResult) (ok bool) {
	l, loads := impl.(Loader)
	if h, _ := impl.Hello(); !loads || !h.Has(protocol.LoadState) || p.Win.Tile < 4 || p.Cols < 2 {
		return true
	}
	b, _ := engine.NewBoard(p.Rows, p.Cols)
	if b.Set(0, 0, p.Win.Tile/2) != nil || b.Set(0, 1, p.Win.Tile/2) != nil {
		return true // a win tile the board cannot hold half of
	}
	if _, err := l.Load(p.Name, LoadState{Board: b}); err != nil {
		if isRefusal(err) {
			return true
		}
		res.callFailed(err, 0, "load")
		return false
	}
	if _, err := impl.Move(engine.Left, nil); err != nil && !isRefusal(err) {
		res.callFailed(err, 0, "move left")
		return false
	}
	return true
}

// valuesP is the p-value of spawned values (n tiles, counted by value)
// under the profile's weights: an exact two-sided binomial test for two
// values, Pearson's chi-square for more; 1 for one value.
func valuesP(p *engine.Profile, values map[uint64]int, n int) float64 {
	var total float64
	for _, w := range p.Spawn {
		total += float64(w.Weight)
	}
	switch len(p.Spawn) {
	case 1:
		return 1
	case 2:
		hi := p.Spawn[1]
		return stats.BinomialTwoSided(n, values[hi.Value], float64(hi.Weight)/total)
	}
	obs, exp := make([]float64, len(p.Spawn)), make([]float64, len(p.Spawn))
	for i, w := range p.Spawn {
		obs[i], exp[i] = float64(values[w.Value]), float64(n)*float64(w.Weight)/total
	}
	stat, k := stats.ChiSquare(obs, exp)
	return stats.ChiSquareSF(stat, k-1)
}

// sameSeedSameGame plays the same seed twice, and against the engine:
// the games must be the same, move for move (tp1 makes them so).
func sameSeedSameGame(impl Impl, p *engine.Profile, res *CaseResult, alpha float64) {
	const seed = "tileproof-property"
	var first []ImplState
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
func noSpawnAfterNoop(impl Impl, p *engine.Profile, res *CaseResult, alpha float64) {
	var bs []engine.Board
	var ds []engine.Direction
	for _, text := range []string{"2 . . ./. . . ./. . . ./. . . .", "2 4 . ./4 2 . ./. . . ./. . . .", "2 4 8 16/. . . ./. . . ./. . . ."} {
		b, _ := engine.ParseBoard(text)
		for _, d := range engine.Directions {
			if !b.Legal(d) {
				bs, ds = append(bs, b), append(ds, d)
			}
		}
	}
	out, ok := playAll(impl, p, bs, ds, res)
	if !ok {
		return
	}
	for i, g := range out {
		if !g.refused && (g.mr.Changed || g.mr.State.Moves != 0) {
			res.failOn(LegalityDiffer, &bs[i], &g.mr.State.Board, "move %s changes nothing on the board loaded, but the implementation reports changed %v, %d moves", ds[i], g.mr.Changed, g.mr.State.Moves)
			return
		}
		if g.refused && !boardKept(impl, p, bs[i], ds[i], res) {
			return
		}
	}
}

// boardKept checks the board after a refused move, which the answer does
// not show: it loads b, plays the refused move d, then a legal move, whose
// slide must be the slide of b (a tile the refused move spawned would be
// in it). It reports whether the board was kept; a failure is recorded.
func boardKept(impl Impl, p *engine.Profile, b engine.Board, d engine.Direction, res *CaseResult) bool {
	var legal engine.Direction
	for _, l := range engine.Directions {
		if b.Legal(l) {
			legal = l
			break
		}
	}
	want, _ := b.Slide(legal)
	if _, err := impl.(Loader).Load(p.Name, LoadState{Board: b}); err != nil {
		res.callFailed(err, 0, "load")
		return false
	}
	if _, err := impl.Move(d, nil); err != nil && !isRefusal(err) {
		res.callFailed(err, 0, "move "+d.String())
		return false
	}
	mr, err := impl.Move(legal, nil)
	if err != nil {
		res.callFailed(err, 0, "move "+legal.String())
		return false
	}
	if slid := mr.Slid(); slid != want.Board {
		res.failBoards(SpawnWrong, 0, &b, want.Board, slid, "move %s is refused on the board loaded, and then move %s slides another board: the refused move changed the board", d, legal)
		return false
	}
	return true
}

// spawnDistribution draws distributionSample spawns on a board with one
// tile, which a move right sends to the end of row 0 leaving 15 empty
// cells, and tests the values against the profile's weights (exact
// binomial or chi-square) and the cells against uniform (chi-square), each
// at alpha.
func spawnDistribution(impl Impl, p *engine.Profile, res *CaseResult, alpha float64) {
	b, _ := engine.ParseBoard("2 . . ./. . . ./. . . ./. . . .")
	bs, ds := make([]engine.Board, distributionSample), make([]engine.Direction, distributionSample)
	for i := range bs {
		bs[i], ds[i] = b, engine.Right
	}
	out, ok := playAll(impl, p, bs, ds, res)
	if !ok {
		return
	}
	values := map[uint64]int{}
	cells := make([]float64, 16)
	for _, g := range out {
		if g.refused || g.mr.Spawn == nil {
			res.failOn(SpawnWrong, &b, implBoard(g), "moving right on the board loaded gave no spawn")
			return
		}
		values[g.mr.Spawn.Value]++
		cells[g.mr.Spawn.Row*4+g.mr.Spawn.Col]++
	}
	if pv := valuesP(p, values, distributionSample); pv < alpha {
		res.fail(SpawnWrong, 0, "the spawned values (%s) in %d spawns are unlikely under the weights (%s) (p = %.2g < %g)", boardfmt.Counts(values), distributionSample, boardfmt.Weights(p.Spawn), valuesP(p, values, distributionSample), alpha)
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
	if pc := stats.ChiSquareSF(stat, k-1); pc < alpha {
		res.fail(SpawnWrong, 0, "the spawns' cells %v are unlikely under uniform placement over the 15 empty cells (p = %.2g < %g)", cells, pc, alpha)
	}
}

// metamorphic checks what needs no expected answer, on random boards: a
// move left is the mirror of a move right on the mirrored board (and up of
// down); the tile sum after a move is the sum before plus the spawned
// tile; the points gained are the tiles the merges made (the potential
// difference of docs/replay-format.md).
func metamorphic(impl Impl, p *engine.Profile, res *CaseResult, alpha float64) {
	rng := rand.New(rand.NewPCG(2048, 4096))
	pairs := [][2]engine.Direction{{engine.Left, engine.Right}, {engine.Up, engine.Down}}
	// Each board is played four times: a move and the mirrored move on
	// the mirrored board, for both pairs of directions.
	var boards, bs []engine.Board
	var ds []engine.Direction
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
		boards = append(boards, b)
		for _, pair := range pairs {
			bs, ds = append(bs, b, mirrorBoard(b, pair[0] == engine.Left)), append(ds, pair[0], pair[1])
		}
	}
	out, ok := playAll(impl, p, bs, ds, res)
	if !ok {
		return
	}
	for k, b := range boards {
		for j, pair := range pairs {
			i := 4*k + 2*j
			a, m := out[i], out[i+1]
			mirror := bs[i+1]
			if want := mirrorBoard(a.slid, pair[0] == engine.Left); want != m.slid || a.mr.Gained != m.mr.Gained {
				res.failBoards(BoardDiverged, 0, &mirror, want, m.slid, "moving %s on the board loaded is not the mirror of moving %s on its mirror image%s", pair[1], pair[0], gains(m.mr.Gained, a.mr.Gained, "on the mirror image"))
				return
			}
			if a.refused || a.mr.Spawn == nil {
				res.failOn(IllegalHandled, &b, implBoard(a), "moving %s on the board loaded changes the board, but the implementation refused it or spawned nothing", pair[0])
				return
			}
			if sum := a.mr.State.Board.Sum(); sum != b.Sum()+a.mr.Spawn.Value {
				res.failOn(BoardDiverged, &b, &a.mr.State.Board, "after moving %s on the board loaded the tiles add up to %d, not %d + the spawned %d", pair[0], sum, b.Sum(), a.mr.Spawn.Value)
				return
			}
			if want := a.slid.Potential() - b.Potential(); a.mr.Gained != want {
				res.failOn(ScoreDiverged, &b, &a.mr.State.Board, "moving %s on the board loaded gained %d points; the tiles the merges made add up to %d", pair[0], a.mr.Gained, want)
				return
			}
		}
	}
}

// implBoard is the implementation's board after a property's move, nil
// when it refused the move.
func implBoard(g played) *engine.Board {
	if g.refused {
		return nil
	}
	return &g.mr.State.Board
}

// gains says the points two moves gained, when they differ: ", gaining
// 8 points, 4 by the rules"; "" when they agree (the difference is
// elsewhere).
func gains(got, want uint64, other string) string {
	if got == want {
		return ""
	}
	return fmt.Sprintf(", gaining %d points, %d %s", got, want, other)
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
func exhaustiveLines(impl Impl, p *engine.Profile, res *CaseResult, alpha float64) {
	const n = exhaustiveMaxExp + 1
	var bs []engine.Board
	var ds []engine.Direction
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
			if b.Empty() < 16 {
				bs, ds = append(bs, b), append(ds, d)
			}
		}
	}
	out, ok := playAll(impl, p, bs, ds, res)
	if !ok {
		return
	}
	for i, g := range out {
		b, d := bs[i], ds[i]
		want, _ := b.Slide(d)
		switch {
		case want.Changed && g.refused:
			res.failOn(IllegalHandled, &b, nil, "moving %s on the board loaded changes the board, but the implementation refused it", d)
		case !want.Changed && !g.refused && g.mr.Changed:
			res.failOn(LegalityDiffer, &b, &g.mr.State.Board, "moving %s on the board loaded changes nothing, but the implementation reports a change", d)
		case want.Changed && g.slid != want.Board:
			res.failBoards(BoardDiverged, 0, &b, want.Board, g.slid, "moving %s on the board loaded slides another board than the rules'%s", d, gains(g.mr.Gained, want.Gained, "by the rules"))
		case want.Changed && g.mr.Gained != want.Gained:
			res.failOn(ScoreDiverged, &b, &g.mr.State.Board, "moving %s on the board loaded gained %d points; the rules give %d", d, g.mr.Gained, want.Gained)
		default:
			continue
		}
		return
	}
}
