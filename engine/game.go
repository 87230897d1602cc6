package engine

import (
	"errors"
	"fmt"
	"strings"
)

// Result is how a run stands: still playing, or which finishing condition
// ended it.
type Result uint8

// The results of a run. The finishing conditions are checked after each
// counted move, in the profile's FinishOrder (the order of Online 2048's
// "Finishing conditions", target, no moves, move limit, except in classic,
// which checks no moves first; docs/profiles.md).
const (
	Playing          Result = iota // the run goes on
	TargetReached                  // the win tile ended the run (or paused it, in a profile that asks)
	NoMoves                        // no move changes the board
	MoveLimitReached               // the profile's move limit was reached
	RunFinished                    // the player ended the run (End run)
)

var resultNames = []string{"playing", "target-reached", "no-moves", "move-limit", "run-finished"}
var resultTexts = []string{"playing", "target reached", "no moves left", "move limit reached", "run finished"}

// String returns the result as Online 2048's "Finishing conditions" word
// it: "target reached", "no moves left", "move limit reached", "run
// finished", or "playing".
func (r Result) String() string { return enumName(resultTexts, int(r)) }

// Name returns the result's short name, as MarshalText writes it:
// playing, target-reached, no-moves, move-limit or run-finished; the
// number of a result that is none of them.
func (r Result) Name() string { return enumName(resultNames, int(r)) }

// MarshalText writes the result's short name: playing, target-reached,
// no-moves, move-limit or run-finished.
func (r Result) MarshalText() ([]byte, error) {
	if int(r) >= len(resultNames) {
		return nil, fmt.Errorf("invalid result %d", r)
	}
	return []byte(resultNames[r]), nil
}

// UnmarshalText reads a result's short name.
func (r *Result) UnmarshalText(b []byte) error {
	i, err := enumValue(resultNames, string(b))
	*r = Result(i)
	return err
}

// Errors of the game state machine. Move errors match them with errors.Is.
var (
	ErrIllegalMove    = errors.New("illegal move")
	ErrFinished       = errors.New("the run is over")
	ErrNoRNG          = errors.New("this game has no seeded RNG: every spawn must be given")
	ErrScoreOverflow  = errors.New("the score would pass 2^53-1, the safe-integer limit")
	ErrMovesOverflow  = errors.New("the move count would pass 2^53-1, the safe-integer limit")
	ErrNoUndo         = errors.New("nothing to undo")
	ErrUnsupported    = errors.New("not in this profile")
	ErrBadSpawn       = errors.New("invalid spawn")
	ErrNotWaitingKeep = errors.New("the run is not stopped at the win tile")
	ErrNoBreak        = errors.New("no break left")
)

// Refusal returns the word the tileproof protocols use for an action the
// rules refuse: illegal-move, finished, unsupported, no-undo, not-stopped
// (keep playing when play is not stopped at the win), bad-spawn or
// overflow (a tile above 2^52, a score or a move count above 2^53-1); "" for any other
// error (a break refused for its limit or its price, which no protocol
// sends, among them).
func Refusal(err error) string {
	switch {
	case errors.Is(err, ErrIllegalMove):
		return "illegal-move"
	case errors.Is(err, ErrFinished):
		return "finished"
	case errors.Is(err, ErrUnsupported):
		return "unsupported"
	case errors.Is(err, ErrNoUndo):
		return "no-undo"
	case errors.Is(err, ErrNotWaitingKeep):
		return "not-stopped"
	case errors.Is(err, ErrBadSpawn):
		return "bad-spawn"
	case errors.Is(err, ErrTileOverflow), errors.Is(err, ErrScoreOverflow), errors.Is(err, ErrMovesOverflow):
		return "overflow"
	}
	return ""
}

// MoveError is a refused move: one that does not change the board, or any
// move once the run is over, in a profile that rejects illegal moves.
type MoveError struct {
	Dir    Direction
	Result Result      // Playing for a move that changes nothing
	Legal  []Direction // the moves that would change the board
}

