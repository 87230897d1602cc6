package htmlview

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/internal/testkit/batch"
	"github.com/tileproof/tileproof/replay"
)

// pagesGame is one replay of a batch of these tests.
type pagesGame struct {
	name string
	data []byte
}

// pagesExtras marks replays by their names: "sus" ones get a warning
// (suspicious), "strong" and "review" ones that band, the others an
// analysis of band consistent.
func pagesExtras(vd *replay.Verdict, r *replay.Replay) {
	if !vd.LegalGame() {
		return
	}
	band := analyze.Consistent
	switch {
	case strings.Contains(vd.Name, "sus"):
		vd.Warnings = append(vd.Warnings, "the spawned values are unlikely")
	case strings.Contains(vd.Name, "strong"):
		band = analyze.Strong
	case strings.Contains(vd.Name, "review"):
		band = analyze.Review
	}
	vd.Analysis = json.RawMessage(fmt.Sprintf(`{"band":%q}`, band))
}

// pagesBatch makes a batch of valid games with tied scores, the same
// file named twice, invalid, suspicious and atypical games.
func pagesBatch(rng *rand.Rand) []pagesGame {
	seeded, _, _ := batch.Replays(30)
	var games []pagesGame
	for i, r := range seeded {
		name := fmt.Sprintf("g%02d.json", i)
		switch i % 10 {
		case 3:
			name = fmt.Sprintf("sus%02d.json", i)
		case 5:
			name = fmt.Sprintf("strong%02d.json", i)
		case 7:
			name = fmt.Sprintf("review%02d.json", i)
		case 9:
			bad := *r
			bad.Claim.Score += 4
			r = &bad
			name = fmt.Sprintf("bad%02d.json", i)
		}
		games = append(games, pagesGame{name, r.EncodeJSON()})
	}
	for range 8 { // the same file named twice
		g := games[rng.IntN(len(games))]
		games = slices.Insert(games, rng.IntN(len(games)+1), g)
	}
	for range 4 { // a tie under another name
		g := games[rng.IntN(len(games))]
		g.name = "tie-" + g.name
		games = slices.Insert(games, rng.IntN(len(games)+1), g)
	}
	return games
}

// pagesOutcome is what a report kept: the pages' files, the links of
// the entries, and the counts.
type pagesOutcome struct {
	files                  []string
	links                  []string
	pages, unpaged, staled int
}

// pagesRun makes a report of a batch with run, which verifies and adds
// its replays, finishes it and returns what it kept.
func pagesRun(t *testing.T, games []pagesGame, maxPages, top int, run func(h *BatchReport)) pagesOutcome {
	t.Helper()
	dir := t.TempDir()
	h, err := CreateBatchReport(filepath.Join(dir, "r.html"), nil, replay.NewVerifier(), maxPages, top)
	if err != nil {
		t.Fatal(err)
	}
	h.SetExtras(pagesExtras)
	run(h)
	pages, unpaged, stale, err := h.Finish("t")
	if err != nil {
		t.Fatal(err)
	}
	if h.heldBytes != 0 || len(h.pending) != 0 {
		t.Errorf("after Finish: %d bytes held, %d names pending", h.heldBytes, len(h.pending))
	}
	var o pagesOutcome
	fs, _ := os.ReadDir(h.Dir())
	for _, f := range fs {
		o.files = append(o.files, f.Name())
	}
	for _, e := range h.entries {
		o.links = append(o.links, e.Page)
		if e.Page != "" {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(e.Page))); err != nil {
				t.Errorf("%s links to a page not there: %v", e.Verdict.Name, err)
			}
		}
	}
	o.pages, o.unpaged, o.staled = pages, unpaged, stale
	// The pages the summary's lists call for: the first maxPages of the
	// list of the replays that need the operator's eyes (it holds every
	// atypical one here, fewer than maxAtypicalNeeds), and the first
	// maxPages other valid ones in the batch's order. A replay listed
	// only as the same game as an earlier one (a copy that is no top
	// score) is paged as the other valid ones are: the list's pages are
	// those of the others.
	paged := map[string]bool{}
	needs, _ := needsOf(h.entries, top, sameGames(h.entries))
	needs = slices.DeleteFunc(needs, func(n need) bool { return n.Kind == kindValid && n.Top == 0 && !flagged(n.Band) })
	listed := map[int]bool{}
	for _, n := range needs {
		listed[n.N-1] = true
	}
	var ordinary []string
	for i, e := range h.entries {
		if kindOf(e.Verdict) == kindValid && !flagged(e.Band) && !listed[i] {
			ordinary = append(ordinary, e.Verdict.Name)
		}
	}
	for i, n := range needs {
		if i < maxPages {
			paged[n.Verdict.Name] = true
		}
	}
	for i, name := range ordinary {
		if i < maxPages {
			paged[name] = true
		}
	}
	for _, e := range h.entries {
		if (e.Page != "") != paged[e.Verdict.Name] {
			t.Errorf("cap %d, top %d: %s has page %q; the summary calls for one: %v", maxPages, top, e.Verdict.Name, e.Page, paged[e.Verdict.Name])
		}
	}
	return o
}

