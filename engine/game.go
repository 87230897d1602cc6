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
	ErrMovesOverflow  = error(movesOverflow{})
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
	// A table made at each call: as a package variable, it would be built
	// when the program starts, from the error variables.
	for _, r := range []struct {
		err  error
		word string
	}{
		{ErrIllegalMove, "illegal-move"}, {ErrFinished, "finished"}, {ErrUnsupported, "unsupported"},
		{ErrNoUndo, "no-undo"}, {ErrNotWaitingKeep, "not-stopped"}, {ErrBadSpawn, "bad-spawn"},
		{ErrTileOverflow, "overflow"}, {ErrScoreOverflow, "overflow"}, {ErrMovesOverflow, "overflow"},
	} {
		if errors.Is(err, r.err) {
			return r.word
		}
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

// Error says why the move was refused: the run is over, or the moves
// that would change the board.
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

// movesOverflow is ErrMovesOverflow, whose text names the bound of the
// build ([MaxMoves]); a type, as a text chosen at start would be work
// done at start.
type movesOverflow struct{}

func (movesOverflow) Error() string {
	if MaxMoves < MaxSafeInteger {
		return "the move count would pass 2^31-1, the largest int of a 32-bit build"
	}
	return "the move count would pass 2^53-1, the safe-integer limit"
}

// State is a game's state, as a driver loads it or a caller saves it.
type State struct {
	Board Board
	Score uint64
	Moves int // counted moves so far
	// RNG is the spawn generator's position; nil for a game whose spawns
	// are all given. Generator says whose: tp1's (the zero value), or a
	// registered generator's ([RegisterGenerator]).
	RNG       *RNG
	Generator Generator
	Breaks    int  // the breaks used (profiles with a break)
	Won       bool // the win rule has been met
	// KeepPlaying records that the player chose to play on after the win
	// (profiles whose win asks). Elsewhere it changes nothing: a won
	// state of a profile whose win ends the run is over with it too.
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
	st      gameState
	prev    gameState // the state before the last counted move, for undo
	canUndo bool
	seeded  bool      // st.rng drives spawns
	gen     Generator // whose state st.rng is, when seeded
	// drawOther is a registered generator's Draw, when gen is one.
	drawOther func(state uint64, empty int) (next, v uint64, nth int)
}

// gameState is the state of a run at one moment. The board is always a
// Board: the replay loop (fastplay.go) packs a 4x4 board into a word for
// the moves it takes and writes it back when it stops.
type gameState struct {
	b      Board
	score  uint64
	moves  int
	breaks int
	rng    RNG
	maxExp uint8 // the largest exponent on b
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
// [Rules.NewGame] does, or a generator registered with
// [RegisterGenerator]. Only tp1 games take the fast replay loop; the
// others play every move on the general path.
func (r *Rules) NewGameWith(gen Generator, seed string) (*Game, error) {
	if gen == TP1 {
		return r.NewGame(seed)
	}
	d, err := gen.def()
	if err != nil {
		return nil, err
	}
	s, err := d.Seed(seed)
	if err != nil {
		return nil, err
	}
	g := &Game{drawOther: d.Draw}
	r.startFrom(g, gen, RNG{s})
	return g, nil
}

// NewSeeded starts a run from a seed under the generator the profile's
// seeded games spawn by ([Profile.Generator]): tp1, as [Rules.NewGame]
// does, or the one the profile names, which must be registered
// ([RegisterGenerator]). A game recorded from it verifies as seeded.
func (r *Rules) NewSeeded(seed string) (*Game, error) {
	gen, err := ParseGenerator(r.p.Generator())
	if err != nil {
		return nil, fmt.Errorf("profile %s: its seeded games spawn by %s, which this program does not know", r.p.Name, r.p.Generator())
	}
	return r.NewGameWith(gen, seed)
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
	g.r, g.seeded, g.gen = r, true, gen
	g.st.rng = rng
	b := &g.st.b
	b.rows, b.cols = uint8(p.Rows), uint8(p.Cols)
	if r.seededFast {
		// A 4x4 board: the empty cells as nibble flags, the spawn's cell
		// by the packed board's bit scan.
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
			b.cells[cell] = exp
			empty &^= 1 << (4 * cell)
			g.st.maxExp = max(g.st.maxExp, exp)
		}
	} else {
		for range p.StartTiles {
			exp, nth := g.draw(b.Empty())
			b.cells[b.nthEmpty(nth)] = exp
			g.st.maxExp = max(g.st.maxExp, exp)
		}
	}
	// A board with a tile and an empty cell has a move (a tile beside an
	// empty cell slides into it): only a start that fills the board can
	// be blocked.
	g.evaluate(p.StartTiles == b.Cells() && g.blocked())
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
	}
	g := &Game{r: r}
	if st.RNG != nil {
		d, err := st.Generator.def()
		switch {
		case err != nil:
			return nil, err
		case st.RNG.state > d.MaxState:
			return nil, fmt.Errorf("generator state %d is above %d, the %s generator's largest", st.RNG.state, d.MaxState, d.Name)
		}
		if st.Generator != TP1 {
			g.drawOther = d.Draw
		}
		g.seeded, g.gen = true, st.Generator
		g.st.rng = *st.RNG
	}
	g.st.score, g.st.moves, g.st.breaks = st.Score, st.Moves, st.Breaks
	g.st.won, g.st.keep, g.st.result = st.Won, st.KeepPlaying, st.Result
	g.st.b, g.st.maxExp = st.Board, st.Board.maxExp()
	if st.Result == Playing {
		g.evaluate(g.blocked())
	}
	return g, nil
}