func (e *MoveError) Error() string {
	if e.Result != Playing {
		return fmt.Sprintf("moving %s: the run is over (%s); no move is accepted", e.Dir, e.Result)
	}
	names := make([]string, len(e.Legal))
	for i, d := range e.Legal {
		names[i] = d.String()
	}
	legal := "none"
	if len(names) > 0 {
		legal = strings.Join(names, ", ")
	}
	return fmt.Sprintf("moving %s does not change the board, so it is not a legal move; legal moves: %s", e.Dir, legal)
}

// Is makes a MoveError match [ErrIllegalMove] or [ErrFinished].
func (e *MoveError) Is(target error) bool {
	return target == ErrIllegalMove && e.Result == Playing || target == ErrFinished && e.Result != Playing
}

// Spawn is a tile that appeared: at row Row, column Col (0-based), value
// Value.
type Spawn struct {
	Row   int    `json:"row" yaml:"row"`
	Col   int    `json:"col" yaml:"col"`
	Value uint64 `json:"value" yaml:"value"`
}

// Step is what one move did.
type Step struct {
	Changed bool   // the board changed, so the move counted and a tile spawned
	Gained  uint64 // the points the move's merges earned
	Spawn   Spawn  // the tile that appeared, when Changed
}

// State is a game's state, as a driver loads it or a caller saves it.
type State struct {
	Board Board
	Score uint64
	Moves int // counted moves so far
	// RNG is the spawn generator's position; nil for a game whose spawns
	// are all given. Generator says whose: tp1's (the zero value), or
	// under HallaboisLCG the LCG's 32-bit state.
	RNG       *RNG
	Generator Generator
	Breaks    int  // the breaks used (profiles with a break)
	Won       bool // the win rule has been met
	// KeepPlaying records that the player chose to play on after the win
	// (profiles whose win asks).
	KeepPlaying bool
	Result      Result
	// Prev is the state before the last counted move, which an undo
	// restores; nil when there is nothing to undo. Its own Prev is nil.
	Prev *State
}

// Game is one run under a profile: the board, score, counted moves and the
// spawn generator, with the profile's rules for winning, illegal moves,
// the move limit, undo and End run. It is not safe for concurrent use.
type Game struct {
	r       *Rules
	p       *Profile // r.p
	st      gameState
	prev    gameState // the state before the last counted move, for undo
	canUndo bool
	seeded  bool      // st.rng drives spawns
	gen     Generator // whose state st.rng is, when seeded
}

type gameState struct {
	packed bool   // the board is pb, a 4x4 board on the packed fast path; otherwise b
	pb     packed // the board, when packed
	b      Board  // the board, otherwise
	score  uint64
	moves  int
	breaks int
	rng    RNG
	maxExp uint8
	won    bool
	keep   bool
	result Result
}

// NewGame starts a run from a seed text: an empty board, then the
// profile's start tiles spawned by the tp1 generator.
func (r *Rules) NewGame(seed string) (*Game, error) {
	// Small enough to inline, so that a caller that keeps the game to
	// itself has it on its stack, not the heap (TestReplayOnStack).
	g := new(Game)
	if err := r.start(g, seed); err != nil {
		return nil, err
	}
	return g, nil
}

// NewGameWith starts a run from a seed whose spawns gen draws: tp1, as
// [Rules.NewGame] does, or the hallabois generator, whose seed is the
// decimal text of a 32-bit number ([LCGSeed]). Only tp1 games take the
// fast replay loop; the others play every move on the general path.
func (r *Rules) NewGameWith(gen Generator, seed string) (*Game, error) {
	g := new(Game)
	switch gen {
	case TP1:
		if err := r.start(g, seed); err != nil {
			return nil, err
		}
	case HallaboisLCG:
		s, err := LCGSeed(seed)
		if err != nil {
			return nil, err
		}
		r.startFrom(g, HallaboisLCG, RNG{uint64(s)})
	default:
		return nil, fmt.Errorf("invalid generator %d", gen)
	}
	return g, nil
}

