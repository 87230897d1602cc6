package engine

import (
	"fmt"
	"slices"
	"strings"
)

// WinWhen says what counts as winning.
type WinWhen uint8

const (
	// Reach: the run is won once a tile at least the win tile is on the
	// board after a move (PGS, online-2048, tile-merge).
	Reach WinWhen = iota
	// Merge: the run is won when a merge makes exactly the win tile (the
	// original game, Rosetta Code's "create a tile with the number 2048").
	Merge
)

// WinThen says what winning does.
type WinThen uint8

const (
	// Continue: winning is a milestone; play goes on until no move is left.
	Continue WinThen = iota
	// Stop: winning ends the run (result TargetReached).
	Stop
	// Ask: play stops at the win until the player chooses to keep playing
	// (the original game's "Keep going").
	Ask
)

// IllegalMove says what a move that does not change the board does.
type IllegalMove uint8

const (
	// Ignore: nothing happens; no spawn, no move counted.
	Ignore IllegalMove = iota
	// Reject: the move is an error (the state is unchanged).
	Reject
)

// BreakNoMoves says whether a break is taken once no move is left.
type BreakNoMoves uint8

const (
	// BreakRefuse: a break needs a move left. A board with no move left
	// has ended the run, and a break then is an action after the end (the
	// hallabois second format's rule).
	BreakRefuse BreakNoMoves = iota
	// BreakAllow: a run that ended because no move is left still takes a
	// break, and plays on when the cleared board has a move (the hallabois
	// first format's validator, which does not look).
	BreakAllow
)

// GameOverRule says when no move left ends the run: the sources agree on
// every board but the empty one, on which no move changes anything and
// which no game reaches (a game has at least its start tiles).
type GameOverRule uint8

const (
	// FullNoMerge: the run is over when the board is full and no two
	// neighbours across a row or a column are equal, so an empty board
	// is not over (Tile Merge API, PGS, Online 2048, the Original 2048's
	// movesAvailable, the hallabois validator).
	FullNoMerge GameOverRule = iota
	// NoValidMove: the run is over when no move changes the board, the
	// empty board included (Rosetta Code's "loses if no valid moves are
	// possible").
	NoValidMove
)

var (
	gameOverNames     = []string{"full-no-merge", "no-valid-move"}
	winWhenNames      = []string{"reach", "merge"}
	winThenNames      = []string{"continue", "stop", "ask"}
	illegalMoveNames  = []string{"ignore", "reject"}
	breakNoMovesNames = []string{"refuse", "allow"}
)

// String returns the value's name in a profile file.
func (w WinWhen) String() string { return enumName(winWhenNames, int(w)) }

// String returns the value's name in a profile file.
func (w WinThen) String() string { return enumName(winThenNames, int(w)) }

// String returns the value's name in a profile file.
func (m IllegalMove) String() string { return enumName(illegalMoveNames, int(m)) }

// String returns the value's name in a profile file.
func (b BreakNoMoves) String() string { return enumName(breakNoMovesNames, int(b)) }

// String returns the value's name in a profile file.
func (g GameOverRule) String() string { return enumName(gameOverNames, int(g)) }

func enumName(names []string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%d", i)
}

func enumValue(names []string, s string) (int, error) {
	if i := slices.Index(names, s); i >= 0 {
		return i, nil
	}
	return 0, fmt.Errorf("%q is not one of %s", s, strings.Join(names, ", "))
}

// SpawnWeight is one tile a spawn can make, with its integer weight.
type SpawnWeight struct {
	Value  uint64
	Weight uint64
}

// Win is a profile's win rule.
type Win struct {
	Tile uint64 // the win tile; 0 for a profile without one
	When WinWhen
	Then WinThen
}

// BreakRule is a profile's break, the hallabois game's: an action (log
// letter B) that clears every tile below a threshold for a price in
// points, a limited number of times a run. A break is not a counted move,
// no tile spawns after it, and a break that clears nothing still costs its
// price. The zero BreakRule is a profile without a break, which refuses
// one as it refuses an undo.
type BreakRule struct {
	Limit int    // breaks a run may use; 0 for a profile without a break
	Below uint64 // a break clears every tile below this tile
	// Price is the points a break costs: it needs a score of at least
	// this, and takes it off the score.
	Price       uint64
	WhenNoMoves BreakNoMoves // on a board with no move left: refuse or allow
}

