package conformance

import (
	"os"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/player"
	"github.com/tileproof/tileproof/replay"
)

// blackBox is the engine behind hello, new and move alone (no load-state,
// no seed-tp1, no legal moves listed), its answers changed by mutate: a
// game that can only start and move, broken as mutate says.
type blackBox struct {
	b      *Builtin
	moves  int
	mutate func(bb *blackBox, mr *MoveResult)
	same   bool // every game from the same seed: a generator seeded by the clock, in one second
}

func (bb *blackBox) Hello() (Hello, error) {
	return Hello{Name: "black-box", Version: "1", Protocol: 1, Profiles: []string{"classic", "tile-merge"}}, nil
}

func (bb *blackBox) New(profile, seed string, setup *engine.Setup) (ImplState, error) {
	if bb.same {
		bb.b = &Builtin{Seed: "one-second"}
	}
	bb.moves = 0
	return bb.b.New(profile, "", setup)
}

func (bb *blackBox) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	mr, err := bb.b.Move(d, spawn)
	if err == nil && mr.Changed {
		bb.moves++
	}
	if err == nil && bb.mutate != nil {
		bb.mutate(bb, &mr)
	}
	return mr, err
}

func (bb *blackBox) Close() error { return nil }

func observe(t *testing.T, bb *blackBox, profile string, games int) *ObserveResult {
	t.Helper()
	rep, err := Observe(t.Context(), bb, ObserveOptions{Games: games, Seed: 1, Profiles: []string{profile}, MaxMoves: 400})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func results(rep *ObserveResult) map[string]CaseResult {
	m := map[string]CaseResult{}
	for _, r := range rep.Results {
		m[r.Case] = r
	}
	return m
}

// TestObserveEngine: the engine as a black box passes every observation,
// in games that reach the late game, with moves that change nothing and a
// move after the end among them.
func TestObserveEngine(t *testing.T) {
	rep := observe(t, &blackBox{b: &Builtin{}}, "tile-merge", 6)
	if rep.Steps < 6*100 {
		t.Errorf("%d steps in 6 games", rep.Steps)
	}
	for _, r := range rep.Results {
		if r.Status != Pass {
			t.Errorf("%s: %s: %s", r.Case, r.Status, r.Reason)
		}
	}
	if len(rep.Results) != 5 || rep.Games != 6 || len(rep.Divergences) != 0 {
		t.Errorf("%d results, %d games, %d steps, divergences %+v", len(rep.Results), rep.Games, rep.Steps, rep.Divergences)
	}
}

// TestObserveCatches: a black box broken in each way is caught, the
// divergence's game written as a replay that tileproof verify fails.
func TestObserveCatches(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, profile string
		bb            *blackBox
		check, want   string
		games         int
	}{
		{"over early", "tile-merge", &blackBox{b: &Builtin{}, mutate: func(bb *blackBox, mr *MoveResult) {
			if bb.moves >= 30 {
				mr.State.Over = true
			}
		}}, "observe/steps", "over is true, want false", 2},
		{"spawn on a full cell", "tile-merge", &blackBox{b: &Builtin{}, mutate: func(bb *blackBox, mr *MoveResult) {
			if bb.moves == 12 && mr.Spawn != nil {
				// Report the spawn on the first cell the slide filled.
				for c := range 16 {
					if v := mr.State.Board.At(c/4, c%4); v != 0 && (c/4 != mr.Spawn.Row || c%4 != mr.Spawn.Col) {
						mr.State.Board.Set(mr.Spawn.Row, mr.Spawn.Col, 0)
						mr.State.Board.Set(c/4, c%4, 2)
						mr.Spawn.Row, mr.Spawn.Col, mr.Spawn.Value = c/4, c%4, 2
						break
					}
				}
			}
		}}, "observe/steps", "not one the rules make", 2},
		{"every game the same", "tile-merge", &blackBox{same: true}, "observe/repeated-openings", "pairs of the 12 games share", 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.bb.b == nil {
				tc.bb.b = &Builtin{}
			}
			rep := observe(t, tc.bb, tc.profile, tc.games)
			r := results(rep)[tc.check]
			if !r.Status.Failed() || !strings.Contains(r.Reason, tc.want) {
				t.Fatalf("%s: %s: %s, want a failure saying %q", tc.check, r.Status, r.Reason, tc.want)
			}
			if tc.check != "observe/steps" {
				return
			}
			if len(rep.Divergences) == 0 || rep.Divergences[0].Replay == nil {
				t.Fatalf("no divergence written: %+v", rep.Divergences)
			}
			// The game up to the divergence, as the implementation played it,
			// does not verify.
			r0 := rep.Divergences[0].Replay
			back, err := replay.Decode("d.yaml", r0.EncodeYAML(80))
			if err != nil {
				t.Fatal(err)
			}
			if vd := replay.NewVerifier().Verify(back); vd.Valid {
				t.Errorf("the divergence's replay verifies: %s", vd.Proved())
			} else {
				t.Logf("its replay: %s: %s", vd.Reason, vd.Explain().Gives)
			}
		})
	}
}