// start sets the zero game g to a new run from a tp1 seed.
func (r *Rules) start(g *Game, seed string) error {
	rng, err := NewRNG(seed)
	if err != nil {
		return err
	}
	r.startFrom(g, TP1, rng)
	return nil
}

// startFrom sets the zero game g to a new run whose spawns gen draws,
// from its state rng.
func (r *Rules) startFrom(g *Game, gen Generator, rng RNG) {
	p := r.p
	g.r, g.p, g.seeded, g.gen = r, p, true, gen
	g.st.rng = rng
	if r.seededFast {
		// Straight onto the packed board, which every tile fits.
		var pb packed
		empty := uint64(nibbleLSB)
		for range p.StartTiles {
			var exp uint8
			var cell int
			if empty == nibbleLSB { // every cell is empty: more than a prefix counts
				exp, cell = g.draw(16)
			} else {
				prefix := emptyPrefix(empty)
				var nth int
				exp, nth = g.draw(int(emptyCount(prefix)))
				cell = nthEmpty(prefix, nth)
			}
			pb.set(cell, exp)
			empty &^= 1 << (4 * cell)
			g.st.maxExp = max(g.st.maxExp, exp)
		}
		g.st.packed, g.st.pb = true, pb
	} else {
		b := Board{rows: uint8(p.Rows), cols: uint8(p.Cols)}
		for range p.StartTiles {
			exp, nth := g.draw(b.Empty())
			b.cells[b.nthEmpty(nth)] = exp
		}
		g.setBoard(b)
	}
	g.evaluate()
}

// Load returns a game in state st. The board must have the profile's
// size. A state whose result is Playing is checked against the finishing
// conditions first, so a loaded blocked board is over at once.
func (r *Rules) Load(st State) (*Game, error) {
	g, err := r.load(st)
	if err != nil || st.Prev == nil {
		return g, err
	}
	switch {
	case !r.p.Undo:
		return nil, fmt.Errorf("a state to undo to, in profile %s, which has no undo", r.p.Name)
	case st.Prev.Prev != nil:
		return nil, errors.New("undo takes back one move: the state to undo to has one of its own")
	case (st.Prev.RNG == nil) != (st.RNG == nil):
		return nil, errors.New("the state to undo to and the state differ in having a generator")
	case st.Prev.RNG != nil && st.Prev.Generator != st.Generator:
		return nil, errors.New("the state to undo to and the state have different generators")
	}
	prev, err := r.load(*st.Prev)
	if err != nil {
		return nil, fmt.Errorf("the state to undo to: %w", err)
	}
	g.prev, g.canUndo = prev.st, true
	return g, nil
}

func (r *Rules) load(st State) (*Game, error) {
	p := r.p
	switch {
	case st.Board.Rows() != p.Rows || st.Board.Cols() != p.Cols:
		return nil, fmt.Errorf("a %dx%d board in profile %s, which plays on %dx%d", st.Board.Rows(), st.Board.Cols(), p.Name, p.Rows, p.Cols)
	case st.Score > MaxSafeInteger:
		return nil, fmt.Errorf("score %d is above 2^53-1", st.Score)
	case st.Moves < 0:
		return nil, fmt.Errorf("move count %d is negative", st.Moves)
	case uint64(st.Moves) > MaxSafeInteger:
		return nil, fmt.Errorf("move count %d is above 2^53-1", st.Moves)
	case int(st.Result) >= len(resultNames):
		return nil, fmt.Errorf("invalid result %d", st.Result)
	case st.Breaks < 0 || st.Breaks > p.Break.Limit:
		return nil, fmt.Errorf("%d breaks used, in profile %s, which allows %d", st.Breaks, p.Name, p.Break.Limit)
	case st.RNG != nil && st.Generator > HallaboisLCG:
		return nil, fmt.Errorf("invalid generator %d", st.Generator)
	case st.RNG != nil && st.Generator == HallaboisLCG && st.RNG.state > 1<<32-1:
		return nil, fmt.Errorf("generator state %d is above 2^32-1, the hallabois generator's", st.RNG.state)
	}
	g := &Game{r: r, p: p}
	if st.RNG != nil {
		g.seeded, g.gen = true, st.Generator
		g.st.rng = *st.RNG
	}
	g.st.score, g.st.moves, g.st.breaks = st.Score, st.Moves, st.Breaks
	g.st.won, g.st.keep, g.st.result = st.Won, st.KeepPlaying, st.Result
	g.setBoard(st.Board)
	if st.Result == Playing {
		g.evaluate()
	}
	return g, nil
}

