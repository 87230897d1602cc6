package replay_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/peer/hallabois"
	"github.com/tileproof/tileproof/replay"
)

// The hallabois game's replays, verified with its generator: this
// external test package links peer/hallabois and registers it, for every
// test of the package's binary, as cmd/tileproof does.
func init() { hallabois.Generator() }

func verify(t *testing.T, r *replay.Replay) replay.Verdict {
	t.Helper()
	return replay.NewVerifier().Verify(r)
}

func mustProfile(t testing.TB, name string) *engine.Profile {
	t.Helper()
	p, err := engine.BuiltinProfile(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// playLCG plays a greedy game of profile under the hallabois generator
// from seed, a break after the move whenever breakAt says so and the
// rules take it, and returns it as a seeded replay pinning hallabois-lcg.
func playLCG(t *testing.T, profile, seed string, breakAt func(g *engine.Game) bool) (*replay.Replay, *engine.Game) {
	t.Helper()
	rules, err := engine.Compile(mustProfile(t, profile))
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGameWith(hallabois.Generator(), seed)
	if err != nil {
		t.Fatal(err)
	}
	r := &replay.Replay{Profile: profile, Rules: 1, RNG: hallabois.RNGID, Seed: &seed}
	for !g.Over() {
		d := cornerMove(g)
		if _, err := g.Move(d); err != nil {
			t.Fatal(err)
		}
		r.Actions = append(r.Actions, engine.Action(d))
		if breakAt != nil && breakAt(g) && g.Break() == nil {
			r.Actions = append(r.Actions, engine.Break)
		}
	}
	board, won, over, result := g.Board(), g.Won(), g.Over(), g.Result()
	r.Claim = replay.Claim{Score: g.Score(), MaxTile: g.MaxTile(), Moves: g.Moves(), Board: &board, Won: &won, Over: &over, Result: &result}
	return r, g
}

// cornerMove is a player that keeps the big tiles in a corner: the legal
// move that earns the most, down and left before right and up.
func cornerMove(g *engine.Game) engine.Direction {
	best, bestGain := engine.Up, -1<<30
	for _, d := range []engine.Direction{engine.Down, engine.Left, engine.Right, engine.Up} {
		if !g.Legal(d) {
			continue
		}
		s, _ := g.Board().Slide(d)
		gain := int(s.Gained)
		if d == engine.Right || d == engine.Up {
			gain -= 8 // keep to the corner unless it pays
		}
		if gain > bestGain {
			best, bestGain = d, gain
		}
	}
	return best
}

// TestVerifyLCG verifies seeded games pinning hallabois-lcg: valid, the
// verdict and the proof naming the generator. Leaving rng out verifies
// the same game by the profile's generator, rng noted as unpinned; the
// same replay pinning tp1, or any other generator, is refused (issue 25,
// item 11), naming the profile's own.
func TestVerifyLCG(t *testing.T) {
	for _, profile := range []string{"hallabois-4x4", "hallabois-3x3"} {
		r, _ := playLCG(t, profile, "3146440594", nil)
		vd := verify(t, r)
		if !vd.Valid || vd.RNG != "hallabois-lcg" || len(vd.Unpinned) != 0 || !strings.HasSuffix(vd.Proved(), "spawns by hallabois-lcg") {
			t.Errorf("%s: %+v (%v), proved %q", profile, vd, vd.Divergence, vd.Proved())
		}
		r.RNG = ""
		if vd := verify(t, r); !vd.Valid || vd.RNG != "hallabois-lcg" || fmt.Sprint(vd.Unpinned) != "[rng]" {
			t.Errorf("%s with rng left out: valid %v, rng %q, unpinned %v", profile, vd.Valid, vd.RNG, vd.Unpinned)
		}
		r.RNG = "tp1"
		want := "the replay pins the spawn generator tp1, which is not profile " + profile + "'s: its seeded games spawn by hallabois-lcg"
		if vd := verify(t, r); vd.Valid || vd.Reason != replay.Refused || vd.Error != want || vd.Replayed {
			t.Errorf("%s under rng tp1: valid %v, %s %q", profile, vd.Valid, vd.Reason, vd.Error)
		}
	}
}

// TestHallaboisTP1Refused: a hallabois game played by tp1 (which the
// engine plays, as the conformance cases do), written as a replay
// pinning tp1, is refused with a clear error: one issued seed is one
// game, by the profile's own generator.
func TestHallaboisTP1Refused(t *testing.T) {
	g, err := engine.NewGame(mustProfile(t, "hallabois-4x4"), "42")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Play([]engine.Action{engine.MoveLeft, engine.MoveUp}, nil); err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprintf("profile: hallabois-4x4\nrng: tp1\nseed: \"42\"\nmoves: LU\nclaim: {score: %d, maxTile: %d, moves: 2}\n", g.Score(), g.MaxTile())
	r, err := replay.Decode("tp1.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	vd := verify(t, r)
	if vd.Valid || vd.Reason != replay.Refused || !strings.Contains(vd.Error, "spawn generator tp1, which is not profile hallabois-4x4's: its seeded games spawn by hallabois-lcg") {
		t.Errorf("hallabois-4x4 under tp1: valid %v, %s %q", vd.Valid, vd.Reason, vd.Error)
	}
}

// TestLCGOnlyItsProfiles: a profile's seeded games spawn by its own
// generator, so one issued seed is one game (issue 25, item 11): classic
// or tile-merge pinning hallabois-lcg is refused, naming the profile,
// even when the game is true to that generator. A profile added from a
// file spawns by the generator it names (tp1 when it names none).
func TestLCGOnlyItsProfiles(t *testing.T) {
	for _, profile := range []string{"classic", "tile-merge"} {
		r, _ := playLCG(t, profile, "3146440594", nil)
		vd := verify(t, r)
		if vd.Valid || vd.Reason != replay.Refused || !strings.Contains(vd.Error, "not profile "+profile+"'s") {
			t.Errorf("%s under hallabois-lcg: valid %v, %s %q", profile, vd.Valid, vd.Reason, vd.Error)
		}
	}
	r, _ := playLCG(t, "classic", "3146440594", nil)
	r.Profile = "my-classic"
	added := mustProfile(t, "classic")
	added.Name = "my-classic"
	v := replay.NewVerifier()
	if err := v.AddProfile(added); err != nil {
		t.Fatal(err)
	}
	if vd := v.Verify(r); vd.Valid || !strings.Contains(vd.Error, "not profile my-classic's: its seeded games spawn by tp1") {
		t.Errorf("an added profile naming no generator, under hallabois-lcg: %+v", vd)
	}
	added.RNG = hallabois.RNGID
	if err := v.AddProfile(added); err != nil {
		t.Fatal(err)
	}
	if vd := v.Verify(r); !vd.Valid || vd.RNG != "hallabois-lcg" {
		t.Errorf("an added profile naming hallabois-lcg, under it: %+v", vd)
	}
	r.RNG = "tp1"
	if vd := v.Verify(r); vd.Valid || vd.Reason != replay.Refused {
		t.Errorf("an added profile naming hallabois-lcg, under tp1: %+v", vd)
	}
}

// TestLCGSeedForms: a hallabois-lcg seed has one written form, a 32-bit
// number in plain decimal; anything else is malformed, not trimmed.
func TestLCGSeedForms(t *testing.T) {
	r, _ := playLCG(t, "hallabois-4x4", "7", nil)
	for _, seed := range []string{"07", " 7", "+7", "4294967296", "x"} {
		s := seed
		r.Seed = &s
		if vd := verify(t, r); vd.Reason != replay.Malformed || !strings.Contains(vd.Error, "hallabois-lcg seed") {
			t.Errorf("seed %q: %s %s", seed, vd.Reason, vd.Error)
		}
	}
	r.RNG = "hallabois-LCG"
	if vd := verify(t, r); vd.Reason != replay.Refused || !strings.Contains(vd.Error, "knows tp1 and hallabois-lcg") {
		t.Errorf("rng hallabois-LCG: %s %s", vd.Reason, vd.Error)
	}
}

// TestCanonicalFormLCG: the canonical form names the generator the game
// was verified with. The game (seed 0, LUR on hallabois-4x4) was worked
// out apart from the engine, in Python.
func TestCanonicalFormLCG(t *testing.T) {
	r, err := replay.Decode("c.yaml", []byte("profile: hallabois-4x4\nrng: hallabois-lcg\nseed: 0\nmoves: lur\nclaim: {score: 8, maxTile: 8, moves: 3}\n"))
	if err != nil {
		t.Fatal(err)
	}
	vd := replay.NewVerifier().Verify(r)
	canonical := `{"profile":"hallabois-4x4","rules":1,"rng":"hallabois-lcg","seed":"0","moves":"LUR","claim":{"score":8,"maxTile":8,"moves":3,"board":[[0,0,2,8],[0,0,0,4],[0,2,0,0],[0,0,0,0]],"won":false,"over":false,"result":"playing"}}`
	sum := sha256.Sum256([]byte(canonical))
	if want := hex.EncodeToString(sum[:]); !vd.Valid || vd.SHA256 != want {
		t.Errorf("valid %v (%s %v), SHA-256 %s, want %s, the hash of\n%s", vd.Valid, vd.Reason, vd.Divergence, vd.SHA256, want, canonical)
	}
}

// TestVerifyBreaks verifies games with breaks in both forms of log, and
// the verdicts of a break the rules refuse: one too many, one without the
// price, one after the end, and one in a profile that has none.
func TestVerifyBreaks(t *testing.T) {
	atFull := func(g *engine.Game) bool { return g.Board().Empty() <= 2 && g.Score() >= 1000 }
	r, g := playLCG(t, "hallabois-4x4", "4109379668", atFull)
	if g.Breaks() != 3 {
		t.Fatalf("the game took %d breaks", g.Breaks())
	}
	if vd := verify(t, r); !vd.Valid || vd.Score != g.Score() {
		t.Fatalf("3 breaks: %+v %v", vd, vd.Divergence)
	}
	breaks := []int{}
	for i, a := range r.Actions {
		if a == engine.Break {
			breaks = append(breaks, i)
		}
	}
	// A fourth break: refused for its limit.
	at := breaks[2] + 3
	four := *r
	four.Actions = append(append(append([]engine.Action(nil), r.Actions[:at]...), engine.Break), r.Actions[at:]...)
	vd := verify(t, &four)
	if vd.Reason != replay.BadAction || vd.Divergence.Action != at+1 || vd.Divergence.Act != engine.Break ||
		!strings.Contains(vd.Divergence.Gives(), "profile hallabois-4x4 allows 3 breaks a run, and they are used") {
		t.Errorf("a fourth break: %s at %d, %q", vd.Reason, vd.Divergence.Action, vd.Divergence.Gives())
	}
	// A break at the start: no points to pay with.
	early := *r
	early.Actions = append([]engine.Action{engine.Break}, r.Actions...)
	if vd := verify(t, &early); vd.Reason != replay.BadAction || vd.Divergence.Action != 1 || !strings.Contains(vd.Divergence.Gives(), "a break costs 1000 points and the score is 0") {
		t.Errorf("a break at the start: %s, %v", vd.Reason, vd.Divergence)
	}
	// A break after the end, on a board with no move left.
	one, g1 := playLCG(t, "hallabois-4x4", "3486564360", nil)
	if g1.Score() < 1000 {
		t.Fatalf("score %d", g1.Score())
	}
	one.Actions = append(one.Actions, engine.Break)
	if vd := verify(t, one); vd.Reason != replay.AfterEnd || vd.Divergence.Action != len(one.Actions) || !strings.Contains(vd.Divergence.Gives(), "no moves left") {
		t.Errorf("a break after the end: %s, %v", vd.Reason, vd.Divergence)
	}
	// The same where a break is allowed with no move left (as in the first
	// format's profiles): taken, so the claim is now false.
	allow := mustProfile(t, "hallabois-4x4")
	allow.Name, allow.Break.WhenNoMoves = "allow", engine.BreakAllow
	v := replay.NewVerifier()
	if err := v.AddProfile(allow); err != nil {
		t.Fatal(err)
	}
	one.Profile = "allow"
	if vd := v.Verify(one); vd.Reason != replay.ClaimScore {
		t.Errorf("a break after the end, first format: %s, %v", vd.Reason, vd.Divergence)
	}
	// A profile without a break refuses it as it refuses undo.
	classic := replay.PlayGame(t, "tile-merge", "no-break", 30, false)
	classic.Actions = append(classic.Actions[:10:10], append([]engine.Action{engine.Break}, classic.Actions[10:]...)...)
	if vd := verify(t, classic); vd.Reason != replay.BadAction || vd.Divergence.Action != 11 || !strings.Contains(vd.Divergence.Gives(), "not in this profile tile-merge") {
		t.Errorf("tile-merge with a break: %s, %v", vd.Reason, vd.Divergence)
	}
}

// TestSpawnLogBreak: in a spawn-recorded log B stands alone, like Z, E
// and K, and a game with a break verifies from its recorded spawns.
func TestSpawnLogBreak(t *testing.T) {
	actions, spawns, err := replay.ParseSpawnLog("L14:2 b U3:2 B", 4)
	if err != nil || engine.FormatActions(actions) != "LBUB" || spawns[1] != (engine.Spawn{}) || spawns[2] != (engine.Spawn{Row: 0, Col: 3, Value: 2}) {
		t.Fatalf("replay.ParseSpawnLog = %v, %v, %v", actions, spawns, err)
	}
	if got := replay.FormatSpawnLog(actions, spawns, 4); got != "L14:2 B U3:2 B" {
		t.Errorf("replay.FormatSpawnLog = %q", got)
	}
	if _, _, err := replay.ParseSpawnLog("L14:2 B3:2", 4); err == nil {
		t.Error("a break with a spawn parsed")
	}
	atFull := func(g *engine.Game) bool { return g.Board().Empty() <= 2 && g.Score() >= 1000 }
	r, g := playLCG(t, "hallabois-4x4", "4109379668", atFull)
	rec := &replay.Replay{Profile: r.Profile, Claim: r.Claim}
	rules, _ := engine.Compile(mustProfile(t, r.Profile))
	h, _ := rules.NewGameWith(hallabois.Generator(), *r.Seed)
	start := h.Board()
	rec.Start = &start
	for _, a := range r.Actions {
		st, err := h.Do(a)
		if err != nil {
			t.Fatal(err)
		}
		rec.Actions, rec.Spawns = append(rec.Actions, a), append(rec.Spawns, st.Spawn)
	}
	if h.Board() != g.Board() {
		t.Fatal("the game played again differs")
	}
	data := rec.EncodeYAML(0)
	back, err := replay.Decode("s.yaml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if vd := verify(t, back); !vd.Valid || vd.Score != g.Score() || !strings.Contains(string(data), " B ") {
		t.Errorf("spawn-recorded with breaks: %+v %v", vd, vd.Divergence)
	}
}

// TestCheckClaimBreaks: in a profile with a break, real claims pass the
// constant-time check; a score no number of breaks explains, and a board
// with more than the spawns add up to, do not; the score is not held to
// the board.
func TestCheckClaimBreaks(t *testing.T) {
	p := mustProfile(t, "hallabois-4x4")
	atFull := func(g *engine.Game) bool { return g.Board().Empty() <= 2 && g.Score() >= 1000 }
	for i := range 10 {
		r, g := playLCG(t, "hallabois-4x4", fmt.Sprint(1000+i), atFull)
		if err := replay.CheckClaim(p, r.Claim); err != nil {
			t.Fatalf("real claim of a game with %d breaks rejected: %v", g.Breaks(), err)
		}
		c := r.Claim
		c.Score += 2
		if replay.CheckClaim(p, c) == nil {
			t.Errorf("score +2 accepted (the price is a multiple of 4)")
		}
		c = r.Claim
		c.Score += 4 // a break more or less, or a different board: not decided here
		if err := replay.CheckClaim(p, c); err != nil {
			t.Errorf("score +4: %v", err)
		}
		c = r.Claim
		c.Moves = 0 // two spawns cannot add up to a long game's board
		if replay.CheckClaim(p, c) == nil {
			t.Errorf("moves 0 accepted")
		}
	}
	// A price of 250 (2x3 in the second format): a score of 4k - 250n is
	// even, and any even score is one.
	odd := p.Clone()
	odd.Break.Price, odd.Break.Limit = 250, 1
	for score, ok := range map[uint64]bool{0: true, 4: true, 750: true, 2: true, 6: true, 1: false, 3: false} {
		if err := replay.CheckClaim(odd, replay.Claim{Score: score, MaxTile: 4}); (err == nil) != ok {
			t.Errorf("price 250, one break, score %d: %v", score, err)
		}
	}
	// A price of 1: one break makes 4k - 1, three make every score.
	odd.Break.Price = 1
	for score, ok := range map[uint64]bool{0: true, 3: true, 7: true, 1: false, 2: false} {
		if err := replay.CheckClaim(odd, replay.Claim{Score: score, MaxTile: 4}); (err == nil) != ok {
			t.Errorf("price 1, one break, score %d: %v", score, err)
		}
	}
	odd.Break.Limit = 3
	for score := range uint64(8) {
		if err := replay.CheckClaim(odd, replay.Claim{Score: score, MaxTile: 4}); err != nil {
			t.Errorf("price 1, three breaks, score %d: %v", score, err)
		}
	}
}
