package engine

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// Result is how a run stands: still playing, or which finishing condition
// ended it.
type Result uint8

// The results of a run. The finishing conditions are checked after each
// counted move, in the order of seed 002: target, no moves, move limit.
const (
	Playing          Result = iota // the run goes on
	TargetReached                  // the win tile ended the run (or paused it, in a profile that asks)
	NoMoves                        // no move changes the board
	MoveLimitReached               // the profile's move limit was reached
	RunFinished                    // the player ended the run (End run)
)

var resultNames = []string{"playing", "target-reached", "no-moves", "move-limit", "run-finished"}
var resultTexts = []string{"playing", "target reached", "no moves left", "move limit reached", "run finished"}

// String returns the result as seed 002 words it: "target reached", "no
// moves left", "move limit reached", "run finished", or "playing".
func (r Result) String() string { return enumName(resultTexts, int(r)) }

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
	ErrNoUndo         = errors.New("nothing to undo")
	ErrUnsupported    = errors.New("not in this profile")
	ErrBadSpawn       = errors.New("invalid spawn")
	ErrNotWaitingKeep = errors.New("the run is not stopped at the win tile")
)

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
	Row, Col int
	Value    uint64
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
	Moves int  // counted moves so far
	RNG   *RNG // the spawn generator; nil for a game whose spawns are all given
	Won   bool // the win rule has been met
	// KeepPlaying records that the player chose to play on after the win
	// (profiles whose win asks).
	KeepPlaying bool
	Result      Result
}

// Game is one run under a profile: the board, score, counted moves and the
// spawn generator, with the profile's rules for winning, illegal moves,
// the move limit, undo and End run. It is not safe for concurrent use.
type Game struct {
	p       *Profile
	st      gameState
	prev    gameState // the state before the last counted move, for undo
	canUndo bool
	seeded  bool // st.rng drives spawns

	// The profile, digested for the move loop.
	isPacked   bool // a 4x4 board on the packed fast path
	winValue   uint64
	winExp     uint8
	spawnExps  []uint8
	spawnCum   []uint64 // running sums of the weights
	spawnTotal uint64
}

type gameState struct {
	pb     packed // the board, when isPacked
	b      Board  // the board, otherwise
	score  uint64
	moves  int
	rng    RNG
	maxExp uint8
	won    bool
	keep   bool
	result Result
}

// NewGame starts a run of profile p from a seed text: an empty board, then
// p.StartTiles spawns from the tp1 generator.
func NewGame(p *Profile, seed string) (*Game, error) {
	rng, err := NewRNG(seed)
	if err != nil {
		return nil, err
	}
	b, err := NewBoard(p.Rows, p.Cols)
	if err != nil {
		return nil, err
	}
	g, err := newGame(p)
	if err != nil {
		return nil, err
	}
	g.seeded = true
	g.st.rng = rng
	for range p.StartTiles {
		empty := b.Empty()
		exp, nth := g.draw(empty)
		for i, e := range b.cells[:b.Cells()] {
			if e == 0 {
				if nth == 0 {
					b.cells[i] = exp
					break
				}
				nth--
			}
		}
	}
	g.setBoard(b)
	g.evaluate()
	return g, nil
}

// Load returns a game of profile p in state st. The board must have the
// profile's size. A state whose result is Playing is checked against the
// finishing conditions first, so a loaded blocked board is over at once.
func Load(p *Profile, st State) (*Game, error) {
	switch {
	case st.Board.Rows() != p.Rows || st.Board.Cols() != p.Cols:
		return nil, fmt.Errorf("a %dx%d board in profile %s, which plays on %dx%d", st.Board.Rows(), st.Board.Cols(), p.Name, p.Rows, p.Cols)
	case st.Score > MaxSafeInteger:
		return nil, fmt.Errorf("score %d is above 2^53-1", st.Score)
	case st.Moves < 0:
		return nil, fmt.Errorf("move count %d is negative", st.Moves)
	case int(st.Result) >= len(resultNames):
		return nil, fmt.Errorf("invalid result %d", st.Result)
	}
	g, err := newGame(p)
	if err != nil {
		return nil, err
	}
	if st.RNG != nil {
		g.seeded = true
		g.st.rng = *st.RNG
	}
	g.st.score, g.st.moves = st.Score, st.Moves
	g.st.won, g.st.keep, g.st.result = st.Won, st.KeepPlaying, st.Result
	g.setBoard(st.Board)
	if st.Result == Playing {
		g.evaluate()
	}
	return g, nil
}