// setBoard installs b, on the packed path when it is a 4x4 board that fits.
func (g *Game) setBoard(b Board) {
	g.st.maxExp = b.maxExp()
	g.st.packed = b.rows == 4 && b.cols == 4 && g.st.maxExp <= packedMaxExp
	if g.st.packed {
		g.st.pb, g.st.b = toPacked(b), Board{}
	} else {
		g.st.pb, g.st.b = packed{}, b
	}
}

// nthEmpty returns the index of empty cell number n (0-based, row-major).
func (b *Board) nthEmpty(n int) int {
	for i, e := range b.cells[:b.Cells()] {
		if e == 0 {
			if n == 0 {
				return i
			}
			n--
		}
	}
	panic("engine: fewer empty cells than drawn") // the draw is modulo the number of empty cells
}

// draw makes the two draws of a spawn on a board with empty empty cells,
// the tile's exponent and which empty cell (0-based, row-major): tp1
// draws them in that order, the hallabois generator the other way round.
func (g *Game) draw(empty int) (exp uint8, nth int) {
	if g.gen != TP1 {
		return g.drawLCG(empty)
	}
	exp = g.r.spawnExp(g.st.rng.Next())
	return exp, int(g.st.rng.Next() % uint64(empty))
}

// Rules returns the game's rules.
func (g *Game) Rules() *Rules { return g.r }

// Board returns the board.
func (g *Game) Board() Board {
	if g.st.packed {
		return g.st.pb.board()
	}
	return g.st.b
}

// Score returns the score: the sum of the tiles made by merges.
func (g *Game) Score() uint64 { return g.st.score }

// Moves returns the number of counted moves (moves that changed the board).
func (g *Game) Moves() int { return g.st.moves }

// MaxTile returns the largest tile on the board.
func (g *Game) MaxTile() uint64 { return expValue(g.st.maxExp) }

// Won reports whether the profile's win rule has been met.
func (g *Game) Won() bool { return g.st.won }

// Result returns how the run stands.
func (g *Game) Result() Result { return g.st.result }

// Over reports whether the run has finished: no move is accepted.
func (g *Game) Over() bool { return g.st.result != Playing }

// Breaks returns the number of breaks the run has used.
func (g *Game) Breaks() int { return g.st.breaks }

// Generator returns the generator of a seeded game's spawns (TP1 for a
// game whose spawns are all given).
func (g *Game) Generator() Generator { return g.gen }

// CanUndo reports whether [Game.Undo] would take a move back.
func (g *Game) CanUndo() bool { return g.canUndo && g.st.result == Playing }

// State returns the game's state.
func (g *Game) State() State {
	st := g.export(g.st)
	if g.canUndo {
		prev := g.export(g.prev)
		st.Prev = &prev
	}
	return st
}

func (g *Game) export(s gameState) State {
	b := s.b
	if s.packed {
		b = s.pb.board()
	}
	st := State{Board: b, Score: s.score, Moves: s.moves, Breaks: s.breaks, Won: s.won, KeepPlaying: s.keep, Result: s.result}
	if g.seeded {
		rng := s.rng
		st.RNG, st.Generator = &rng, g.gen
	}
	return st
}

