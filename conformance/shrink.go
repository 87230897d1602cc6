package conformance

import (
	"context"
	"slices"

	"github.com/tileproof/tileproof/engine"
)

// candidate is a case shrinking tries: a start (a tp1 seed, or a state to
// load) and moves.
type candidate struct {
	seed  string       // a tp1 start when not ""; with a loaded start, the spawns are forced
	start engine.State // otherwise the state to load
	moves []move
}

func (c candidate) with(moves []move) candidate {
	c.moves = moves
	return c
}

// build plays the candidate on the engine and returns its steps: full
// expectations on the last, the board after on the others.
func (c candidate) build(p *engine.Profile) ([]CaseStep, error) {
	var g *engine.Game
	var err error
	if c.seed != "" {
		g, err = engine.NewGame(p, c.seed)
	} else {
		st := c.start
		g, err = engine.Load(p, engine.State{Board: st.Board, Score: st.Score, Moves: st.Moves, Won: st.Won, KeepPlaying: st.KeepPlaying})
	}
	if err != nil {
		return nil, err
	}
	if len(c.moves) == 0 {
		return []CaseStep{stateStep(g)}, nil
	}
	var steps []CaseStep
	for i, m := range c.moves {
		var step engine.Step
		if d, isMove := m.Act.Direction(); isMove && c.seed == "" {
			step, err = g.MoveSpawn(d, fitSpawn(p, g.Board(), d, m.Spawn))
		} else {
			step, err = g.Do(m.Act)
		}
		cs, err := engineStep(g, m.Act, step, err, c.seed == "", i == len(c.moves)-1)
		if err != nil {
			return nil, err
		}
		steps = append(steps, cs)
	}
	return steps, nil
}

// fitSpawn returns the spawn to force after move d on b: the recorded
// spawn when its cell is empty after the slide, else the first empty cell,
// with the recorded value (the profile's smallest when there is none).
// When the move changes nothing the spawn is not used, and any will do.
func fitSpawn(p *engine.Profile, b engine.Board, d engine.Direction, recorded *engine.Spawn) engine.Spawn {
	sp := engine.Spawn{Value: p.Spawn[0].Value}
	if recorded != nil {
		sp = *recorded
	}
	s, err := b.Slide(d)
	if err != nil || !s.Changed || s.Board.At(sp.Row, sp.Col) == 0 {
		return sp
	}
	for r := range s.Board.Rows() {
		for c := range s.Board.Cols() {
			if s.Board.At(r, c) == 0 {
				sp.Row, sp.Col = r, c
				return sp
			}
		}
	}
	return sp
}

// shrinker searches for a smaller candidate with the same kind of
// divergence, running each as a case with the normal runner.
type shrinker struct {
	impl Impl
	p    *engine.Profile
	kind Status
	runs int
}

// test reports whether the candidate, run as a case, still diverges with
// the same kind; the candidate's moves are cut after the failing step.
func (s *shrinker) test(c *candidate) bool {
	if s.runs >= shrinkBudget {
		return false
	}
	steps, err := c.build(s.p)
	if err != nil {
		return false
	}
	s.runs++
	res := CaseResult{}
	runCase(s.impl, &Case{Steps: steps, Start: c.caseStart()}, s.p, &res)
	if res.Status != s.kind {
		return false
	}
	if len(c.moves) > 0 && res.Step >= 1 && res.Step < len(c.moves) {
		// The moves after the failing step are not needed, if the
		// divergence is the same with full expectations on it.
		cut := c.with(c.moves[:res.Step])
		if s.test(&cut) {
			*c = cut
		}
	}
	return true
}

func (c candidate) caseStart() Start {
	if c.seed != "" {
		seed := c.seed
		return Start{Seed: &seed}
	}
	b := c.start.Board
	return Start{Board: &b, Score: c.start.Score, Moves: int64(c.start.Moves), Won: c.start.Won, KeepPlaying: c.start.KeepPlaying}
}

