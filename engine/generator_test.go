package engine

import (
	"strings"
	"testing"
)

// lcg returns the hallabois generator, which the test binary links
// (link_test.go) and peer/hallabois registers.
func lcg(t testing.TB) Generator {
	t.Helper()
	g, err := ParseGenerator("hallabois-lcg")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestParseGenerator(t *testing.T) {
	for _, g := range []Generator{TP1, lcg(t)} {
		if back, err := ParseGenerator(g.String()); err != nil || back != g {
			t.Errorf("ParseGenerator(%q) = %v, %v", g, back, err)
		}
	}
	if TP1.String() != "tp1" || lcg(t).String() != "hallabois-lcg" {
		t.Errorf("names %q, %q", TP1, lcg(t))
	}
	if _, err := ParseGenerator("TP1"); err == nil || !strings.Contains(err.Error(), "tp1, hallabois-lcg") {
		t.Errorf("ParseGenerator(TP1) = %v", err)
	}
	if s, err := TP1.Seed("  12 "); s != "12" || err != nil {
		t.Errorf("TP1.Seed(\"  12 \") = %q, %v", s, err)
	}
	if s, err := lcg(t).Seed("12"); s != "12" || err != nil {
		t.Errorf("hallabois-lcg Seed(12) = %q, %v", s, err)
	}
	if _, err := lcg(t).Seed("012"); err == nil {
		t.Error("hallabois-lcg took the seed 012")
	}
	rules, _ := Compile(mustProfile(t, "hallabois-4x4"))
	if _, err := rules.NewGameWith(lcg(t), "007"); err == nil {
		t.Error("NewGameWith took the seed 007")
	}
	if _, err := rules.NewGameWith(Generator(200), "7"); err == nil {
		t.Error("NewGameWith took generator 200")
	}
	if _, err := Generator(200).Seed("7"); err == nil {
		t.Error("generator 200 read a seed")
	}
}

// TestRegisterGenerator: a registered generator's draws make the game's
// spawns, the cell and the value as Draw gives them, and its state is
// the game's; a second registration under a name taken, or one without
// its functions, panics.
func TestRegisterGenerator(t *testing.T) {
	// A generator that always picks the last empty cell and the largest
	// spawn tile, and counts its draws.
	last := RegisterGenerator(GeneratorDef{
		Name: "test-last",
		Seed: func(s string) (uint64, error) {
			if s != "0" {
				return 0, &SeedError{s, "only 0"}
			}
			return 0, nil
		},
		Draw:     func(state uint64, empty int) (uint64, uint64, int) { return state + 1, 9, empty - 1 },
		MaxState: 1000,
	})
	rules, _ := Compile(mustProfile(t, "tile-merge"))
	g, err := rules.NewGameWith(last, "0")
	if err != nil {
		t.Fatal(err)
	}
	if want := mustBoard(t, ". . . ./. . . ./. . . ./. . 4 4"); g.Board() != want || g.State().RNG.State() != 2 || g.Generator() != last {
		t.Errorf("opening\n%sstate %d", g.Board(), g.State().RNG.State())
	}
	if _, err := g.Play([]Action{MoveUp, MoveLeft}, nil); err != nil {
		t.Fatal(err)
	}
	if want := mustBoard(t, "8 . . ./. . . ./. . . ./4 . . 4"); g.Board() != want || g.State().RNG.State() != 4 {
		t.Errorf("after UL\n%sstate %d", g.Board(), g.State().RNG.State())
	}
	if _, err := rules.NewGameWith(last, "1"); err == nil {
		t.Error("a seed the generator refuses started a game")
	}
	// NewSeeded starts a game by the generator its profile names, and
	// refuses one this program does not know.
	named := mustProfile(t, "tile-merge").Clone()
	named.RNG = "test-last"
	byName, _ := Compile(named)
	if h, err := byName.NewSeeded("0"); err != nil || h.Generator() != last || h.Board() != mustBoard(t, ". . . ./. . . ./. . . ./. . 4 4") {
		t.Errorf("NewSeeded under rng test-last: %v", err)
	}
	named.RNG = "test-unknown"
	byName, _ = Compile(named)
	if _, err := byName.NewSeeded("0"); err == nil || !strings.Contains(err.Error(), "test-unknown, which this program does not know") {
		t.Errorf("NewSeeded under an unknown generator: %v", err)
	}
	if h, err := rules.NewSeeded("0"); err != nil || h.Generator() != TP1 {
		t.Errorf("NewSeeded under tp1: %v", err)
	}
	st := g.State()
	r := RNGFromState(1001)
	st.RNG = &r
	if _, err := rules.Load(st); err == nil {
		t.Error("loaded a state past the generator's MaxState")
	}
	for _, def := range []GeneratorDef{
		{Name: "test-last", Seed: func(string) (uint64, error) { return 0, nil }, Draw: func(uint64, int) (uint64, uint64, int) { return 0, 0, 0 }},
		{Name: "test-none"},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("registered %q", def.Name)
				}
			}()
			RegisterGenerator(def)
		}()
	}
}