// TestObserveWinThatPlaysOn: a game that never stops at 2048 (2048.c) is
// caught under classic, where the win stops play, once a game reaches it.
func TestObserveWinThatPlaysOn(t *testing.T) {
	v, _ := engine.ParseProfile("v.yaml", []byte("name: classic-continue\nbase: classic\nwin: {then: continue}\n"))
	playsOn := &blackBox{b: &Builtin{Profiles: []*engine.Profile{v}}}
	// It plays the variant whatever it is asked.
	bb := &renamed{playsOn, v.Name}
	rep, err := Observe(t.Context(), bb, ObserveOptions{Games: 3, Seed: 1, Profiles: []string{"classic"}})
	if err != nil {
		t.Fatal(err)
	}
	r := results(rep)["observe/steps"]
	if !r.Status.Failed() {
		t.Fatalf("a game that plays on after 2048 passes under classic: %s (%d steps)", r.Status, rep.Steps)
	}
	t.Logf("%s: %s", r.Status, r.Reason)
}

// renamed plays profile as whatever it is asked for.
type renamed struct {
	*blackBox
	profile string
}

func (r *renamed) New(_, seed string, setup *engine.Setup) (ImplState, error) {
	return r.blackBox.New(r.profile, seed, setup)
}

// TestObserverCountsARepeatOnce: a game that repeats another's opening
// joins the repeated-openings check but not the spawn distribution
// again, where it would be no new sample.
func TestObserverCountsARepeatOnce(t *testing.T) {
	p, _ := engine.BuiltinProfile("tile-merge")
	bb := &blackBox{b: &Builtin{}, same: true}
	var games []*ObservedGame
	for i := range 3 {
		pl, _ := player.New("random", uint64(i+1))
		g, err := PlayObserved(bb, p, pl, ObservedGameOptions{MaxMoves: 100})
		if err != nil || g.Divergence != nil {
			t.Fatalf("game %d: %v %v", i, err, g.Divergence)
		}
		games = append(games, g)
	}
	o := &observer{p: p, counter: replay.NewSpawnCounter(p)}
	o.add(games[0])
	once := o.counter.Result().Spawns
	o.add(games[1])
	o.add(games[2])
	if got := o.counter.Result().Spawns; got != once || o.games != 3 {
		t.Errorf("three games of one opening: %d spawns counted (one game has %d), %d games compared for openings", got, once, o.games)
	}
}

// overAt30 is the engine with every feature, declaring game over from its
// thirtieth counted move on (the move count its state says, so a loaded
// state shows it too).
type overAt30 struct{ *Builtin }

func (o overAt30) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	mr, err := o.Builtin.Move(d, spawn)
	if err == nil && mr.State.Moves >= 30 {
		mr.State.Over = true
	}
	return mr, err
}

// TestObserveWritesACase: an observed divergence of an implementation that
// can load a state and take a forced spawn is also shrunk to a case, as
// exploration shrinks one: it fails against the implementation, passes
// against the engine, and is written as a pack; a black box's divergence
// gets its replay alone.
func TestObserveWritesACase(t *testing.T) {
	rep, err := Observe(t.Context(), overAt30{&Builtin{}}, ObserveOptions{Games: 1, Seed: 1, Profiles: []string{"tile-merge"}, Impl: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Divergences) != 1 {
		t.Fatalf("divergences %+v", rep.Divergences)
	}
	fc := rep.Divergences[0].Found
	if fc == nil || !fc.Reproduced || fc.Result.Status != FlagsDiffer || fc.Moves > 2 {
		t.Fatalf("the case found: %+v", fc)
	}
	if !strings.HasPrefix(fc.ID, "observe-tile-merge-flags-differ-") || !strings.Contains(string(fc.YAML), "source: "+observedSource) {
		t.Errorf("the case found is not named an observation's: %s\n%s", fc.ID, fc.YAML)
	}
	if fc.Case.Start.Moves < 29 {
		t.Errorf("the case starts at %d moves; the implementation breaks at 30", fc.Case.Start.Moves)
	}
	dir := t.TempDir()
	files, err := rep.WriteCases(dir)
	if err != nil || len(files) != 1 {
		t.Fatalf("WriteCases: %v %v", files, err)
	}
	pack, err := LoadPack(os.DirFS(dir))
	if err != nil || len(pack.Cases) != 1 {
		t.Fatalf("the pack written: %v", err)
	}
	bb := observe(t, &blackBox{b: &Builtin{}, mutate: func(bb *blackBox, mr *MoveResult) {
		if bb.moves >= 30 {
			mr.State.Over = true
		}
	}}, "tile-merge", 1)
	if len(bb.Divergences) != 1 || bb.Divergences[0].Found != nil || bb.Divergences[0].Replay == nil {
		t.Errorf("a black box's divergence: %+v", bb.Divergences)
	}
}
