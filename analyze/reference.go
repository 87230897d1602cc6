package analyze

import (
	"crypto/sha256"
	_ "embed"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json"

	"github.com/tileproof/tileproof/internal/strictjson"
)

// Reference is a reference set: per-game figures of games by known
// players, with the thresholds measured against it. It is data
// (data/reference.json, built by tileproof analyze --build-reference) and
// names its source; its hash pins it in every statement.
type Reference struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	// Heuristic is the pin of the expectimax heuristic the figures were
	// computed with; a reference computed with another is refused.
	Heuristic string          `json:"heuristic"`
	Games     []ReferenceGame `json:"games"`

	// MinMoves is the fewest non-trivial moves a game needs to be placed.
	MinMoves int `json:"min_moves"`
	// ModelMinMoves is the fewest non-trivial moves a reference game needs
	// for the model to be fitted to it (a short game's rates are mostly
	// noise).
	ModelMinMoves int `json:"model_min_moves"`
	// MinBandGames is the fewest reference games a tile band needs.
	MinBandGames int `json:"min_band_games"`
	// ReviewZ and StrongZ are the agreement z-scores of the two bands;
	// ClairvoyanceReviewZ and ClairvoyanceStrongZ the clairvoyance test's.
	ReviewZ             float64 `json:"review_z"`
	StrongZ             float64 `json:"strong_z"`
	ClairvoyanceReviewZ float64 `json:"clairvoyance_review_z"`
	ClairvoyanceStrongZ float64 `json:"clairvoyance_strong_z"`
	// MinSpread is the floor of the between-game spread of a rate (a
	// standard deviation on the log-odds scale), which a few games
	// estimate poorly.
	MinSpread float64 `json:"min_spread_log_odds"`

	hash string
}

// ReferenceGame is one reference game's figures.
type ReferenceGame struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"` // the verified replay's canonical hash
	// MaxTile is the largest tile of the moves analysed
	// (GameReport.AnalysedMaxTile): its band is the game's.
	MaxTile    uint64         `json:"max_tile"`
	NonTrivial int            `json:"non_trivial"`
	Agree      map[string]int `json:"agree"`  // by evaluator ID
	Large      map[string]int `json:"large"`  // large errors, by evaluator ID
	Second     map[string]int `json:"second"` // second-best moves, by evaluator ID
	// Undone counts the game's moves taken back by an undo (GameReport.Undone).
	Undone int `json:"undone,omitempty"`
}

//go:embed data/reference.json
var builtinReferenceJSON []byte

var (
	builtinOnce sync.Once
	builtinRef  *Reference
	builtinErr  error
)

// BuiltinReference returns the reference set shipped in
// analyze/data/reference.json. It fails on a platform whose build
// computes the evaluators' heuristic table to other bits than the
// platforms the reference was checked on (amd64, 386 and arm64 do not
// differ): a game's figures there could not be placed against it.
func BuiltinReference() (*Reference, error) {
	builtinOnce.Do(func() {
		builtinRef, builtinErr = parseBuiltin(builtinReferenceJSON)
	})
	return builtinRef, builtinErr
}

// parseBuiltin reads the built-in reference, data, saying for a
// heuristic that differs which platform this build is for.
func parseBuiltin(data []byte) (*Reference, error) {
	r, err := ParseReference(data)
	if err != nil {
		return nil, fmt.Errorf("the analysis is not available in this build for %s/%s: the built-in reference: %w", runtime.GOOS, runtime.GOARCH, err)
	}
	return r, nil
}

// maxReferenceBytes bounds a reference file.
const maxReferenceBytes = 4 << 20

// maxReferenceMoves bounds a reference game's non-trivial moves, far
// above any game's (a replay holds at most a few million actions), and
// within an int of 32 bits; the model sums them in 64 bits, so that its
// sums over a reference file's games cannot overflow.
const maxReferenceMoves = 1<<31 - 1

