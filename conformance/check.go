package conformance

import (
	"errors"
	"fmt"
	"slices"

	"github.com/tileproof/tileproof/engine"
)

// session follows one game in an implementation step by step against
// expectations: the runner's cases, exploration's games and the games
// record --impl writes all compare an implementation with the rules
// through it.
type session struct {
	impl Impl
	// profile is the profile of the game, whose spawn values every spawn
	// is checked against.
	profile *engine.Profile
	// state is the implementation's state after the last step; set it to
	// the start state.
	state ImplState
	// setup is the setup the game started with (nil: none), which the
	// rules of a run going on after the win take too (goneOnStep).
	setup *engine.Setup
	// goneOn is set, under a profile that lists winThen as unstated,
	// once a step has passed as the rules of a run going on after the
	// win give it and not as the profile's (which end the run at the
	// win): the later steps are held to the run going on alone. parted
	// is set once such a step was one the ended run refuses and the run
	// going on plays: the later steps' own expectations, of the ended
	// run, then say nothing of the game, and the engine's are taken
	// whole (goneOnStep).
	goneOn, parted bool
	// legalUnlisted is set once a step's legal moves went uncompared:
	// the implementation does not list them ([ErrNoLegal]).
	legalUnlisted bool
}

// newGame starts the session's game from a tp1 seed ("" for an
// implementation without seed-tp1) and setup; it reports whether the
// implementation answered with a state, recording the failure in res
// otherwise.
func (s *session) newGame(seed string, setup *engine.Setup, res *CaseResult) bool {
	st, err := s.impl.New(s.profile.Name, seed, setup)
	s.setup, s.goneOn, s.parted = setup, false, false
	return s.started(st, err, res)
}

// load starts the session's game from a given state, as newGame does.
func (s *session) load(ls LoadState, res *CaseResult) bool {
	loader, ok := s.impl.(Loader)
	if !ok {
		res.fail(ProtocolError, 0, "the start state: the implementation has no Load method")
		return false
	}
	st, err := loader.Load(s.profile.Name, ls)
	s.setup, s.goneOn, s.parted = ls.Setup, false, false
	return s.started(st, err, res)
}

// started takes the start state st, or records the start's failure.
func (s *session) started(st ImplState, err error, res *CaseResult) bool {
	if err != nil {
		res.callFailed(err, 0, "the start state")
		return false
	}
	s.state = st
	return true
}

// start starts the session's game as case start st says: from its board
// (Load) or its seed (New).
func (s *session) start(st Start, res *CaseResult) bool {
	if st.Board != nil {
		return s.load(LoadState{Setup: st.Setup, Board: *st.Board, Score: st.Score, Moves: int(st.Moves), Won: st.Won, KeepPlaying: st.KeepPlaying}, res)
	}
	return s.newGame(*st.Seed, st.Setup, res)
}

// outcome is what an implementation did in one step.
type outcome struct {
	Before  ImplState   // its state before the step
	Move    *MoveResult // a move it played
	Refusal *RuleError  // a step it refused by its rules
}

// step plays step n (1-based) of the game and compares what follows with
// the step's expectations. It reports whether the step passed; a failure
// is recorded in res, with every mismatch of the step.
func (s *session) step(step CaseStep, n int, res *CaseResult) bool {
	out, ok := s.play(step, n, res)
	return ok && s.check(step, out, n, res)
}

// play plays step n in the implementation and returns what it did. ok is
// false when the call failed other than by a refusal (a crash, a timeout,
// a protocol error, an action the implementation lacks), recorded in res.
func (s *session) play(step CaseStep, n int, res *CaseResult) (out outcome, ok bool) {
	out.Before = s.state
	what := stepName(step)
	var err error
	switch {
	case step.Move != nil:
		var mr MoveResult
		if mr, err = s.impl.Move(*step.Move, step.Spawn); err == nil {
			out.Move = &mr
			s.state = mr.State
		}
	case step.Action != "":
		doer, can := s.impl.(Doer)
		if !can {
			res.fail(ProtocolError, n, "%s: the implementation has no Do method for the run's other actions", what)
			return out, false
		}
		var st ImplState
		if st, err = doer.Do(step.Action); err == nil {
			s.state = st
		}
	}
	if err != nil && !errors.As(err, &out.Refusal) {
		res.callFailed(err, n, what)
		if code := step.Expect.Error; code != "" && res.Status == ProtocolError {
			// A refusal in a word not the rules' (bad-request, say):
			// the word the rules refuse the step with.
			res.Reason += "; the rules refuse it as " + code
		}
		return out, false
	}
	if r := out.Refusal; r != nil {
		out.Refusal = &RuleError{r.Code, implMessage(r.Message)}
	}
	return out, true
}

