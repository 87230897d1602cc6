package analyze

// The bands of a report, the values of Report.Band.
const (
	Consistent   = "consistent"
	Review       = "review"
	Strong       = "strong"
	Insufficient = "insufficient"
)

// notJudged begins each figure a statement gives of a game whose band is
// insufficient: no threshold reads them.
const notJudged = "not judged (not enough data): "

// NotAFinding is the sentence every statement ends with.
const NotAFinding = "This is a statistical comparison with a reference set, not a finding of cheating: a person reviews the game before anything is decided."

// GameReport is the analysis of one game.
type GameReport struct {
	Name      string `json:"name"`
	SHA256    string `json:"sha256"` // the verified replay's canonical hash
	MaxTile   uint64 `json:"max_tile"`
	GameMoves int    `json:"moves"` // the game's counted moves
	// AnalysedMaxTile is the largest tile on the board where the analysis
	// stopped, after the last move it analysed: MaxTile when it covers
	// the whole game, less when a bound (Options.MaxMoves) cut it short.
	// The reference places the game in the band of this tile, the tiles
	// of the moves its figures count.
	AnalysedMaxTile uint64 `json:"analysed_max_tile"`
	// Analysed counts the counted moves analysed, Forced those with one
	// legal move, Trivial those whose legal moves are all near the best,
	// NonTrivial the rest, which the figures are computed on.
	Analysed   int `json:"analysed"`
	Forced     int `json:"forced"`
	Trivial    int `json:"trivial"`
	NonTrivial int `json:"non_trivial"`
	// Undone counts the analysed moves taken back by an undo (profiles
	// with undo): each is analysed as played, and the move played after
	// it too. A reference without games with undo places no such game.
	Undone int `json:"undone,omitempty"`
	// Stopped says why the analysis stopped before the game's end, if it did.
	Stopped      string       `json:"stopped,omitempty"`
	Evaluators   []EvalStats  `json:"evaluators"`
	Clairvoyance *Clairvoyant `json:"clairvoyance,omitempty"`
	// ThinkTime sums up the think times of a replay that carries them
	// (figures for a reviewer: they change no band); nil otherwise.
	ThinkTime *ThinkTime `json:"think_time,omitempty"`

	// Score is the largest z-score among the evaluators the reference
	// holds, of agreement (high) and large errors (few): the figure the
	// band reads.
	Score     float64  `json:"score"`
	Band      string   `json:"band"`
	Reasons   []string `json:"reasons"`
	Reference string   `json:"reference"` // the reference set's name and hash
	Statement string   `json:"statement"`
	Moves     []Move   `json:"moves_detail,omitempty"`
}

// BandText returns the band in words: what was measured (how close the
// game's moves are to the evaluators, against the reference players'
// games), never a word on who played.
func BandText(band string) string {
	switch band {
	case Consistent:
		return "not unusually close to the evaluators for a reference player"
	case Review:
		return "unusually close to the evaluators for a reference player: review suggested"
	case Strong:
		return "very unusually close to the evaluators for a reference player: review suggested"
	}
	// Too short a game, moves taken back, or a reference too thin for
	// it: the data, not only the reference's, are too few to place it.
	return "not placed: not enough data"
}
