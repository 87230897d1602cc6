package htmlview

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tileproof/tileproof/internal/testkit/batch"
	"github.com/tileproof/tileproof/replay"
)

// TestBatchReportSameGame: a batch of one game under two names (the
// first's hostile, its bytes other than the second's) and a third name
// of another game marks the second alone, in its row and in the list of
// the replays that need your eyes, with the first's name shown as names
// are (\u202e, not the override) and its place; the first and the third
// are not marked. With 2 workers the second is verified first (the first
// waits for it), and the report is byte
// for byte the same with 1 and 2 workers and added in turn: the batch's
// order decides which is the first. With no top scores the second is
// listed for that alone; with three, as a top score that says it too.
func TestBatchReportSameGame(t *testing.T) {
	seeded, _, _ := batch.Replays(2)
	game := seeded[0].EncodeJSON()
	again := append(slices.Clone(game), " \n"...) // the same game, other bytes
	first := "subs/\u202elmay.ecila.json"
	shownFirst := `subs/\u202elmay.ecila.json`
	games := []replay.Input{{Name: first, Data: game}, {Name: "carol.json", Data: seeded[1].EncodeJSON()}, {Name: "bob.json", Data: again}}
	for _, top := range []int{0, 3} {
		var reports []string
		for _, workers := range []int{0, 1, 2} { // 0: each verified and added in turn
			var mu sync.Mutex
			var order []string
			bobDone := make(chan struct{})
			// One input a chunk; with 2 workers the first waits for the
			// second's verdict (2 s at most: the three in one chunk go on
			// without it, and the test says so).
			html, h := batchReportOf(t, games, workers, top, 5*time.Millisecond, func(name string, verify func() replay.Verdict) replay.Verdict {
				if name == first && workers == 2 {
					select {
					case <-bobDone:
					case <-time.After(2 * time.Second):
					}
				}
				vd := verify()
				mu.Lock()
				order = append(order, name)
				mu.Unlock()
				if name == "bob.json" {
					close(bobDone)
				}
				return vd
			})
			if workers == 2 && slices.Index(order, "bob.json") > slices.Index(order, first) {
				t.Fatalf("%d workers verified %q: want the second game before the first", workers, order)
			}
			for i, e := range h.entries {
				if e.Verdict.Name != games[i].Name || !e.Verdict.Valid {
					t.Fatalf("row %d: %s, valid %v: want %s, valid", i+1, e.Verdict.Name, e.Verdict.Valid, games[i].Name)
				}
			}
			if a, b := h.entries[0].Verdict, h.entries[2].Verdict; a.GameSHA256 != b.GameSHA256 || a.SHA256 == "" || a.GameSHA256 == h.entries[1].Verdict.GameSHA256 {
				t.Fatalf("gameSha256 %s, %s, %s: want the first and third the same, not the second", a.GameSHA256, h.entries[1].Verdict.GameSHA256, b.GameSHA256)
			}
			reports = append(reports, html)
			label := fmt.Sprintf("top %d, %d workers", top, workers)

			// The rows: the third's what says it, the first's that it is
			// the first of the game's two, the second's nothing.
			m := regexp.MustCompile(`(?s)<script type="application/json" id="tp-rows">(.*?)</script>`).FindStringSubmatch(html)
			var table struct{ Rows [][]any }
			if m == nil || json.Unmarshal([]byte(m[1]), &table) != nil || len(table.Rows) != 3 {
				t.Fatalf("%s: no rows", label)
			}
			id := h.entries[0].Verdict.GameSHA256[:12]
			want := "; the same game as " + shownFirst + " (#1), the first of the game's 2 replays in the batch's order (game " + id + ")"
			wantFirst := "; the first of 2 replays of this game in the batch's order (game " + id + ")"
			for i, row := range table.Rows {
				w, _ := row[colWhat].(string)
				if marked := strings.Contains(w, "same game"); marked != (i == 2) || i == 2 && !strings.HasSuffix(w, want) {
					t.Errorf("%s: row %d's what %q; want it to end with %q: %v", label, i+1, w, want, i == 2)
				}
				if first := strings.Contains(w, "replays of this game"); first != (i == 0) || i == 0 && !strings.HasSuffix(w, wantFirst) {
					t.Errorf("%s: row %d's what %q; want it to end with %q: %v", label, i+1, w, wantFirst, i == 0)
				}
			}

			// The list: the third, with the first's name and a link to its row.
			list := ""
			if i := strings.Index(html, `<table id="needs">`); i >= 0 {
				list = html[i:]
				list = list[:strings.Index(list, "</table>")]
			}
			if strings.Contains(list, "\u202e") {
				t.Errorf("%s: the list shows the override as it is", label)
			}
			rows := regexp.MustCompile(`(?s)<tr data-kind=.*?</tr>`).FindAllString(list, -1)
			var marked []string
			for _, r := range rows {
				if strings.Contains(r, "same game") {
					marked = append(marked, r)
				}
			}
			gameLink := `(<a href="#v?f11=game&#43;` + id + `">game ` + id + `</a>)`
			wantWhy := "the same game as " + shownFirst + ` (<a href="#r1">#1</a>), the first of the game's 2 replays in the batch's order ` + gameLink
			if top == 3 {
				wantWhy = "top score #2; " + wantWhy
			}
			if len(marked) != 1 || !strings.Contains(marked[0], `href="#r3"`) || !strings.Contains(marked[0], `<td class="what">`+wantWhy+`</td>`) {
				t.Errorf("%s: the list's rows marked %q; want the third's alone, why %q", label, marked, wantWhy)
			}
			if top == 0 && len(rows) != 1 {
				t.Errorf("%s: the list has %d rows, want the third's alone", label, len(rows))
			}
			// As a top score, the first says it is the first of two.
			wantFirstWhy := `top score #1; the first of 2 replays of this game in the batch's order ` + gameLink
			if top == 3 && (len(rows) != 3 || !strings.Contains(rows[0], `<td class="what">`+wantFirstWhy+`</td>`)) {
				t.Errorf("%s: the list's rows %q; want the first's why %q", label, rows, wantFirstWhy)
			}
		}
		for i, r := range reports[1:] {
			if r != reports[0] {
				t.Errorf("top %d: the report with %d workers differs from the one added in turn", top, i+1)
			}
		}
	}
}

// batchReportOf writes the batch report of games (its summary page
// returned, and the report, finished) with at most top top scores:
// verified and added in turn (workers 0), or through replay.VerifyBatch
// with that many workers, the inputs sent gap apart and each verification
// made by wrap, which calls verify (nil: verify alone).
func batchReportOf(t *testing.T, games []replay.Input, workers, top int, gap time.Duration, wrap func(name string, verify func() replay.Verdict) replay.Verdict) (string, *BatchReport) {
	t.Helper()
	dir := t.TempDir()
	h, err := CreateBatchReport(filepath.Join(dir, "r.html"), nil, replay.NewVerifier(), 10, top)
	if err != nil {
		t.Fatal(err)
	}
	if workers == 0 {
		for _, g := range games {
			h.Add(h.Verify(g.Name, g.Data))
		}
	} else {
		in := make(chan replay.Input)
		go func() {
			defer close(in)
			for _, g := range games {
				in <- g
				time.Sleep(gap)
			}
		}()
		replay.VerifyBatch(context.Background(), in, workers, func(name string, data []byte) replay.Verdict {
			verify := func() replay.Verdict { return h.Verify(name, data) }
			if wrap == nil {
				return verify()
			}
			return wrap(name, verify)
		}, h.Add, nil)
	}
	if _, _, _, err := h.Finish("t"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "r.html"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data), h
}
