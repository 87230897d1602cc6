package conformance

import (
	"errors"
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
	rep, err := Run(loadRepoPack(t), oddMove{&Builtin{}}, Options{Properties: true, Profiles: []string{"classic"}, Run: regexp.MustCompile(`^properties/`)})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Status == Pass {
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
	rep, err := Run(loadRepoPack(t), unseeded{&Builtin{}}, Options{Properties: true, Profiles: []string{"tile-merge"}})
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
