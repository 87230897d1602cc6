package conformance_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/conformance/internal/adaptertest"
)

// TestOverBeforeSaid: an implementation that ends a game too early
// (game over on any full board) fails a later step for it; the failure
// says the game was already over before the step, where the rules play
// on. Under classic the move is ignored and the case read "won is
// false, want true" alone, a win bug to the eye; under tile-merge the
// refusal (finished) says it too. An implementation whose game over is
// right gets no such line, failing or not.
func TestOverBeforeSaid(t *testing.T) {
	pack := adaptertest.Pack(t)
	opts := conformance.Options{Run: regexp.MustCompile(`^(profiles/win-classic-blocked-at-win-is-game-over|core/full-board-merge-frees-one-cell)$`)}
	said := func(r conformance.CaseResult) bool {
		return slices.ContainsFunc(r.Mismatches, func(m conformance.StepMismatch) bool { return m.Field == "before" }) ||
			strings.Contains(r.Reason, "already over")
	}

	rep, err := conformance.Run(t.Context(), pack, adapter(t, "--mutant", "game-over-when-full"), opts)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, r := range rep.Results {
		switch {
		case r.Case == "profiles/win-classic-blocked-at-win-is-game-over":
			checked++
			if r.Reason != "move left: won is false, want true" || len(r.Mismatches) < 2 {
				t.Fatalf("%s [%s]: %s %q, %d mismatches; want the win's failure first", r.Case, r.Profile, r.Status, r.Reason, len(r.Mismatches))
			}
			m := r.Mismatches[1]
			want := conformance.StepMismatch{Field: "before", Status: conformance.FlagsDiffer, Want: "playing", Got: "over (no-moves)",
				Text: "move left: the implementation's game was already over (no-moves) before this step; by the rules it plays on"}
			if m != want {
				t.Errorf("%s: the second mismatch is %+v, want %+v", r.Case, m, want)
			}
		case r.Profile == "tile-merge":
			checked++
			if r.Status != conformance.IllegalHandled || !strings.HasSuffix(r.Reason, "; the implementation's game was already over (no-moves) before this step; by the rules it plays on") {
				t.Errorf("%s [%s]: %s %q; want the refusal with the game over before it", r.Case, r.Profile, r.Status, r.Reason)
			}
		case !said(r):
			t.Errorf("%s [%s]: %s %q: the game over before the step not said", r.Case, r.Profile, r.Status, r.Reason)
		}
	}
	if checked != 2 {
		t.Errorf("%d of the results checked, want 2: the cases moved?", checked)
	}

	// Game over right, other bugs: never said.
	for _, m := range []string{"finish-order-swapped", "win-at-1024", "merge-chain"} {
		rep, err := conformance.Run(t.Context(), pack, adapter(t, "--mutant", m), conformance.Options{})
		if err != nil {
			t.Fatal(err)
		}
		failed := 0
		for _, r := range rep.Results {
			if r.Status != conformance.Pass {
				failed++
			}
			if said(r) {
				t.Errorf("%s: %s [%s]: the game said over before the step: %q", m, r.Case, r.Profile, r.Reason)
			}
		}
		if failed == 0 {
			t.Errorf("%s failed nothing", m)
		}
	}
}
