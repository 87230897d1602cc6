package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAnalyzeCommand runs tileproof analyze on a bot's replay, a short
// game and a tampered one: one JSON line a game with a band, exit 1 for
// the replay that is not valid.
func TestAnalyzeCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "", "analyze", "--json", "../../replays/valid/tile-merge-2048.yaml", "../../replays/valid/online-2048-target-512.yaml", "../../replays/valid/rosetta-random.yaml")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines: %s", len(lines), out)
	}
	// Two expectimax players' games (1,867 and 261 non-trivial moves),
	// flagged; a random player's of 145, placed (the reference's minimum
	// is 100) and not flagged: random play is not a computer's strength.
	want := []string{"review|strong", "review|strong", "consistent"}
	for i, l := range lines {
		var rep struct {
			Band, Statement string
			NonTrivial      int `json:"non_trivial"`
		}
		if err := json.Unmarshal([]byte(l), &rep); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(strings.Split(want[i], "|"), rep.Band) || !strings.Contains(rep.Statement, "not a finding of cheating") {
			t.Errorf("line %d: band %q (want %s), statement %q", i+1, rep.Band, want[i], rep.Statement)
		}
	}
	// Cut at 80 counted moves, the expectimax game is too short to place.
	code, out, _ = runCLI(t, "", "analyze", "--json", "--max-moves", "80", "../../replays/valid/tile-merge-2048.yaml")
	if code != exitOK || !strings.Contains(out, `"band":"insufficient"`) {
		t.Errorf("a game cut at 80 moves: exit %d, %s", code, out)
	}
	code, out, errOut = runCLI(t, "", "analyze", "../../replays/tampered/move-changed.yaml")
	if code != exitFailed || out != "" || !strings.Contains(errOut, "not valid (illegal-move)") {
		t.Errorf("a tampered replay: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	bad := filepath.Join(t.TempDir(), "ref\x1b.json")
	if err := os.WriteFile(bad, []byte(`{"name":"x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "", "analyze", "--reference", bad, "../../replays/valid/tile-merge-2048.yaml")
	if code != exitBadUsage || strings.ContainsRune(errOut, 0x1b) || !strings.Contains(errOut, "heuristic") {
		t.Errorf("a bad reference: exit %d, stderr %q", code, errOut)
	}
}
