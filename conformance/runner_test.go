package conformance

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
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
	p, _ := engine.BuiltinProfile("classic")
	const runs, alpha = 400, 0.02
	failures := 0
	for i := range runs {
		var res CaseResult
		spawnDistribution(&Builtin{Seed: fmt.Sprint("calibrate-", i)}, Hello{}, p, &res, alpha)
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
