package conformance

import (
	"slices"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/player"
	"github.com/tileproof/tileproof/replay"
)

// playsOn is the engine playing a profile whose win ends the run as if
// it went on (win.then continue): won set at the win, and the moves after
// it played. Its hooks break it after the win: wrongAfterWin puts a tile
// of 2 into the first empty cell of the board a move after the win
// gives; refuseAfterWin refuses every move after the win as finished,
// though its state said play goes on; stopsThenPlays reports the win's
// state as the ended run's (over, target-reached) and then plays on.
type playsOn struct {
	*Builtin
	wrongAfterWin, refuseAfterWin, stopsThenPlays bool
}

// newPlaysOn returns the engine playing the built-in profile name as
// playsOn does.
func newPlaysOn(t *testing.T, name string) *playsOn {
	t.Helper()
	p, err := engine.BuiltinProfile(name)
	if err != nil {
		t.Fatal(err)
	}
	p = p.Clone()
	p.Win.Then, p.Unstated = engine.Continue, nil
	return &playsOn{Builtin: &Builtin{Profiles: []*engine.Profile{p}}}
}

// Hello declares each profile once: the profile played on is a built-in
// one's name.
func (o *playsOn) Hello() (Hello, error) {
	h, err := o.Builtin.Hello()
	h.Profiles = slices.Compact(slices.Sorted(slices.Values(h.Profiles)))
	return h, err
}

func (o *playsOn) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	won := o.game != nil && o.game.Won()
	if won && o.refuseAfterWin {
		return MoveResult{}, &RuleError{"finished", "the game is won"}
	}
	mr, err := o.Builtin.Move(d, spawn)
	switch {
	case err != nil:
	case won && o.wrongAfterWin && mr.Changed:
		b := mr.State.Board
		for i := range b.Rows() * b.Cols() {
			if b.At(i/b.Cols(), i%b.Cols()) == 0 {
				b.Set(i/b.Cols(), i%b.Cols(), 2)
				break
			}
		}
		mr.State.Board = b
	case !won && mr.State.Won && o.stopsThenPlays:
		mr.State.Over, mr.State.Result = true, resultName(engine.TargetReached)
	}
	return mr, err
}

// failuresOf runs the pack, 20 explored games and 2 observed ones against
// impl under profile and returns the failures: each case's, and the
// explored and observed games' divergences, by their reason.
func failuresOf(t *testing.T, impl Impl, profile string) (cases []CaseResult, games []string) {
	t.Helper()
	profiles := []string{profile}
	rep, err := Run(t.Context(), loadRepoPack(t), impl, Options{Profiles: profiles})
	if err != nil {
		t.Fatal(err)
	}
	cases, _ = rep.Failures()
	exp, err := Explore(t.Context(), impl, ExploreOptions{Games: 20, Seed: 1, Profiles: profiles})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range exp.Divergences {
		games = append(games, "explored: "+d.Result.Reason)
	}
	obs, err := Observe(t.Context(), impl, ObserveOptions{Games: 2, Seed: 1, Profiles: profiles})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range obs.Divergences {
		games = append(games, "observed: "+d.Result.Reason)
	}
	return cases, games
}

// failed returns the result of case id among results, or nil.
func failed(results []CaseResult, id string) *CaseResult {
	if i := slices.IndexFunc(results, func(r CaseResult) bool { return r.Case == id }); i >= 0 {
		return &results[i]
	}
	return nil
}