// maxSpread bounds min_spread_log_odds: a spread of 10 in log-odds puts
// the reference players' rates anywhere from e^-60 to e^60 at six sigma,
// already no model; past it the rates' log-odds leave what a float holds.
const maxSpread = 10

// ParseReference reads a reference set from its JSON form.
func ParseReference(data []byte) (*Reference, error) {
	if len(data) > maxReferenceBytes {
		return nil, fmt.Errorf("a reference of %d bytes (at most %d)", len(data), maxReferenceBytes)
	}
	var r Reference
	if err := json.Unmarshal(data, &r, strictjson.Options()); err != nil {
		return nil, err
	}
	switch {
	case r.Name == "":
		return nil, fmt.Errorf("the reference has no name")
	case r.Heuristic != getHeuristic().pin:
		return nil, fmt.Errorf("the reference was computed with heuristic %q, these evaluators use %q: rebuild it", r.Heuristic, getHeuristic().pin)
	case r.MinMoves < 1 || r.ModelMinMoves < 1 || r.ReviewZ <= 0 || r.StrongZ < r.ReviewZ || r.ClairvoyanceReviewZ <= 0 || r.ClairvoyanceStrongZ < r.ClairvoyanceReviewZ:
		return nil, fmt.Errorf("the reference's thresholds are missing or out of order")
	case r.MinSpread <= 0:
		return nil, fmt.Errorf("the reference has no min_spread_log_odds (a reference built before the model moved to the log-odds scale: rebuild it)")
	case r.MinSpread > maxSpread:
		return nil, fmt.Errorf("the reference's min_spread_log_odds is %g, above %d: no model of players' rates", r.MinSpread, maxSpread)
	}
	for _, g := range r.Games {
		if g.NonTrivial < 1 {
			return nil, fmt.Errorf("reference game %q has no non-trivial move", g.Name)
		}
		if int64(g.NonTrivial) > maxReferenceMoves {
			return nil, fmt.Errorf("reference game %q has %d non-trivial moves, more than a game holds (at most %d)", g.Name, g.NonTrivial, int64(maxReferenceMoves))
		}
		for _, counts := range []map[string]int{g.Agree, g.Large, g.Second} {
			for id, k := range counts {
				if k < 0 || k > g.NonTrivial {
					return nil, fmt.Errorf("reference game %q counts %d of %d moves for %s", g.Name, k, g.NonTrivial, id)
				}
			}
		}
	}
	sum := sha256.Sum256(data)
	r.hash = fmt.Sprintf("sha256:%x", sum[:8])
	return &r, nil
}

// ID returns the reference's name and hash.
func (r *Reference) ID() string { return r.Name + " (" + r.hash + ")" }

// Without returns the reference without the game of that hash: a game is
// placed against the others (leave one out).
func (r *Reference) Without(sha string) *Reference {
	q := *r
	q.Games = slices.DeleteFunc(slices.Clone(r.Games), func(g ReferenceGame) bool { return g.SHA256 == sha })
	return &q
}

// tileBand returns the band of a largest tile: the reference needs games
// in the game's band. Two bands: up to 1024, and 2048 and above.
func tileBand(maxTile uint64) string {
	if maxTile <= 1024 {
		return "up to 1024"
	}
	return "2048 and above"
}

// A statistic is a count over a game's non-trivial moves that the
// reference models, read alike from a reference game and from a report's
// figures for one evaluator: agreement (high is atypical), large errors,
// small errors and second-best moves (few are atypical: people make many
// near misses, mostly the second-best move; a bot with noise makes its
// errors at random, mostly large and as often on any worse move).
type statistic struct {
	key   string // its name in EvalStats.Placed
	name  string
	count func(s EvalStats, nonTrivial int) int // of an evaluator's figures
	high  bool                                  // a high rate is the atypical side
	// only, when set, is the one evaluator the statistic is modelled for.
	only string
	z    func(s *EvalStats) *float64 // where its z-score goes
}

