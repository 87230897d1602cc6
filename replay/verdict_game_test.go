package replay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFalseClaimGameSHA256: a copy of a game with its claim raised, its
// moves untouched, carries the game's gameSha256, whichever way the claim
// is found false (claim-score when the claim has no board, impossible-claim
// when the board is kept), seeded, spawn-recorded or padded with undos,
// verified, traced or read from its bytes, and its JSON line says so; a
// replay whose moves leave the rules carries none, whatever its claim, and
// no invalid verdict carries sha256. Before 2026-12-07 no invalid verdict
// carried gameSha256, and an inflated copy was not tied to its game.
func TestFalseClaimGameSHA256(t *testing.T) {
	v := NewVerifier()
	read := func(name string) *Replay {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(corpusDir, name))
		if err != nil {
			t.Fatal(err)
		}
		r, err := Decode(name, data)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	raised := func(name string, keepBoard bool) *Replay {
		r := read(name)
		r.Claim.Score += 4
		if !keepBoard {
			r.Claim.Board = nil
		}
		return r
	}
	// Every way of verifying it gives the same verdict.
	check := func(what string, r *Replay, want Reason, game string) {
		t.Helper()
		traced, _ := v.Trace(r)
		for i, vd := range []Verdict{v.Verify(r), traced, v.VerifyFile(what, r.EncodeJSON())} {
			if vd.Valid || vd.Reason != want {
				t.Errorf("%s (%d): valid %v, %s; want %s", what, i, vd.Valid, vd.Reason, want)
			}
			if vd.GameSHA256 != game || vd.SHA256 != "" {
				t.Errorf("%s (%d): gameSha256 %q, sha256 %q; want %q and none", what, i, vd.GameSHA256, vd.SHA256, game)
			}
			if vd.ClaimAloneFalse() != (game != "") {
				t.Errorf("%s (%d): ClaimAloneFalse %v", what, i, vd.ClaimAloneFalse())
			}
			line := string(vd.AppendJSON(nil))
			if has := strings.Contains(line, `"gameSha256":"`+game+`"`); has != (game != "") || strings.Contains(line, `"sha256"`) {
				t.Errorf("%s (%d): %s", what, i, line)
			}
		}
	}
	for _, name := range []string{"valid/tile-merge-2048.yaml", "valid/tile-merge-spawns.yaml", "valid/online-2048-undo-end-run.yaml"} {
		real := v.Verify(read(name))
		if !real.Valid || len(real.GameSHA256) != 64 {
			t.Fatalf("%s: %+v", name, real)
		}
		check(name+", score raised", raised(name, false), ClaimScore, real.GameSHA256)
		check(name+", score raised, board kept", raised(name, true), ImpossibleClaim, real.GameSHA256)
		moved := read(name)
		moved.Claim.Moves++
		moved.Claim.Board = nil
		check(name+", moves raised", moved, ClaimMoves, real.GameSHA256)
	}
	// Moves that leave the rules: no game to tie, whatever the claim.
	check("tampered/move-changed.yaml", read("tampered/move-changed.yaml"), IllegalMove, "")
	broken := read("tampered/move-changed.yaml")
	broken.Claim.Score += 2
	check("tampered/move-changed.yaml, score not a multiple of 4", broken, ImpossibleClaim, "")
	check("tampered/spawn-on-full-cell.yaml", read("tampered/spawn-on-full-cell.yaml"), BadSpawn, "")
	bad := read("tampered/spawn-on-full-cell.yaml")
	bad.Claim.Score += 2
	check("tampered/spawn-on-full-cell.yaml, score not a multiple of 4", bad, ImpossibleClaim, "")
	// A wrong commitment is not replayed for it.
	check("tampered/seed-commitment-broken.yaml", read("tampered/seed-commitment-broken.yaml"), SeedCommitment, "")
}
