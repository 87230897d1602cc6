package hallabois

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// compile returns the rules of a built-in profile.
func compile(t testing.TB, name string) *engine.Rules {
	t.Helper()
	p, err := engine.BuiltinProfile(name)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := engine.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

// TestGeneratorRegistered: Generator registers the generator under its
// name, once, and the second format's profiles name it.
func TestGeneratorRegistered(t *testing.T) {
	gen := Generator()
	if g, err := engine.ParseGenerator(RNGID); err != nil || g != gen || Generator() != gen || gen.String() != RNGID {
		t.Errorf("ParseGenerator(%s) = %v, %v", RNGID, g, err)
	}
	for _, name := range []string{"hallabois-4x4", "hallabois-3x3"} {
		if p, _ := engine.BuiltinProfile(name); p.Generator() != RNGID {
			t.Errorf("%s spawns by %q", name, p.Generator())
		}
	}
}

// TestEngineOpenings checks the start boards the engine makes under the
// generator: the cell drawn first (modulo the empty cells, row by row),
// then the value (2, 2, 2 or 4 by the draw modulo 4), on the 4x4 start
// and on the general one, and the generator's state after them.
func TestEngineOpenings(t *testing.T) {
	for _, tc := range []struct {
		profile, seed, board string
		state                uint64
	}{
		{"hallabois-4x4", "3146440594", ". . . 2/. . . ./. . 2 ./. . . .", 687039198},
		{"hallabois-4x4", "0", ". . . ./. 2 . ./. 4 . ./. . . .", 419935893},
		{"hallabois-3x3", "7", "2 4 ./. . ./. . .", 464710850},
	} {
		g, err := compile(t, tc.profile).NewGameWith(Generator(), tc.seed)
		if err != nil {
			t.Fatal(err)
		}
		st := g.State()
		want, err := engine.ParseBoard(tc.board)
		if err != nil {
			t.Fatal(err)
		}
		if st.Board != want || st.RNG.State() != tc.state || st.Generator != Generator() || g.Generator() != Generator() {
			t.Errorf("%s seed %s: opening\n%sstate %d, generator %v; want\n%sstate %d", tc.profile, tc.seed, st.Board, st.RNG.State(), st.Generator, want, tc.state)
		}
	}
}

func TestParseSeed(t *testing.T) {
	for s, want := range map[string]uint32{"0": 0, "7": 7, "4294967295": 4294967295, "3146440594": 3146440594} {
		if got, err := ParseSeed(s); err != nil || got != want {
			t.Errorf("ParseSeed(%q) = %d, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "00", "07", "+7", "-1", " 7", "7 ", "4294967296", "99999999999", "12345678901", "0x10", "7.0", "१"} {
		_, err := ParseSeed(s)
		var se *engine.SeedError
		if !errors.As(err, &se) {
			t.Errorf("ParseSeed(%q) = %v, want a *SeedError", s, err)
		}
	}
	if _, err := compile(t, "hallabois-4x4").NewGameWith(Generator(), "007"); err == nil {
		t.Error("NewGameWith took the seed 007")
	}
	if s, err := Generator().Seed("12"); s != "12" || err != nil {
		t.Errorf("Generator().Seed(12) = %q, %v", s, err)
	}
}

// TestEngineGamesSameOnEveryPath plays games under the generator with
// Play, move by move with Move, and through saved and loaded states: the
// same games, each spawn the one the LCG draws (the generator's draws
// belong to the game, and the engine's tp1 loop takes none).
func TestEngineGamesSameOnEveryPath(t *testing.T) {
	for _, name := range []string{"hallabois-4x4", "hallabois-3x3", "tile-merge"} {
		rules := compile(t, name)
		p := rules.Profile()
		for seed := range 20 {
			s := strings.Repeat("1", seed%3+1) + string(rune('0'+seed%10))
			a, _ := rules.NewGameWith(Generator(), s)
			b, _ := rules.NewGameWith(Generator(), s)
			tp, _ := rules.NewGame(s)
			var log []engine.Action
			for !b.Over() && len(log) < 2000 {
				d := b.LegalMoves()[len(log)*7%len(b.LegalMoves())]
				lcg := LCG{uint32(b.State().RNG.State())}
				slid, _ := b.Board().Slide(d)
				step, err := b.Move(d)
				if err != nil {
					t.Fatal(err)
				}
				// The spawn as the generator makes it: the cell first,
				// then the value by the profile's weights.
				k := int(lcg.Next() % uint32(slid.Board.Empty()))
				v := lcg.Next()
				cell := -1
				for i := range slid.Board.Cells() {
					if slid.Board.At(i/slid.Board.Cols(), i%slid.Board.Cols()) == 0 {
						if k == 0 {
							cell = i
							break
						}
						k--
					}
				}
				value := uint64(2) // tile-merge: 9 in 10 a 2
				if v%10 == 9 {
					value = 4
				}
				if p.Spawn[0].Weight == 3 {
					value = spawnValues[v%4] // the hallabois game's own pick
				}
				if got := step.Spawn; got.Row*slid.Board.Cols()+got.Col != cell || got.Value != value || b.State().RNG.State() != uint64(v) {
					t.Fatalf("%s %s, move %d: spawn %+v, state %d; want cell %d, value %d, state %d", name, s, len(log)+1, got, b.State().RNG.State(), cell, value, v)
				}
				log = append(log, engine.Action(d))
				// Saved and loaded, the game goes on the same.
				if len(log)%50 == 0 {
					if b, err = rules.Load(b.State()); err != nil {
						t.Fatal(err)
					}
				}
			}
			if _, err := a.Play(log, nil); err != nil {
				t.Fatalf("%s %s: Play: %v", name, s, err)
			}
			if a.State().Board != b.State().Board || a.Score() != b.Score() || *a.State().RNG != *b.State().RNG || !a.Over() {
				t.Fatalf("%s %s: Play gives\n%s%d, Move gives\n%s%d", name, s, a.Board(), a.Score(), b.Board(), b.Score())
			}
			// The same log under tp1 is another game.
			if n, _ := tp.Play(log, nil); n == len(log) && tp.Board() == a.Board() {
				t.Errorf("%s %s: tp1 and hallabois-lcg give the same game", name, s)
			}
		}
	}
}

// FuzzParseSeed: ParseSeed accepts exactly the plain decimal texts of 0
// to 2^32-1, each its number's one written form.
func FuzzParseSeed(f *testing.F) {
	for _, s := range []string{"0", "7", "4294967295", "4294967296", "007", " 1", "+1", "१"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseSeed(s)
		n, perr := strconv.ParseUint(s, 10, 32)
		canonical := perr == nil && strconv.FormatUint(n, 10) == s
		switch {
		case err == nil && (!canonical || uint64(v) != n):
			t.Fatalf("ParseSeed(%q) = %d", s, v)
		case err != nil && canonical:
			t.Fatalf("ParseSeed(%q): %v", s, err)
		}
	})
}
