package engine

import "fmt"

// Rules is a profile checked and digested for play. It is immutable, so
// one Rules starts any number of games, from any number of goroutines:
// compile a profile once, not once a game.
type Rules struct {
	p          *Profile
	winExp     uint8    // the win tile's exponent, 0 for none
	spawnExps  []uint8  // the spawn tiles' exponents, ascending
	spawnCum   []uint64 // running sums of their weights
	spawnTotal uint64
	// recordedFast says the replay loop (fastPlay) may replay this
	// profile's spawn-recorded games: 4x4, spawn tiles below 2^16 and
	// below the win tile. seededFast says it may replay its tp1 games:
	// those, and spawn weights summing to at most len(spawnTable).
	recordedFast, seededFast bool
	spawnMask                uint64    // bit e set for each spawn tile's exponent e
	spawnTable               [64]uint8 // the spawn exponent for each draw mod spawnTotal, when seededFast
}

// spawnExp returns the exponent of the tile a spawn's value draw v picks:
// v mod the total spawn weight, placed among the weights (spawnCum).
func (r *Rules) spawnExp(v uint64) uint8 {
	w, i := v%r.spawnTotal, 0
	for w >= r.spawnCum[i] {
		i++
	}
	return r.spawnExps[i]
}

// finished states the finishing rule, for every path a move takes: after
// a counted move, the run ends with the first of the profile's finishing
// conditions that holds, in its FinishOrder: the target ([Rules.stops]),
// no moves (blocked: no move changes the board) or the move limit (moves
// counted moves, at a profile's limit). It returns Playing when none
// holds.
func (r *Rules) finished(won, keep bool, moves int, blocked bool) Result {
	target := r.stops(won, keep)
	limited := r.p.MoveLimit != 0 && moves >= r.p.MoveLimit
	for _, res := range r.p.FinishOrder {
		switch {
		case res == TargetReached && target, res == NoMoves && blocked, res == MoveLimitReached && limited:
			return res
		}
	}
	return Playing
}

// stops reports whether the win ends play: the win rule met (won), in a
// profile whose win ends the run (win.then stop), or whose win asks and
// the player has not chosen to play on (keep). keep means something only
// where the win asks: a profile whose win ends the run has no keep playing
// to choose (its sources play past the win only in a mode chosen before
// the run, a setup), so a state loaded with keepPlaying is over there all
// the same (docs/protocol.md, rule 7).
func (r *Rules) stops(won, keep bool) bool {
	return won && (r.p.Win.Then == Stop || r.p.Win.Then == Ask && !keep)
}

// Compile checks a profile and returns its rules. Later changes to p do
// not affect them.
func Compile(p *Profile) (*Rules, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("profile %s: %w", p.Name, err)
	}
	buildTables()
	r := &Rules{p: p.Clone()}
	if p.Win.Tile != 0 {
		r.winExp = log2(p.Win.Tile)
	}
	for _, w := range p.Spawn {
		r.spawnTotal += w.Weight
		r.spawnExps = append(r.spawnExps, log2(w.Value))
		r.spawnCum = append(r.spawnCum, r.spawnTotal)
		r.spawnMask |= 1 << log2(w.Value)
	}
	top := r.spawnExps[len(r.spawnExps)-1]
	r.recordedFast = p.Rows == 4 && p.Cols == 4 && top < 16 && (p.Win.Tile == 0 || top < r.winExp)
	r.seededFast = r.recordedFast && r.spawnTotal <= uint64(len(r.spawnTable))
	if r.seededFast {
		for v := range r.spawnTotal {
			r.spawnTable[v] = r.spawnExp(v)
		}
	}
	return r, nil
}

// Profile returns a copy of the profile the rules were compiled from.
func (r *Rules) Profile() *Profile { return r.p.Clone() }

// Name returns the profile's name.
func (r *Rules) Name() string { return r.p.Name }

// Version returns the profile's rules version, without the copy Profile
// makes.
func (r *Rules) Version() int { return r.p.Version }

// NewGame starts a run of profile p from a seed text: [Compile] and
// [Rules.NewGame] in one call.
func NewGame(p *Profile, seed string) (*Game, error) {
	r, err := Compile(p)
	if err != nil {
		return nil, err
	}
	return r.NewGame(seed)
}

// Load returns a game of profile p in state st: [Compile] and
// [Rules.Load] in one call.
func Load(p *Profile, st State) (*Game, error) {
	r, err := Compile(p)
	if err != nil {
		return nil, err
	}
	return r.Load(st)
}