// Legal reports whether moving toward d would be accepted and change the
// board: false for every direction once the run is over.
func (g *Game) Legal(d Direction) bool {
	if g.st.result != Playing {
		return false
	}
	if g.st.packed {
		q, _, _ := g.st.pb.slide(d)
		return q != g.st.pb
	}
	return g.st.b.Legal(d)
}

// LegalMoves returns the directions [Game.Legal] accepts, in the order of
// [Directions].
func (g *Game) LegalMoves() []Direction {
	var legal []Direction
	for _, d := range Directions {
		if g.Legal(d) {
			legal = append(legal, d)
		}
	}
	return legal
}

// refuse answers a move that is illegal or comes after the run is over:
// ignored or an error, as the profile says.
func (g *Game) refuse(d Direction) (Step, error) {
	if g.p.Illegal == Ignore {
		return Step{}, nil
	}
	return Step{}, &MoveError{Dir: d, Result: g.st.result, Legal: g.LegalMoves()}
}

// Move plays one move: slide toward d, and when the board changes, add the
// points, count the move, spawn one tile from the seeded generator and
// check the finishing conditions. A move that changes nothing, and any move
// once the run is over, is ignored (Step.Changed false) or a [*MoveError],
// as the profile says; the state is then unchanged.
func (g *Game) Move(d Direction) (Step, error) {
	if !g.seeded {
		return Step{}, ErrNoRNG
	}
	one := [1]Action{Action(d)}
	if n, last := g.run(one[:], nil, nil); n == 1 {
		return last, nil
	}
	return g.move(d, nil, nil)
}

// MoveSpawn plays a move whose spawn is given rather than drawn: for games
// recorded with the tiles that appeared, and for tests that force a spawn.
// The spawn must be in a cell the slide left empty, with a value the
// profile spawns; otherwise the error wraps [ErrBadSpawn] and the state is
// unchanged. The generator, if any, does not advance.
func (g *Game) MoveSpawn(d Direction, s Spawn) (Step, error) {
	one, spawn := [1]Action{Action(d)}, [1]Spawn{s}
	if n, last := g.run(one[:], spawn[:], nil); n == 1 {
		return last, nil
	}
	return g.move(d, &s, nil)
}

// Play applies actions in order, as [Game.Do] would one by one, and stops
// at the first error, returning the number of actions applied before it.
// With spawns non-nil, spawns[i] is the tile that appeared after action i
// (used only when it is a counted move), as [Game.MoveSpawn] takes it;
// with spawns nil they are drawn from the generator. Play is the fast way
// to replay a move log.
func (g *Game) Play(actions []Action, spawns []Spawn) (int, error) {
	return g.play(actions, spawns, nil)
}

// PlayRecorded plays a spawn-recorded move log as [Game.Play] does with
// spawns, and tells where each spawn could have gone: for each counted
// move i it sets open[i] to the cells the slide left empty, bit
// row*cols+col for each (the cells a generator could have chosen). The
// entries of other actions are left as they are. open is as long as
// actions.
func (g *Game) PlayRecorded(actions []Action, spawns []Spawn, open []uint64) (int, error) {
	if len(open) != len(actions) {
		return 0, fmt.Errorf("%d actions but room for %d open cells", len(actions), len(open))
	}
	return g.play(actions, spawns, open)
}

