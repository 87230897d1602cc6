package replay

import (
	"strings"
	"testing"
)

// TestUnknownProfileHint: the refusal of an unknown profile names the
// known profile a near miss is of, and ends with how the verifier's user
// makes a profile known, when the user says.
func TestUnknownProfileHint(t *testing.T) {
	r := playGame(t, "tile-merge", "hint", 5, false)
	for _, c := range []struct{ profile, near string }{
		{"Tile-Merge", "tile-merge"},
		{"tile_merge", "tile-merge"},
		{"TILE_MERGE", "tile-merge"},
		{"Hallabois_V1_4x4", "hallabois-v1-4x4"}, // three edits, but the same folded
		{"tilemerge", "tile-merge"},
		{"classic2", "classic"},
		{"clasic", "classic"},
		{"hallabois-v1-3x4", ""}, // one edit from two names: neither
		{"hallabois-2x2", ""},    // two edits from hallabois-3x3
		{"no-such-profile", ""},
		{"", ""},
	} {
		r.Profile = c.profile
		vd := NewVerifier().Verify(r)
		did := strings.Contains(vd.Error, "did you mean")
		if vd.Reason != Refused || did != (c.near != "") || c.near != "" && !strings.Contains(vd.Error, ": did you mean "+c.near+"? (this verifier knows ") {
			t.Errorf("%q: %s", c.profile, vd.Error)
		}
		if strings.Contains(vd.Error, "a profile of a file") {
			t.Errorf("%q, no HowToAdd: %s", c.profile, vd.Error)
		}
	}
	v := NewVerifier()
	v.HowToAdd = "serve --profiles FILE"
	r.Profile = "nosuch"
	vd := v.Verify(r)
	if !strings.HasPrefix(vd.Error, `unknown profile "nosuch" (this verifier knows classic, `) || !strings.HasSuffix(vd.Error, "; a profile of a file is known once the file is given: serve --profiles FILE)") {
		t.Errorf("HowToAdd: %s", vd.Error)
	}
}

// TestRulesVersionHint: a replay pinning a rules version the verifier
// does not know is told which it knows, and what to do.
func TestRulesVersionHint(t *testing.T) {
	r := playGame(t, "tile-merge", "pins", 10, false)
	r.Rules = 2
	const want = "the replay pins rules version 2 of profile tile-merge; this verifier knows version 1 only (a newer tileproof may know version 2; if the replay was written for version 1, pin rules: 1)"
	if vd := NewVerifier().Verify(r); vd.Reason != Refused || vd.Error != want {
		t.Errorf("rules 2: %s", vd.Error)
	}
}
