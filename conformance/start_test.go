package conformance

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// ownStart is the engine without seed-tp1 (its starts its own), with its
// start board changed by start: a black box whose start is wrong.
type ownStart struct {
	*Builtin
	start func(b engine.Board, n int) (engine.Board, uint64)
	n     int
}

func (o *ownStart) Hello() (Hello, error) { return withoutTP1(o.Builtin) }

// withoutTP1 is b's hello without seed-tp1: an implementation whose new
// games start its own way.
func withoutTP1(b *Builtin) (Hello, error) {
	h, err := b.Hello()
	h.Features = slices.DeleteFunc(slices.Clone(h.Features), func(f string) bool { return f == "seed-tp1" })
	return h, err
}

func (o *ownStart) New(profile, seed string, setup *engine.Setup) (ImplState, error) {
	st, err := o.Builtin.New(profile, seed, setup)
	if err != nil {
		return st, err
	}
	o.n++
	b, score := o.start(st.Board, o.n)
	p, _ := o.profile(profile, setup)
	rng, _ := engine.NewRNG(o.nextSeed())
	if o.game, err = engine.Load(p, engine.State{Board: b, Score: score, RNG: &rng}); err != nil {
		return ImplState{}, err
	}
	return engineState(o.game), nil
}

func runStart(t *testing.T, impl Impl) CaseResult {
	t.Helper()
	return runStartUnder(t, impl, "tile-merge")
}

func runStartUnder(t *testing.T, impl Impl, profile string) CaseResult {
	t.Helper()
	rep, err := Run(t.Context(), loadRepoPack(t), impl, Options{Properties: true, Profiles: []string{profile}, Run: regexp.MustCompile(`^properties/start$`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 {
		t.Fatalf("%d results", len(rep.Results))
	}
	return rep.Results[0]
}

// TestStartCheck: the implementation's own start, played many times, is
// checked tile by tile and in its distribution; each break of it fails.
func TestStartCheck(t *testing.T) {
	if res := runStart(t, &ownStart{Builtin: &Builtin{}, start: func(b engine.Board, _ int) (engine.Board, uint64) { return b, 0 }}); res.Status != Pass {
		t.Fatalf("the engine's own start: %s: %s", res.Status, res.Reason)
	}
	for _, tc := range []struct {
		name  string
		start func(b engine.Board, n int) (engine.Board, uint64)
		want  string
	}{
		{"three tiles", func(b engine.Board, _ int) (engine.Board, uint64) {
			for c := range 16 {
				if b.At(c/4, c%4) == 0 {
					b.Set(c/4, c%4, 2)
					break
				}
			}
			return b, 0
		}, "starts with 3 tiles"},
		{"a tile of 8", func(b engine.Board, n int) (engine.Board, uint64) {
			if n == 50 {
				for c := range 16 {
					if b.At(c/4, c%4) != 0 {
						b.Set(c/4, c%4, 8)
						break
					}
				}
			}
			return b, 0
		}, "starts with a 8"},
		{"score", func(b engine.Board, _ int) (engine.Board, uint64) { return b, 4 }, "starts with score 4"},
		{"half 4s", func(b engine.Board, n int) (engine.Board, uint64) {
			for c := range 16 {
				if v := b.At(c/4, c%4); v != 0 && n%2 == 0 {
					b.Set(c/4, c%4, 4)
				}
			}
			return b, 0
		}, "values"},
		// Never the last cell (a start that all but repeats itself, such
		// as always the corners, fails as repeated starts).
		{"never the last cell", func(b engine.Board, _ int) (engine.Board, uint64) {
			if v := b.At(3, 3); v != 0 {
				for c := range 15 {
					if b.At(c/4, c%4) == 0 {
						b.Set(c/4, c%4, v)
						b.Set(3, 3, 0)
						break
					}
				}
			}
			return b, 0
		}, "cells"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			profile := "tile-merge"
			if tc.name == "three tiles" {
				profile = "classic" // tile-merge's source gives no number
			}
			res := runStartUnder(t, &ownStart{Builtin: &Builtin{}, start: tc.start}, profile)
			if !res.Status.Failed() || !strings.Contains(res.Reason, tc.want) {
				t.Errorf("%s: %s, want a failure saying %q", res.Status, res.Reason, tc.want)
			}
		})
	}
}

// refusesAndSpawns is the engine whose refused moves spawn a tile all the
// same, unseen in the refusal's answer.
type refusesAndSpawns struct{ *Builtin }

func (r refusesAndSpawns) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	mr, err := r.Builtin.Move(d, spawn)
	if isRefusal(err) && r.game != nil {
		st := r.game.State()
		for c := range st.Board.Cells() {
			if st.Board.At(c/st.Board.Cols(), c%st.Board.Cols()) == 0 {
				st.Board.Set(c/st.Board.Cols(), c%st.Board.Cols(), 2)
				break
			}
		}
		st.Prev = nil
		r.game, _ = engine.Load(r.game.Rules().Profile(), st)
	}
	return mr, err
}

// TestNoSpawnAfterRefusedMove: in a profile that refuses a move that
// changes nothing, a tile spawned by the refused move is found.
func TestNoSpawnAfterRefusedMove(t *testing.T) {
	for _, impl := range []Impl{&Builtin{}, refusesAndSpawns{&Builtin{}}} {
		rep, err := Run(t.Context(), loadRepoPack(t), impl, Options{Properties: true, Profiles: []string{"tile-merge"}, Run: regexp.MustCompile(`^properties/no-spawn-after-noop$`)})
		if err != nil {
			t.Fatal(err)
		}
		res := rep.Results[0]
		_, broken := impl.(refusesAndSpawns)
		if broken != res.Status.Failed() || broken && !strings.Contains(res.Reason, "the refused move changed the board") {
			t.Errorf("%T: %s: %s", impl, res.Status, res.Reason)
		}
	}
}

// keepsWin is the engine whose new game starts won once a game before it
// was won: the new game keeps a flag of the old one.
type keepsWin struct {
	*Builtin
	won bool
}

func (k *keepsWin) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	mr, err := k.Builtin.Move(d, spawn)
	if err == nil && k.game.Won() {
		k.won = true
	}
	return mr, err
}

