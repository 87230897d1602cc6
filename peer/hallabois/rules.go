package hallabois

// Ruleset is the parameters of one of the peer's rulesets (its
// src/rules.rs): ClassicV1 for first-format recordings, ClassicV2 for the
// second format.
type Ruleset struct {
	Name string
	// BreakMax is how many breaks a game may use.
	BreakMax int
	// BreakBelow: a break clears every tile below it.
	BreakBelow uint64
	// BreakCosts are the price of a break in points on the board sizes
	// they list; DefaultBreakCost on the others. A break needs the current
	// score to be at least the price.
	BreakCosts       []BreakCost
	DefaultBreakCost uint64
	// BreakWhenOver: a break may be used on a board with no move left
	// (the first format's validator does not look; the second refuses).
	BreakWhenOver bool
	// WinTile: the game is won once a tile is at least it. Winning does
	// not end the game; only a board with no move left does.
	WinTile uint64
}

// Size is a board size, columns by rows.
type Size struct{ W, H int }

// BreakCost is the price of a break on boards of one size. (A list of
// them, not a map, so that ClassicV2 is data in the binary, not a map
// built at every start of a program that links the package.)
type BreakCost struct {
	Size
	Cost uint64
}

// Cost returns the price of a break on a board of w columns and h rows.
func (r *Ruleset) Cost(w, h int) uint64 {
	for _, c := range r.BreakCosts {
		if c.Size == (Size{w, h}) {
			return c.Cost
		}
	}
	return r.DefaultBreakCost
}

// ClassicV1 are the rules the peer checks first-format recordings by: a
// break costs 1000 points on every board size.
var ClassicV1 = Ruleset{
	Name:             "ClassicV1",
	BreakMax:         3,
	BreakBelow:       16,
	DefaultBreakCost: 1000,
	BreakWhenOver:    true,
	WinTile:          2048,
}

// ClassicV2 are the rules of second-format recordings: the price of a
// break grows with the board.
var ClassicV2 = Ruleset{
	Name:       "ClassicV2",
	BreakMax:   3,
	BreakBelow: 16,
	BreakCosts: []BreakCost{
		{Size{2, 2}, 100},
		{Size{2, 3}, 250}, {Size{3, 2}, 250},
		{Size{3, 3}, 500},
		{Size{3, 4}, 750}, {Size{4, 3}, 750},
		{Size{4, 4}, 1000},
		{Size{4, 5}, 1250}, {Size{5, 4}, 1250},
		{Size{5, 5}, 1500},
		{Size{5, 6}, 1750}, {Size{6, 5}, 1750},
		{Size{6, 6}, 2000},
	},
	DefaultBreakCost: 2500,
	WinTile:          2048,
}

// Won reports whether b has a tile of at least the win tile.
func (r *Ruleset) Won(b Grid) bool { return b.Max() >= r.WinTile }

// clearBelow returns b with every tile below the break threshold removed.
func (r *Ruleset) clearBelow(b Grid) Grid {
	c := b.Clone()
	for i, v := range c.Cells {
		if v < r.BreakBelow {
			c.Cells[i] = 0
		}
	}
	return c
}
