package replay

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestClaimMovesPastInt: a claim of 2^32+1670 moves for a game of 1670
// is a wrong claim where int has 64 bits (claim-moves) and, where it has
// 32 (386, arm), an error naming the bound: never the count cut to 32
// bits, 1670, which would make the claim true.
func TestClaimMovesPastInt(t *testing.T) {
	data, err := os.ReadFile("../replays/minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tampered := bytes.Replace(data, []byte("moves: 1670}"), []byte("moves: 4294968966}"), 1)
	if bytes.Equal(tampered, data) {
		t.Fatal("minimal.yaml no longer claims 1670 moves")
	}
	r, err := Decode("minimal.yaml", tampered)
	if strconv.IntSize == 32 {
		if want := "claim.moves: 4294968966 is past 2^31-1, the most a 32-bit build of tileproof counts"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("a claim past 2^31-1 moves on 32 bits: %v, want %q", err, want)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if vd := NewVerifier().Verify(r); vd.Valid || vd.Reason != ClaimMoves {
		t.Errorf("a claim of 2^32+1670 moves: %+v", vd)
	}
}