func stepName(st CaseStep) string {
	switch {
	case st.Move != nil:
		return "move " + st.Move.String()
	case st.Action != "":
		return st.Action
	}
	return "check"
}

// checker collects a step's mismatches.
type checker struct {
	what   string
	mm     []StepMismatch
	before engine.Board // the board the step started from
	// after is the implementation's board after the step, shown with a
	// mismatch of another field when showAfter is set.
	after     engine.Board
	showAfter bool
	// want and got are the first whole board mismatch's boards: the
	// rules' and the implementation's.
	want, got *engine.Board
}

func (c *checker) add(field string, status Status, want, got any, format string, args ...any) {
	if slices.ContainsFunc(c.mm, func(m StepMismatch) bool { return m.Field == field }) {
		return // one mismatch a field: a later check of it says the same
	}
	c.mm = append(c.mm, StepMismatch{Field: field, Status: status, Want: fmt.Sprint(want), Got: fmt.Sprint(got), Text: fmt.Sprintf(format, args...)})
}

// board adds a mismatch of a whole board.
func (c *checker) board(field string, want, got engine.Board, format string, args ...any) {
	n := len(c.mm)
	c.add(field, BoardDiverged, want, got, format, args...)
	if len(c.mm) > n && c.want == nil {
		c.want, c.got = &want, &got
	}
}

// check compares what the implementation did in step n (out, from
// play) with the step's expectations and the rules every move
// is held to (one tile after a move that changed the board, none after one
// that did not, in a cell the slide left empty, of a value the profile
// spawns, where a forced spawn said). It reports whether the step passed;
// a failure is recorded in res with every mismatch, the most basic first
// (the board, then the spawn, the score, legality and the flags) as the
// result's status.
//
// Under a profile that lists winThen as unstated (its win ends the run,
// which its source does not say), a step that fails passes all the same
// when it is what the rules of a run going on after the win give
// (goneOnStep). A game is held to one reading, never to a mix: once a
// step has passed by the run going on alone, the later steps are held
// to it alone, and a state the profile's win ended (target-reached) is
// held to the profile's reading alone. A step that fails both readings
// is reported as the implementation's reading has it: the run going on
// once it has won and not ended, the profile's own before.
func (s *session) check(step CaseStep, out outcome, n int, res *CaseResult) bool {
	if !winThenUnstated(s.profile) {
		return s.compare(step, out, n, res)
	}
	stop := *res
	if !s.goneOn {
		if s.compare(step, out, n, &stop) {
			return true
		}
		if stop.Status == Crash || stop.Status == Timeout || stop.Status == ProtocolError {
			*res = stop // a call failed (legal): no reading to compare with
			return false
		}
	}
	alt, parted, err := s.goneOnStep(step, out)
	if err != nil {
		if s.goneOn {
			res.fail(ProtocolError, n, "%s: the implementation plays on after the win, and the rules of a run going on cannot read the step: %v", stepName(step), err)
			res.stepBoards(out.Before.Board, s.state.Board)
			return false
		}
		*res = stop
		return false
	}
	on := *res
	if s.compare(alt, out, n, &on) {
		s.goneOn, s.parted = true, s.parted || parted
		return true
	}
	if s.goneOn || out.Before.Won && !out.Before.Over {
		*res = on
	} else {
		*res = stop
	}
	return false
}

