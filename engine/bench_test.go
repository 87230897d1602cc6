package engine

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/tileproof/tileproof/internal/plain"
)

// recordedGame is a game for the replay benchmarks: a seed and the
// counted moves a player made.
type recordedGame struct {
	seed    string
	moves   []Direction
	actions []Action // the moves as a log
}

// benchGames plays n games of tile-merge with a corner-keeping player that
// is random one move in four, so the games are long (hundreds of moves,
// many reaching 512 or 1024) and all different.
func benchGames(tb testing.TB, n int) []recordedGame {
	p, err := BuiltinProfile("tile-merge")
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	games := make([]recordedGame, n)
	for i := range games {
		seed := fmt.Sprintf("bench-%d", i)
		g, err := NewGame(p, seed)
		if err != nil {
			tb.Fatal(err)
		}
		var moves []Direction
		for !g.Over() {
			d := cornerMove(g, rng)
			if _, err := g.Move(d); err != nil {
				tb.Fatal(err)
			}
			moves = append(moves, d)
		}
		actions := make([]Action, len(moves))
		for j, d := range moves {
			actions[j] = Action(d)
		}
		games[i] = recordedGame{seed, moves, actions}
	}
	return games
}

// cornerMove is the move of the benchmarks' player: the first legal of
// down, left, right and up, but one time in four a legal move at random.
func cornerMove(g *Game, rng *rand.Rand) Direction {
	legal := g.LegalMoves()
	d := legal[0]
	for _, pref := range []Direction{Down, Left, Right, Up} {
		if g.Legal(pref) {
			d = pref
			break
		}
	}
	if rng.IntN(4) == 0 {
		d = legal[rng.IntN(len(legal))]
	}
	return d
}

var corpus = sync.OnceValue(func() []recordedGame { return benchGames(nil, 400) })

// BenchmarkReplay replays distinct recorded games (moves, spawns from
// tp1, legality and the finishing checks) and reports moves per second.
// The engine and the plain implementation run in the same benchmark run
// so that their ratio can be read off.
func BenchmarkReplay(b *testing.B) {
	games := corpus()
	p, _ := BuiltinProfile("tile-merge")
	rules, err := Compile(p)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("engine", func(b *testing.B) {
		moves := 0
		for i := 0; b.Loop(); i++ {
			rg := games[i%len(games)]
			g, err := rules.NewGame(rg.seed)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := g.Play(rg.actions, nil); err != nil {
				b.Fatal(err)
			}
			if !g.Over() {
				b.Fatal("replay did not end the game")
			}
			moves += len(rg.moves)
		}
		reportMoves(b, moves)
	})
	b.Run("plain", func(b *testing.B) {
		moves := 0
		w := plainWeights(p)
		for i := 0; b.Loop(); i++ {
			rg := games[i%len(games)]
			g, err := plain.NewOracle(rg.seed, 4, 4, 2, w)
			if err != nil {
				b.Fatal(err)
			}
			for _, d := range rg.moves {
				if !g.Play(d.Letter()) {
					b.Fatal("illegal move in replay")
				}
			}
			if !g.Over() {
				b.Fatal("replay did not end the game")
			}
			moves += len(rg.moves)
		}
		reportMoves(b, moves)
	})
}

// BenchmarkNewGame times starting a game from a seed (SHA-256 of the
// seed, two spawns), which a replay pays once.
func BenchmarkNewGame(b *testing.B) {
	p, _ := BuiltinProfile("tile-merge")
	rules, _ := Compile(p)
	seeds := make([]string, 1024)
	for i := range seeds {
		seeds[i] = fmt.Sprint("seed-", i)
	}
	for i := 0; b.Loop(); i++ {
		if _, err := rules.NewGame(seeds[i&1023]); err != nil {
			b.Fatal(err)
		}
	}
}

func reportMoves(b *testing.B, moves int) {
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(moves)/sec/1e6, "Mmoves/s")
	b.ReportMetric(sec*1e9/float64(moves), "ns/move")
}

// benchBoards collects distinct positions from the recorded games.
func benchBoards(n int) []Board {
	var boards []Board
	for _, rg := range corpus() {
		p, _ := BuiltinProfile("tile-merge")
		g, _ := NewGame(p, rg.seed)
		for j, d := range rg.moves {
			if j%7 == 0 && len(boards) < n {
				boards = append(boards, g.Board())
			}
			g.Move(d)
		}
	}
	return boards
}

// BenchmarkMove times a single 4x4 move on distinct positions, cycling the
// direction: the packed fast path, the generic board and the plain
// implementation.
func BenchmarkMove(b *testing.B) {
	boards := benchBoards(1 << 12)
	packs := make([]packed, len(boards))
	plains := make([]plain.Cells, len(boards))
	for i, bd := range boards {
		packs[i], plains[i] = toPacked(bd), toPlain(bd)
	}
	mask := len(boards) - 1
	if len(boards)&mask != 0 {
		b.Fatalf("%d boards, want a power of two", len(boards))
	}
	b.Run("packed", func(b *testing.B) {
		var sink uint64
		for i := 0; b.Loop(); i++ {
			q, gained, _ := packs[i&mask].slide(Direction(i & 3))
			sink += q.lo ^ gained
		}
		benchSink = sink
	})
	for _, d := range Directions {
		b.Run("packed-"+d.String(), func(b *testing.B) {
			var sink uint64
			for i := 0; b.Loop(); i++ {
				q, gained, _ := packs[i&mask].slide(d)
				sink += q.lo ^ gained
			}
			benchSink = sink
		})
	}
	b.Run("board", func(b *testing.B) {
		var sink uint64
		for i := 0; b.Loop(); i++ {
			s, _ := boards[i&mask].Slide(Direction(i & 3))
			sink += s.Gained
		}
		benchSink = sink
	})
	b.Run("plain", func(b *testing.B) {
		var sink uint64
		for i := 0; b.Loop(); i++ {
			_, gained, _ := plain.Move(plains[i&mask], "UDLR"[i&3])
			sink += gained
		}
		benchSink = sink
	})
}

var benchSink uint64

// BenchmarkReplayGenerators replays games of hallabois-4x4 whose spawns
// come from each generator, each game played by the corner-keeping
// player of benchGames under its own: tp1 takes the fast loop, the
// hallabois generator the general path (docs/peers.md gives the ratio).
func BenchmarkReplayGenerators(b *testing.B) {
	p, _ := BuiltinProfile("hallabois-4x4")
	rules, err := Compile(p)
	if err != nil {
		b.Fatal(err)
	}
	for _, gen := range []Generator{TP1, lcg(b)} {
		rng := rand.New(rand.NewPCG(7, 8))
		type game struct {
			seed string
			log  []Action
		}
		games := make([]game, 100)
		for i := range games {
			seed := fmt.Sprint(1000 + i)
			g, err := rules.NewGameWith(gen, seed)
			if err != nil {
				b.Fatal(err)
			}
			var log []Action
			for !g.Over() {
				d := cornerMove(g, rng)
				g.Move(d)
				log = append(log, Action(d))
			}
			games[i] = game{seed, log}
		}
		b.Run(gen.String(), func(b *testing.B) {
			moves := 0
			for i := 0; b.Loop(); i++ {
				rg := games[i%len(games)]
				g, err := rules.NewGameWith(gen, rg.seed)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := g.Play(rg.log, nil); err != nil || !g.Over() {
					b.Fatal("replay did not end the game: ", err)
				}
				moves += len(rg.log)
			}
			reportMoves(b, moves)
		})
	}
}
