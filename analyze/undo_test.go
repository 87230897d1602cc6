package analyze

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// undoBotGame plays expectimax-2's moves under online-2048 (a profile with
// undo) for moves counted moves; before each, with tries, a random legal
// move taken back at once.
func undoBotGame(t *testing.T, seed string, moves int, tries bool) *replay.Replay {
	p, err := engine.BuiltinProfile("online-2048")
	if err != nil {
		t.Fatal(err)
	}
	rec := recorderOf(t, p, seed)
	bt := newEvalBot(newExpectimax(2), 0, 0, 1)
	rng := rand.New(rand.NewPCG(7, 7))
	for range moves {
		g := rec.Game()
		legal := g.LegalMoves()
		if g.Over() || len(legal) == 0 {
			break
		}
		if tries {
			if err := rec.Do(engine.Action(legal[rng.IntN(len(legal))])); err != nil {
				t.Fatal(err)
			}
			if !rec.Game().CanUndo() {
				break
			}
			if err := rec.Do(engine.Undo); err != nil {
				t.Fatal(err)
			}
		}
		b, _ := toBitboard(rec.Game().Board())
		if err := rec.Do(engine.Action(bt.choose(rec.Game(), b))); err != nil {
			t.Fatal(err)
		}
	}
	return rec.Seeded()
}

// TestUndoInsufficient: a game whose player took moves back is not placed
// against a reference without such games. Before, the moves taken back
// were analysed as played and the game placed: expectimax-2 trying a
// random move and taking it back before each of its own was consistent
// with the reference players in 8 of 10 games of 600 moves (score 2.8 to
// 2.9), where the same bot without undo is strongly atypical. With a
// reference that holds games with undo, the game is placed.
func TestUndoInsufficient(t *testing.T) {
	r := undoBotGame(t, "undo-1", 300, true)
	rep, err := Analyze(context.Background(), replay.NewVerifier(), "undo-1", r, Options{Clairvoyance: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Undone < 250 || rep.Analysed < rep.GameMoves+rep.Undone {
		t.Fatalf("%d moves taken back, %d analysed of %d counted: want about 300 and the tries analysed", rep.Undone, rep.Analysed, rep.GameMoves)
	}
	if rep.Band != Insufficient || len(rep.Reasons) == 0 || !strings.Contains(rep.Reasons[0], "taken back (undo)") {
		t.Errorf("band %s, reasons %q: want insufficient, for the undo first", rep.Band, rep.Reasons)
	}
	if !strings.Contains(rep.Statement, fmt.Sprintf("%d of the moves analysed were taken back", rep.Undone)) || !strings.HasSuffix(rep.Statement, NotAFinding) {
		t.Errorf("statement %q", rep.Statement)
	}

	// The same bot without undo, under the same profile, is placed and
	// flagged: the profile is not what makes the first insufficient.
	plain, err := Analyze(context.Background(), replay.NewVerifier(), "plain", undoBotGame(t, "undo-1", 300, false), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Undone != 0 || plain.Band != Strong {
		t.Errorf("without undo: %d taken back, band %s (%q): want 0 and strong", plain.Undone, plain.Band, plain.Reasons)
	}

	// A reference built from games with undo places games with undo, and
	// keeps their count.
	ref := BuildReference("with-undo", "test", []*GameReport{rep}, mustBuiltin(t))
	if ref.Games[0].Undone != rep.Undone {
		t.Errorf("the reference game says %d taken back, want %d", ref.Games[0].Undone, rep.Undone)
	}
	ref.ModelMinMoves, ref.MinBandGames = 1, 1
	ref.place(rep)
	if rep.Band == Insufficient {
		t.Errorf("against a reference with undo: %s, %q", rep.Band, rep.Reasons)
	}
}

// TestUndoPeekNotJudged: a player who uses the profile's undo to see
// where a move's tile spawns, and takes back the moves whose spawn a
// player who knew it would not have played, agrees with the clairvoyance
// oracle far more than chance (z 4.7 in game peek-1, past the review
// threshold of 4), as a cheat who knows the seed does. Such a game is not
// placed, and its statement gives that z as not judged. Before
// (2026-12-07) the statement gave it as a placed game's clairvoyance z.
func TestUndoPeekNotJudged(t *testing.T) {
	p, err := engine.BuiltinProfile("online-2048")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := engine.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	rec := recorderOf(t, p, "peek-1")
	person := newEvalBot(newExpectimax(2), 0, 64, 1) // softmax 64: as the reference players
	oracle := &clairvoyantBot{rules: rules, ev: newExpectimax(3), sp: tileMergeSpawns}
	for range 400 {
		g := rec.Game()
		if g.Over() || len(g.LegalMoves()) == 0 {
			break
		}
		b, _ := toBitboard(g.Board())
		d, want := person.choose(g, b), oracle.choose(g, b)
		if err := rec.Do(engine.Action(d)); err != nil {
			t.Fatal(err)
		}
		if d != want && rec.Game().CanUndo() {
			for _, a := range []engine.Action{engine.Undo, engine.Action(want)} {
				if err := rec.Do(a); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	rep, err := Analyze(context.Background(), replay.NewVerifier(), "peek-1", rec.Seeded(), Options{Clairvoyance: true})
	if err != nil {
		t.Fatal(err)
	}
	ref := mustBuiltin(t)
	if c := rep.Clairvoyance; c == nil || c.Z < ref.ClairvoyanceReviewZ || rep.Undone == 0 {
		t.Fatalf("clairvoyance %+v, %d taken back: want a z past review (%g) and moves taken back", c, rep.Undone, ref.ClairvoyanceReviewZ)
	}
	last := rep.Reasons[len(rep.Reasons)-1]
	if rep.Band != Insufficient || !strings.HasPrefix(last, "not judged (not enough data): the moves agree with an evaluator that knows the next spawn") {
		t.Errorf("band %s, reasons %q: want insufficient, the clairvoyance z not judged", rep.Band, rep.Reasons)
	}
	t.Logf("%s", rep.Statement)
}
