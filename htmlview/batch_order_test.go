package htmlview

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tileproof/tileproof/internal/testkit/batch"
	"github.com/tileproof/tileproof/replay"
)

// TestBatchReportPagesInBatchOrder: which replays of a batch get a page
// does not depend on the order in which the workers finish. A batch of 28
// valid games, with ties among the top scores (games given twice under
// other names), is verified in 30 random orders, each verdict added in the
// batch's order once it is ready, with a cap of 4 pages and 3 top scores.
// Every run keeps the same 7 pages: the 3 top scores as the summary ranks
// them (of equal scores, the first in the batch), and the first 4 other
// valid games in the batch's order; and writes no other.
func TestBatchReportPagesInBatchOrder(t *testing.T) {
	const maxPages, top = 4, 3
	seeded, _, _ := batch.Replays(24)
	type game struct {
		name  string
		data  []byte
		score uint64
	}
	var games []game
	for i, r := range seeded {
		games = append(games, game{fmt.Sprintf("g%02d.json", i), r.EncodeJSON(), r.Claim.Score})
	}
	byScore := slices.SortedStableFunc(slices.Values(games), func(a, b game) int { return cmp.Compare(b.score, a.score) })
	for i, k := range []int{0, 1, 1, 3} { // copies: the third and fourth top scores tie
		g := byScore[k]
		g.name = fmt.Sprintf("copy%d-of-%s", i, g.name)
		games = slices.Insert(games, []int{20, 1, 26, 5}[i], g)
	}
	// What the cap keeps, from the batch's order alone.
	ranked := slices.SortedStableFunc(slices.Values(games), func(a, b game) int { return cmp.Compare(b.score, a.score) })
	want := map[string]bool{}
	for _, g := range ranked[:top] {
		want[pageFile(g.name)] = true
	}
	for _, g := range games {
		if len(want) == top+maxPages {
			break
		}
		if !slices.ContainsFunc(ranked[:top], func(x game) bool { return x.name == g.name }) {
			want[pageFile(g.name)] = true
		}
	}
	if ranked[top-1].score != ranked[top].score {
		t.Fatalf("no tie at the last top score: %d, %d", ranked[top-1].score, ranked[top].score)
	}

	rng := rand.New(rand.NewPCG(7, 7))
	for run := range 30 {
		dir := t.TempDir()
		h, err := CreateBatchReport(filepath.Join(dir, "r.html"), nil, replay.NewVerifier(), maxPages, top)
		if err != nil {
			t.Fatal(err)
		}
		order := rng.Perm(len(games))
		if run == 0 { // the last first
			order = slices.Sorted(slices.Values(order))
			slices.Reverse(order)
		}
		verdicts := make([]*replay.Verdict, len(games))
		next := 0 // the next verdict to add, in the batch's order
		for _, i := range order {
			vd := h.Verify(games[i].name, games[i].data)
			verdicts[i] = &vd
			for next < len(games) && verdicts[next] != nil && rng.IntN(3) > 0 {
				h.Add(*verdicts[next])
				next++
			}
		}
		for ; next < len(games); next++ {
			h.Add(*verdicts[next])
		}
		pages, unpaged, stale, err := h.Finish("t")
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		files, _ := os.ReadDir(h.Dir())
		for _, f := range files {
			got[f.Name()] = true
		}
		for _, e := range h.entries {
			if (e.Page != "") != want[pageFile(e.Verdict.Name)] {
				t.Errorf("run %d: %s: page %q, want one: %v", run, e.Verdict.Name, e.Page, want[pageFile(e.Verdict.Name)])
			}
		}
		if len(h.written) != pages {
			t.Errorf("run %d: %d pages written for %d kept", run, len(h.written), pages)
		}
		if len(got) != len(want) || pages != len(want) || unpaged != len(games)-len(want) || stale != 0 {
			t.Fatalf("run %d: %d files, %d pages, %d unpaged, %d stale; want %d pages, %d unpaged, 0 stale",
				run, len(got), pages, unpaged, stale, len(want), len(games)-len(want))
		}
		for f := range want {
			if !got[f] {
				t.Errorf("run %d: no %s", run, f)
			}
		}
	}
}