// goneOnStep returns step as the rules of a run that goes on after the
// win give it: the profile with win.then continue (and the session's
// setup) playing the step from the implementation's state before it
// (out.Before), which the steps before checked. A move's spawn is the
// forced one, or else the implementation's (one the rules do not take is
// replaced by the first cell the slide leaves empty, with the smallest
// value, so the comparison names it). parted reports that the readings
// part at the step: the ended run refuses it and the run going on plays
// it (or, in a profile that ignores a move that changes nothing, passes
// it over and the run going on changes the board). Then, and once the
// session's readings have parted, the step expects all the engine gives
// (the board after the slide, the points, changed and spawned, the whole
// state; the legal moves where step expects them); otherwise step's own expectations stand, whose won,
// boards, score and count the two readings share, with the refusal and
// the flags (over, the result, the legal moves, where step expects them)
// of the run going on. An error says the step cannot be read so: the
// win ended the run before it (target-reached), neither the state before
// it nor the step has won (the readings are one), or the engine cannot
// load the state or play the step.
func (s *session) goneOnStep(step CaseStep, out outcome) (alt CaseStep, parted bool, err error) {
	before := out.Before
	if before.Result == resultName(engine.TargetReached) {
		return alt, false, errors.New("the win ended the run before it")
	}
	p, err := s.rulesProfile(before.Board)
	if err != nil {
		return alt, false, err
	}
	p.Win.Then, p.Unstated = engine.Continue, nil
	g, err := loadRules(p, before)
	if err != nil {
		return alt, false, err
	}
	e := step.Expect
	switch {
	case step.Move != nil:
		d := *step.Move
		var st engine.Step
		switch {
		case step.Spawn != nil:
			st, err = g.MoveSpawn(d, *step.Spawn)
		case out.Move != nil && out.Move.Spawn != nil:
			if st, err = g.MoveSpawn(d, *out.Move.Spawn); errors.Is(err, engine.ErrBadSpawn) {
				st, err = g.MoveSpawn(d, fitSpawn(p, before.Board, d, nil))
			}
		default:
			st, err = g.MoveSpawn(d, fitSpawn(p, before.Board, d, nil))
		}
		if step.Spawn != nil && errors.Is(err, engine.ErrBadSpawn) {
			// Rule 11: a forced spawn the slide does not allow is refused.
			alt = actionStep(engine.Action(d))
			alt.Expect.Error = "bad-spawn"
		} else if alt, err = engineStep(g, engine.Action(d), st, err, false, true); err != nil {
			return alt, false, err
		}
		alt.Spawn = step.Spawn
	case step.Action != "":
		a, _, ok := stepAction(step.Action)
		if !ok {
			return alt, false, fmt.Errorf("no action %q", step.Action)
		}
		st, err := g.Do(a)
		if alt, err = engineStep(g, a, st, err, false, true); err != nil {
			return alt, false, err
		}
	default:
		alt = stateStep(g)
	}
	if !before.Won && !g.Won() {
		// No win before the step or in it: the readings are one.
		return alt, false, errors.New("no win before the step or in it")
	}
	// The ended run refuses the step, or passes it over changing nothing
	// (an ignore profile's move after the end), and the run going on
	// plays it.
	passed := e.Changed != nil && !*e.Changed && alt.Expect.Changed != nil && *alt.Expect.Changed
	parted = alt.Expect.Error == "" && (e.Error != "" || passed)
	if !parted && !s.parted {
		// step's own expectations, with the refusal and the flags step
		// expects (over, the result, the legal moves) of the run going on.
		var on Expect
		expectState(&on, g)
		x := e
		x.Error = alt.Expect.Error
		if e.Over != nil {
			x.Over = on.Over
		}
		if e.Result != nil {
			x.Result = on.Result
		}
		if e.Legal != nil {
			x.Legal = on.Legal
		}
		alt.Expect = x
		return alt, false, nil
	}
	if e.Legal == nil {
		alt.Expect.Legal = nil
	}
	return alt, parted, nil
}

// rulesProfile is a copy of the session's profile for a state of its
// game on board b: with the setup the game started with, on b's size.
func (s *session) rulesProfile(b engine.Board) (*engine.Profile, error) {
	p := s.profile
	if s.setup != nil {
		var err error
		if p, err = p.WithSetup(*s.setup); err != nil {
			return nil, err
		}
	}
	p = p.Clone()
	p.Rows, p.Cols = b.Rows(), b.Cols()
	p.StartTiles = min(p.StartTiles, p.Rows*p.Cols)
	return p, nil
}

// loadRules loads the implementation's state st under profile p: the
// game the rules make of it.
func loadRules(p *engine.Profile, st ImplState) (*engine.Game, error) {
	state := engine.State{Board: st.Board, Score: st.Score, Moves: st.Moves, Won: st.Won}
	if st.Result == resultName(engine.RunFinished) {
		state.Result = engine.RunFinished // which no board gives
	}
	return engine.Load(p, state)
}