// play is Play, and PlayRecorded when open is not nil.
func (g *Game) play(actions []Action, spawns []Spawn, open []uint64) (int, error) {
	if spawns != nil && len(spawns) != len(actions) {
		return 0, fmt.Errorf("%d actions but %d spawns", len(actions), len(spawns))
	}
	// The rest of the log at i: its spawns and open cells, when given.
	at := func(i int) (sp []Spawn, o []uint64) {
		if spawns != nil {
			sp = spawns[i:]
		}
		if open != nil {
			o = open[i:]
		}
		return sp, o
	}
	for i := 0; i < len(actions); i++ {
		if spawns != nil || g.seeded {
			// The fast loops first, then run for what they leave (one
			// action when they may take the ones after it).
			var n int
			retry := false
			switch {
			case spawns != nil:
				sp, o := at(i)
				n, retry = g.playRecorded(actions[i:], sp, o)
			case g.gen == TP1:
				n, retry = g.playSeeded(actions[i:])
			}
			i += n
			rest := actions[i:]
			if retry && len(rest) > 0 {
				rest = rest[:1]
			}
			sp, o := at(i)
			n, _ = g.run(rest, sp, o)
			i += n
			if i == len(actions) {
				break
			}
		}
		var err error
		switch a := actions[i]; {
		case a > MoveRight:
			_, err = g.Do(a)
		case spawns != nil:
			var o *uint64
			if open != nil {
				o = &open[i]
			}
			_, err = g.move(Direction(a), &spawns[i], o)
		case !g.seeded:
			err = ErrNoRNG
		default:
			_, err = g.move(Direction(a), nil, nil)
		}
		if err != nil {
			return i, err
		}
	}
	return len(actions), nil
}

// run plays actions on the packed board, with the state in local
// variables: the loop replays spend their time in. It takes only the
// common case, a move that changes the board while the run is playing, and
// returns the number of actions done at the first action it leaves to
// move or Do: one that is not a move, does not change the board, comes
// after the end, has an invalid given spawn, would make a tile or score
// beyond the packed limits, or might make the win tile under the merge
// rule. With spawns nil, spawns are drawn (by tp1: a game of another
// generator takes none here); otherwise spawns[i] is action i's, and
// open, when not nil, gets each move's empty cells after the slide
// ([Game.PlayRecorded]). last is what the last action done did.
func (g *Game) run(actions []Action, spawns []Spawn, open []uint64) (n int, last Step) {
	if !g.st.packed || g.st.result != Playing || spawns == nil && g.gen != TP1 {
		return 0, Step{}
	}
	r, p := g.r, g.p
	// The loop keeps the state in local variables, written back at the end.
	pb, score, moves, rng, maxExp, won := g.st.pb, g.st.score, g.st.moves, g.st.rng, g.st.maxExp, g.st.won
	result := Playing
	winExp, winValue := r.winExp, r.winValue
	if winValue == 0 {
		winExp, winValue = 255, ^uint64(0)
	}
	mergeRule, keep, undo := p.Win.When == Merge, g.st.keep, p.Undo
	prev := g.st // the state before the last move, for undo
	var lastGained uint64
	var lastCell int
	var lastExp uint8
	for ; n < len(actions); n++ {
		a := actions[n]
		if a > MoveRight {
			break
		}
		q, gained, ok := pb.slide(Direction(a))
		if !ok || q == pb || gained > MaxSafeInteger-score || uint64(moves) >= MaxSafeInteger || mergeRule && !won && gained >= winValue {
			break
		}
		empty := q.empties()
		var cell int
		var exp uint8
		if spawns != nil {
			s := spawns[n]
			cell = s.Row*4 + s.Col
			if uint(s.Row) >= 4 || uint(s.Col) >= 4 || empty>>(4*cell)&1 == 0 || !p.SpawnValue(s.Value) {
				break
			}
			exp = log2(s.Value)
			if open != nil {
				open[n] = nibbleBits(empty)
			}
		}
		if undo {
			prev.pb, prev.score, prev.moves, prev.rng, prev.maxExp, prev.won = pb, score, moves, rng, maxExp, won
		}
		if spawns == nil {
			exp = r.spawnExp(rng.Next())
			cell = int(spawnShift(empty, rng.Next()) >> 2)
		}
		q.set(cell, exp)
		pb = q
		score += gained
		moves++
		lastGained, lastCell, lastExp = gained, cell, exp
		if gained>>1 > 1<<maxExp-1 && q.hasExpAbove(maxExp) {
			maxExp++ // a move makes a tile at most one step above the largest
		}
		maxExp = max(maxExp, exp)
		if !mergeRule && maxExp >= winExp {
			won = true
		}
		if result = r.finished(won, keep, moves, empty&(empty-1) == 0 && q.blocked()); result != Playing {
			n++
			break
		}
	}
	if n > 0 {
		last = Step{Changed: true, Gained: lastGained, Spawn: Spawn{Row: lastCell >> 2, Col: lastCell & 3, Value: 1 << lastExp}}
		if undo {
			g.prev, g.canUndo = prev, true
		}
		g.st.pb, g.st.score, g.st.moves, g.st.rng, g.st.maxExp, g.st.won, g.st.result = pb, score, moves, rng, maxExp, won, result
	}
	return n, last
}

