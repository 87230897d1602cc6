package htmlview

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/replay"
)

// TestBatchReportInflatedCopy: a copy of someone else's game with its
// claim raised, its moves untouched, is marked the same game as the
// original in its row and in the list of the replays that need your
// eyes, whichever way its claim is found false (claim-score without a
// board, impossible-claim with the board kept), and the original's row
// counts it among the game's replays; a replay whose moves leave the rules
// is no game and is not marked. The copies keep their verdicts, and the
// count of the valid copies stays the valid ones'. Before 2026-12-07 an
// invalid replay had no gameSha256 and nothing tied mallory's to alice's.
func TestBatchReportInflatedCopy(t *testing.T) {
	alice := corpusReplay(t, "valid/tile-merge-2048.yaml")
	mallory := corpusReplay(t, "valid/tile-merge-2048.yaml")
	mallory.Claim.Score += 4 // the board kept: impossible-claim
	mallet := corpusReplay(t, "valid/tile-merge-2048.yaml")
	mallet.Claim.Score += 4
	mallet.Claim.Board = nil // claim-score
	broken := corpusReplay(t, "tampered/move-changed.yaml")
	broken.Claim.Score += 4
	broken.Claim.Board = nil
	games := []replay.Input{{Name: "alice.json", Data: alice.EncodeJSON()}, {Name: "mallory.json", Data: mallory.EncodeJSON()},
		{Name: "mallet.json", Data: mallet.EncodeJSON()}, {Name: "broken.json", Data: broken.EncodeJSON()}}
	html, _ := batchReportOf(t, games, 0, 3, 0, nil)
	m := regexp.MustCompile(`(?s)<script type="application/json" id="tp-rows">(.*?)</script>`).FindStringSubmatch(html)
	var table struct{ Rows [][]any }
	if m == nil || json.Unmarshal([]byte(m[1]), &table) != nil || len(table.Rows) != 4 {
		t.Fatal("no rows")
	}
	id := regexp.MustCompile(`\(game ([0-9a-f]{12})\)`).FindStringSubmatch(table.Rows[0][colWhat].(string))
	if id == nil {
		t.Fatalf("alice's row %v: no game", table.Rows[0])
	}
	first := "; the first of 3 replays of this game in the batch's order (game " + id[1] + ")"
	same := "; the same game as alice.json (#1), the first of the game's 3 replays in the batch's order (game " + id[1] + ")"
	for i, want := range []struct {
		class  float64
		reason string
		end    string
	}{{0, "", first}, {2, "impossible-claim", "keep the rules: score 36120, tile 2048, 1873 moves" + same}, {2, "claim-score", "the rules give score 36120" + same}, {2, "illegal-move", "legal moves: up, down, right"}} {
		row := table.Rows[i]
		if row[colClass] != want.class || row[colReason] != want.reason || !strings.HasSuffix(row[colWhat].(string), want.end) {
			t.Errorf("row %d: %v; want class %v, reason %q, the what ending %q", i+1, row, want.class, want.reason, want.end)
		}
	}
	if w := table.Rows[3][colWhat].(string); strings.Contains(w, "same game") || strings.Contains(w, "(game ") {
		t.Errorf("the broken game's row is marked: %s", w)
	}
	if want := "keep the rules: score 36120, tile 2048, 1873 moves; the same game as alice.json (<a href=\"#r1\">#1</a>)"; !strings.Contains(html, want) {
		t.Errorf("the list lacks mallory's %s", want)
	}
	if n := strings.Count(html, `the same game as alice.json (<a href="#r1">#1</a>)`); n != 2 {
		t.Errorf("the list marks %d copies, want mallory's and mallet's", n)
	}
	if strings.Contains(html, "replays of a game earlier in the batch") {
		t.Error("the page counts the invalid copies among the valid ones")
	}
}

// sameSuffix is what the what of entries[i] ends with when its game is
// held more than once in the batch (rowsJSON): "" when it is not.
func sameSuffix(entries []Entry, i int) string {
	same := sameGames(entries)
	if s := sameOf(entries, same, i); s != nil {
		return "; " + sameWhat(s.Name, s)
	}
	if g := firstOf(entries, same, i); g != nil {
		return "; " + firstWhat(g)
	}
	return ""
}