// overBefore says, for a failing step, that the implementation's game
// was already over before it where the rules play on: a move then
// ignored or refused reads otherwise as the step's own fault (a win not
// made, a board not slid), and the start state is not compared unless a
// case asks. It returns "" where the rules' game is over too, whatever
// the reading, and after an End run; got is the implementation's word.
func (s *session) overBefore(before ImplState) (text, got string) {
	if !before.Over || before.Result == resultName(engine.RunFinished) {
		return "", ""
	}
	p, err := s.rulesProfile(before.Board)
	if err != nil {
		return "", ""
	}
	if g, err := loadRules(p, before); err != nil || g.Over() {
		return "", ""
	}
	got = "over"
	if before.Result != "" {
		got += " (" + before.Result + ")"
	}
	return "the implementation's game was already " + got + " before this step; by the rules it plays on", got
}

// compare is check under one reading of the rules: step's.
func (s *session) compare(step CaseStep, out outcome, n int, res *CaseResult) bool {
	e := step.Expect
	what := stepName(step)
	before, st := out.Before.Board, s.state
	differs := ""
	switch refusal := out.Refusal; {
	case e.Error == "" && refusal == nil:
	case refusal == nil && passedOver(s.profile, step, out):
		// The source allows passing the move over; the rest is checked.
	case refusal == nil:
		differs = fmt.Sprintf("the rules refuse it (%s); the implementation accepted it", e.Error)
	case e.Error == "" && refusedAfterEnd(s.profile, step, out.Before, refusal.Code):
		// The source allows the refusal; the state after it is checked.
	case e.Error == "":
		differs = fmt.Sprintf("the rules accept it; the implementation refused it: %s", refusal)
	case refusal.Code != e.Error && !noOpAfterEnd(s.profile, step, before, e.Error, refusal.Code):
		differs = fmt.Sprintf("the rules refuse it as %s; the implementation as %s (%s)", e.Error, refusal.Code, refusal.Message)
	}
	if differs != "" {
		if text, _ := s.overBefore(out.Before); text != "" && out.Refusal != nil {
			differs += "; " + text
		}
		res.fail(IllegalHandled, n, "%s: %s", what, differs)
		res.stepBoards(before, st.Board)
		return false
	}
	if scoreUnstated(s.profile) {
		e.Gained, e.Score = nil, nil
	}
	c := &checker{what: what, before: before, after: st.Board, showAfter: true}
	slid := st.Board
	if mr := out.Move; mr != nil {
		c.spawn(s.profile, *step.Move, step.Spawn, mr)
		slid = mr.slid()
	}
	c.expect(e, out.Move, slid, st)
	if e.Legal != nil {
		if ll, can := s.impl.(LegalLister); can {
			switch got, err := ll.Legal(); {
			case errors.Is(err, ErrNoLegal):
				s.legalUnlisted = true // not listed: nothing to compare
			case err != nil:
				res.callFailed(err, n, "legal")
				return false
			case !sameDirections(got, *e.Legal):
				c.add("legal", LegalityDiffer, *e.Legal, got, "%s: the legal moves are %v, want %v", what, got, *e.Legal)
			}
		}
	}
	if len(c.mm) > 0 {
		if text, got := s.overBefore(out.Before); text != "" {
			// Second, beside the first mismatch it may explain; the
			// first still names the failure.
			c.mm = slices.Insert(c.mm, 1, StepMismatch{Field: "before", Status: FlagsDiffer, Want: "playing", Got: got, Text: what + ": " + text})
		}
	}
	return c.record(res, n)
}

// record reports whether there was no mismatch; otherwise it records
// them in res as step n's failure.
func (c *checker) record(res *CaseResult, n int) bool {
	if len(c.mm) == 0 {
		return true
	}
	res.Status, res.Step, res.Reason, res.Mismatches = c.mm[0].Status, n, c.mm[0].Text, c.mm
	if c.want != nil {
		before := c.before // a copy: the checker stays on the stack
		res.Start, res.Want, res.Got = &before, c.want, c.got
	} else if c.showAfter {
		res.stepBoards(c.before, c.after)
	}
	return false
}