// move is the general path of a move, for every board and every case run
// leaves to it; given, if not nil, is the spawn to place, and open, if not
// nil, gets the empty cells after the slide.
func (g *Game) move(d Direction, given *Spawn, open *uint64) (Step, error) {
	if g.st.result != Playing {
		return g.refuse(d)
	}
	s, err := g.Board().Slide(d)
	if err != nil {
		return Step{}, err
	}
	if !s.Changed {
		return g.refuse(d)
	}
	if s.Gained > MaxSafeInteger-g.st.score {
		return Step{}, ErrScoreOverflow
	}
	if uint64(g.st.moves) >= MaxSafeInteger {
		return Step{}, ErrMovesOverflow
	}
	b, cols := s.Board, s.Board.Cols()
	if given != nil {
		if err := g.checkSpawn(*given, b); err != nil {
			return Step{}, err
		}
	}
	if open != nil {
		*open = b.EmptyMask()
	}
	if g.p.Undo {
		g.prev, g.canUndo = g.st, true
	}
	sp := Spawn{}
	if given != nil {
		sp = *given
	} else {
		exp, nth := g.draw(b.Empty())
		i := b.nthEmpty(nth)
		sp = Spawn{Row: i / cols, Col: i % cols, Value: 1 << exp}
	}
	b.cells[sp.Row*cols+sp.Col] = log2(sp.Value)
	maxExp := g.st.maxExp
	g.setBoard(b)
	g.st.maxExp = max(maxExp, g.st.maxExp)
	g.st.score += s.Gained
	g.st.moves++
	if !g.st.won && g.r.winValue != 0 {
		if g.p.Win.When == Reach {
			g.st.won = g.st.maxExp >= g.r.winExp
		} else {
			g.st.won = s.Made(g.r.winValue)
		}
	}
	g.finish(b.Blocked())
	return Step{Changed: true, Gained: s.Gained, Spawn: sp}, nil
}

// checkSpawn checks a given spawn against the board after the slide.
func (g *Game) checkSpawn(s Spawn, b Board) error {
	switch {
	case s.Row < 0 || s.Row >= b.Rows() || s.Col < 0 || s.Col >= b.Cols():
		return fmt.Errorf("%w: row %d, column %d is outside the %dx%d board", ErrBadSpawn, s.Row, s.Col, b.Rows(), b.Cols())
	case b.At(s.Row, s.Col) != 0:
		return fmt.Errorf("%w: row %d, column %d is not empty after the slide", ErrBadSpawn, s.Row, s.Col)
	case !g.p.SpawnValue(s.Value):
		return fmt.Errorf("%w: profile %s spawns %s, not %d", ErrBadSpawn, g.p.Name, g.p.SpawnValues(), s.Value)
	}
	return nil
}

// finish ends the run when a finishing condition holds ([Rules.finished]).
func (g *Game) finish(blocked bool) {
	if r := g.r.finished(g.st.won, g.st.keep, g.st.moves, blocked); r != Playing {
		g.st.result = r
	}
}

// evaluate brings a new or loaded state's flags up to date.
func (g *Game) evaluate() {
	if g.r.winExp != 0 && g.p.Win.When == Reach && g.st.maxExp >= g.r.winExp {
		g.st.won = true
	}
	g.finish(g.blocked())
}