func (k *keepsWin) New(profile, seed string, setup *engine.Setup) (ImplState, error) {
	st, err := k.Builtin.New(profile, seed, setup)
	st.Won = st.Won || k.won
	return st, err
}

// TestStartAfterWin: the start check wins a game first, so a new game that
// keeps the old game's win is found without a case run before it.
func TestStartAfterWin(t *testing.T) {
	res := runStart(t, &keepsWin{Builtin: &Builtin{}})
	if !res.Status.Failed() || !strings.Contains(res.Reason, "won true") {
		t.Errorf("%s: %s, want a failure saying the new game starts won", res.Status, res.Reason)
	}
}

// TestStartAllTheSame: an implementation whose every new game starts on
// one board (a generator seeded by the clock, all in one second) fails
// the start check saying so, not only by its values.
func TestStartAllTheSame(t *testing.T) {
	var once engine.Board
	res := runStart(t, &ownStart{Builtin: &Builtin{}, start: func(b engine.Board, n int) (engine.Board, uint64) {
		if n == 1 {
			once = b
		}
		return once, 0
	}})
	if !res.Status.Failed() || !strings.Contains(res.Reason, "all 200 new games start on the same board") {
		t.Errorf("%s: %s, want a failure saying every start is the same", res.Status, res.Reason)
	}
}

