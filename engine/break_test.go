package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// loadScore loads a game of p on board with a score and a tp1 generator.
func loadScore(t *testing.T, p *Profile, board string, score uint64) *Game {
	t.Helper()
	g, err := Load(p, State{Board: mustBoard(t, board), Score: score, RNG: seeded("break")})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestBreak plays the hallabois break: the tiles below 16 cleared, the
// price paid, no spawn, no move counted, the generator untouched; three
// a run; and refused, the state unchanged, without the price or a break
// left.
func TestBreak(t *testing.T) {
	p := mustProfile(t, "hallabois-4x4")
	g := loadScore(t, p, "2 4 8 16/32 2 4 8/16 64 2 .  /. . 4 2", 4500)
	before := g.State()
	if _, err := g.Do(Break); err != nil {
		t.Fatal(err)
	}
	want := mustBoard(t, ". . . 16/32 . . ./16 64 . ./. . . .")
	if st := g.State(); st.Board != want || st.Score != 3500 || st.Moves != 0 || st.Breaks != 1 || *st.RNG != *before.RNG || st.Result != Playing || g.MaxTile() != 64 {
		t.Fatalf("after a break: %+v\n%s, max %d", st, st.Board, g.MaxTile())
	}
	// A break that clears nothing still costs the price.
	if err := g.Break(); err != nil || g.Board() != want || g.Score() != 2500 || g.Breaks() != 2 {
		t.Fatalf("a break that clears nothing: %v, score %d, breaks %d\n%s", err, g.Score(), g.Breaks(), g.Board())
	}
	if err := g.Break(); err != nil || g.Score() != 1500 || g.Breaks() != 3 {
		t.Fatalf("a third break: %v, score %d, breaks %d", err, g.Score(), g.Breaks())
	}
	st := g.State()
	err := g.Break()
	if !errors.Is(err, ErrNoBreak) || Refusal(err) != "" || err.Error() != "break: no break left: profile hallabois-4x4 allows 3 breaks a run, and they are used" {
		t.Errorf("a fourth break, with its price: %v", err)
	}
	if diff := cmp.Diff(st, g.State(), cmp.AllowUnexported(Board{}, RNG{})); diff != "" {
		t.Errorf("a refused break changed the state:\n%s", diff)
	}
	// Without the price.
	g = loadScore(t, p, "2 4 . ./. . . ./. . . ./. . . .", 999)
	if err := g.Break(); !errors.Is(err, ErrNoBreak) || err.Error() != "break: no break left: a break costs 1000 points and the score is 999" || g.Score() != 999 || g.Board().At(0, 0) != 2 {
		t.Errorf("a break with 999 points: %v", err)
	}
	// Exactly the price.
	if g = loadScore(t, p, "2 4 . ./. . . ./. . . ./. . . .", 1000); g.Break() != nil || g.Score() != 0 {
		t.Errorf("a break with 1000 points: score %d", g.Score())
	}
}

// TestBreakUnsupported: a profile without a break refuses one as it
// refuses an undo, the state unchanged.
func TestBreakUnsupported(t *testing.T) {
	for _, name := range []string{"classic", "tile-merge", "online-2048"} {
		g := loadScore(t, mustProfile(t, name), "2 4 . ./. . . ./. . . ./. . . .", 5000)
		_, err := g.Do(Break)
		if !errors.Is(err, ErrUnsupported) || Refusal(err) != "unsupported" || g.Score() != 5000 || g.Board().At(0, 0) != 2 {
			t.Errorf("%s: break: %v, refusal %q", name, err, Refusal(err))
		}
	}
}

// TestBreakNoMoves: on a board with no move left the second format's
// profile has ended the run, so a break is after the end; the first
// format's takes it and plays on when the cleared board has a move. A
// break that clears nothing there leaves the run over, the price paid.
func TestBreakNoMoves(t *testing.T) {
	blocked := "2 4 8 16/32 64 128 256/2 4 8 16/32 64 128 256"
	g := loadScore(t, mustProfile(t, "hallabois-4x4"), blocked, 5000)
	if err := g.Break(); !errors.Is(err, ErrFinished) || Refusal(err) != "finished" || g.Result() != NoMoves {
		t.Errorf("hallabois-4x4: a break with no move left: %v", err)
	}
	g = loadScore(t, mustProfile(t, "hallabois-v1-4x4"), blocked, 5000)
	if g.Result() != NoMoves {
		t.Fatalf("loaded blocked board: %v", g.Result())
	}
	if err := g.Break(); err != nil || g.Result() != Playing || g.Score() != 4000 || !g.Legal(Left) {
		t.Fatalf("hallabois-v1-4x4: a break with no move left: %v, %v, score %d", err, g.Result(), g.Score())
	}
	if _, err := g.Move(Left); err != nil || g.Moves() != 1 {
		t.Errorf("the move after: %v", err)
	}
	big := "16 32 64 128/256 512 1024 2048/16 32 64 128/256 512 1024 2048"
	g = loadScore(t, mustProfile(t, "hallabois-v1-4x4"), big, 5000)
	if err := g.Break(); err != nil || g.Result() != NoMoves || g.Score() != 4000 || g.Breaks() != 1 {
		t.Errorf("a break that clears nothing on a blocked board: %v, %v, score %d", err, g.Result(), g.Score())
	}
	// The win does not stop a hallabois run, and the won flag stays.
	if !g.Won() {
		t.Error("a board with 2048 has not won")
	}
}

// TestBreakEndsUndo: in a profile with undo and a break, a break cannot be
// undone, nor the move before it, and the next move can.
func TestBreakEndsUndo(t *testing.T) {
	p := customProfile(t, "name: undo-break\nbase: online-2048\nbreak: {limit: 2, below: 8, price: 4}\n")
	g := loadScore(t, p, "2 2 4 ./16 . . ./. . . ./. . . .", 10)
	if _, err := g.Move(Left); err != nil || !g.CanUndo() {
		t.Fatalf("move: %v, can undo %v", err, g.CanUndo())
	}
	if err := g.Break(); err != nil || g.CanUndo() {
		t.Fatalf("break: %v, can undo %v", err, g.CanUndo())
	}
	if err := g.Undo(); !errors.Is(err, ErrNoUndo) {
		t.Errorf("undo after a break: %v", err)
	}
	if g.Board().At(0, 0) != 0 || g.Board().At(1, 0) != 16 || g.Score() != 10 {
		t.Errorf("after the break: score %d\n%s", g.Score(), g.Board())
	}
	if _, err := g.Move(g.LegalMoves()[0]); err != nil || !g.CanUndo() {
		t.Errorf("a move after the break: %v, can undo %v", err, g.CanUndo())
	}
	if err := g.Undo(); err != nil || g.Breaks() != 1 || g.Score() != 10 {
		t.Errorf("its undo: %v, breaks %d, score %d", err, g.Breaks(), g.Score())
	}
}

// TestBreakState saves and loads the breaks used; a state with more than
// the profile allows, or a hallabois-lcg state past 32 bits, is refused.
func TestBreakState(t *testing.T) {
	p := mustProfile(t, "hallabois-4x4")
	rules, _ := Compile(p)
	g, _ := rules.NewGameWith(lcg(t), "4109379668")
	st := g.State()
	st.Score, st.Breaks = 2000, 2
	st.Board.Set(3, 3, 16) // a tile a break leaves: the run goes on
	h, err := rules.Load(st)
	if err != nil || h.Breaks() != 2 || h.Generator() != lcg(t) {
		t.Fatalf("load with 2 breaks: %v", err)
	}
	if err := h.Break(); err != nil {
		t.Fatal(err)
	}
	if err := h.Break(); !errors.Is(err, ErrNoBreak) {
		t.Errorf("a fourth break after loading: %v", err)
	}
	if back := h.State(); back.Breaks != 3 || back.Generator != lcg(t) {
		t.Errorf("State() = %+v", back)
	}
	for _, bad := range []func(*State){
		func(s *State) { s.Breaks = 4 },
		func(s *State) { s.Breaks = -1 },
		func(s *State) { r := RNGFromState(1 << 32); s.RNG = &r },
		func(s *State) { s.Generator = 200 },
	} {
		s := st
		bad(&s)
		if _, err := rules.Load(s); err == nil {
			t.Errorf("loaded %+v", s)
		}
	}
	classic, _ := Compile(mustProfile(t, "classic"))
	s := st
	s.Breaks = 1
	if _, err := classic.Load(s); err == nil {
		t.Error("classic loaded a state with a break used")
	}
}

// TestPlayBreaks plays random games with breaks through Play and through
// Do one action at a time, on both generators: the same states. Each log
// is a game played with Do (random legal moves, a break tried one action
// in ten and kept when taken, one refused in a while) and a last random
// action, which may be refused.
func TestPlayBreaks(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	cheap := customProfile(t, "name: cheap\nbase: hallabois-4x4\nbreak: {limit: 5, price: 60}\n")
	cheapV1 := customProfile(t, "name: cheap-v1\nbase: hallabois-v1-3x3\nbreak: {limit: 9, price: 8, below: 8}\n")
	for _, p := range []*Profile{cheap, cheapV1, mustProfile(t, "hallabois-3x3"), mustProfile(t, "tile-merge")} {
		rules, err := Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		breaks := 0
		for game := range 40 {
			for _, gen := range []Generator{TP1, lcg(t)} {
				seed := fmt.Sprint(game)
				build, _ := rules.NewGameWith(gen, seed)
				var log []Action
				for len(log) < 400 {
					if rng.IntN(10) == 0 {
						if err := build.Break(); err == nil || rng.IntN(10) == 0 {
							log = append(log, Break)
							if err != nil {
								break
							}
						}
						continue
					}
					legal := build.LegalMoves()
					if len(legal) == 0 {
						break
					}
					d := legal[rng.IntN(len(legal))]
					build.Move(d)
					log = append(log, Action(d))
				}
				log = append(log, []Action{MoveUp, MoveLeft, Break}[rng.IntN(3)])
				fast, _ := rules.NewGameWith(gen, seed)
				slow, _ := rules.NewGameWith(gen, seed)
				nFast, errFast := fast.Play(log, nil)
				nSlow, errSlow := doEach(slow, log)
				if nFast != nSlow || fmt.Sprint(errFast) != fmt.Sprint(errSlow) {
					t.Fatalf("%s %v %s: Play stopped at %d (%v), Do at %d (%v)", p.Name, gen, seed, nFast, errFast, nSlow, errSlow)
				}
				if diff := cmp.Diff(slow.State(), fast.State(), cmp.AllowUnexported(Board{}, RNG{})); diff != "" {
					t.Fatalf("%s %v %s: Play and Do differ (-Do +Play):\n%s", p.Name, gen, seed, diff)
				}
				breaks += fast.Breaks()
			}
		}
		if p.Name == "cheap" || p.Name == "cheap-v1" {
			if breaks < 100 {
				t.Errorf("%s: %d breaks taken in 80 games", p.Name, breaks)
			}
		}
	}
}
