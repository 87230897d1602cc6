package replay

import (
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// TestEncodeYAMLSetup: the setup is written as a one-line flow mapping,
// both its fields in the tables' order, and reads back.
func TestEncodeYAMLSetup(t *testing.T) {
	seed := "7"
	r := &Replay{Profile: "tile-merge", Seed: &seed, Setup: &engine.Setup{Target: 512, OpenEnded: true},
		Actions: []engine.Action{engine.MoveLeft}, Claim: Claim{Score: 4, MaxTile: 4, Moves: 1}}
	out := string(r.EncodeYAML(0))
	if want := "\nsetup: {target: 512, openEnded: true}\n"; !strings.Contains(out, want) {
		t.Fatalf("EncodeYAML =\n%s\nwant a line %q", out, want)
	}
	back, err := Decode("r.yaml", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if back.Setup == nil || *back.Setup != *r.Setup {
		t.Errorf("setup read back %v; want %v", back.Setup, r.Setup)
	}
}
