package conformance

import (
	"cmp"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// practiceSeed is the engine without seed-tp1 starting every game given no
// seed from one seed, as Online 2048 does ("Enter a Run seed of 1 to 96
// characters, or keep 2048-practice"): all its new games are one game.
type practiceSeed struct{ *Builtin }

func (p practiceSeed) Hello() (Hello, error) { return withoutTP1(p.Builtin) }

func (p practiceSeed) New(profile, seed string, setup *engine.Setup) (ImplState, error) {
	return p.Builtin.New(profile, cmp.Or(seed, "2048-practice"), setup)
}

// TestDefaultSeedRepeats: online-2048 lists newGameSeed as unstated, so
// an implementation whose new games all play its default seed passes the
// start check and the observed games' checks (their statistical tests
// count the one game once). Under classic, whose source (Math.random)
// starts each game apart, the same implementation fails both repeat tests.
func TestDefaultSeedRepeats(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		profile string
		pass    bool
	}{{"online-2048", true}, {"classic", false}} {
		start := runStartUnder(t, practiceSeed{&Builtin{}}, tc.profile)
		if got := start.Status == Pass; got != tc.pass {
			t.Errorf("%s: properties/start %s: %s", tc.profile, start.Status, start.Reason)
		}
		obs, err := Observe(t.Context(), practiceSeed{&Builtin{}}, ObserveOptions{Games: 4, Seed: 1, Profiles: []string{tc.profile}})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range obs.Divergences {
			t.Errorf("%s: observed game %d: %s", tc.profile, d.Game, d.Result.Reason)
		}
		for _, r := range obs.Results {
			switch {
			case r.Case == "observe/repeated-openings":
				if want := map[bool]Status{true: Pass, false: SpawnWrong}[tc.pass]; r.Status != want {
					t.Errorf("%s: %s %s: %s; want %s", tc.profile, r.Case, r.Status, r.Reason, want)
				}
			case r.Status != Pass && r.Status != Skip:
				t.Errorf("%s: %s %s: %s", tc.profile, r.Case, r.Status, r.Reason)
			}
		}
	}
}