// Profile is a named set of rule parameters. The built-in profiles are the
// rules as each source document states them ([BuiltinProfiles]); a user
// defines more in YAML ([ParseProfile]).
type Profile struct {
	Name        string // lower-case letters, digits and "-"
	Version     int    // the rules version; a change of rules gets a new one
	Title       string // a one-line summary
	Source      string // the document the rules come from
	Description string // the rules in prose, with anything the source leaves open

	Rows, Cols int
	StartTiles int           // spawns on the empty board at the start
	Spawn      []SpawnWeight // ascending by Value, which are distinct
	Win        Win
	Targets    []uint64 // win tiles a run may choose ([Profile.Setup]); empty: only Win.Tile
	OpenEnded  bool     // a run may choose to play on past the win tile
	Illegal    IllegalMove
	MoveLimit  int // counted moves after which the run ends; 0 for none
	// FinishOrder is the order the finishing conditions are checked in
	// after a counted move: TargetReached, NoMoves and MoveLimitReached,
	// each once. Online 2048 gives target, no moves, move limit; the
	// Original 2048 reports no moves before the win when both hold.
	FinishOrder []Result
	// GameOver says which boards with no move left end the run: whether
	// an empty board is one (NoValidMove) or not (FullNoMerge).
	GameOver GameOverRule
	Undo     bool // one-step undo that restores board, score, moves and the next spawn
	EndRun   bool // the player may end the run early (result RunFinished)
	Break    BreakRule
	// RNG names the generator the profile's seeded games spawn by, the
	// only one a replay of it may pin: "" for tp1, or the name of a
	// generator registered from outside the engine ([RegisterGenerator];
	// "hallabois-lcg" in the hallabois game's second-format profiles).
	RNG string
	// Unstated names the parameters, by their key in a profile file, whose
	// value the profile's source does not give and tileproof chose: the
	// conformance suite holds no implementation to them. Six may be
	// named, each once: startTiles, illegalMove, moveAfterEnd (the answer
	// to a move after the end, which illegalMove gives), newGameSeed (how
	// a game started without a seed draws its tiles), score (the score
	// and each move's points, for a source that keeps none), and winThen
	// in a profile whose win ends the run (Win.Then Stop) without undo or
	// a break, since the suite follows play after the win from the
	// implementation's state, which holds neither. docs/profiles.md gives
	// the sources' words and what the suite takes for each.
	Unstated []string
}

// unstatedNamed reports whether names holds only what a profile may list
// as unstated, each once.
func unstatedNamed(names []string) bool {
	for i, n := range names {
		if !slices.Contains([]string{"startTiles", "moveAfterEnd", "newGameSeed", "illegalMove", "winThen", "score"}, n) || slices.Contains(names[:i], n) {
			return false
		}
	}
	return true
}

// Generator returns the name of the generator the profile's seeded games
// spawn by: RNG, or tp1 when it names none.
func (p *Profile) Generator() string {
	if p.RNG == "" {
		return RNGID
	}
	return p.RNG
}

// Clone returns a deep copy of p.
func (p *Profile) Clone() *Profile {
	q := *p
	q.Spawn = slices.Clone(p.Spawn)
	q.Targets = slices.Clone(p.Targets)
	q.FinishOrder = slices.Clone(p.FinishOrder)
	q.Unstated = slices.Clone(p.Unstated)
	return &q
}

// SpawnValue reports whether a spawn can make tile v.
func (p *Profile) SpawnValue(v uint64) bool {
	return slices.ContainsFunc(p.Spawn, func(w SpawnWeight) bool { return w.Value == v })
}

// ProfileError is an invalid profile parameter; Field is its name in the
// YAML form ("win.tile").
type ProfileError struct {
	Field string
	Msg   string
}