var statistics = []statistic{
	{"agreement", "agreement with", func(s EvalStats, _ int) int { return s.Agree }, true, "", func(s *EvalStats) *float64 { return &s.Z }},
	{"large_errors", "large errors by", func(s EvalStats, _ int) int { return s.Large }, false, "", func(s *EvalStats) *float64 { return &s.ErrorsZ }},
	// Small errors are modelled for corner-1 only: its unit is relative
	// (1% of the best value), where expectimax's is absolute, so that
	// expectimax's near misses thin out as the tiles grow (docs/analyze.md).
	{"small_errors", "small errors by", func(s EvalStats, n int) int { return n - s.Agree - s.Large }, false, corner{}.ID(), func(s *EvalStats) *float64 { return &s.SmallErrorsZ }},
	// Second-best moves have no unit: a rank.
	{"second_best", "second-best moves by", func(s EvalStats, _ int) int { return s.Second }, false, "", func(s *EvalStats) *float64 { return &s.SecondZ }},
}

// gameCount returns a reference game's count of st for evaluator id, and
// whether it holds that evaluator.
func (st statistic) gameCount(g ReferenceGame, id string) (int, bool) {
	a, okA := g.Agree[id]
	l, okL := g.Large[id]
	if !okA || !okL {
		return 0, false
	}
	s, ok := g.Second[id]
	if !ok {
		s = -1 // a reference built before second-best moves were counted
	}
	k := st.count(EvalStats{Agree: a, Large: l, Second: s}, g.NonTrivial)
	return k, k >= 0
}

// modelled returns the reference games the model is fitted to: those with
// at least ModelMinMoves non-trivial moves.
func (r *Reference) modelled() []ReferenceGame {
	return slices.DeleteFunc(slices.Clone(r.Games), func(g ReferenceGame) bool { return g.NonTrivial < r.ModelMinMoves })
}

// logOdds returns the log-odds of k in n, with half a count added to
// each side so that no rate and all rates stay finite.
func logOdds(k, n int64) float64 {
	return math.Log((float64(k) + 0.5) / (float64(n-k) + 0.5))
}

// model returns the reference players' rate of statistic st for
// evaluator id, on the log-odds scale, where a rate near 1 or 0 is as far
// from a rate of 0.88 as the players' choices are: the pooled log-odds
// mu, the pooled rate p, the between-game spread (method of moments,
// floored by MinSpread), and the per-game rates; rates is nil when no
// game holds it.
func (r *Reference) model(st statistic, id string) (mu, p, spread float64, rates []float64) {
	games := r.modelled()
	var k, n int64 // sums over the games: past 32 bits where int has 32
	for _, g := range games {
		a, ok := st.gameCount(g, id)
		if !ok {
			continue
		}
		k += int64(a)
		n += int64(g.NonTrivial)
		rates = append(rates, float64(a)/float64(g.NonTrivial))
	}
	if n == 0 {
		return 0, 0, 0, nil
	}
	p = float64(k) / float64(n)
	mu = logOdds(k, n)
	var between, within float64
	for _, g := range games {
		if a, ok := st.gameCount(g, id); ok {
			x := logOdds(int64(a), int64(g.NonTrivial))
			between += (x - mu) * (x - mu)
			within += logOddsVariance(p, g.NonTrivial)
		}
	}
	m := float64(len(rates))
	tau2 := 0.0
	if m > 1 {
		tau2 = max(0, between/(m-1)-within/m)
	}
	return mu, p, max(math.Sqrt(tau2), r.MinSpread), rates
}

// logOddsVariance is the variance of the log-odds of a rate p observed
// on n moves (the delta method), with p kept off 0 and 1.
func logOddsVariance(p float64, n int) float64 {
	q := min(max(p, 0.5/float64(n+1)), 1-0.5/float64(n+1))
	return 1 / (float64(n) * q * (1 - q))
}

