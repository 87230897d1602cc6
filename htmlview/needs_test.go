package htmlview

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/replay"
)

// TestReportNeeds: the four classes are counted at the top, and the list
// of the replays that need the operator's eyes holds every suspicious,
// invalid and unreadable replay and the top N scores, in the order of
// need (suspicious, top scores highest first, invalid, unreadable),
// whatever the batch's order.
func TestReportNeeds(t *testing.T) {
	valid := func(name string, score uint64) Entry {
		return Entry{Verdict: replay.Verdict{Name: name, Valid: true, Replayed: true, Score: score}}
	}
	sus := valid("sus.yaml", 7)
	sus.Verdict.Warnings = []string{"the spawned values (4: 40) are unlikely (p = 1e-40)"}
	bad := Entry{Verdict: replay.Verdict{Name: "bad.yaml", Reason: replay.IllegalMove, Replayed: true, Score: 300}}
	claimed := uint64(500)
	bad.Claimed = &claimed
	unread := Entry{Verdict: replay.Verdict{Name: "unread.yaml", Reason: replay.Malformed}}
	entries := []Entry{bad, valid("low.yaml", 4), unread, valid("high.yaml", 400), sus, valid("mid.yaml", 40)}
	var b bytes.Buffer
	if err := ReportWith(&b, "batch", entries, ReportOptions{Top: 2}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{`>3 valid</a>`, `>1 suspicious</a>`, `>1 invalid</a>`, `>1 unreadable</a>`} {
		if !strings.Contains(html, want) {
			t.Errorf("the counts lack %s", want)
		}
	}
	list := html[strings.Index(html, `<table id="needs">`):]
	list = list[:strings.Index(list, "</table>")]
	var got []string
	for _, m := range regexp.MustCompile(`<td>([\w.]+)</td>`).FindAllStringSubmatch(list, -1) {
		got = append(got, m[1])
	}
	if want := []string{"sus.yaml", "high.yaml", "mid.yaml", "bad.yaml", "unread.yaml"}; !slices.Equal(got, want) {
		t.Errorf("needs your eyes: %v, want %v", got, want)
	}
	if !strings.Contains(list, "p = 1e-40") || !strings.Contains(list, "top score #2") {
		t.Errorf("the list does not say why: %s", list)
	}
	// The claimed score beside the verified one: an inflated claim shows
	// as such in the list, a dash for a claim not read or a game not
	// replayed.
	for _, want := range []string{`<th class="n">claimed</th><th class="n">verified</th>`,
		`<span class="verdict invalid">illegal-move</span></td>
<td class="n">500</td><td class="n">300</td>`,
		`<span class="verdict unreadable">malformed</span></td>
<td class="n">&ndash;</td><td class="n">&ndash;</td>`} {
		if !strings.Contains(list, want) {
			t.Errorf("the list lacks %s", want)
		}
	}
	if strings.Index(html, `id="needs"`) > strings.Index(html, `id="replays"`) {
		t.Error("the list comes after the table")
	}
}

// TestReportNeedsWords: the list's words count as the options do: no
// "top 0 scores" with --report-top 0, "the top score" for one, and a
// histogram bar of one game says "1 game".
func TestReportNeedsWords(t *testing.T) {
	entries := []Entry{{Verdict: replay.Verdict{Name: "a.yaml", Valid: true, Replayed: true, Score: 4}}}
	for top, want := range map[int]string{0: "every other valid replay", 1: "the top score, every other", 3: "the top 3 scores, every other"} {
		var b bytes.Buffer
		if err := ReportWith(&b, "batch", entries, ReportOptions{Top: top}); err != nil {
			t.Fatal(err)
		}
		html := b.String()
		intro := html[strings.Index(html, `id="needs-title"`):]
		intro = intro[:strings.Index(intro, "</p>")]
		if top == 0 && strings.Contains(intro, "the top") || !strings.Contains(intro, want) {
			t.Errorf("--report-top %d: %s", top, intro)
		}
		if !strings.Contains(html, ": 1 game</title>") || strings.Contains(html, " 1 games") {
			t.Errorf("--report-top %d: the histogram's bar of one game is not \"1 game\"", top)
		}
	}
}

// TestNeedsCopyPastTop: of two replays of one game with the top score
// of one, the first is listed as the top score and the second, the first
// past the top scores, as the same game submitted again.
func TestNeedsCopyPastTop(t *testing.T) {
	entry := func(name string) Entry {
		return Entry{Verdict: replay.Verdict{Name: name, Valid: true, Replayed: true, Score: 12, GameSHA256: strings.Repeat("ab", 32)}}
	}
	entries := []Entry{entry("first.json"), entry("again.json")}
	needs, _ := needsOf(entries, 1, sameGames(entries))
	if len(needs) != 2 || needs[0].Why != "top score #1" || needs[1].Verdict.Name != "again.json" || needs[1].Same == nil || needs[1].Same.N != 1 {
		t.Errorf("needs %+v: want first.json as the top score, then again.json as the same game as #1", needs)
	}
}

// TestReportReasonsPart: the reasons table says what each reason finds
// false, so that an inflated claim (a game of the rules, replayed to the
// end, claimed higher) is told from moves that break the rules, from a
// claim no game reaches (not replayed) and from a file not judged; every
// reason a verdict can give has its words.
func TestReportReasonsPart(t *testing.T) {
	var entries []Entry
	for _, r := range []replay.Reason{replay.ClaimScore, replay.IllegalMove, replay.ImpossibleClaim, replay.BadSpawn, replay.Malformed} {
		entries = append(entries, Entry{Verdict: replay.Verdict{Name: string(r) + ".json", Reason: r}})
	}
	var b bytes.Buffer
	if err := ReportWith(&b, "batch", entries, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<th>reason</th><th class="n">replays</th><th>what is false</th><th>meaning</th>`,
		`<a href="#reason-claim-score">claim-score</a></td><td class="n">1</td><td>the claim: the moves are a game of the rules, replayed to the end; its figures are not the claimed ones</td>`,
		`<a href="#reason-illegal-move">illegal-move</a></td><td class="n">1</td><td>the moves: they break the rules</td>`,
		`<a href="#reason-impossible-claim">impossible-claim</a></td><td class="n">1</td><td>the claim: no game reaches it (what its moves make, replayed for this report, is in its row)</td>`,
		`<a href="#reason-bad-spawn">bad-spawn</a></td><td class="n">1</td><td>the tiles recorded: the rules never place them there</td>`,
		`<a href="#reason-malformed">malformed</a></td><td class="n">1</td><td>the file: not judged</td>`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the reasons table lacks %s", want)
		}
	}
	for _, r := range []replay.Reason{replay.Malformed, replay.Refused, replay.SeedCommitment, replay.ImpossibleClaim, replay.BadStart,
		replay.IllegalMove, replay.AfterEnd, replay.BadSpawn, replay.BadAction, replay.Overflow, replay.ClaimMoves, replay.ClaimScore,
		replay.ClaimMaxTile, replay.ClaimBoard, replay.ClaimWon, replay.ClaimOver, replay.ClaimResult, replay.Implausible} {
		if r.Describe() == "" || partOf(r) == "" {
			t.Errorf("%s: no words for what it finds false", r)
		}
	}
}
