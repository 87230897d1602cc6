package analyze

import (
	"context"
	"errors"
	"fmt"
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
	return v, rec.Seeded()
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
