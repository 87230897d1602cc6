package engine

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestLCGVectors pins the hallabois generator's draws: each the state
// 1103515245*state + 12345 modulo 2^32, then modulo 2^31-1 (worked out
// apart from the engine, with Python's integers).
func TestLCGVectors(t *testing.T) {
	for _, tc := range []struct {
		seed uint32
		want [4]uint32
	}{
		{0, [4]uint32{12345, 1406932607, 1758099020, 419935893}},
		{4294967295, [4]uint32{1043980749, 1392495235, 720327680, 729740345}},
		{3146440594, [4]uint32{657186147, 1756601696, 1722642969, 687039198}},
	} {
		s := tc.seed
		for i, w := range tc.want {
			if s = lcgNext(s); s != w {
				t.Errorf("seed %d: draw %d is %d, want %d", tc.seed, i+1, s, w)
			}
		}
	}
}

// TestLCGOpenings checks the start boards the hallabois generator makes:
// the cell drawn first (modulo the empty cells, row by row), then the
// value (2, 2, 2 or 4 by the draw modulo 4), on the packed 4x4 start and
// on the general one, and the generator's state after them.
func TestLCGOpenings(t *testing.T) {
	for _, tc := range []struct {
		profile, seed, board string
		state                uint64
	}{
		{"hallabois-4x4", "3146440594", ". . . 2/. . . ./. . 2 ./. . . .", 687039198},
		{"hallabois-4x4", "0", ". . . ./. 2 . ./. 4 . ./. . . .", 419935893},
		{"hallabois-3x3", "7", "2 4 ./. . ./. . .", 464710850},
	} {
		rules, err := Compile(mustProfile(t, tc.profile))
		if err != nil {
			t.Fatal(err)
		}
		g, err := rules.NewGameWith(HallaboisLCG, tc.seed)
		if err != nil {
			t.Fatal(err)
		}
		st := g.State()
		if want := mustBoard(t, tc.board); st.Board != want || st.RNG.State() != tc.state || st.Generator != HallaboisLCG || g.Generator() != HallaboisLCG {
			t.Errorf("%s seed %s: opening\n%sstate %d, generator %v; want\n%sstate %d", tc.profile, tc.seed, st.Board, st.RNG.State(), st.Generator, want, tc.state)
		}
	}
}

func TestLCGSeed(t *testing.T) {
	for s, want := range map[string]uint32{"0": 0, "7": 7, "4294967295": 4294967295, "3146440594": 3146440594} {
		if got, err := LCGSeed(s); err != nil || got != want {
			t.Errorf("LCGSeed(%q) = %d, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "00", "07", "+7", "-1", " 7", "7 ", "4294967296", "99999999999", "12345678901", "0x10", "7.0", "१"} {
		_, err := LCGSeed(s)
		var se *SeedError
		if !errors.As(err, &se) {
			t.Errorf("LCGSeed(%q) = %v, want a *SeedError", s, err)
		}
	}
	rules, _ := Compile(mustProfile(t, "hallabois-4x4"))
	if _, err := rules.NewGameWith(HallaboisLCG, "007"); err == nil {
		t.Error("NewGameWith took the seed 007")
	}
	if _, err := rules.NewGameWith(Generator(2), "7"); err == nil {
		t.Error("NewGameWith took generator 2")
	}
	if s, err := HallaboisLCG.Seed("12"); s != "12" || err != nil {
		t.Errorf("HallaboisLCG.Seed(12) = %q, %v", s, err)
	}
	if s, err := TP1.Seed("  12 "); s != "12" || err != nil {
		t.Errorf("TP1.Seed(\"  12 \") = %q, %v", s, err)
	}
}

func TestParseGenerator(t *testing.T) {
	for _, g := range []Generator{TP1, HallaboisLCG} {
		if back, err := ParseGenerator(g.String()); err != nil || back != g {
			t.Errorf("ParseGenerator(%q) = %v, %v", g, back, err)
		}
	}
	if TP1.String() != "tp1" || HallaboisLCG.String() != "hallabois-lcg" {
		t.Errorf("names %q, %q", TP1, HallaboisLCG)
	}
	if _, err := ParseGenerator("TP1"); err == nil || !strings.Contains(err.Error(), "tp1, hallabois-lcg") {
		t.Errorf("ParseGenerator(TP1) = %v", err)
	}
}

// TestLCGGamesSameOnEveryPath plays hallabois-lcg games with Play, move
// by move with Do, and through saved and loaded states: the same games
// (the generator's draws belong to the game, and the tp1 loops take none).
func TestLCGGamesSameOnEveryPath(t *testing.T) {
	for _, name := range []string{"hallabois-4x4", "hallabois-3x3", "tile-merge"} {
		rules, err := Compile(mustProfile(t, name))
		if err != nil {
			t.Fatal(err)
		}
		for seed := range 20 {
			s := strings.Repeat("1", seed%3+1) + string(rune('0'+seed%10))
			a, _ := rules.NewGameWith(HallaboisLCG, s)
			b, _ := rules.NewGameWith(HallaboisLCG, s)
			tp, _ := rules.NewGame(s)
			var log []Action
			for !b.Over() && len(log) < 2000 {
				d := b.LegalMoves()[len(log)*7%len(b.LegalMoves())]
				state := uint32(b.State().RNG.State())
				slid, _ := b.Board().Slide(d)
				step, err := b.Move(d)
				if err != nil {
					t.Fatal(err)
				}
				// The spawn as the generator makes it: the cell first.
				c := lcgNext(state)
				v := lcgNext(c)
				cell := slid.Board.nthEmpty(int(c % uint32(slid.Board.Empty())))
				value := uint64(1) << rules.spawnExp(uint64(v)) // tile-merge: 9 in 10 a 2
				if rules.p.Spawn[0].Weight == 3 {
					value = [4]uint64{2, 2, 2, 4}[v%4] // the hallabois game's own pick
				}
				if got := step.Spawn; got.Row*slid.Board.Cols()+got.Col != cell || got.Value != value || b.State().RNG.State() != uint64(v) {
					t.Fatalf("%s %s, move %d: spawn %+v, state %d; want cell %d, value %d, state %d", name, s, len(log)+1, got, b.State().RNG.State(), cell, value, v)
				}
				log = append(log, Action(d))
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

// FuzzLCGSeed: LCGSeed accepts exactly the plain decimal texts of 0 to
// 2^32-1, each its number's one written form.
func FuzzLCGSeed(f *testing.F) {
	for _, s := range []string{"0", "7", "4294967295", "4294967296", "007", " 1", "+1", "१"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := LCGSeed(s)
		n, perr := strconv.ParseUint(s, 10, 32)
		canonical := perr == nil && strconv.FormatUint(n, 10) == s
		switch {
		case err == nil && (!canonical || uint64(v) != n):
			t.Fatalf("LCGSeed(%q) = %d", s, v)
		case err != nil && canonical:
			t.Fatalf("LCGSeed(%q): %v", s, err)
		}
	})
}
