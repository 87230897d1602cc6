package htmlview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/replay"
)

// TestReportNeedsBands: with an analysis, the list of the replays that
// need the operator's eyes holds the valid games whose analysis is
// atypical, strong before review, after the suspicious
// and before the top scores; an atypical top score is listed once, its
// place among the top scores in its why; consistent and insufficient games
// are not listed for their band; past maxAtypicalNeeds the page says how
// many more there are.
func TestReportNeedsBands(t *testing.T) {
	valid := func(name string, score uint64, band string) Entry {
		return Entry{Verdict: replay.Verdict{Name: name, Valid: true, Replayed: true, Score: score}, Band: band}
	}
	sus := valid("sus.yaml", 7, analyze.Strong)
	sus.Verdict.Warnings = []string{"the spawned values (4: 40) are unlikely (p = 1e-40)"}
	bad := Entry{Verdict: replay.Verdict{Name: "bad.yaml", Reason: replay.IllegalMove, Replayed: true}}
	entries := []Entry{
		bad, valid("rev.yaml", 30, analyze.Review), valid("low.yaml", 4, analyze.Consistent), sus,
		valid("high.yaml", 400, analyze.Strong), valid("mid.yaml", 40, analyze.Insufficient), valid("top.yaml", 300, analyze.Consistent),
	}
	list := func(entries []Entry) (string, []string, string) {
		var b bytes.Buffer
		if err := ReportWith(&b, "batch", entries, ReportOptions{Top: 2}); err != nil {
			t.Fatal(err)
		}
		html := b.String()
		l := html[strings.Index(html, `<table id="needs">`):]
		l = l[:strings.Index(l, "</table>")]
		var got []string
		for _, m := range regexp.MustCompile(`<td>([\w.-]+)</td>`).FindAllStringSubmatch(l, -1) {
			got = append(got, m[1])
		}
		return html, got, l
	}
	html, got, l := list(entries)
	// high.yaml is the first top score, listed with the atypical; top.yaml
	// the second; mid.yaml, third, is not listed.
	if want := []string{"sus.yaml", "high.yaml", "rev.yaml", "top.yaml", "bad.yaml"}; !slices.Equal(got, want) {
		t.Errorf("needs your eyes: %v, want %v", got, want)
	}
	for _, want := range []string{
		"analysis: " + analyze.BandText(analyze.Strong) + "; top score #1",
		"analysis: " + analyze.BandText(analyze.Review) + "</td>",
		"top score #2", // top.yaml: the second score, high.yaml the first
	} {
		if !strings.Contains(l, want) {
			t.Errorf("the list lacks %q: %s", want, l)
		}
	}
	if strings.Contains(l, "top score #3") || strings.Contains(html, "more games of band") {
		t.Errorf("the list goes past its top scores or speaks of unlisted games: %s", l)
	}
	if !strings.Contains(html, "every valid game whose moves are unusually close to the reference evaluators for a reference player (band strong, then review: a comparison, not a finding of cheating)") {
		t.Error("the list's caption does not say it holds the atypical games")
	}

	many := slices.Clone(entries)
	for i := range maxAtypicalNeeds + 5 {
		many = append(many, valid(fmt.Sprintf("r%d.yaml", i), 1, analyze.Review))
	}
	html, got, _ = list(many)
	if n := len(got); n != 3+maxAtypicalNeeds {
		t.Errorf("%d replays listed, want %d: the suspicious, %d atypical, one top score and the invalid", n, 3+maxAtypicalNeeds, maxAtypicalNeeds)
	}
	if !slices.Contains(got, "high.yaml") || slices.Contains(got, fmt.Sprintf("r%d.yaml", maxAtypicalNeeds-1)) {
		t.Errorf("the strong game is not kept before the review games: %v", got)
	}
	if !strings.Contains(html, "7 more games of band strong or review are not in the list") {
		t.Error("the page does not say how many atypical games are unlisted")
	}

	// Without an analysis the list and its caption are as they were.
	for i := range entries {
		entries[i].Band = ""
	}
	html, got, _ = list(entries)
	if want := []string{"sus.yaml", "high.yaml", "top.yaml", "bad.yaml"}; !slices.Equal(got, want) {
		t.Errorf("without bands: %v, want %v", got, want)
	}
	if strings.Contains(html, "reference evaluators") {
		t.Error("a report without an analysis speaks of the reference evaluators")
	}
}

// TestBatchReportHoldsAtypical: a valid game whose analysis is atypical
// gets its viewer page, as a suspicious one does, even when the cap on
// the ordinary pages is spent and it is no top score.
func TestBatchReportHoldsAtypical(t *testing.T) {
	dir := t.TempDir()
	h, err := CreateBatchReport(filepath.Join(dir, "r.html"), nil, replay.NewVerifier(), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	bands := map[string]string{"valid/committed-seed.yaml": analyze.Consistent, "valid/classic-spawns-random.yaml": analyze.Review}
	h.SetExtras(analyseWith(func(name string, _ *replay.Replay) json.RawMessage {
		b, _ := json.Marshal(map[string]string{"band": bands[name]})
		return b
	}))
	for _, name := range []string{"valid/committed-seed.yaml", "valid/classic-spawns-random.yaml"} {
		data, err := os.ReadFile(filepath.Join("..", "replays", name))
		if err != nil {
			t.Fatal(err)
		}
		h.Add(h.Verify(name, data))
	}
	if _, _, _, err := h.Finish("t"); err != nil {
		t.Fatal(err)
	}
	for name := range bands {
		if _, err := os.Stat(filepath.Join(h.Dir(), pageFile(name))); err != nil {
			t.Errorf("%s (%s): no page: %v", name, bands[name], err)
		}
	}
}
