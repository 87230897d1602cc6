package analyze

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// shadowGame plays a game under a copy of tile-merge with other spawn
// weights (a profile file under the built-in's name, as tileproof verify
// --profile FILE reads one) and returns the verifier that knows that
// profile, and the game.
func shadowGame(t *testing.T, seed string, change func(p *engine.Profile)) (*replay.Verifier, *replay.Replay) {
	v, rec := shadowRecorder(t, seed, change)
	return v, rec.Seeded()
}

// shadowRecorder is shadowGame's game, as its recorder holds it: either
// form of replay.
func shadowRecorder(t *testing.T, seed string, change func(p *engine.Profile)) (*replay.Verifier, *replay.Recorder) {
	p, err := engine.BuiltinProfile("tile-merge")
	if err != nil {
		t.Fatal(err)
	}
	p = p.Clone()
	change(p)
	v := replay.NewVerifier()
	if err := v.AddProfile(p); err != nil {
		t.Fatal(err)
	}
	rec := recorderOf(t, p, seed)
	bt := newEvalBot(corner{}, 0, 0, 1)
	for range 400 {
		g := rec.Game()
		b, ok := toBitboard(g.Board())
		if g.Over() || !ok {
			break
		}
		if err := rec.Do(engine.Action(bt.choose(g, b))); err != nil {
			t.Fatal(err)
		}
	}
	return v, rec
}