// blocked reports whether the board has no move left in the sense of the
// profile's game-over rule: no move changes it, and it is not empty
// unless the profile counts an empty board as over. Only a loaded state
// or a break reaches this with an empty board: the move paths check a
// board that has just had a tile spawned, or at least kept one.
func (g *Game) blocked() bool {
	if g.st.packed {
		return g.st.pb.blocked() && (g.r.emptyOver || g.st.pb.empties() != nibbleLSB)
	}
	return g.st.b.Blocked() && (g.r.emptyOver || g.st.b.Empty() != g.st.b.Cells())
}

// Undo takes back the last counted move: board, score, move count and the
// generator's position, so the same move spawns the same tile again. Only
// one step can be undone, only while the run is playing, and only in a
// profile with undo.
func (g *Game) Undo() error {
	switch {
	case !g.p.Undo:
		return fmt.Errorf("undo: %w %s", ErrUnsupported, g.p.Name)
	case g.st.result != Playing:
		return fmt.Errorf("undo: %w (%s)", ErrFinished, g.st.result)
	case !g.canUndo:
		return fmt.Errorf("undo: %w (undo takes back one counted move, once)", ErrNoUndo)
	}
	g.st, g.canUndo = g.prev, false
	return nil
}

// EndRun ends the run by the player's choice (result RunFinished), in a
// profile that allows it.
func (g *Game) EndRun() error {
	switch {
	case !g.p.EndRun:
		return fmt.Errorf("end run: %w %s", ErrUnsupported, g.p.Name)
	case g.st.result != Playing:
		return fmt.Errorf("end run: %w (%s)", ErrFinished, g.st.result)
	}
	g.st.result, g.canUndo = RunFinished, false
	return nil
}

// KeepPlaying resumes a run stopped at the win tile, in a profile whose
// win asks (the original game's "Keep going"). Later wins do not stop it.
func (g *Game) KeepPlaying() error {
	if !g.AwaitingKeep() {
		return fmt.Errorf("keep playing: %w", ErrNotWaitingKeep)
	}
	g.st.keep, g.st.result = true, Playing
	g.finish(g.blocked())
	return nil
}

// Break clears every tile below the profile's break tile and takes the
// break's price off the score, in a profile with a break (the hallabois
// game's). It needs a break left (the profile's limit) and a score of at
// least the price, or it is refused with [ErrNoBreak] and the state
// unchanged. It is not a counted move, no tile spawns after it, and a
// break that clears no tile still costs its price. A break cannot be
// undone, nor the move before it. Once the run is over a break is
// refused ([ErrFinished]), except in a profile whose break is allowed
// with no move left: a run that ended with no move left takes one, and
// goes on if the cleared board has a move.
func (g *Game) Break() error {
	br := g.p.Break
	switch {
	case br.Limit == 0:
		return fmt.Errorf("break: %w %s", ErrUnsupported, g.p.Name)
	case g.st.result != Playing && (g.st.result != NoMoves || br.WhenNoMoves != BreakAllow):
		return fmt.Errorf("break: %w (%s)", ErrFinished, g.st.result)
	case g.st.breaks >= br.Limit:
		return fmt.Errorf("break: %w: profile %s allows %s a run, and they are used", ErrNoBreak, g.p.Name, plural(br.Limit, "break"))
	case g.st.score < br.Price:
		return fmt.Errorf("break: %w: a break costs %d points and the score is %d", ErrNoBreak, br.Price, g.st.score)
	}
	b := g.Board()
	below := log2(br.Below)
	for i := range b.Cells() {
		if b.cells[i] < below {
			b.cells[i] = 0
		}
	}
	g.setBoard(b)
	g.st.score -= br.Price
	g.st.breaks++
	g.st.result, g.canUndo = Playing, false
	g.finish(g.blocked())
	return nil
}

// plural returns "1 break", "3 breaks".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// AwaitingKeep reports whether the run stopped at the win tile in a
// profile whose win asks: keep playing resumes it.
func (g *Game) AwaitingKeep() bool { return g.st.result == TargetReached && g.p.Win.Then == Ask }