// Error returns the fault as FIELD: MESSAGE.
func (e *ProfileError) Error() string { return e.Field + ": " + e.Msg }

// validName reports whether s is a profile or generator name: at most 64
// bytes, words of lower-case letters and digits joined by single hyphens.
func validName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' && i > 0 && s[i-1] != '-') {
			return false
		}
	}
	return s != "" && len(s) <= 64 && s[len(s)-1] != '-'
}

// Validate checks every parameter; errors are [*ProfileError].
func (p *Profile) Validate() error {
	bad := func(field, format string, args ...any) error {
		return &ProfileError{field, fmt.Sprintf(format, args...)}
	}
	switch {
	case !validName(p.Name):
		return bad("name", "%q is not a profile name (lower-case letters, digits and single hyphens, at most 64)", p.Name)
	case p.Version < 1:
		return bad("version", "%d; a rules version is 1 or more", p.Version)
	case p.Rows < MinSide || p.Rows > MaxSide:
		return bad("rows", "%d is outside %d to %d", p.Rows, MinSide, MaxSide)
	case p.Cols < MinSide || p.Cols > MaxSide:
		return bad("cols", "%d is outside %d to %d", p.Cols, MinSide, MaxSide)
	case p.StartTiles < 1 || p.StartTiles > p.Rows*p.Cols:
		return bad("startTiles", "%d; a %dx%d board takes 1 to %d", p.StartTiles, p.Rows, p.Cols, p.Rows*p.Cols)
	case !unstatedNamed(p.Unstated):
		return bad("unstated", "%q; only startTiles, illegalMove, moveAfterEnd, newGameSeed and winThen may be named, each once", p.Unstated)
	case slices.Contains(p.Unstated, "winThen") && (p.Win.Tile == 0 || p.Win.Then != Stop || p.Undo || p.Break.Limit > 0):
		return bad("unstated", "winThen needs a win that ends the run (a win tile, win.then stop) and no undo or break, which the suite cannot follow after the win; here win.tile %d, win.then %s, undo %v, break limit %d", p.Win.Tile, p.Win.Then, p.Undo, p.Break.Limit)
	case len(p.Spawn) == 0:
		return bad("spawn", "no tiles; a spawn needs at least one value with a weight")
	case p.MoveLimit < 0:
		return bad("moveLimit", "%d is negative (0 means no limit)", p.MoveLimit)
	case p.Win.When > Merge:
		return bad("win.when", "invalid value %d", p.Win.When)
	case p.Win.Then > Ask:
		return bad("win.then", "invalid value %d", p.Win.Then)
	case p.Illegal > Reject:
		return bad("illegalMove", "invalid value %d", p.Illegal)
	case p.GameOver > NoValidMove:
		return bad("gameOver", "invalid value %d", p.GameOver)
	}
	var total uint64
	for i, w := range p.Spawn {
		if _, err := tileExp(w.Value); err != nil || w.Value == 0 {
			return bad("spawn", "%d is not a tile", w.Value)
		}
		if i > 0 && w.Value <= p.Spawn[i-1].Value {
			return bad("spawn", "values must be distinct and ascending")
		}
		if w.Weight == 0 || w.Weight > 1<<32 {
			return bad("spawn", "tile %d has weight %d; a weight is 1 to 2^32", w.Value, w.Weight)
		}
		total += w.Weight
	}
	if total > 1<<32 {
		return bad("spawn", "the weights add up to %d, above 2^32", total)
	}
	if p.Win.Tile != 0 {
		if _, err := tileExp(p.Win.Tile); err != nil {
			return bad("win.tile", "%v", err)
		}
	} else if p.Win.When != Reach || p.Win.Then != Continue || len(p.Targets) > 0 || p.OpenEnded {
		return bad("win.tile", "0 (no win) takes no other win settings")
	}
	for i, t := range p.Targets {
		if _, err := tileExp(t); err != nil || t == 0 {
			return bad(fmt.Sprintf("targets.%d", i), "%d is not a tile", t)
		}
	}
	if len(p.Targets) > 0 && !slices.Contains(p.Targets, p.Win.Tile) {
		return bad("targets", "do not include the win tile %d", p.Win.Tile)
	}
	switch br := p.Break; {
	case br.Limit < 0:
		return bad("break.limit", "%d is negative (0 means no break)", br.Limit)
	case br.Limit == 0 && br != (BreakRule{}):
		return bad("break.limit", "0 (no break) takes no other break settings")
	case br.Limit == 0: // no break: nothing more to check
	case br.Limit > MaxBreaks:
		return bad("break.limit", "%d is above %d", br.Limit, MaxBreaks)
	case br.Price > MaxSafeInteger:
		return bad("break.price", "%d is above 2^53-1", br.Price)
	case br.WhenNoMoves > BreakAllow:
		return bad("break.whenNoMoves", "invalid value %d", br.WhenNoMoves)
	case br.Below < 4 || br.Below&(br.Below-1) != 0 || br.Below > MaxTile:
		return bad("break.below", "%d is not a tile of 4 or more (a break clears the tiles below it)", br.Below)
	}
	if p.RNG != "" && !validName(p.RNG) {
		return bad("rng", "%q is not a generator's name (lower-case letters, digits and single hyphens, at most 64)", p.RNG)
	}
	order := slices.Clone(p.FinishOrder)
	slices.Sort(order)
	if !slices.Equal(order, []Result{TargetReached, NoMoves, MoveLimitReached}) {
		return bad("finishOrder", "%v: list target-reached, no-moves and move-limit, each once", p.FinishOrder)
	}
	return nil
}