// TestBatchReportInterleavings: replay.VerifyBatch, with 8 workers
// that finish in random orders, keeps the pages that verifying and adding
// each replay in turn keeps, with the same counts, and holds no byte once
// finished; for caps 0 to 7 and top 0 to 3, the verdicts added as they
// are and as --strict makes them. Every run pages the replays the
// summary's lists call for (pagesRun).
func TestBatchReportInterleavings(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 2 {
		strict := round%2 == 1
		add := func(h *BatchReport) func(replay.Verdict) {
			return func(vd replay.Verdict) {
				if strict {
					vd = vd.Strict() // as verify --strict adds them
				}
				h.Add(vd)
			}
		}
		games := pagesBatch(rng)
		for _, maxPages := range []int{0, 1, 3, 7} {
			for _, top := range []int{0, 1, 3} {
				want := pagesRun(t, games, maxPages, top, func(h *BatchReport) {
					for _, g := range games {
						add(h)(h.Verify(g.name, g.data))
					}
				})
				for range 4 {
					got := pagesRun(t, games, maxPages, top, func(h *BatchReport) {
						in := make(chan replay.Input)
						go func() {
							defer close(in)
							for _, g := range games {
								in <- replay.Input{Name: g.name, Data: g.data}
							}
						}()
						delay := map[string]time.Duration{}
						for _, g := range games {
							delay[g.name] = time.Duration(rng.IntN(500)) * time.Microsecond
						}
						replay.VerifyBatch(context.Background(), in, 8, func(name string, data []byte) replay.Verdict {
							time.Sleep(delay[name])
							return h.Verify(name, data)
						}, add(h), nil)
					})
					if !slices.Equal(got.files, want.files) || !slices.Equal(got.links, want.links) || got.pages != want.pages || got.unpaged != want.unpaged {
						t.Fatalf("round %d, cap %d, top %d: got %+v, want %+v", round, maxPages, top, got, want)
					}
				}
			}
		}
	}
}