// TestRosettaPlaysOnAfterWin: the Rosetta Code task says what wins but
// not that the game ends there, so rosetta lists winThen as unstated: an
// implementation that goes on after the win (won set, the moves after it
// played) passes every case, the explored games and the observed ones,
// as the engine that stops does. What follows the win is held to the
// rules of the run going on: a wrong board after it fails, and so does a
// game that mixes the readings (going on at the win and then refusing a
// move as finished; ending at the win and then playing a move). PGS's
// document ends the game at the win ("won and gameOver"), so there the
// same implementation fails.
func TestRosettaPlaysOnAfterWin(t *testing.T) {
	for name, impl := range map[string]Impl{"stops": &Builtin{}, "plays on": newPlaysOn(t, "rosetta")} {
		cases, games := failuresOf(t, impl, "rosetta")
		for _, f := range cases {
			t.Errorf("%s: %s [%s]: %s: %s", name, f.Case, f.Profile, f.Status, f.Reason)
		}
		for _, g := range games {
			t.Errorf("%s: %s", name, g)
		}
	}

	wrong := newPlaysOn(t, "rosetta")
	wrong.wrongAfterWin = true
	cases, games := failuresOf(t, wrong, "rosetta")
	if f := failed(cases, "rosetta/rosetta-no-move-after-win"); f == nil || f.Status != BoardDiverged || f.Step != 2 {
		t.Errorf("a wrong board after the win: rosetta/rosetta-no-move-after-win: %+v; want board-diverged at step 2", f)
	}
	if len(games) == 0 {
		t.Errorf("a wrong board after the win: no explored or observed game diverged")
	}

	refuse := newPlaysOn(t, "rosetta")
	refuse.refuseAfterWin = true
	cases, _ = failuresOf(t, refuse, "rosetta")
	if f := failed(cases, "rosetta/rosetta-no-move-after-win"); f == nil || f.Status != IllegalHandled || f.Step != 2 {
		t.Errorf("going on at the win, then refusing a move as finished: rosetta/rosetta-no-move-after-win: %+v; want illegal-move-handling-differs at step 2", f)
	}

	stops := newPlaysOn(t, "rosetta")
	stops.stopsThenPlays = true
	cases, _ = failuresOf(t, stops, "rosetta")
	if f := failed(cases, "rosetta/rosetta-no-move-after-win"); f == nil || f.Status != IllegalHandled || f.Step != 2 {
		t.Errorf("ending at the win, then playing a move: rosetta/rosetta-no-move-after-win: %+v; want illegal-move-handling-differs at step 2", f)
	}

	cases, _ = failuresOf(t, newPlaysOn(t, "pgs"), "pgs")
	if f := failed(cases, "profiles/win-stop-profiles-target-before-no-moves"); f == nil || f.Status != FlagsDiffer {
		t.Errorf("pgs, playing on after the win: profiles/win-stop-profiles-target-before-no-moves: %+v; want flags-differ", f)
	}
}

// TestWinThenIgnoreProfile: in a profile that ignores a move that
// changes nothing (illegalMove ignore), its win ending the run and
// winThen unstated, the ended run passes a move after the win over
// rather than refusing it; the readings part there all the same, so an
// implementation that plays on after the win passes, and one with a
// wrong board after it fails.
func TestWinThenIgnoreProfile(t *testing.T) {
	base, err := engine.BuiltinProfile("rosetta")
	if err != nil {
		t.Fatal(err)
	}
	p := base.Clone()
	p.Name, p.Illegal = "rosetta-ignore", engine.Ignore
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	on := p.Clone()
	on.Win.Then, on.Unstated = engine.Continue, nil
	// The win, then a move after it, which the ended run passes over.
	c := winThenMove(t, p)
	if e := c.Steps[1].Expect; e.Error != "" || e.Changed == nil || *e.Changed {
		t.Fatalf("the move after the win: %+v; want it passed over", e)
	}
	for _, wrong := range []bool{false, true} {
		impl := &playsOn{Builtin: &Builtin{Profiles: []*engine.Profile{on}}, wrongAfterWin: wrong}
		var res CaseResult
		runCase(impl, c, p, &res)
		if want := map[bool]Status{false: Pass, true: BoardDiverged}[wrong]; res.Status != want || wrong && res.Step != 2 {
			t.Errorf("wrong board after the win %v: %s at step %d: %s; want %s", wrong, res.Status, res.Step, res.Reason, want)
		}
	}
}

