package analyze

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/replay"
)

// testReference is a reference of four games of 1,000 non-trivial moves
// agreeing with expectimax-2 on 50 to 56% of them, with large errors on
// 40% and second-best moves on 30%, in the band up to 1024.
func testReference(t *testing.T) *Reference {
	r := &Reference{Name: "test", Heuristic: getHeuristic().pin, MinMoves: 300, ModelMinMoves: 300, MinBandGames: 2,
		ReviewZ: 3, StrongZ: 5, ClairvoyanceReviewZ: 4, ClairvoyanceStrongZ: 6, MinSpread: 0.2}
	for i, k := range []int{500, 520, 540, 560} {
		r.Games = append(r.Games, ReferenceGame{Name: "g", SHA256: string(rune('a' + i)), MaxTile: 512, NonTrivial: 1000,
			Agree: map[string]int{"expectimax-2/1": k}, Large: map[string]int{"expectimax-2/1": 400}, Second: map[string]int{"expectimax-2/1": 300}})
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if r, err = ParseReference(data); err != nil {
		t.Fatal(err)
	}
	return r
}

// reportWith returns a report of n non-trivial moves with these shares
// by expectimax-2, and second-best moves on 30%.
func reportWith(n int, agreement, large float64, maxTile uint64) *GameReport {
	return &GameReport{Name: "game", MaxTile: maxTile, AnalysedMaxTile: maxTile, NonTrivial: n, Evaluators: []EvalStats{{
		Evaluator: "expectimax-2/1", Agreement: agreement, LargeErrors: large,
		Agree: int(math.Round(agreement * float64(n))), Large: int(math.Round(large * float64(n))), Second: int(0.3 * float64(n))}}}
}

// withSecond sets a report's second-best moves to that share.
func withSecond(r *GameReport, second float64) *GameReport {
	r.Evaluators[0].Second = int(math.Round(second * float64(r.NonTrivial)))
	return r
}

func TestBands(t *testing.T) {
	ref := testReference(t)
	for _, c := range []struct {
		name      string
		rep       *GameReport
		clair     float64
		band      string
		reasonHas string
	}{
		{"typical", reportWith(1000, 0.53, 0.40, 512), 0, Consistent, "agreement with expectimax-2/1 53.0%"},
		{"high agreement", reportWith(1000, 0.70, 0.40, 512), 0, Review, "agreement"},
		{"very high agreement", reportWith(1000, 0.80, 0.40, 512), 0, Strong, "agreement"},
		{"few large errors", reportWith(1000, 0.53, 0.15, 512), 0, Strong, "large errors by expectimax-2/1 15.0%"},
		{"few second-best moves", withSecond(reportWith(1000, 0.53, 0.40, 512), 0.05), 0, Strong, "second-best moves by expectimax-2/1 5.0%"},
		{"too short", reportWith(299, 0.99, 0.0, 512), 0, Insufficient, "299 non-trivial moves"},
		// A game that ends at once, or whose moves are all forced or
		// trivial: too short, not a reference without these evaluators.
		{"no non-trivial move", reportWith(0, 0, 0, 4), 0, Insufficient, "0 non-trivial moves, fewer than the 300"},
		{"thin band", reportWith(1000, 0.99, 0.0, 4096), 0, Insufficient, "largest tile is 2048 and above"},
		{"clairvoyant", reportWith(1000, 0.53, 0.40, 512), 4.5, Review, "next spawn"},
		{"very clairvoyant", reportWith(1000, 0.53, 0.40, 512), 7, Strong, "next spawn"},
		{"unknown evaluator", &GameReport{Name: "x", NonTrivial: 1000, MaxTile: 512, Evaluators: []EvalStats{{Evaluator: "other/1", Agreement: 1}}}, 0, Insufficient, "none of these evaluators"},
	} {
		if c.clair != 0 {
			c.rep.Clairvoyance = &Clairvoyant{Z: c.clair}
		}
		ref.place(c.rep)
		ref.place(c.rep) // placing again replaces what the first placing said
		if strings.Count(c.rep.Statement, "Against reference") != 1 || len(c.rep.Reasons) > 2 {
			t.Errorf("%s: placed twice: %q", c.name, c.rep.Statement)
		}
		if c.rep.Band != c.band || !strings.Contains(strings.Join(c.rep.Reasons, "; "), c.reasonHas) {
			t.Errorf("%s: band %s, reasons %q; want %s with %q", c.name, c.rep.Band, c.rep.Reasons, c.band, c.reasonHas)
		}
		// The test reference holds expectimax-2's three statistics; small
		// errors are modelled for corner-1 alone.
		want := "agreement large_errors second_best"
		if c.rep.Evaluators[0].Evaluator != "expectimax-2/1" || c.rep.NonTrivial == 0 {
			want = ""
		}
		if got := strings.Join(c.rep.Evaluators[0].Placed, " "); got != want {
			t.Errorf("%s: placed %q, want %q", c.name, got, want)
		}
		if !strings.HasSuffix(c.rep.Statement, NotAFinding) || !strings.Contains(c.rep.Statement, ref.ID()) {
			t.Errorf("%s: the statement %q lacks the reference or the closing sentence", c.name, c.rep.Statement)
		}
	}
}

// TestShortReference: a reference of games shorter than model_min_moves
// (an operator's own games of 200 moves, say) holds the evaluators but
// nothing to fit the model to, and says so. Before, it said "the
// reference holds none of these evaluators".
func TestShortReference(t *testing.T) {
	ref := testReference(t)
	ref.ModelMinMoves = 1001
	rep := reportWith(1000, 0.53, 0.40, 512)
	ref.place(rep)
	if want := "the reference holds no game of 1001 non-trivial moves or more (model_min_moves) to fit its model to"; rep.Band != Insufficient || len(rep.Reasons) == 0 || rep.Reasons[0] != want {
		t.Errorf("band %s, reasons %q; want insufficient, %q", rep.Band, rep.Reasons, want)
	}
}

func TestParseReferenceRefuses(t *testing.T) {
	good := `{"name":"x","heuristic":"` + getHeuristic().pin + `","min_moves":1,"model_min_moves":1,"review_z":3,"strong_z":5,"clairvoyance_review_z":4,"clairvoyance_strong_z":6,"min_spread_log_odds":0.4,"games":[{"name":"g","non_trivial":10,"agree":{"e":3}}]}`
	if _, err := ParseReference([]byte(good)); err != nil {
		t.Fatalf("a good reference refused: %v", err)
	}
	for name, bad := range map[string]string{
		"another heuristic":  strings.Replace(good, getHeuristic().pin, "000000000000", 1),
		"thresholds reverse": strings.Replace(good, `"strong_z":5`, `"strong_z":2`, 1),
		"count above moves":  strings.Replace(good, `{"e":3}`, `{"e":11}`, 1),
		"no moves":           strings.Replace(good, `"non_trivial":10`, `"non_trivial":0`, 1),
		"not JSON":           good[:20],
		"no spread floor":    strings.Replace(good, `"min_spread_log_odds":0.4,`, "", 1),
		"a key twice":        strings.Replace(good, `"review_z":3,`, `"review_z":3,"review_z":0.5,`, 1),
		"an unknown key":     strings.Replace(good, `"review_z":3,`, `"review_z":3,"reviewz":0.5,`, 1),
		"a key in capitals":  strings.Replace(good, `"review_z":3,`, `"REVIEW_Z":3,`, 1),
		// Beyond these the model's sums overflow or its rates leave a float:
		// a NaN z, and a JSON line that cannot be written.
		"a spread of 1e300":   strings.Replace(good, `"min_spread_log_odds":0.4`, `"min_spread_log_odds":1e300`, 1),
		"moves beyond a game": strings.Replace(good, `"non_trivial":10,"agree":{"e":3}`, `"non_trivial":4611686018427387904,"agree":{"e":3}`, 1),
	} {
		if _, err := ParseReference([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func FuzzParseReference(f *testing.F) {
	f.Add(builtinReferenceJSON)
	f.Add([]byte(`{"name":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseReference(data)
		if err != nil {
			return
		}
		for _, g := range r.Games {
			if g.NonTrivial < 1 {
				t.Fatalf("a game with %d moves accepted", g.NonTrivial)
			}
		}
		rep := reportWith(1000, 0.5, 0.3, 512)
		r.place(rep) // never panics
		// Every figure placed is a number: JSON has no NaN or Inf, and
		// the report's line could not be written.
		if _, err := json.Marshal(rep); err != nil {
			t.Fatalf("%v: %s", err, data)
		}
	})
}

// TestHostileReferencePlaces places a game against references at the
// edges ParseReference accepts: the widest spread and the most moves a
// game may have, many games of them. Every z is a number.
func TestHostileReferencePlaces(t *testing.T) {
	r := testReference(t)
	r.MinSpread = maxSpread
	for i := range 1000 {
		r.Games = append(r.Games, ReferenceGame{Name: "big", SHA256: "x", MaxTile: 512, NonTrivial: maxReferenceMoves,
			Agree: map[string]int{"expectimax-2/1": maxReferenceMoves / 2}, Large: map[string]int{"expectimax-2/1": i}, Second: map[string]int{"expectimax-2/1": maxReferenceMoves}})
	}
	for _, rep := range []*GameReport{reportWith(1000, 0.5, 0.3, 512), reportWith(1000, 1, 0, 512), reportWith(1000, 0, 1, 512)} {
		r.place(rep)
		if _, err := json.Marshal(rep); err != nil || math.IsNaN(rep.Score) {
			t.Errorf("score %v, z %+v: %v", rep.Score, rep.Evaluators[0], err)
		}
	}
}

// TestClairvoyance checks the clairvoyance test: a bot that sees the next
// spawn is found, one that does not is not.
func TestClairvoyance(t *testing.T) {
	ref := mustBuiltin(t)
	cb := &clairvoyantBot{rules: tileMerge, ev: newExpectimax(3), sp: tileMergeSpawns}
	rep := analyseBot(t, cb, "clair", 400, Options{Clairvoyance: true})
	if c := rep.Clairvoyance; c == nil || c.Z < ref.ClairvoyanceStrongZ {
		t.Errorf("the clairvoyant bot: %+v", c)
	}
	for i, ev := range []evaluator{newExpectimax(2), corner{}} {
		rep := analyseBot(t, newEvalBot(ev, 0, 0, uint64(i)), "honest", 400, Options{Clairvoyance: true})
		if c := rep.Clairvoyance; c == nil || c.Positions < 50 || c.Z >= ref.ClairvoyanceReviewZ {
			t.Errorf("the %s bot: %+v", ev.ID(), c)
		}
	}
	// A spawn-recorded game has no seed to see: no test.
	r := playBot(t, newEvalBot(newExpectimax(2), 0, 0, 1), "recorded", 50)
	vd, frames := replay.NewVerifier().Trace(r)
	if !vd.Valid {
		t.Fatal(vd.Reason)
	}
	start := frames[0].Board
	r.Seed, r.Start = nil, &start
	for _, f := range frames[1:] {
		r.Spawns = append(r.Spawns, *f.Spawn)
	}
	rep, err := Analyze(context.Background(), replay.NewVerifier(), "x", r, Options{Clairvoyance: true})
	if err != nil || rep.Clairvoyance != nil || rep.Analysed != 50 {
		t.Errorf("a spawn-recorded game: %v, %+v", err, rep)
	}
}

// mustBuiltin is the built-in reference, failing t where this build
// cannot use it.
func mustBuiltin(t testing.TB) *Reference {
	t.Helper()
	r, err := BuiltinReference()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestBuiltinReferenceOtherPlatform: a build whose heuristic table has
// other bits than the built-in reference's gets an error that names the
// platform, not a panic.
func TestBuiltinReferenceOtherPlatform(t *testing.T) {
	if _, err := parseBuiltin(builtinReferenceJSON); err != nil {
		t.Fatalf("the built-in reference: %v", err)
	}
	other := bytes.Replace(builtinReferenceJSON, []byte(getHeuristic().pin), []byte("000000000000"), 1)
	_, err := parseBuiltin(other)
	want := "the analysis is not available in this build for " + runtime.GOOS + "/" + runtime.GOARCH
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "000000000000") {
		t.Errorf("a reference of another heuristic: %v, want %q and the heuristic", err, want)
	}
}

// TestStatementWhatIsJudged: the statement of a game too short to place
// gives its figures as not judged, however far out (a game of 299
// non-trivial moves agreeing on 99% of them, z some 12, and a
// clairvoyance z of 7), and does not blame the reference for the game's
// length; a placed game's figures carry no such words. Each statement
// counts the reference games rather than giving a share (four games, not
// "100%"), and says how many games the model is fitted to. Before
// (2026-12-07), the short game's statement read "insufficient reference
// data. 299 non-trivial moves, ... agreement with expectimax-2/1 99.0%
// (reference 53.0%, z = 12.4, above 100% of the reference games). the
// moves agree with an evaluator that knows the next spawn ... (z = 7.0)",
// the strong band's figures without a word that no threshold read them.
func TestStatementWhatIsJudged(t *testing.T) {
	ref := testReference(t)
	short := reportWith(299, 0.99, 0.0, 512)
	short.Clairvoyance = &Clairvoyant{Positions: 200, Hits: 190, Expected: 100, Z: 7}
	ref.place(short)
	if short.Band != Insufficient || short.Score < ref.StrongZ || len(short.Reasons) != 3 {
		t.Fatalf("band %s, score %.1f, reasons %q: want insufficient, a score past strong, three reasons", short.Band, short.Score, short.Reasons)
	}
	for _, why := range short.Reasons[1:] {
		if !strings.HasPrefix(why, "not judged (not enough data): ") {
			t.Errorf("a figure of an insufficient game not said to be unjudged: %q", why)
		}
	}
	if !strings.HasPrefix(short.Statement, "game: not placed: not enough data. 299 non-trivial moves, fewer than") {
		t.Errorf("short game: %q", short.Statement)
	}

	placed := reportWith(1000, 0.80, 0.40, 512)
	placed.Clairvoyance = &Clairvoyant{Positions: 200, Hits: 100, Expected: 100, Z: 0}
	ref.place(placed)
	if placed.Band != Strong || strings.Contains(placed.Statement, "not judged") {
		t.Errorf("placed game: band %s, %q", placed.Band, placed.Statement)
	}
	for _, rep := range []*GameReport{short, placed} {
		if want := "above 4 of the 4 reference games modelled"; !strings.Contains(rep.Reasons[len(rep.Reasons)-2], want) {
			t.Errorf("reasons %q: want %q", rep.Reasons, want)
		}
		if want := "Against reference " + ref.ID() + ", a model fitted to 4 games. " + NotAFinding; !strings.HasSuffix(rep.Statement, want) {
			t.Errorf("statement %q: want it to end %q", rep.Statement, want)
		}
	}
	ref.Without(ref.Games[1].SHA256).Without(ref.Games[2].SHA256).Without(ref.Games[3].SHA256).place(placed)
	if want := "a model fitted to 1 game."; !strings.Contains(placed.Statement, want) {
		t.Errorf("statement %q: want %q", placed.Statement, want)
	}
	ref.ModelMinMoves = 1001 // no game to fit the model to
	ref.place(placed)
	if want := "a model fitted to no game."; !strings.Contains(placed.Statement, want) {
		t.Errorf("statement %q: want %q", placed.Statement, want)
	}
}

// TestStatementOwnGame: a game the reference's model is fitted to, placed
// against that reference, is said to be placed against itself; placed
// against the reference without it (Without), or as another game, it is
// not. Before (2026-12-07), tileproof analyze said GAME4X4 of the
// built-in reference was consistent with the reference players, score
// 0.7, with no word that the reference held it (without itself it is
// insufficient: no other modelled game reaches only 512).
func TestStatementOwnGame(t *testing.T) {
	ref := testReference(t)
	const own = "the game is one of the games the reference's model is fitted to, so it is placed against itself too"
	rep := reportWith(1000, 0.53, 0.40, 512)
	rep.SHA256 = ref.Games[1].SHA256
	ref.place(rep)
	if !strings.Contains(rep.Statement, own) || rep.Band != Consistent {
		t.Errorf("a reference game: band %s, %q", rep.Band, rep.Statement)
	}
	ref.Without(rep.SHA256).place(rep)
	if strings.Contains(rep.Statement, own) {
		t.Errorf("placed against the reference without it: %q", rep.Statement)
	}
	rep.SHA256 = "another"
	ref.place(rep)
	if strings.Contains(rep.Statement, own) {
		t.Errorf("another game: %q", rep.Statement)
	}
	// A reference game too short to fit the model to is not its own
	// yardstick.
	ref.ModelMinMoves = 1001
	rep.SHA256 = ref.Games[1].SHA256
	ref.place(rep)
	if strings.Contains(rep.Statement, own) {
		t.Errorf("a reference game the model is not fitted to: %q", rep.Statement)
	}
}

// TestStatementAwayFromBot: a game far out on the side away from the
// evaluators (past the review threshold's z, negated) is consistent, as the test is
// one-sided, and its statement says the reference players do not play
// so either; a typical game's does not. Before (2026-12-07), a bot of
// random legal moves (replays/valid/rosetta-random.yaml, corner-1
// agreement at z -6.2) got "consistent with the reference players" and
// a z of 0.3 as its only figure.
func TestStatementAwayFromBot(t *testing.T) {
	ref := testReference(t)
	const away = "far out on the side away from the evaluators: agreement with expectimax-2/1 30.0% (reference 53.0%, z = "
	rep := reportWith(1000, 0.30, 0.40, 512)
	ref.place(rep)
	if rep.Band != Consistent || !strings.Contains(rep.Statement, away) || !strings.Contains(rep.Statement, "below 4 of the 4 reference games modelled); the reference players do not play so on that count") {
		t.Errorf("a game far from the evaluators: band %s, %q", rep.Band, rep.Statement)
	}
	if z := rep.Evaluators[0].Z; z > -ref.ReviewZ {
		t.Fatalf("agreement z %.1f: the test wants one past %.1f", z, -ref.ReviewZ)
	}
	for _, rep := range []*GameReport{reportWith(1000, 0.53, 0.40, 512), reportWith(1000, 0.48, 0.40, 512)} {
		ref.place(rep)
		if strings.Contains(rep.Statement, "side away from") {
			t.Errorf("a typical game, agreement z %.1f: %q", rep.Evaluators[0].Z, rep.Statement)
		}
	}
}

// TestWordsSayWhatWasMeasured: the band's words and the statement's say
// what the one-sided test measured, how close the moves are to the
// evaluators against the reference players, and never name who played
// (a bot, a computer, a person, cheating: NotAFinding alone speaks of
// cheating, to say it is no finding). Before 2026-12-07 the bands read
// "atypical: review suggested" and "strongly atypical", and a statement
// spoke of "the side away from a bot".
func TestWordsSayWhatWasMeasured(t *testing.T) {
	verdicts := []string{"bot", "computer", "machine", "engine", "cheat", "human", "person", "atypical", "suspicious"}
	for _, band := range []string{Consistent, Review, Strong} {
		if w := BandText(band); !strings.Contains(w, "close to the evaluators for a reference player") {
			t.Errorf("band %s reads %q: it does not say what was measured", band, w)
		}
	}
	if w := BandText(Insufficient); w != "not placed: not enough data" {
		t.Errorf("band insufficient reads %q", w)
	}
	ref := testReference(t)
	for _, rep := range []*GameReport{
		reportWith(1000, 0.53, 0.40, 512), reportWith(1000, 0.30, 0.40, 512), reportWith(1000, 0.70, 0.40, 512),
		reportWith(1000, 0.80, 0.40, 512), reportWith(299, 0.99, 0.0, 512), reportWith(1000, 0.99, 0.0, 4096),
	} {
		rep.Clairvoyance = &Clairvoyant{Z: 4.5}
		ref.place(rep)
		words := strings.ToLower(strings.TrimSuffix(rep.Statement, NotAFinding) + " " + BandText(rep.Band))
		for _, v := range verdicts {
			if strings.Contains(words, v) {
				t.Errorf("band %s: the words name who played (%q): %q", rep.Band, v, words)
			}
		}
	}
}