// shrink turns a divergence into a small case: from the state just before
// the diverging move when the implementation can load it (going back
// further when that does not reproduce it), else the game's moves from
// its seed; then fewer moves, then (from a loaded state) fewer and smaller
// tiles, a smaller score, fewer counted moves, smaller spawns.
func (x *explorer) shrink(ctx context.Context, d *ExploreDivergence, rep *Exploration) (*FoundCase, error) {
	s := &shrinker{impl: x.impl, p: x.p, kind: d.Result.Status}
	n := d.Move // moves[:n] were played, the last one diverging
	var found *candidate
	if x.canLoad && n > 0 && s.kind != Timeout {
		for k := 1; found == nil; k *= 2 {
			from := max(0, n-k)
			c := candidate{start: x.history[from], moves: slices.Clone(x.moves[from:n])}
			if s.test(&c) {
				found = &c
			}
			if from == 0 {
				break
			}
		}
	}
	if found == nil && x.seeded && s.kind != Timeout {
		c := candidate{seed: x.seed, moves: slices.Clone(x.moves[:n])}
		if s.test(&c) {
			found = &c
		}
	}
	reproduced := found != nil
	if found == nil {
		// It does not reproduce alone (or it is a timeout, too slow to
		// shrink): the game as it was played.
		if x.seeded {
			found = &candidate{seed: x.seed, moves: x.moves[:n]}
		} else {
			found = &candidate{start: x.history[0], moves: x.moves[:n]}
		}
	} else {
		s.minimize(found)
	}
	fc, err := x.writeCase(d, rep, *found, s, reproduced)
	if err != nil || ctx.Err() != nil { // a shrink cut short is no case
		return nil, err
	}
	return fc, nil
}

// minimize reduces c in place while it keeps the divergence.
func (s *shrinker) minimize(c *candidate) {
	// Fewer moves: drop runs of moves, halving the run length.
	for chunk := max(1, len(c.moves)/2); chunk >= 1 && len(c.moves) > 1; {
		dropped := false
		for i := 0; i+chunk <= len(c.moves) && len(c.moves) > 1; {
			moves := append(slices.Clone(c.moves[:i]), c.moves[i+chunk:]...)
			try := c.with(moves)
			if s.test(&try) {
				*c, dropped = try, true
			} else {
				i += chunk
			}
		}
		if !dropped {
			chunk /= 2
		}
	}
	if c.seed != "" {
		return
	}
	for changed := true; changed && s.runs < shrinkBudget; {
		changed = false
		// keep tries c changed by edit, and keeps it if it still diverges.
		keep := func(edit func(try *candidate)) bool {
			try := *c
			edit(&try)
			if !s.test(&try) {
				return false
			}
			*c, changed = try, true
			return true
		}
		b := c.start.Board
		// Fewer tiles.
		for r := range b.Rows() {
			for col := range b.Cols() {
				if c.start.Board.At(r, col) != 0 {
					keep(func(try *candidate) { try.start.Board.Set(r, col, 0) })
				}
			}
		}
		// Smaller tiles: the smallest that keeps it.
		for r := range b.Rows() {
			for col := range b.Cols() {
				v := c.start.Board.At(r, col)
				for w := uint64(2); w < v; w *= 2 {
					if keep(func(try *candidate) { try.start.Board.Set(r, col, w) }) {
						break
					}
				}
			}
		}
		// A smaller score, fewer counted moves, no win.
		for c.start.Score > 0 {
			if !keep(func(try *candidate) { try.start.Score = 0 }) && !keep(func(try *candidate) { try.start.Score /= 2 }) {
				break
			}
		}
		if c.start.Moves > 0 {
			keep(func(try *candidate) { try.start.Moves = 0 })
		}
		if c.start.Won || c.start.KeepPlaying {
			keep(func(try *candidate) { try.start.Won, try.start.KeepPlaying = false, false })
		}
		// Smaller spawns.
		for i, m := range c.moves {
			if m.Spawn == nil || m.Spawn.Value == s.p.Spawn[0].Value {
				continue
			}
			keep(func(try *candidate) {
				try.moves = slices.Clone(try.moves)
				sp := *m.Spawn
				sp.Value = s.p.Spawn[0].Value
				try.moves[i].Spawn = &sp
			})
		}
	}
}