// endedNoResult is the built-in engine reporting no result, and
// refusing a move after the end of the run as illegal-move, not
// finished.
type endedNoResult struct{ *Builtin }

func (o *endedNoResult) Load(profile string, st LoadState) (ImplState, error) {
	s, err := o.Builtin.Load(profile, st)
	s.Result = ""
	return s, err
}

func (o *endedNoResult) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	mr, err := o.Builtin.Move(d, spawn)
	mr.State.Result = ""
	if re, ok := err.(*RuleError); ok && re.Code == "finished" {
		return mr, &RuleError{"illegal-move", "the move changes nothing"}
	}
	return mr, err
}

// TestWinThenEndedReading: a step after the win that fails both
// readings is reported as the profile's reading (its run ended) when the
// implementation's state says the run is over, though it names no
// result: the implementation ended the run at the win, so the refusal's
// code is what differs, not the refusal.
func TestWinThenEndedReading(t *testing.T) {
	p, err := engine.BuiltinProfile("rosetta")
	if err != nil {
		t.Fatal(err)
	}
	var res CaseResult
	runCase(&endedNoResult{&Builtin{}}, winThenMove(t, p), p, &res)
	if want := "move down: the rules refuse it as finished; the implementation as illegal-move (the move changes nothing)"; res.Status != IllegalHandled || res.Step != 2 || res.Reason != want {
		t.Errorf("%s at step %d: %s; want %s at step 2: %s", res.Status, res.Step, res.Reason, IllegalHandled, want)
	}
}

// TestObservedPlayOnVerifies: an implementation that plays on after the
// win under a profile that lists winThen as unstated is observed without
// a divergence, and the replay of each game, which the profile ends at
// the win, verifies: the move after the win is not recorded, and the
// claim is the rules' state at the win.
func TestObservedPlayOnVerifies(t *testing.T) {
	p, err := engine.BuiltinProfile("rosetta")
	if err != nil {
		t.Fatal(err)
	}
	p = p.Clone()
	p.Name, p.Win.Tile = "rosetta-32", 32 // a win every game reaches
	on := p.Clone()
	on.Win.Then, on.Unstated = engine.Continue, nil
	impl := &playsOn{Builtin: &Builtin{Profiles: []*engine.Profile{on}}}
	v := replay.NewVerifier()
	if err := v.AddProfile(p); err != nil {
		t.Fatal(err)
	}
	won := 0
	for i := range 5 {
		pl, _ := player.New("random", uint64(i+1))
		g, err := PlayObserved(impl, p, pl, ObservedGameOptions{MaxMoves: 2000})
		if err != nil || g.Divergence != nil {
			t.Fatalf("game %d: %v %+v", i, err, g.Divergence)
		}
		if c := g.Replay.Claim; c.Won != nil && *c.Won {
			won++
		}
		if vd := v.Verify(g.Replay); !vd.Valid {
			t.Errorf("game %d: the observed replay does not verify: %s: %s", i, vd.Reason, vd.Error)
		}
	}
	if won == 0 {
		t.Error("no game reached the win: the test shows nothing")
	}
}

// winThenMove is a case of two steps under profile p, as the engine
// plays them: the move left that merges 1024s into the win, then a move
// down after it.
func winThenMove(t *testing.T, p *engine.Profile) *Case {
	t.Helper()
	b, err := engine.ParseBoard("1024 1024 2 4/2 4 8 16/. . . ./. . . .")
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.Load(p, engine.State{Board: b})
	if err != nil {
		t.Fatal(err)
	}
	var steps []CaseStep
	for _, d := range []engine.Direction{engine.Left, engine.Down} {
		st, err := g.MoveSpawn(d, fitSpawn(p, g.Board(), d, nil))
		cs, err := engineStep(g, engine.Action(d), st, err, true, true)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, cs)
	}
	return &Case{Start: Start{Board: &b}, Steps: steps}
}