// Rules returns the game's rules.
func (g *Game) Rules() *Rules { return g.r }

// Board returns the board.
func (g *Game) Board() Board { return g.st.b }

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

// AwaitingKeep reports whether the run stopped at the win tile in a
// profile whose win asks: keep playing resumes it.
func (g *Game) AwaitingKeep() bool { return g.st.result == TargetReached && g.r.p.Win.Then == Ask }

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
	st := State{Board: s.b, Score: s.score, Moves: s.moves, Breaks: s.breaks, Won: s.won, KeepPlaying: s.keep, Result: s.result}
	if g.seeded {
		rng := s.rng
		st.RNG, st.Generator = &rng, g.gen
	}
	return st
}

// Legal reports whether moving toward d would be accepted and change the
// board: false for every direction once the run is over.
func (g *Game) Legal(d Direction) bool {
	return g.st.result == Playing && g.st.b.Legal(d)
}

// LegalMoves returns the directions [Game.Legal] accepts, in the order of
// [Directions].
func (g *Game) LegalMoves() []Direction {
	if g.st.result != Playing {
		return nil
	}
	return g.st.b.LegalMoves()
}

// Undo takes back the last counted move: board, score, move count and the
// generator's position, so the same move spawns the same tile again. Only
// one step can be undone, only while the run is playing, and only in a
// profile with undo.
func (g *Game) Undo() error {
	switch {
	case !g.r.p.Undo:
		return fmt.Errorf("undo: %w %s", ErrUnsupported, g.r.p.Name)
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
	case !g.r.p.EndRun:
		return fmt.Errorf("end run: %w %s", ErrUnsupported, g.r.p.Name)
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
	br := g.r.p.Break
	switch {
	case br.Limit == 0:
		return fmt.Errorf("break: %w %s", ErrUnsupported, g.r.p.Name)
	case g.st.result != Playing && (g.st.result != NoMoves || br.WhenNoMoves != BreakAllow):
		return fmt.Errorf("break: %w (%s)", ErrFinished, g.st.result)
	case g.st.breaks >= br.Limit:
		breaks := "1 break"
		if br.Limit != 1 {
			breaks = fmt.Sprintf("%d breaks", br.Limit)
		}
		return fmt.Errorf("break: %w: profile %s allows %s a run, and they are used", ErrNoBreak, g.r.p.Name, breaks)
	case g.st.score < br.Price:
		return fmt.Errorf("break: %w: a break costs %d points and the score is %d", ErrNoBreak, br.Price, g.st.score)
	}
	b := &g.st.b
	below := log2(br.Below)
	for i := range b.Cells() {
		if b.cells[i] < below {
			b.cells[i] = 0
		}
	}
	g.st.maxExp = b.maxExp()
	g.st.score -= br.Price
	g.st.breaks++
	g.st.result, g.canUndo = Playing, false
	g.finish(g.blocked())
	return nil
}
