package htmlview

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/replay"
)

// TestBatchReportImpossibleClaimPlayed: a replay whose claim no game
// reaches (impossible-claim, judged before replaying) keeps its verdict,
// but the report replays its moves all the same: its row's figures are
// what they make and its what says whether they keep the rules to the end
// (a game of the rules claimed higher: the claim alone is false) or where
// they leave them (the game is broken too), in the table and in the list.
// Before 2026-12-07 its figures were dashes, and an inflated claim on a
// real game read as a forgery.
func TestBatchReportImpossibleClaimPlayed(t *testing.T) {
	v := replay.NewVerifier()
	real := v.Verify(corpusReplay(t, "valid/tile-merge-2048.yaml"))
	inflated := corpusReplay(t, "tampered/score-raised-with-board.yaml")
	broken := corpusReplay(t, "tampered/move-changed.yaml") // illegal at action 704
	broken.Claim.Score += 2                                 // and a claim no game reaches
	dir := t.TempDir()
	h, err := CreateBatchReport(filepath.Join(dir, "r.html"), nil, v, 10, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []struct {
		name string
		r    *replay.Replay
	}{{"inflated.json", inflated}, {"broken.json", broken}} {
		vd := h.Verify(in.name, in.r.EncodeJSON())
		if vd.Reason != replay.ImpossibleClaim || vd.Replayed {
			t.Fatalf("%s: %s, replayed %v: want impossible-claim, not replayed", in.name, vd.Reason, vd.Replayed)
		}
		h.Add(vd)
	}
	if _, _, _, err := h.Finish("t"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "r.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(data)
	m := regexp.MustCompile(`(?s)<script type="application/json" id="tp-rows">(.*?)</script>`).FindStringSubmatch(html)
	var table struct{ Rows [][]any }
	if m == nil || json.Unmarshal([]byte(m[1]), &table) != nil || len(table.Rows) != 2 {
		t.Fatal("no rows")
	}
	keep := "; its moves, replayed, keep the rules: score 36120, tile 2048, 1873 moves"
	leave := "; its moves, replayed, leave the rules too, at action 704"
	row := table.Rows[0]
	if row[colScore] != float64(real.Score) || row[colTile] != float64(real.MaxTile) || row[colMoves] != float64(real.Moves) || !strings.HasSuffix(row[colWhat].(string), keep) {
		t.Errorf("the inflated claim's row %v; want the real game's figures %d, %d, %d and the what ending %q", row, real.Score, real.MaxTile, real.Moves, keep)
	}
	if real.Score != 36120 || real.MaxTile != 2048 || real.Moves != 1873 {
		t.Fatalf("the real game: %d, %d, %d", real.Score, real.MaxTile, real.Moves)
	}
	row = table.Rows[1]
	if row[colMoves] != float64(703) || !strings.HasSuffix(row[colWhat].(string), leave) {
		t.Errorf("the broken game's row %v; want 703 moves and the what ending %q", row, leave)
	}
	for _, want := range []string{`<td class="n">36120</td><td class="what">the replay says`, strings.TrimPrefix(keep, "; "), strings.TrimPrefix(leave, "; ")} {
		if !strings.Contains(html, want) {
			t.Errorf("the list lacks %s", want)
		}
	}
}

// corpusReplay reads the replay name of the repository's corpus
// (replays/), failing the test when it does not decode.
func corpusReplay(t *testing.T, name string) *replay.Replay {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../replays", name))
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.Decode(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