// TestStartRepeated: new games that repeat a few starts (a generator
// seeded by the clock in whole seconds: 40 games a second) fail the start
// check as repeated starts, before their values are tested, the failure
// showing the first of the five most common starts (all tie at 40),
// whatever the order a map gives them in; the engine's own starts, which
// repeat only by chance, pass it.
func TestStartRepeated(t *testing.T) {
	var starts []engine.Board
	res := runStart(t, &ownStart{Builtin: &Builtin{}, start: func(b engine.Board, n int) (engine.Board, uint64) {
		if (n-1)%40 == 0 {
			starts = append(starts, b)
		}
		return starts[len(starts)-1], 0
	}})
	if !res.Status.Failed() || !strings.Contains(res.Reason, "pairs of the 200 new games start on the same board (5 boards in all; the one shown 40 times)") {
		t.Errorf("%s: %s, want a failure saying the starts repeat", res.Status, res.Reason)
	}
	if res.Got == nil || *res.Got != starts[0] {
		t.Errorf("the board shown:\n%v\nwant the first start of the five:\n%v", res.Got, starts[0])
	}
	if res := runStart(t, &ownStart{Builtin: &Builtin{}, start: func(b engine.Board, n int) (engine.Board, uint64) { return b, 0 }}); res.Status != Pass {
		t.Errorf("the engine's own starts: %s: %s", res.Status, res.Reason)
	}
}

// startsWith returns a start of n tiles on random cells, each a 2 or
// (one time in ten) a 4, drawn from r.
func startsWith(r *rand.Rand, n int) func(b engine.Board, _ int) (engine.Board, uint64) {
	return func(b engine.Board, _ int) (engine.Board, uint64) {
		var out engine.Board
		out, _ = engine.NewBoard(b.Rows(), b.Cols())
		for _, c := range r.Perm(b.Cells())[:n] {
			v := uint64(2)
			if r.IntN(10) == 0 {
				v = 4
			}
			out.Set(c/b.Cols(), c%b.Cols(), v)
		}
		return out, 0
	}
}

// TestStartTilesUnstated: the Tile Merge API and the PGS document do not
// say how many tiles a game starts with, so an implementation of
// tile-merge or pgs that starts with one or three (random, independent)
// passes the start check; classic's source starts with two, and one
// fails there. No profile starts on an empty board.
func TestStartTilesUnstated(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, profile := range []string{"tile-merge", "pgs"} {
		for _, n := range []int{1, 3} {
			if res := runStartUnder(t, &ownStart{Builtin: &Builtin{}, start: startsWith(r, n)}, profile); res.Status != Pass {
				t.Errorf("%s, %d start tiles: %s: %s", profile, n, res.Status, res.Reason)
			}
		}
		if res := runStartUnder(t, &ownStart{Builtin: &Builtin{}, start: startsWith(r, 0)}, profile); res.Status != SpawnWrong || !strings.Contains(res.Reason, "starts with no tile") {
			t.Errorf("%s, no start tile: %s: %s", profile, res.Status, res.Reason)
		}
	}
	if res := runStartUnder(t, &ownStart{Builtin: &Builtin{}, start: startsWith(r, 1)}, "classic"); res.Status != SpawnWrong || !strings.Contains(res.Reason, "starts with 1 tiles; profile classic starts with 2") {
		t.Errorf("classic, 1 start tile: %s: %s", res.Status, res.Reason)
	}
	// A profile file says so itself (data, no Go change): classic's rules
	// with the start left open take one tile; without the key, not.
	for text, want := range map[string]Status{
		"name: open-start\nbase: classic\nunstated: [startTiles]\n": Pass,
		"name: open-start\nbase: classic\n":                         SpawnWrong,
	} {
		p, err := engine.ParseProfile("open-start.yaml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		impl := &ownStart{Builtin: &Builtin{Profiles: []*engine.Profile{p}}, start: startsWith(r, 1)}
		rep, err := Run(t.Context(), loadRepoPack(t), impl, Options{Properties: true, Profiles: []string{p.Name}, Known: []*engine.Profile{p}, Run: regexp.MustCompile(`^properties/start$`)})
		if err != nil || len(rep.Results) != 1 {
			t.Fatalf("%q: %v, %d results", text, err, len(rep.Results))
		}
		if res := rep.Results[0]; res.Status != want {
			t.Errorf("%q, 1 start tile: %s: %s; want %s", text, res.Status, res.Reason, want)
		}
	}
}