// place sets a report's z-scores, percentiles, band, reasons and statement.
func (r *Reference) place(rep *GameReport) {
	rep.Reference = r.ID()
	rep.Reasons = nil
	rep.Score = math.Inf(-1)
	best := ""
	// away is the statistic furthest out on the side away from the
	// evaluators, lowest its z: a game the reference players do not
	// describe either, which the one-sided test cannot flag.
	away, lowest := "", -r.ReviewZ
	for i := range rep.Evaluators {
		s := &rep.Evaluators[i]
		s.Placed = nil
		for _, st := range statistics {
			if st.only != "" && st.only != s.Evaluator {
				continue
			}
			mu, p, spread, rates := r.model(st, s.Evaluator)
			if rates == nil || rep.NonTrivial == 0 {
				continue
			}
			k := st.count(*s, rep.NonTrivial)
			x := float64(k) / float64(rep.NonTrivial)
			z := tailZ(k, rep.NonTrivial, mu, spread, st.high)
			// The reference games the game's rate is beyond on the
			// evaluators' side, and short of on the other side: counted,
			// not a percentage, in the words, as a reference of three
			// games is not to be read as a hundred.
			beyond, short, toward, from := 0, 0, "above", "below"
			if !st.high {
				toward, from = from, toward
			}
			for _, y := range rates {
				switch {
				case y == x:
				case y < x == st.high:
					beyond++
				default:
					short++
				}
			}
			placing := func(side string, n int) string {
				return fmt.Sprintf("%s %s %.1f%% (reference %.1f%%, z = %.1f, %s %d of the %d reference games modelled)", st.name, s.Evaluator, 100*x, 100*p, z, side, n, len(rates))
			}
			s.Placed = append(s.Placed, st.key)
			*st.z(s) = z
			if st.key == "agreement" {
				s.Percentile, s.ReferenceGames = 100*float64(beyond)/float64(len(rates)), len(rates)
			}
			if z > rep.Score {
				rep.Score, best = z, placing(toward, beyond)
			}
			if z <= lowest {
				lowest, away = z, placing(from, short)
			}
		}
	}
	band := tileBand(rep.AnalysedMaxTile)
	inBand := 0
	for _, g := range r.modelled() {
		if tileBand(g.MaxTile) == band {
			inBand++
		}
	}
	c := rep.Clairvoyance
	placedNone := math.IsInf(rep.Score, -1)
	if placedNone {
		rep.Score = 0
	}
	switch {
	case placedNone && rep.NonTrivial > 0 && len(r.modelled()) == 0:
		// A reference of short games: it holds the evaluators, but no
		// game long enough to fit the model to.
		rep.Band = Insufficient
		rep.Reasons = append(rep.Reasons, fmt.Sprintf("the reference holds no game of %d non-trivial moves or more (model_min_moves) to fit its model to", r.ModelMinMoves))
	case placedNone && rep.NonTrivial > 0: // a game without a non-trivial move is too short, below
		rep.Band = Insufficient
		rep.Reasons = append(rep.Reasons, "the reference holds none of these evaluators")
	case rep.Undone > 0 && !slices.ContainsFunc(r.modelled(), func(g ReferenceGame) bool { return g.Undone > 0 }):
		// A player who can undo sees the tile a move spawns before
		// keeping the move (the engine's undo restores the generator):
		// the clairvoyance test would take that for cheating, and the
		// moves taken back, analysed as played, are tries, not choices.
		rep.Band = Insufficient
		rep.Reasons = append(rep.Reasons, fmt.Sprintf("%d of the moves analysed were taken back (undo), and the reference holds no game with undo: a player who undoes sees the tile a move spawns before keeping it", rep.Undone))
	case rep.NonTrivial < r.MinMoves:
		rep.Band = Insufficient
		rep.Reasons = append(rep.Reasons, fmt.Sprintf("%d non-trivial moves, fewer than the %d the thresholds were measured at", rep.NonTrivial, r.MinMoves))
	case inBand < r.MinBandGames:
		rep.Band = Insufficient
		rep.Reasons = append(rep.Reasons, fmt.Sprintf("the reference holds %d games of %d non-trivial moves or more whose largest tile is %s, fewer than %d", inBand, r.ModelMinMoves, band, r.MinBandGames))
	case rep.Score >= r.StrongZ || c != nil && c.Z >= r.ClairvoyanceStrongZ:
		rep.Band = Strong
	case rep.Score >= r.ReviewZ || c != nil && c.Z >= r.ClairvoyanceReviewZ:
		rep.Band = Review
	default:
		rep.Band = Consistent
	}
	// An insufficient game's figures are given, but no threshold reads
	// them: said so, as a short game's z of 5 would otherwise read as
	// the strong band's.
	judged := ""
	if rep.Band == Insufficient {
		judged = notJudged
	}
	if best != "" {
		rep.Reasons = append(rep.Reasons, judged+best)
	}
	if away != "" {
		rep.Reasons = append(rep.Reasons, fmt.Sprintf("%sfar out on the side away from the evaluators: %s; the reference players do not play so on that count, and the test asks only whether a game is closer to the evaluators than theirs", judged, away))
	}
	if c != nil {
		rep.Reasons = append(rep.Reasons, fmt.Sprintf("%sthe moves agree with an evaluator that knows the next spawn on %d of %d positions, %.1f expected by chance (z = %.1f)", judged, c.Hits, c.Positions, c.Expected, c.Z))
	}
	// A reference game analysed again is partly its own yardstick: its
	// placing says less than another game's.
	modelled := r.modelled()
	if rep.SHA256 != "" && slices.ContainsFunc(modelled, func(g ReferenceGame) bool { return g.SHA256 == rep.SHA256 }) {
		rep.Reasons = append(rep.Reasons, "the game is one of the games the reference's model is fitted to, so it is placed against itself too (a reference built without it places it as another game)")
	}
	// The statement: the figures against the reference and how many
	// games its model rests on, the band and the sentence that it is not
	// a finding.
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s.", rep.Name, BandText(rep.Band))
	for _, why := range rep.Reasons {
		fmt.Fprintf(&b, " %s.", why)
	}
	fitted := fmt.Sprintf("%d games", len(modelled))
	switch len(modelled) {
	case 0:
		fitted = "no game"
	case 1:
		fitted = "1 game"
	}
	fmt.Fprintf(&b, " Against reference %s, a model fitted to %s. %s", rep.Reference, fitted, NotAFinding)
	rep.Statement = b.String()
}

// BuildReference makes a reference set from the reports of games by known
// players (each placed already or not: only the figures are read), with
// the thresholds of base. Reports with no non-trivial move are left out,
// and a game given twice (the same canonical hash) is counted once.
func BuildReference(name, source string, reports []*GameReport, base *Reference) *Reference {
	r := *base // its thresholds
	r.Name, r.Source, r.Heuristic, r.Games, r.hash = name, source, getHeuristic().pin, nil, ""
	seen := map[string]bool{}
	for _, rep := range reports {
		if rep.NonTrivial == 0 || seen[rep.SHA256] {
			continue
		}
		seen[rep.SHA256] = true
		g := ReferenceGame{Name: rep.Name, SHA256: rep.SHA256, MaxTile: rep.AnalysedMaxTile, NonTrivial: rep.NonTrivial, Agree: map[string]int{}, Large: map[string]int{}, Second: map[string]int{}, Undone: rep.Undone}
		for _, s := range rep.Evaluators {
			g.Agree[s.Evaluator] = s.Agree
			g.Large[s.Evaluator] = s.Large
			g.Second[s.Evaluator] = s.Second
		}
		r.Games = append(r.Games, g)
	}
	return &r
}
