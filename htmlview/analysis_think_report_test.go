package htmlview

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/server"
)

// timedGames returns the games of the think times' reports by name: two
// played through a signed server, "a.json" of at most 60 moves and
// "b.json" of at most bMoves, "bare.json" the first without its times,
// and a corpus game, "classic.yaml".
func timedGames(t *testing.T, bMoves int) map[string][]byte {
	t.Helper()
	a, b := playTimed(t, "report a", 60), playTimed(t, "report b", bMoves)
	bare := *a
	bare.Times, bare.TimesSeal = nil, ""
	corpus, err := os.ReadFile("../replays/valid/classic-2048.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{"a.json": a.EncodeJSON(), "b.json": b.EncodeJSON(), "bare.json": bare.EncodeJSON(), "classic.yaml": corpus}
}

// thinkBatch verifies games through a batch report that analyses each
// valid one as verify --analyze --times-key-file does (the check against
// thinkKey), and returns the summary page, the directory of the games'
// pages, and each game's median think time by name as its analysis
// gives it (none for an untimed or invalid game).
func thinkBatch(t *testing.T, games map[string][]byte, order []string) (summary, dir string, medians map[string]float64) {
	t.Helper()
	v := replay.NewVerifier()
	report := filepath.Join(t.TempDir(), "r.html")
	h, err := CreateBatchReport(report, nil, v, 100, 1)
	if err != nil {
		t.Fatal(err)
	}
	medians = map[string]float64{}
	h.SetExtras(analyseWith(func(name string, r *replay.Replay) json.RawMessage {
		rep, err := analyze.Analyze(context.Background(), v, name, r, analyze.Options{Clairvoyance: true,
			CheckTimes: func(r *replay.Replay) error { return server.CheckTimes([]byte(thinkKey), r) }})
		if err != nil {
			t.Fatal(err)
		}
		if rep.ThinkTime != nil {
			medians[name] = rep.ThinkTime.MedianMs
		}
		b, _ := json.Marshal(rep)
		return b
	}))
	for _, name := range order {
		h.Add(h.Verify(name, games[name]))
	}
	if _, _, _, err := h.Finish("batch"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), h.Dir(), medians
}

// TestThinkReport: the batch report of analysed games, some timed by a
// signed server, has a column "think ms" beside the bands: each timed
// game's row carries its analysis's median think time in whole
// milliseconds, every other row ends at its band; each timed game's page has the
// part "Think times", the others none. A batch with no timed game has no
// such column; nor has a report of entries with a median but no band.
func TestThinkReport(t *testing.T) {
	t.Parallel()
	games := timedGames(t, 60)
	bad, err := os.ReadFile("../replays/tampered/illegal-move-inserted.yaml")
	if err != nil {
		t.Fatal(err)
	}
	games["bad.yaml"] = bad
	order := []string{"a.json", "bare.json", "classic.yaml", "b.json", "bad.yaml"}
	summary, dir, medians := thinkBatch(t, games, order)
	if len(medians) != 2 {
		t.Fatalf("%d timed games analysed, want 2 (a and b)", len(medians))
	}
	if !strings.Contains(summary, `<th class="n" data-col="13" title="the median think time, in ms, of the times the game's replay carries, sealed or not (with --times-key-file the what column says which are NOT sealed; docs/analyze.md): a figure for a reviewer, it changes no band; the game's page has the rest">think ms</th>`) ||
		!strings.Contains(summary, `<input data-f="13" aria-label="filter the median think times, in ms" size="5">`) {
		t.Error("no column of the think times, or no filter of it")
	}
	if !strings.Contains(summary, `"think":true`) {
		t.Error("the rows' data does not say they carry the think times")
	}
	rows := reportRowsData(t, summary).Rows
	for i, name := range order {
		r := rows[i]
		m, timed := medians[name]
		switch {
		case !timed && len(r) != colBand+1:
			t.Errorf("%s: %d fields for a game without times, want %d (none for a think time): %v", name, len(r), colBand+1, r)
		case timed && (len(r) != colThink+1 || r[colThink] != math.Round(m)):
			t.Errorf("%s: %v, want a think time of %v, the analysis's median rounded", name, r, math.Round(m))
		}
		if name == "bad.yaml" {
			continue
		}
		page, err := os.ReadFile(filepath.Join(dir, pageFile(name)))
		if err != nil {
			t.Fatal(err)
		}
		if has := strings.Contains(string(page), `<h3 id="think-title">`); has != timed {
			t.Errorf("%s: the part of the think times on its page: %v", name, has)
		}
	}

	// Without a timed game, no column.
	summary, _, _ = thinkBatch(t, games, []string{"bare.json", "classic.yaml", "bad.yaml"})
	if strings.Contains(summary, `data-col="13"`) || strings.Contains(summary, `data-f="13"`) || strings.Contains(summary, `"think"`) {
		t.Error("a report without timed games has the column of the think times")
	}
	if rows := reportRowsData(t, summary).Rows; len(rows[0]) != colBand+1 {
		t.Errorf("a row of a report without think times has %d fields", len(rows[0]))
	}
	// A median without a band (an entry no analysis gave): no column.
	ms := 120.0
	out := reportHTML(t, "batch", []Entry{{Verdict: replay.Verdict{Name: "x", Valid: true, Replayed: true}, ThinkMs: &ms}})
	if strings.Contains(out, `data-col="13"`) || strings.Contains(out, `"think"`) {
		t.Error("a report without bands has the column of the think times")
	}
}
