package player

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/testkit/games"
)

func builtinRules(t testing.TB, name string) *engine.Rules { return games.Rules(t, name) }

// loadBoard loads the board of text into a game of r.
func loadBoard(t testing.TB, r *engine.Rules, text string) *engine.Game {
	t.Helper()
	b, err := engine.ParseBoard(text)
	if err == nil {
		var g *engine.Game
		if g, err = r.Load(engine.State{Board: b}); err == nil {
			return g
		}
	}
	t.Fatal(err)
	return nil
}

// sizedRules returns the rules of tile-merge on a rows x cols board, with
// extra YAML lines appended to the profile.
func sizedRules(t testing.TB, rows, cols int, extra string) *engine.Rules {
	t.Helper()
	src := fmt.Sprintf("name: x\nbase: tile-merge\nrows: %d\ncols: %d\n%s", rows, cols, extra)
	p, err := engine.ParseProfile("x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r, err := engine.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func newGame(t testing.TB, r *engine.Rules, seed string) *engine.Game {
	t.Helper()
	g, err := r.NewGame(seed)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// play plays g with p until the run is over or limit moves (0: no limit)
// have been counted, checking before each move that the choice is one of
// the legal moves and that the game accepts it and counts it. It returns
// the moves as a log.
func play(t testing.TB, g *engine.Game, p Player, limit int) string {
	t.Helper()
	var log []engine.Action
	for !g.Over() && (limit == 0 || g.Moves() < limit) {
		legal := g.LegalMoves()
		d := p.Choose(g)
		if !slices.Contains(legal, d) {
			t.Fatalf("%s chose %v, not one of the legal moves %v, after %d moves on\n%v", p.Name(), d, legal, g.Moves(), g.Board())
		}
		step, err := g.Move(d)
		if err != nil {
			t.Fatalf("move %d (%v): %v", g.Moves()+1, d, err)
		}
		if !step.Changed {
			t.Fatalf("move %d (%v) changed nothing", g.Moves()+1, d)
		}
		log = append(log, engine.Action(d))
	}
	return engine.FormatActions(log)
}

func TestNamesAndNew(t *testing.T) {
	if got, want := Names(), []string{"expectimax", "random"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	if !slices.IsSorted(Names()) {
		t.Errorf("Names() is not sorted")
	}
	for _, name := range Names() {
		p, err := New(name, 1)
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		if p.Name() != name {
			t.Errorf("New(%q).Name() = %q", name, p.Name())
		}
	}
	if _, err := New("greedy", 1); err == nil || !strings.Contains(err.Error(), "greedy") {
		t.Errorf("New(greedy) error = %v, want one naming the player", err)
	}
}

// TestRandomLegal plays many whole games of every built-in profile with
// the random player.
func TestRandomLegal(t *testing.T) {
	for _, name := range engine.BuiltinNames() {
		r := builtinRules(t, name)
		for i := range 40 {
			g := newGame(t, r, fmt.Sprintf("random-%d", i))
			play(t, g, NewRandom(uint64(i)), 0)
			if !g.Over() {
				t.Fatalf("%s game %d is not over", name, i)
			}
		}
	}
}

func TestRandomReproducible(t *testing.T) {
	r := builtinRules(t, "tile-merge")
	logs := map[string]bool{}
	for seed := range uint64(5) {
		a := play(t, newGame(t, r, "repro"), NewRandom(seed), 0)
		b := play(t, newGame(t, r, "repro"), NewRandom(seed), 0)
		if a != b {
			t.Fatalf("seed %d: two games differ:\n%s\n%s", seed, a, b)
		}
		logs[a] = true
	}
	if len(logs) < 5 {
		t.Errorf("5 seeds made only %d different games", len(logs))
	}
}

// TestRandomUniform checks that each legal move is about equally likely.
func TestRandomUniform(t *testing.T) {
	r := builtinRules(t, "tile-merge")
	g := loadBoard(t, r, "2 4 . .\n. . . .\n. . . .\n. . . .")
	legal := g.LegalMoves() // down and right: the tiles are at the top left
	p := NewRandom(42)
	count := map[engine.Direction]int{}
	const n = 4000
	for range n {
		count[p.Choose(g)]++
	}
	for _, d := range legal {
		if c := count[d]; c < n/len(legal)*9/10 || c > n/len(legal)*11/10 {
			t.Errorf("%v chosen %d times in %d among %v", d, c, n, legal)
		}
	}
	if len(count) != len(legal) {
		t.Errorf("chose %v, legal moves %v", count, legal)
	}
}

func TestNoLegalMove(t *testing.T) {
	r := builtinRules(t, "tile-merge")
	g := loadBoard(t, r, "2 4 2 4\n4 2 4 2\n2 4 2 4\n4 2 4 2")
	if !g.Over() {
		t.Fatal("a blocked board is not over")
	}
	for _, p := range []Player{NewRandom(1), NewExpectimax(ExpectimaxOptions{})} {
		if d := p.Choose(g); d != engine.Up {
			t.Errorf("%s chose %v on a game with no legal move, want up", p.Name(), d)
		}
	}
}

// TestExpectimaxLegal plays games of every built-in profile with the
// expectimax player: greedy (depth 1) to the end, and adaptive for the first
// moves, where it searches on an open board, and from a crowded board on,
// where it searches deeper.
func TestExpectimaxLegal(t *testing.T) {
	t.Parallel() // CPU alone: beside the others, on the cores they leave idle
	limit := 300
	if testing.Short() {
		limit = 60
	}
	for _, name := range engine.BuiltinNames() {
		r := builtinRules(t, name)
		g := newGame(t, r, "legal-"+name)
		play(t, g, NewExpectimax(ExpectimaxOptions{Depth: 1}), 0)
		if !g.Over() {
			t.Fatalf("%s: the game is not over", name)
		}
		play(t, newGame(t, r, "legal-"+name), NewExpectimax(ExpectimaxOptions{}), limit)
	}
	// A crowded board: the adaptive depth searches 3 moves deep.
	r := builtinRules(t, "tile-merge")
	b, err := engine.ParseBoard("2 8 2 16\n4 32 64 4\n8 128 256 2\n. . 1024 512")
	if err != nil {
		t.Fatal(err)
	}
	rng, err := engine.NewRNG("crowded")
	if err != nil {
		t.Fatal(err)
	}
	g, err := r.Load(engine.State{Board: b, RNG: &rng})
	if err != nil {
		t.Fatal(err)
	}
	play(t, g, NewExpectimax(ExpectimaxOptions{}), limit)
	// A profile that spawns three tiles, with a negative (adaptive) depth.
	r = sizedRules(t, 4, 4, "spawn: {2: 6, 4: 3, 8: 1}\n")
	play(t, newGame(t, r, "spawn-8"), NewExpectimax(ExpectimaxOptions{Depth: -1}), limit)
}

// TestExpectimaxDeterministic asks two players for the moves of the same
// positions in different orders: the choice depends on the position alone.
func TestExpectimaxDeterministic(t *testing.T) {
	t.Parallel() // CPU alone: beside the others, on the cores they leave idle
	r := builtinRules(t, "tile-merge")
	var states []engine.State
	var want []engine.Direction
	p := NewExpectimax(ExpectimaxOptions{})
	g := newGame(t, r, "determinism")
	for !g.Over() && g.Moves() < 400 {
		states = append(states, g.State())
		d := p.Choose(g)
		want = append(want, d)
		if _, err := g.Move(d); err != nil {
			t.Fatal(err)
		}
	}
	q := NewExpectimax(ExpectimaxOptions{})
	for i := len(states) - 1; i >= 0; i-- {
		g, err := r.Load(states[i])
		if err != nil {
			t.Fatal(err)
		}
		if d := q.Choose(g); d != want[i] {
			t.Fatalf("move %d: chose %v, then %v\n%v", i+1, want[i], d, states[i].Board)
		}
		if d := q.Choose(g); d != want[i] {
			t.Fatalf("move %d: chose %v, then %v asked again", i+1, want[i], d)
		}
	}
	// And a replay of the game gives the same moves.
	a := play(t, newGame(t, r, "determinism"), NewExpectimax(ExpectimaxOptions{}), 400)
	b := play(t, newGame(t, r, "determinism"), NewExpectimax(ExpectimaxOptions{}), 400)
	if a != b {
		t.Fatalf("two games differ:\n%s\n%s", a, b)
	}
}

// TestBoardSizes plays the expectimax player on other board sizes. A 3x3
// game is short, so the adaptive player plays it to the end. A 5x5 game by
// the adaptive player lasts 10,000 to 30,000 moves (a minute or more), so
// the greedy player (depth 1) plays one to the end, and the adaptive player
// plays under a move limit, which also ends the run.
func TestBoardSizes(t *testing.T) {
	t.Parallel() // CPU alone: beside the others, on the cores they leave idle
	for i := range 3 {
		g := newGame(t, sizedRules(t, 3, 3, ""), fmt.Sprint("3x3-", i))
		play(t, g, NewExpectimax(ExpectimaxOptions{}), 0)
		if g.Result() != engine.NoMoves {
			t.Fatalf("3x3 game %d: result %v", i, g.Result())
		}
		t.Logf("3x3 game %d: max tile %d in %d moves", i, g.MaxTile(), g.Moves())
	}

	g := newGame(t, sizedRules(t, 5, 5, ""), "5x5")
	play(t, g, NewExpectimax(ExpectimaxOptions{Depth: 1}), 0)
	if g.Result() != engine.NoMoves {
		t.Fatalf("5x5 game: result %v", g.Result())
	}
	t.Logf("5x5 game, depth 1: max tile %d in %d moves", g.MaxTile(), g.Moves())

	limit := 600
	if testing.Short() {
		limit = 150
	}
	g = newGame(t, sizedRules(t, 5, 5, fmt.Sprintf("moveLimit: %d\n", limit)), "5x5")
	play(t, g, NewExpectimax(ExpectimaxOptions{}), 0)
	if g.Result() != engine.MoveLimitReached {
		t.Fatalf("5x5 game: result %v", g.Result())
	}
	t.Logf("5x5 game, adaptive: max tile %d in %d moves", g.MaxTile(), g.Moves())

	// The other shapes, briefly: the smallest, a non-square one, the largest.
	for _, size := range [][2]int{{2, 2}, {3, 6}, {8, 8}} {
		r := sizedRules(t, size[0], size[1], "moveLimit: 40\n")
		g := newGame(t, r, "sizes")
		play(t, g, NewExpectimax(ExpectimaxOptions{}), 0)
		if !g.Over() {
			t.Fatalf("%dx%d: the game is not over", size[0], size[1])
		}
	}
}

// TestStrength plays ten tile-merge games with the default expectimax
// player, every move checked legal, and asks that at least seven reach
// 2048. A game stops once it reaches 2048 (what is asked) or is over; with
// TILEPROOF_MEASURE set it plays on to its end, for docs/engine.md's
// figures (how many reach 4096, the time a move). The games run on as many
// goroutines as there are CPUs, each with its own player.
func TestStrength(t *testing.T) {
	t.Parallel() // CPU alone: beside the others, on the cores they leave idle
	if testing.Short() {
		t.Skip("ten games take 5 to 20 s on two cores")
	}
	const n, want = 10, 7
	whole := os.Getenv("TILEPROOF_MEASURE") != ""
	r := builtinRules(t, "tile-merge")
	type result struct {
		max     uint64
		moves   int
		elapsed time.Duration
		slides  int
		err     string
	}
	results := make([]result, n)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			p := NewExpectimax(ExpectimaxOptions{}).(*expectimax)
			for i := range jobs {
				g, err := r.NewGame(fmt.Sprint("strength-", i))
				if err != nil {
					results[i].err = err.Error()
					continue
				}
				res := &results[i]
				start := time.Now()
				for !g.Over() && (whole || g.MaxTile() < 2048) {
					d := p.Choose(g)
					res.slides += p.slides
					if !g.Legal(d) {
						res.err = fmt.Sprintf("move %d: %v is not legal", g.Moves()+1, d)
						break
					}
					if _, err := g.Move(d); err != nil {
						res.err = err.Error()
						break
					}
				}
				res.elapsed = time.Since(start)
				res.max, res.moves = g.MaxTile(), g.Moves()
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

	reached := map[uint64]int{}
	var moves, slides int
	var elapsed time.Duration
	var maxes []uint64
	for i, res := range results {
		if res.err != "" {
			t.Fatalf("game strength-%d: %s", i, res.err)
		}
		t.Logf("strength-%d: max tile %5d, %4d moves, %.2f ms a move", i, res.max, res.moves,
			float64(res.elapsed.Microseconds())/1e3/float64(res.moves))
		maxes = append(maxes, res.max)
		moves += res.moves
		slides += res.slides
		elapsed += res.elapsed
		for _, tile := range []uint64{2048, 4096, 8192} {
			if res.max >= tile {
				reached[tile]++
			}
		}
	}
	if whole {
		t.Logf("max tiles %v: %d/%d reached 2048, %d reached 4096, %d reached 8192", maxes, reached[2048], n, reached[4096], reached[8192])
	} else {
		t.Logf("max tiles %v: %d/%d reached 2048 (each game stopped there; TILEPROOF_MEASURE plays on)", maxes, reached[2048], n)
	}
	t.Logf("mean %d moves a game; %.2f ms and %d Board.Slide calls a move on average",
		moves/n, float64(elapsed.Microseconds())/1e3/float64(moves), slides/moves)
	if reached[2048] < want {
		t.Errorf("%d of %d games reached 2048, want at least %d", reached[2048], n, want)
	}
}

// midGamePositions returns positions of 4x4 tile-merge games played by the
// greedy player (fast), every 25 moves from move 100 on.
func midGamePositions(b *testing.B) []*engine.Game {
	r := builtinRules(b, "tile-merge")
	var out []*engine.Game
	greedy := NewExpectimax(ExpectimaxOptions{Depth: 1})
	for i := range 8 {
		g := newGame(b, r, fmt.Sprint("bench-", i))
		for !g.Over() {
			if g.Moves() >= 100 && g.Moves()%25 == 0 {
				pos, err := r.Load(g.State())
				if err != nil {
					b.Fatal(err)
				}
				out = append(out, pos)
			}
			if _, err := g.Move(greedy.Choose(g)); err != nil {
				b.Fatal(err)
			}
		}
	}
	return out
}

// BenchmarkExpectimaxChoose measures one choice of the default (adaptive)
// player on mid-game 4x4 positions, open and crowded.
func BenchmarkExpectimaxChoose(b *testing.B) {
	positions := midGamePositions(b)
	for _, depth := range []int{0, 1, 2, 3} {
		b.Run(fmt.Sprint("depth-", depth), func(b *testing.B) {
			p := NewExpectimax(ExpectimaxOptions{Depth: depth}).(*expectimax)
			slides, i := 0, 0
			for b.Loop() {
				p.Choose(positions[i%len(positions)])
				slides += p.slides
				i++
			}
			b.ReportMetric(float64(slides)/float64(i), "slides/op")
		})
	}
}

func BenchmarkRandomChoose(b *testing.B) {
	positions := midGamePositions(b)
	p := NewRandom(1)
	i := 0
	for b.Loop() {
		p.Choose(positions[i%len(positions)])
		i++
	}
}

// TestEvaluatorTable checks the table lookup of the evaluation against the
// direct computation, on every board shape that uses tables.
func TestEvaluatorTable(t *testing.T) {
	ev := getDefaultEvaluator()
	rng := rand.New(rand.NewPCG(1, 2))
	for rows := 2; rows <= 4; rows++ {
		for cols := 2; cols <= 4; cols++ {
			for range 2000 {
				g := grid{rows: rows, cols: cols}
				for i := range rows * cols {
					if rng.IntN(3) > 0 {
						g.cells[i] = uint8(1 + rng.IntN(15))
						g.maxExp = max(g.maxExp, g.cells[i])
					}
				}
				if got, direct := ev.score(&g), ev.directScore(&g); got != direct {
					t.Fatalf("%dx%d %v: table %v, direct %v", rows, cols, g.cells[:rows*cols], got, direct)
				}
			}
		}
	}
}

// TestEvaluatorPrefersOrder checks the heuristic on two boards with the
// same tiles: in a chain from a corner, and scattered.
func TestEvaluatorPrefersOrder(t *testing.T) {
	ev := getDefaultEvaluator()
	score := func(text string) float64 {
		b, err := engine.ParseBoard(text)
		if err != nil {
			t.Fatal(err)
		}
		g := readGrid(&b)
		return ev.score(&g)
	}
	ordered := score("1024 512 256 128\n8 16 32 64\n4 2 . .\n. . . .")
	scattered := score("2 512 . 128\n8 1024 32 .\n64 4 256 .\n. 16 . .")
	if ordered <= scattered {
		t.Errorf("ordered board %v, scattered %v", ordered, scattered)
	}
}