// spawn checks the tile a move reports spawning.
func (c *checker) spawn(p *engine.Profile, d engine.Direction, forced *engine.Spawn, mr *MoveResult) {
	sp, board := mr.Spawn, mr.State.Board
	switch {
	case !mr.Changed && sp != nil:
		c.add("spawn", SpawnWrong, "none", *sp, "move %s changed nothing but a tile of %d spawned at row %d, column %d", d, sp.Value, sp.Row, sp.Col)
	case mr.Changed && sp == nil:
		c.add("spawn", SpawnWrong, "a spawn", "none", "move %s changed the board but reported no spawn", d)
	case sp == nil:
		if board != c.before {
			c.board("board", c.before, board, "move %s changed nothing, yet the board changed", d)
		}
	case sp.Row < 0 || sp.Row >= board.Rows() || sp.Col < 0 || sp.Col >= board.Cols():
		c.add("spawn", SpawnWrong, "a cell of the board", *sp, "the spawn at row %d, column %d is off the board", sp.Row, sp.Col)
	case board.At(sp.Row, sp.Col) != sp.Value:
		c.add("spawn", SpawnWrong, sp.Value, board.At(sp.Row, sp.Col), "the spawn is reported as %d at row %d, column %d, but the board holds %d there", sp.Value, sp.Row, sp.Col, board.At(sp.Row, sp.Col))
	case p != nil && !p.SpawnValue(sp.Value):
		c.add("spawn", SpawnWrong, p.SpawnValues(), sp.Value, "a tile of %d spawned; profile %s spawns only %s", sp.Value, p.Name, p.SpawnValues())
	case forced != nil && *forced != *sp:
		c.add("spawn", SpawnWrong, *forced, *sp, "the spawn was forced to %d at row %d, column %d; it is %d at row %d, column %d", forced.Value, forced.Row, forced.Col, sp.Value, sp.Row, sp.Col)
	}
	// (A spawn in a cell the slide did not leave empty shows as a board
	// divergence: the board minus the spawn is not the slide.)
}

// expect compares a step's expectations, the boards first.
func (c *checker) expect(e Expect, mr *MoveResult, slid engine.Board, st ImplState) {
	what := c.what
	if e.Board != nil && *e.Board != slid {
		c.board("board", *e.Board, slid, "%s: the board after the slide differs", what)
	}
	if e.After != nil && *e.After != st.Board {
		after := "the board after the step"
		if mr == nil && what == "check" { // a step that only checks: the state as it is
			after = "the board"
		}
		c.board("after", *e.After, st.Board, "%s: %s differs", what, after)
	}
	if r := e.Row; r != nil {
		got := make([]uint64, slid.Cols())
		want := make([]uint64, len(r.Cells))
		for col := range got {
			got[col] = slid.At(min(r.Index, slid.Rows()-1), col)
		}
		for col, v := range r.Cells {
			if v != nil {
				want[col] = *v
			}
		}
		if r.Index >= slid.Rows() || !slices.Equal(want, got) {
			c.add("row", BoardDiverged, want, got, "%s: row %d after the slide is %v, want %v", what, r.Index, got, want)
		}
	}
	if cell := e.Cell; cell != nil {
		if cell.Row >= slid.Rows() || cell.Col >= slid.Cols() || slid.At(cell.Row, cell.Col) != cell.Value {
			c.add("cell", BoardDiverged, cell.Value, "another tile", "%s: cell (%d, %d) after the slide is not %d\n%s", what, cell.Row, cell.Col, cell.Value, slid)
		}
	}
	if mr != nil {
		expectField(c, "changed", LegalityDiffer, e.Changed, mr.Changed, "changed is %v")
		expectField(c, "gained", ScoreDiverged, e.Gained, mr.Gained, "gained %v points")
		expectField(c, "spawned", SpawnWrong, e.Spawned, mr.Spawn != nil, "spawned is %v")
	}
	expectField(c, "score", ScoreDiverged, e.Score, st.Score, "the score is %v")
	expectField(c, "maxTile", ScoreDiverged, e.MaxTile, st.Board.MaxTile(), "the largest tile is %v")
	expectField(c, "moves", LegalityDiffer, e.Moves, int64(st.Moves), "%v counted moves")
	expectField(c, "won", FlagsDiffer, e.Won, st.Won, "won is %v")
	expectField(c, "over", FlagsDiffer, e.Over, st.Over, "over is %v")
	if e.Result != nil && st.Result != "" {
		if want, _ := e.Result.MarshalText(); string(want) != st.Result {
			c.add("result", FlagsDiffer, string(want), st.Result, "%s: the result is %s, want %s", what, st.Result, want)
		}
	}
}

// expectField adds a mismatch when the step expects want of a field and
// the implementation gave got: "STEP: FIELD IS GOT, want WANT".
func expectField[T comparable](c *checker, field string, status Status, want *T, got T, format string) {
	if want != nil && *want != got {
		c.add(field, status, *want, got, "%s: "+format+", want %v", c.what, got, *want)
	}
}

func sameDirections(a, b []engine.Direction) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
