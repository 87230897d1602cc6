package conformance

// The statistical property checks: the starts, the spawns' values and
// cells, same seed same game, no spawn after a move that changes nothing.

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/boardfmt"
	"github.com/tileproof/tileproof/internal/stats"
	"github.com/tileproof/tileproof/protocol"
)

// startBoards first wins a game, when the implementation loads states and
// the profile has a win tile (a new game must not keep anything of the
// game before it), then starts startSample games the implementation's own
// way (from tp1 seeds when it declares seed-tp1, when each start must be
// tp1's) and checks each start: the profile's number of start tiles, each a value it
// spawns, score 0, no counted move, not over, and the legal moves of that
// board; then, over all the starts, the tiles' values against the
// profile's weights (exact binomial, or chi-square for more values) and
// their cells against uniform over the board (chi-square), each at alpha.
// Starts repeated more than chance repeats them fail before those tests,
// the failure showing the most common start: of several as common, the
// one a new game started on first.
func startBoards(impl Impl, h Hello, p *engine.Profile, res *CaseResult, alpha float64) {
	seeded := h.Has(protocol.SeedTP1)
	// Where the profile's source seeds every game (newGameSeed unstated),
	// starts may repeat: each board is one sample of the tests below.
	repeats := slices.Contains(p.Unstated, "newGameSeed")
	values := map[uint64]int{}
	cells := make([]float64, p.Rows*p.Cols)
	tiles := 0
	if !winFirst(impl, h, p, res) {
		return
	}
	boards := map[engine.Board]int{} // the starts, counted
	counts := map[int]int{}          // the starts by their number of tiles
	var order []engine.Board         // the starts, each once, in the order first started on
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
		again := boards[b] > 0
		if !again {
			order = append(order, b)
		}
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
		n := b.Cells() - b.Empty()
		switch {
		case n == 0:
			res.failOn(SpawnWrong, nil, &b, "a new game starts with no tile")
			return
		case n != p.StartTiles && (seeded || !slices.Contains(p.Unstated, "startTiles")):
			res.failOn(SpawnWrong, nil, &b, "a new game starts with %d tiles; profile %s starts with %d", n, p.Name, p.StartTiles)
			return
		}
		counts[n]++
		for c := range b.Cells() {
			if v := b.At(c/p.Cols, c%p.Cols); v != 0 && !(repeats && again) {
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
		if st.Score != 0 && !scoreUnstated(p) || st.Moves != 0 || st.Won != g.Won() || st.Over != g.Over() {
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
	// Two starts alike have the same number of tiles: by the numbers
	// seen, where the source leaves it open.
	var collision float64
	for n, k := range counts {
		f := float64(k) / startSample
		collision += f * f * startCollisionOf(p, n)
	}
	if pairs, lambda, pv := repeatTest(boards, startSample, collision); !seeded && !repeats && pv < alpha {
		// The most common start, the first started on of a tie.
		common := slices.MaxFunc(order, func(a, b engine.Board) int { return cmp.Compare(boards[a], boards[b]) })
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
func winFirst(impl Impl, h Hello, p *engine.Profile, res *CaseResult) (ok bool) {
	l, loads := impl.(Loader)
	if !loads || !h.Has(protocol.LoadState) || p.Win.Tile < 4 || p.Cols < 2 {
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
// the games must be the same, move for move (tp1 makes them so). Where a
// board first differs from tp1's game, it says what differs: the slide
// (a wrong merge is no fault of the generator's) or the spawn; a game
// the implementation says is over while tp1's plays on, at that move.
func sameSeedSameGame(impl Impl, h Hello, p *engine.Profile, res *CaseResult, alpha float64) {
	const seed = "tileproof-property"
	var first []ImplState
	for round := range 2 {
		st, err := impl.New(p.Name, seed, nil)
		if err != nil {
			res.callFailed(err, 0, "new")
			return
		}
		g, _ := engine.NewGame(p, seed)
		if st.Board != g.Board() {
			res.failBoards(BoardDiverged, 0, nil, g.Board(), st.Board, "seed %q: the start board is not tp1's", seed)
			return
		}
		for i := 0; i < 60 && !g.Over(); i++ {
			if round == 0 {
				first = append(first, st)
			} else if first[i] != st {
				res.failBoards(BoardDiverged, i, nil, first[i].Board, st.Board, "seed %q played twice: the games differ after %d moves", seed, i)
				return
			}
			if st.Over {
				res.fail(FlagsDiffer, i, "seed %q, after %d moves: the implementation says the game is over; tp1's game plays on", seed, i)
				return
			}
			before, d := g.Board(), g.LegalMoves()[0]
			mr, err := impl.Move(d, nil)
			if err != nil {
				if !res.driverFailure(err, i+1, "move") {
					res.fail(IllegalHandled, i+1, "move %s: %s", d, implMessage(err.Error()))
				}
				return
			}
			step, _ := g.Move(d)
			st = mr.State
			if st.Board != g.Board() {
				res.failBoards(BoardDiverged, i+1, &before, g.Board(), st.Board, "%s", tp1Difference(seed, i+1, d, g.Board(), step, mr))
				return
			}
		}
	}
}

// tp1Difference words where move n (d) of seed's game left the
// implementation's board (after mr) other than tp1's game, whose move
// gave step and the board want.
func tp1Difference(seed string, n int, d engine.Direction, want engine.Board, step engine.Step, mr MoveResult) string {
	at := fmt.Sprintf("seed %q, move %d (%s)", seed, n, d)
	switch sp := mr.Spawn; {
	case mr.slid() != slidBoard(want, step):
		return at + ": the board after the slide is not the rules' (a slide or a merge: not tp1's spawn)"
	case sp == nil:
		return fmt.Sprintf("%s: no tile spawned; tp1's spawn is %d at row %d, column %d", at, step.Spawn.Value, step.Spawn.Row, step.Spawn.Col)
	default:
		return fmt.Sprintf("%s: the spawn is %d at row %d, column %d; tp1's is %d at row %d, column %d", at, sp.Value, sp.Row, sp.Col, step.Spawn.Value, step.Spawn.Row, step.Spawn.Col)
	}
}

// noSpawnAfterNoop loads boards where a move changes nothing and checks
// no tile appears (checkSpawn fails a spawn after a move that did not
// change the board) and the move is not counted.
func noSpawnAfterNoop(impl Impl, h Hello, p *engine.Profile, res *CaseResult, alpha float64) {
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
	legal := engine.Directions[max(0, slices.IndexFunc(engine.Directions[:], b.Legal))]
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
	if slid := mr.slid(); slid != want.Board {
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
func spawnDistribution(impl Impl, h Hello, p *engine.Profile, res *CaseResult, alpha float64) {
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
		res.fail(SpawnWrong, 0, "the spawned values (%s) in %d spawns are unlikely under the weights (%s) (p = %.2g < %g)", boardfmt.Counts(values), distributionSample, boardfmt.Weights(p.Spawn), pv, alpha)
		return
	}
	expected := make([]float64, 16)
	for c := range expected {
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