// MaxBreaks is the most breaks a profile may allow a run.
const MaxBreaks = 1 << 20

// Setup is a run's choice where the profile offers one (online-2048's
// target and finish, PGS continue mode): the win tile Target, 0 for the
// profile's own, and OpenEnded, play going on past it.
type Setup struct {
	Target    uint64 `json:"target,omitempty" yaml:"target"`
	OpenEnded bool   `json:"openEnded,omitempty" yaml:"openEnded"`
}

// WithSetup returns the profile as a run sets it up: with the setup's
// target as its win tile (one of Targets, or the win tile itself; 0 for
// the win tile) and, when open-ended, play going on past it. Profiles
// without those choices refuse them.
func (p *Profile) WithSetup(s Setup) (*Profile, error) {
	target := s.Target
	if target == 0 {
		target = p.Win.Tile
	}
	if target != p.Win.Tile && !slices.Contains(p.Targets, target) {
		if len(p.Targets) == 0 {
			return nil, fmt.Errorf("profile %s has the fixed win tile %d, not %d", p.Name, p.Win.Tile, target)
		}
		targets := strings.ReplaceAll(strings.Trim(fmt.Sprint(p.Targets), "[]"), " ", ", ") // [a b] as "a, b"
		return nil, fmt.Errorf("profile %s offers the targets %s, not %d", p.Name, targets, target)
	}
	if s.OpenEnded && !p.OpenEnded && p.Win.Then != Continue {
		return nil, fmt.Errorf("profile %s has no open-ended play", p.Name)
	}
	q := p.Clone()
	q.Win.Tile = target
	if s.OpenEnded {
		q.Win.Then = Continue
	}
	return q, nil
}

// Canonical returns the setup as it changes profile p's rules, the zero
// Setup when it changes nothing: the target left out when it is p's win
// tile, open-ended play when p plays on past the win anyway. Two setups
// that give the same rules are equal once canonical. s must be one that
// [Profile.WithSetup] accepts.
func (s Setup) Canonical(p *Profile) Setup {
	if s.Target == p.Win.Tile {
		s.Target = 0
	}
	if p.Win.Then == Continue {
		s.OpenEnded = false
	}
	return s
}

// SpawnValues returns the values the profile spawns, for messages: "2 and
// 4".
func (p *Profile) SpawnValues() string {
	s := make([]string, len(p.Spawn))
	for i, w := range p.Spawn {
		s[i] = fmt.Sprint(w.Value)
	}
	return strings.Join(s, " and ")
}