func newGame(p *Profile) (*Game, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("profile %s: %w", p.Name, err)
	}
	g := &Game{p: p.Clone(), winValue: p.Win.Tile, spawnTotal: 0}
	if p.Win.Tile != 0 {
		g.winExp = log2(p.Win.Tile)
	}
	for _, w := range p.Spawn {
		g.spawnTotal += w.Weight
		g.spawnExps = append(g.spawnExps, log2(w.Value))
		g.spawnCum = append(g.spawnCum, g.spawnTotal)
	}
	return g, nil
}

// setBoard installs b, choosing the packed path for a 4x4 board that fits.
func (g *Game) setBoard(b Board) {
	g.st.maxExp = b.maxExp()
	g.isPacked = b.rows == 4 && b.cols == 4 && g.st.maxExp <= packedMaxExp
	if g.isPacked {
		g.st.pb, g.st.b = toPacked(b), Board{}
	} else {
		g.st.b = b
	}
}

// unpack leaves the packed path for good, for a board about to make a tile
// the packed form cannot hold.
func (g *Game) unpack() {
	g.st.b, g.st.pb = g.st.pb.board(), packed{}
	if g.canUndo {
		g.prev.b, g.prev.pb = g.prev.pb.board(), packed{}
	}
	g.isPacked = false
}

// draw makes the two tp1 draws of a spawn on a board with empty empty
// cells: the tile's exponent, then which empty cell (0-based, row-major).
func (g *Game) draw(empty int) (exp uint8, nth int) {
	r := g.st.rng.Next() % g.spawnTotal
	i := 0
	for r >= g.spawnCum[i] {
		i++
	}
	return g.spawnExps[i], int(g.st.rng.Next() % uint64(empty))
}

// Profile returns the game's profile.
func (g *Game) Profile() *Profile { return g.p.Clone() }