// TestBatchReportHeldBytesAtOnce: a replay whose page was written at once
// (past maxHeld) holds no bytes, so letting it go takes none off heldBytes
// (its analysis's length was taken, and heldBytes went below zero).
func TestBatchReportHeldBytesAtOnce(t *testing.T) {
	seeded, _, _ := batch.Replays(1)
	dir := t.TempDir()
	h, err := CreateBatchReport(filepath.Join(dir, "r.html"), nil, replay.NewVerifier(), 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	h.SetExtras(pagesExtras)
	h.heldBytes = maxHeld // as if 256 MiB were held
	vd := h.Verify("g.json", seeded[0].EncodeJSON())
	if x := h.pending["g.json"]; len(x) != 1 || !x[0].atOnce {
		t.Fatalf("pending %v: want one written at once", x)
	}
	h.Add(vd) // the top score: kept
	h.heldBytes -= maxHeld
	h.writeNeeded()
	if h.heldBytes != 0 || h.pages["g.json"] == "" {
		t.Errorf("heldBytes %d after the top score written at once is let go, want 0; its page %q", h.heldBytes, h.pages["g.json"])
	}
}

// reportOf writes the report of the replays, named g0.json and on, into
// dir/r.html with a cap of maxPages and no top scores, all verified before
// any is added (a chunk of replay.VerifyBatch); prepare, if not nil, runs
// on the report before the first is verified.
func reportOf(t *testing.T, dir string, replays []*replay.Replay, maxPages int, prepare func(*BatchReport)) (pages, stale int, err error) {
	t.Helper()
	h, err := CreateBatchReport(filepath.Join(dir, "r.html"), nil, replay.NewVerifier(), maxPages, 0)
	if err != nil {
		t.Fatal(err)
	}
	if prepare != nil {
		prepare(h)
	}
	var vds []replay.Verdict
	for i, r := range replays {
		vds = append(vds, h.Verify(fmt.Sprintf("g%d.json", i), r.EncodeJSON()))
	}
	for _, vd := range vds {
		h.Add(vd)
	}
	pages, _, stale, err = h.Finish("t")
	return pages, stale, err
}

// atOnce makes a report write every page at once, as past maxHeld.
func atOnce(h *BatchReport) { h.heldBytes = maxHeld }

// TestBatchReportStale: a report written again over an earlier one with a
// lower cap says how many of the earlier report's pages it removed. When
// a page was written while it might be kept, over the earlier one's, then
// removed, it was not counted: once for every page verified before any
// was added (5eb9c50's writes), and still for a page written at once past
// maxHeld, until the report noted which pages it wrote over.
func TestBatchReportStale(t *testing.T) {
	seeded, _, _ := batch.Replays(10)
	for _, tc := range []struct {
		name           string
		maxPages       int
		prepare        func(*BatchReport)
		pages, removed int
	}{
		{"held", 2, nil, 2, 8},
		{"written at once", 1, atOnce, 1, 9},
	} {
		dir := t.TempDir()
		if pages, _, err := reportOf(t, dir, seeded, 10, nil); err != nil || pages != 10 {
			t.Fatalf("%d pages, %v; want 10", pages, err)
		}
		pages, stale, err := reportOf(t, dir, seeded, tc.maxPages, tc.prepare)
		if err != nil || pages != tc.pages || stale != tc.removed {
			t.Errorf("%s: again with a cap of %d: %d pages, %d stale, %v; want %d pages, %d of the earlier report's removed", tc.name, tc.maxPages, pages, stale, err, tc.pages, tc.removed)
		}
	}
}

// TestBatchReportUnkeptWriteFails: a page written at once past maxHeld
// that cannot be written fails the report only when the report keeps it.
// (A directory where the page's file would go makes its write fail.)
func TestBatchReportUnkeptWriteFails(t *testing.T) {
	seeded, _, _ := batch.Replays(6)
	for _, tc := range []struct {
		blocked string // the replay whose page cannot be written
		fails   bool
	}{{"g5.json", false}, {"g0.json", true}} {
		dir := t.TempDir()
		pages, _, err := reportOf(t, dir, seeded, 1, func(h *BatchReport) {
			if err := os.Mkdir(filepath.Join(dir, "r_files", pageFile(tc.blocked)), 0o755); err != nil {
				t.Fatal(err)
			}
			atOnce(h)
		})
		if (err != nil) != tc.fails || !tc.fails && pages != 1 {
			t.Errorf("the page of %s cannot be written: %d pages, %v; want a failure %v", tc.blocked, pages, err, tc.fails)
		}
	}
}

// TestBatchReportAtypicalTopScore: with --analyze, a top score whose
// analysis is of band strong keeps its place among the top
// scores, as the summary ranks them (needsOf: it is listed with the
// atypical, "top score #1"), so the next score is not paged as a top score
// the summary does not list, and is the first of the other valid replays:
// with a cap of 1 and 1 top score, it gets the ordinary page, not the one
// after it.
func TestBatchReportAtypicalTopScore(t *testing.T) {
	seeded, _, _ := batch.Replays(3)
	slices.SortFunc(seeded, func(a, b *replay.Replay) int { return cmp.Compare(b.Claim.Score, a.Claim.Score) })
	games := []pagesGame{
		{"strong-high.json", seeded[0].EncodeJSON()}, // the top score, atypical
		{"second.json", seeded[1].EncodeJSON()},      // not a top score in the summary: the first ordinary one
		{"third.json", seeded[2].EncodeJSON()},       // the second ordinary one
	}
	var entries []Entry
	o := pagesRun(t, games, 1, 1, func(h *BatchReport) {
		for _, g := range games {
			h.Add(h.Verify(g.name, g.data))
		}
		entries = slices.Clone(h.entries)
	})
	if needs, _ := needsOf(entries, 1, sameGames(entries)); len(needs) != 1 || needs[0].Verdict.Name != "strong-high.json" || !strings.Contains(needs[0].Why, "top score #1") {
		t.Fatalf("the summary lists %+v: want strong-high.json alone, the top score", needs)
	}
	if o.links[1] == "" || o.links[2] != "" {
		t.Errorf("second.json (the first valid replay that is no top score in the summary) has page %q, third.json %q: want the first, not the second", o.links[1], o.links[2])
	}
}

// TestBatchReportPagesInBatchOrder: which replays of a batch get a page
// does not depend on the order in which the workers finish. A batch of 28
// valid games, with ties among the top scores (games given twice under
// other names), is verified in 30 random orders, each verdict added in the
// batch's order once it is ready, with a cap of 4 pages and 3 top scores.
// Every run keeps the same 7 pages: the 3 top scores as the summary ranks
// them (of equal scores, the first in the batch), and the first 4 other
// valid games in the batch's order; and writes no other.
func TestBatchReportPagesInBatchOrder(t *testing.T) {
	t.Parallel()
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
		written := 0
		for _, pw := range h.writes {
			if pw.done {
				written++
			}
		}
		if written != pages {
			t.Errorf("run %d: %d pages written for %d kept", run, written, pages)
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

// TestBatchReportStaleWrittenTwice: a replay named twice has its page
// written twice, at once past maxHeld and from two workers; left out by
// the cap, it is not an earlier report's page, in a fresh directory. When
// each write stat'ed the page on its own, one could find the other's
// file and count it (12 rounds of 60).
func TestBatchReportStaleWrittenTwice(t *testing.T) {
	t.Parallel()
	seeded, _, _ := batch.Replays(10)
	bad := 0
	for round := range 40 {
		dir := t.TempDir()
		h, err := CreateBatchReport(filepath.Join(dir, "r.html"), nil, replay.NewVerifier(), 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		h.heldBytes = maxHeld
		vds := make([]replay.Verdict, 2*len(seeded))
		var wg sync.WaitGroup
		for i, r := range seeded {
			data := r.EncodeJSON()
			for k := range 2 {
				wg.Go(func() { vds[2*i+k] = h.Verify(fmt.Sprintf("g%d.json", i), data) })
			}
		}
		wg.Wait()
		for _, vd := range vds {
			h.Add(vd)
		}
		_, _, stale, err := h.Finish("t")
		if err != nil {
			t.Fatal(err)
		}
		if stale != 0 {
			bad++
			t.Logf("round %d: %d pages of an earlier report removed, in a fresh directory", round, stale)
		}
	}
	if bad > 0 {
		t.Errorf("%d of 40 rounds counted a page of this report, written twice at once, as an earlier report's", bad)
	}
}