// recorderOf returns a recorder of a game of profile p from seed.
func recorderOf(t *testing.T, p *engine.Profile, seed string) *replay.Recorder {
	t.Helper()
	rules, err := engine.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := replay.NewRecorder(rules, seed)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestProfileFileShadowsBuiltin: a game verified under a profile file
// that takes a built-in's name is not the built-in's game. The analysis
// plays the built-in (its evaluators know no other), so it says the game
// is not analysable. Before, it failed with an error that "cannot
// happen" (an illegal move at action 14), which tileproof analyze
// reported with exit status 0, or it analysed another game than the one
// verified.
func TestProfileFileShadowsBuiltin(t *testing.T) {
	for i, c := range []struct {
		name   string
		change func(p *engine.Profile)
	}{
		// No 2s: soon a move the built-in's board does not allow.
		{"spawn 4 only", func(p *engine.Profile) { p.Spawn = []engine.SpawnWeight{{Value: 4, Weight: 1}} }},
		// The same tiles, other odds.
		{"spawn 2 and 4 alike", func(p *engine.Profile) { p.Spawn = []engine.SpawnWeight{{Value: 2, Weight: 1}, {Value: 4, Weight: 1}} }},
		// Every move legal under both, the game another: its score.
		{"start tiles 3", func(p *engine.Profile) { p.StartTiles = 3 }},
	} {
		seed := fmt.Sprintf("shadow-%d", i)
		v, r := shadowGame(t, seed, c.change)
		if vd := v.Verify(r); !vd.Valid {
			t.Fatalf("%s: not valid under its own profile: %s", seed, vd.Reason)
		}
		_, err := Analyze(context.Background(), v, seed, r, Options{})
		if !errors.Is(err, ErrNotAnalysable) || !strings.Contains(err.Error(), "does not replay under the built-in profile tile-merge") {
			t.Errorf("%s: %v, want not analysable", c.name, err)
		}
		t.Logf("%s: %v", c.name, err)
	}
	// A game short enough that every move is legal under both, yet
	// another game: it ends with another score.
	p, _ := engine.BuiltinProfile("tile-merge")
	p = p.Clone()
	p.Spawn = []engine.SpawnWeight{{Value: 2, Weight: 1}, {Value: 4, Weight: 1}}
	v := replay.NewVerifier()
	if err := v.AddProfile(p); err != nil {
		t.Fatal(err)
	}
	rules, _ := engine.Compile(p)
	rec, _ := replay.NewRecorder(rules, "s1")
	for _, d := range []engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down, engine.Left, engine.Up} {
		if rec.Game().Legal(d) {
			if err := rec.Do(engine.Action(d)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := Analyze(context.Background(), v, "s1", rec.Seeded(), Options{}); !errors.Is(err, ErrNotAnalysable) || !strings.Contains(err.Error(), "it ends with score 20 in 6 moves, the verifier's game with score 16 in 6") {
		t.Errorf("a short game of other spawns: %v", err)
	}

	// The built-in's own rules in a file: the same game, analysed.
	v, r := shadowGame(t, "same", func(*engine.Profile) {})
	if _, err := Analyze(context.Background(), v, "same", r, Options{}); err != nil {
		t.Errorf("the built-in's rules as a file: %v", err)
	}
}

// TestProfileFileShadowsBuiltinSpawns: a spawn-recorded game under a
// profile file that takes a built-in's name and differs from it in its
// spawn weights alone replays under the built-in to the same end (its
// spawns are recorded), so only the profiles tell the games apart. It is
// not analysable, named so. Before, it was analysed, exit status 0, by
// evaluators that weighed its spawns as the built-in does (2 nine times
// in ten, where the game's rules give 2 and 4 alike). So was a seeded
// game cut short before its moves left the built-in's.
func TestProfileFileShadowsBuiltinSpawns(t *testing.T) {
	even := func(p *engine.Profile) { p.Spawn = []engine.SpawnWeight{{Value: 2, Weight: 1}, {Value: 4, Weight: 1}} }
	v, rec := shadowRecorder(t, "spawns", even)
	r := rec.SpawnRecorded()
	vd := v.Verify(r)
	if !vd.Valid || vd.Moves < 100 {
		t.Fatalf("not a valid game of 100 moves or more under its own profile: %s, %d moves", vd.Reason, vd.Moves)
	}
	want := "not analysable: the game's profile tile-merge, as the verifier knows it (a profile file of that name), is not the built-in one, the only rules the evaluators know: its spawn weights differ"
	for _, opts := range []Options{{}, {MaxMoves: 50}} {
		if rep, err := Analyze(context.Background(), v, "spawns", r, opts); !errors.Is(err, ErrNotAnalysable) || err == nil || err.Error() != want {
			t.Errorf("max moves %d: %v (a report: %v), want %q", opts.MaxMoves, err, rep != nil, want)
		}
	}
	if _, err := Analyze(context.Background(), v, "seeded", rec.Seeded(), Options{MaxMoves: 1}); !errors.Is(err, ErrNotAnalysable) || err.Error() != want {
		t.Errorf("the seeded game cut at 1 move: %v", err)
	}
	// The same replay without the file is the built-in's game, and is
	// analysed.
	if _, err := Analyze(context.Background(), replay.NewVerifier(), "spawns", r, Options{}); err != nil {
		t.Errorf("under the built-in: %v", err)
	}
}

// TestRuleDifferences: every rule of a profile, changed, is a
// difference; its name, version, prose and the parameters its source
// leaves unstated are none. It fails when engine.Profile gains a field
// it does not know, so that ruleDifferences is looked at again.
func TestRuleDifferences(t *testing.T) {
	base, err := engine.BuiltinProfile("classic")
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]func(p *engine.Profile){
		"Rows":        func(p *engine.Profile) { p.Rows++ },
		"Cols":        func(p *engine.Profile) { p.Cols++ },
		"StartTiles":  func(p *engine.Profile) { p.StartTiles++ },
		"Spawn":       func(p *engine.Profile) { p.Spawn[0].Weight++ },
		"Win":         func(p *engine.Profile) { p.Win.Tile *= 2 },
		"Targets":     func(p *engine.Profile) { p.Targets = append(p.Targets, 1<<20) },
		"OpenEnded":   func(p *engine.Profile) { p.OpenEnded = !p.OpenEnded },
		"Illegal":     func(p *engine.Profile) { p.Illegal ^= 1 },
		"MoveLimit":   func(p *engine.Profile) { p.MoveLimit++ },
		"FinishOrder": func(p *engine.Profile) { p.FinishOrder[0], p.FinishOrder[1] = p.FinishOrder[1], p.FinishOrder[0] },
		"GameOver":    func(p *engine.Profile) { p.GameOver ^= 1 },
		"Undo":        func(p *engine.Profile) { p.Undo = !p.Undo },
		"EndRun":      func(p *engine.Profile) { p.EndRun = !p.EndRun },
		"Break":       func(p *engine.Profile) { p.Break.Limit++ },
		"RNG":         func(p *engine.Profile) { p.RNG = "hallabois-lcg" },
	}
	notRules := map[string]func(p *engine.Profile){
		"Name":        func(p *engine.Profile) { p.Name += "-file" },
		"Version":     func(p *engine.Profile) { p.Version++ },
		"Title":       func(p *engine.Profile) { p.Title += "!" },
		"Source":      func(p *engine.Profile) { p.Source += "!" },
		"Description": func(p *engine.Profile) { p.Description += "!" },
		// What the source leaves unstated: the suite's word, not a rule.
		"Unstated": func(p *engine.Profile) { p.Unstated = append(p.Unstated, "startTiles") },
	}
	typ := reflect.TypeFor[engine.Profile]()
	for i := range typ.NumField() {
		if name := typ.Field(i).Name; rules[name] == nil && notRules[name] == nil {
			t.Errorf("engine.Profile.%s: a field this test does not know; does ruleDifferences compare it?", name)
		}
	}
	for name, change := range rules {
		p := base.Clone()
		change(p)
		if d := ruleDifferences(p, base); len(d) != 1 {
			t.Errorf("%s changed: differences %q, want one", name, d)
		}
	}
	for name, change := range notRules {
		p := base.Clone()
		change(p)
		if d := ruleDifferences(p, base); len(d) != 0 {
			t.Errorf("%s changed: differences %q, want none", name, d)
		}
	}
}