// Board returns the board.
func (g *Game) Board() Board {
	if g.isPacked {
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

// CanUndo reports whether [Game.Undo] would take a move back.
func (g *Game) CanUndo() bool { return g.canUndo && g.st.result == Playing }

// State returns the game's state.
func (g *Game) State() State {
	st := State{
		Board: g.Board(), Score: g.st.score, Moves: g.st.moves,
		Won: g.st.won, KeepPlaying: g.st.keep, Result: g.st.result,
	}
	if g.seeded {
		rng := g.st.rng
		st.RNG = &rng
	}
	return st
}

// Legal reports whether moving toward d would be accepted and change the
// board: false for every direction once the run is over.
func (g *Game) Legal(d Direction) bool {
	if g.st.result != Playing {
		return false
	}
	if g.isPacked {
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
	return g.move(d, nil)
}

// MoveSpawn plays a move whose spawn is given rather than drawn: for games
// recorded with the tiles that appeared, and for tests that force a spawn.
// The spawn must be in a cell the slide left empty, with a value the
// profile spawns; otherwise the error wraps [ErrBadSpawn] and the state is
// unchanged. The generator, if any, does not advance.
func (g *Game) MoveSpawn(d Direction, s Spawn) (Step, error) {
	return g.move(d, &s)
}

func (g *Game) move(d Direction, given *Spawn) (Step, error) {
	if g.st.result != Playing {
		return g.refuse(d)
	}
	if g.isPacked {
		return g.movePacked(d, given)
	}
	s, err := g.st.b.Slide(d)
	if err != nil {
		return Step{}, err
	}
	if !s.Changed {
		return g.refuse(d)
	}
	if s.Gained > MaxSafeInteger-g.st.score {
		return Step{}, ErrScoreOverflow
	}
	b, cols := s.Board, s.Board.Cols()
	if given != nil {
		if err := g.checkSpawn(*given, b.Rows(), cols, func(i int) bool { return b.cells[i] == 0 }); err != nil {
			return Step{}, err
		}
	}
	g.saveUndo()
	sp := g.spawnOr(given, b.Empty(), func(nth int) int {
		for i, e := range b.cells[:b.Cells()] {
			if e == 0 {
				if nth == 0 {
					return i
				}
				nth--
			}
		}
		return -1 // not reached: nth < the number of empty cells
	}, cols)
	exp := log2(sp.Value)
	b.cells[sp.Row*cols+sp.Col] = exp
	g.st.b = b
	g.account(s.Gained, exp, s.made, b.Blocked())
	return Step{Changed: true, Gained: s.Gained, Spawn: sp}, nil
}

// movePacked is move on the packed 4x4 board, the path replays spend their
// time in.
func (g *Game) movePacked(d Direction, given *Spawn) (Step, error) {
	q, gained, ok := g.st.pb.slide(d)
	if !ok {
		g.unpack()
		return g.move(d, given)
	}
	if q == g.st.pb {
		return g.refuse(d)
	}
	if gained > MaxSafeInteger-g.st.score {
		return Step{}, ErrScoreOverflow
	}
	empty := q.empties()
	if given != nil {
		if err := g.checkSpawn(*given, 4, 4, func(i int) bool { return empty>>(4*i)&1 != 0 }); err != nil {
			return Step{}, err
		}
	}
	var made uint64
	if g.p.Win.When == Merge && !g.st.won && g.winValue != 0 && gained >= g.winValue {
		// Rare: only a move earning at least the win tile can make it.
		s, _ := g.st.pb.board().Slide(d)
		made = s.made
	}
	g.saveUndo()
	var sp Spawn
	var cell int
	var exp uint8
	if given == nil {
		var nth int
		exp, nth = g.draw(bits.OnesCount64(empty))
		cell = nthEmpty(empty, nth)
		sp = Spawn{Row: cell >> 2, Col: cell & 3, Value: 1 << exp}
	} else {
		sp, cell, exp = *given, given.Row*4+given.Col, log2(given.Value)
	}
	q.set(cell, exp)
	g.st.pb = q
	g.account(gained, exp, made, empty&(empty-1) == 0 && q.blocked())
	return Step{Changed: true, Gained: gained, Spawn: sp}, nil
}

// checkSpawn checks a given spawn against a board of rows x cols after the
// slide, on which empty(i) reports whether cell i (row-major) is empty.
func (g *Game) checkSpawn(s Spawn, rows, cols int, empty func(int) bool) error {
	switch {
	case s.Row < 0 || s.Row >= rows || s.Col < 0 || s.Col >= cols:
		return fmt.Errorf("%w: cell (%d, %d) is outside the %dx%d board", ErrBadSpawn, s.Row, s.Col, rows, cols)
	case !empty(s.Row*cols + s.Col):
		return fmt.Errorf("%w: cell (%d, %d) is not empty after the slide", ErrBadSpawn, s.Row, s.Col)
	case !g.p.SpawnValue(s.Value):
		return fmt.Errorf("%w: profile %s spawns %s, not %d", ErrBadSpawn, g.p.Name, g.spawnValues(), s.Value)
	}
	return nil
}

func (g *Game) spawnValues() string {
	vs := make([]uint64, len(g.p.Spawn))
	for i, w := range g.p.Spawn {
		vs[i] = w.Value
	}
	return joinUints(vs)
}

// spawnOr returns the given spawn, or draws one on the generic board,
// where nthEmpty finds the index of an empty cell.
func (g *Game) spawnOr(given *Spawn, empty int, nthEmpty func(int) int, cols int) Spawn {
	if given != nil {
		return *given
	}
	exp, nth := g.draw(empty)
	i := nthEmpty(nth)
	return Spawn{Row: i / cols, Col: i % cols, Value: 1 << exp}
}

// saveUndo keeps the state before a counted move, in a profile with undo.
func (g *Game) saveUndo() {
	if g.p.Undo {
		g.prev, g.canUndo = g.st, true
	}
}

// account brings the run up to date after a counted move that gained
// points and spawned a tile 2^spawnExp; made has bit e set for each tile 2^e
// a merge made, when the win rule needs it; blocked says whether no move is
// left.
func (g *Game) account(gained uint64, spawnExp uint8, made uint64, blocked bool) {
	g.st.score += gained
	g.st.moves++
	if gained>>1 > 1<<g.st.maxExp-1 { // a merge may have made a new largest tile
		g.st.maxExp = g.boardMaxExp()
	}
	g.st.maxExp = max(g.st.maxExp, spawnExp)
	if !g.st.won && g.winExp != 0 {
		if g.p.Win.When == Reach {
			g.st.won = g.st.maxExp >= g.winExp
		} else {
			g.st.won = made&g.winValue != 0
		}
	}
	g.finish(blocked)
}

func (g *Game) boardMaxExp() uint8 {
	if g.isPacked {
		return g.st.pb.maxExp()
	}
	return g.st.b.maxExp()
}

// finish checks the finishing conditions in the order of seed 002: the
// target, no moves left, the move limit.
func (g *Game) finish(blocked bool) {
	switch {
	case g.st.won && g.p.Win.Then != Continue && !g.st.keep:
		g.st.result = TargetReached
	case blocked:
		g.st.result = NoMoves
	case g.p.MoveLimit > 0 && g.st.moves >= g.p.MoveLimit:
		g.st.result = MoveLimitReached
	}
}

// evaluate brings a new or loaded state's flags up to date.
func (g *Game) evaluate() {
	if g.winExp != 0 && g.p.Win.When == Reach && g.st.maxExp >= g.winExp {
		g.st.won = true
	}
	g.finish(g.Board().Blocked())
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
	if g.st.result != TargetReached || g.p.Win.Then != Ask {
		return fmt.Errorf("keep playing: %w", ErrNotWaitingKeep)
	}
	g.st.keep, g.st.result = true, Playing
	g.finish(g.Board().Blocked())
	return nil
}
