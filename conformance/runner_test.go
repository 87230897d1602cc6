package conformance

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// oddMove is the engine, except that every move fails with an error that
// is neither a rule's refusal nor a driver's.
type oddMove struct{ *Builtin }

func (oddMove) Move(engine.Direction, *engine.Spawn) (MoveResult, error) {
	return MoveResult{}, errors.New("something odd")
}

// TestPropertyCallFailure: a move that fails oddly fails the property
// (as a protocol error), never lets it pass.
func TestPropertyCallFailure(t *testing.T) {
	rep, err := Run(t.Context(), loadRepoPack(t), oddMove{&Builtin{}}, Options{Properties: true, Profiles: []string{"classic"}, Run: regexp.MustCompile(`^properties/`)})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Status == Pass && r.Case != "properties/start" && r.Case != "properties/"+oneMergeName { // these two play no move
			t.Errorf("%s passes although every move fails", r.Case)
		}
	}
	if len(rep.Results) == 0 {
		t.Fatal("no properties ran")
	}
}

// unseeded is the engine declaring every feature but seed-tp1.
type unseeded struct{ *Builtin }

func (u unseeded) Hello() (Hello, error) {
	h, err := u.Builtin.Hello()
	h.Features = slices.DeleteFunc(h.Features, func(f string) bool { return f == protocol.SeedTP1 })
	return h, err
}

// TestSkipReasons: a case and a property that need a feature the
// implementation lacks are skipped with the same words.
func TestSkipReasons(t *testing.T) {
	rep, err := Run(t.Context(), loadRepoPack(t), unseeded{&Builtin{}}, Options{Properties: true, Profiles: []string{"tile-merge"}})
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, r := range rep.Results {
		if r.Status == Skip {
			reasons[r.Area] = r.Reason
		}
	}
	if reasons["properties"] != "needs seed-tp1" || reasons["tp1"] != "needs seed-tp1" {
		t.Errorf("skip reasons by area: %q", reasons)
	}
}

// TestSpawnDistributionCalibrated plays the spawn-distribution property
// against the engine (a correct implementation) 400 times at a per-test
// level of 0.02, and checks the check fails about as often as its two
// tests' levels say (at most 0.04 of the runs, by Bonferroni): the level a
// run gives each test is what it costs a correct implementation. (The
// run's own level is FalseAlarmRate, 1e-4, too rare to count here.)
func TestSpawnDistributionCalibrated(t *testing.T) {
	t.Parallel()
	p, _ := engine.BuiltinProfile("classic")
	const runs, alpha = 400, 0.02
	failures := 0
	for i := range runs {
		var res CaseResult
		// The profile given, the same rules, not looked up again for
		// each of the check's games.
		spawnDistribution(&Builtin{Seed: fmt.Sprint("calibrate-", i), Profiles: []*engine.Profile{p}}, Hello{}, p, &res, alpha)
		if res.Status.Failed() {
			failures++
		}
	}
	// Binomial(400, 0.04) exceeds 32 with probability below 1e-4.
	if failures > 32 {
		t.Errorf("%d of %d runs of a correct implementation failed at level %g a test", failures, runs, alpha)
	}
	t.Logf("%d of %d runs failed (%.3f; at most %.3f expected)", failures, runs, float64(failures)/runs, 2*alpha)
}

// skipsFirstCell is a correct implementation but for one bug: a tile
// that would spawn in cell (0, 0) goes to another empty cell of row 0 to
// 3, drawn uniformly, so every other cell is a little more likely.
type skipsFirstCell struct {
	*Builtin
	rng *rand.Rand
}

func (s skipsFirstCell) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	mr, err := s.Builtin.Move(d, spawn)
	if err != nil || mr.Spawn == nil || mr.Spawn.Row != 0 || mr.Spawn.Col != 0 {
		return mr, err
	}
	var empty []engine.Spawn
	for r := range 4 {
		for c := range 4 {
			if (r != 0 || c != 0) && mr.State.Board.At(r, c) == 0 {
				empty = append(empty, engine.Spawn{Row: r, Col: c, Value: mr.Spawn.Value})
			}
		}
	}
	sp := empty[s.rng.IntN(len(empty))]
	mr.State.Board.Set(0, 0, 0)
	mr.State.Board.Set(sp.Row, sp.Col, sp.Value)
	mr.Spawn = &sp
	return mr, nil
}

// TestSpawnDistributionEveryCell checks that the cells test counts every
// empty cell: an implementation that never spawns in cell (0, 0) fails it
// (it passed when the expected counts left that cell out).
func TestSpawnDistributionEveryCell(t *testing.T) {
	p, _ := engine.BuiltinProfile("classic")
	impl := skipsFirstCell{&Builtin{Seed: "every-cell"}, rand.New(rand.NewPCG(1, 2))}
	var res CaseResult
	spawnDistribution(impl, Hello{}, p, &res, 1e-4)
	if !res.Status.Failed() || !strings.Contains(res.Reason, "unlikely under uniform placement") {
		t.Errorf("an implementation that never spawns in cell (0, 0): %s %q, want a failure of the cells", res.Status, res.Reason)
	}
}

// badRequestSpawns is the engine refusing a spawn the rules refuse as
// bad-spawn with the protocol's bad-request, as the exec driver reports
// such an answer.
type badRequestSpawns struct{ *Builtin }

func (b badRequestSpawns) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	mr, err := b.Builtin.Move(d, spawn)
	if re, ok := err.(*RuleError); ok && re.Code == "bad-spawn" {
		return mr, &DriverError{Status: ProtocolError, Msg: "move (request 3): the implementation answered bad-request: cannot spawn there"}
	}
	return mr, err
}

// TestWrongRefusalWord: a step the rules refuse, refused in a word that
// is not the rules', fails as a protocol error that names the rules'
// word.
func TestWrongRefusalWord(t *testing.T) {
	rep, err := Run(t.Context(), loadRepoPack(t), badRequestSpawns{&Builtin{}}, Options{Profiles: []string{"classic"}, Run: regexp.MustCompile(`^profiles/forced-spawn-on-a-full-cell-bad-spawn$`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 {
		t.Fatalf("%d results", len(rep.Results))
	}
	res := rep.Results[0]
	if want := "move right: move (request 3): the implementation answered bad-request: cannot spawn there; the rules refuse it as bad-spawn"; res.Status != ProtocolError || res.Reason != want {
		t.Errorf("%s: %q, want protocol-error: %q", res.Status, res.Reason, want)
	}
}
