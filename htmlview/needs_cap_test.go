package htmlview

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tileproof/tileproof/internal/testkit/batch"
	"github.com/tileproof/tileproof/replay"
)

// capBatch is a batch for the list's caps: a first game, two top
// scores, sus suspicious replays (the first a copy of the first game),
// then copies valid copies of the first game and bad invalid replays,
// interleaved.
func capBatch(sus, copies, bad int) []Entry {
	game := strings.Repeat("ab", 32)
	valid := func(name string, score uint64, sha string) Entry {
		return Entry{Verdict: replay.Verdict{Name: name, Valid: true, Replayed: true, Score: score, GameSHA256: sha}}
	}
	entries := []Entry{valid("first.json", 10, game), valid("high.json", 1000, ""), valid("higher.json", 2000, "")}
	for i := range sus {
		sha := ""
		if i == 0 { // a suspicious copy: listed as suspicious, not among the valid copies
			sha = game
		}
		e := valid(fmt.Sprintf("sus-%d.json", i+1), 20, sha)
		e.Verdict.Warnings = []string{"the spawned values are unlikely (p = 1e-40)"}
		entries = append(entries, e)
	}
	for i := range max(copies, bad) {
		if i < copies {
			entries = append(entries, valid(fmt.Sprintf("copy-%d.json", i+1), 10, game))
		}
		if i < bad {
			entries = append(entries, Entry{Verdict: replay.Verdict{Name: fmt.Sprintf("bad-%d.json", i+1), Reason: replay.IllegalMove, Replayed: true}})
		}
	}
	return entries
}

// listedNames returns the names the list of the replays that need the
// operator's eyes shows, in order, and its lines saying how many more
// there are, by id.
func listedNames(t *testing.T, html string) (names []string, more map[string]string) {
	t.Helper()
	list := html[strings.Index(html, `<table id="needs">`):]
	list = list[:strings.Index(list, "</table>")]
	more = map[string]string{}
	row := regexp.MustCompile(`<tr data-kind="\w+"><td class="n"><a href="#r\d+">\d+</a></td>\n<td>(?:<a class="needpage" href="[^"]+">)?([^<]+)(?:</a>)?</td>|<tr class="more" id="(more-\w+)"><td colspan="6">(.*?)</td></tr>\n`)
	for _, m := range row.FindAllStringSubmatch(list, -1) {
		if m[2] != "" {
			more[m[2]] = m[3]
			names = append(names, m[2]) // its place in the list
		} else {
			names = append(names, m[1])
		}
	}
	if n := strings.Count(list, "<tr"); n != len(names)+1 { // the heading's row
		t.Fatalf("%d rows in the list, %d read", n-1, len(names))
	}
	return names, more
}

// TestReportNeedsCapped: of a flood of suspicious replays, copies and
// invalid replays, the list holds the first maxListed of each in the
// batch's order, each followed by a line saying how many more there are
// and linking to the table filtered to all of them; the top scores are
// not capped. The table still holds every replay. (Before 2026-12-08
// the suspicious were not cut: 20,000 copies of a hallabois recording
// whose spawns are unlikely made a report of 22 MB that took headless
// Chromium 20 s to draw.)
func TestReportNeedsCapped(t *testing.T) {
	const moreCopies, moreBad = 7, 5
	entries := capBatch(maxListed+3, maxListed+moreCopies, maxListed+moreBad)
	var b bytes.Buffer
	if err := ReportWith(&b, "batch", entries, ReportOptions{Top: 2}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	got, more := listedNames(t, html)
	var want []string
	for i := range maxListed {
		want = append(want, fmt.Sprintf("sus-%d.json", i+1))
	}
	want = append(want, "more-suspicious", "higher.json", "high.json")
	want = append(want, cappedTail()...)
	if !slices.Equal(got, want) {
		t.Errorf("the list: %d lines, want %d; from the first that differs: %v", len(got), len(want), firstDiff(got, want))
	}
	wantMore := map[string]string{
		"more-suspicious": fmt.Sprintf(`3 more suspicious replays are not listed: <a href="#kind-suspicious">all %d in the table</a>`, maxListed+3),
		"more-valid":      fmt.Sprintf(`%d more replays of a game earlier in the batch's order are not listed: <a href="#v?f11=the&#43;same&#43;game&#43;as&amp;f2=kind%%3Avalid">all %d valid ones in the table</a>`, moreCopies, maxListed+moreCopies),
		"more-invalid":    fmt.Sprintf(`%d more invalid replays are not listed: <a href="#kind-invalid">all %d in the table</a>`, moreBad, maxListed+moreBad),
	}
	for id, w := range wantMore {
		if more[id] != w {
			t.Errorf("%s: %q\nwant %q", id, more[id], w)
		}
	}
	if !strings.Contains(html, fmt.Sprintf("the first %d of each in the batch&rsquo;s order are listed", maxListed)) {
		t.Error("the list's words do not say it is cut")
	}
	if !strings.Contains(html, fmt.Sprintf("that needs your eyes, of the suspicious, of the copies, of the invalid and of the unreadable the first %d.</p></noscript>", maxListed)) {
		t.Error("the words for a browser without the script do not say the list is cut")
	}
	for _, name := range []string{fmt.Sprintf("copy-%d.json", maxListed+moreCopies), fmt.Sprintf("bad-%d.json", maxListed+moreBad)} {
		if !strings.Contains(html, `,"`+name+`",`) {
			t.Errorf("the table lacks %s", name)
		}
	}
	// At the cap, nothing is cut.
	b.Reset()
	if err := ReportWith(&b, "batch", capBatch(maxListed, maxListed, maxListed), ReportOptions{Top: 2}); err != nil {
		t.Fatal(err)
	}
	got, more = listedNames(t, b.String())
	if len(got) != 2+3*maxListed || len(more) != 0 || strings.Contains(b.String(), "are listed, then a line") {
		t.Errorf("at the cap: %d lines listed, want %d; lines of more: %v", len(got), 2+3*maxListed, more)
	}
}

// firstDiff returns the lines of got and want from the first that
// differs, a few of each.
func firstDiff(got, want []string) [2][]string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	return [2][]string{got[i:min(len(got), i+3)], want[i:min(len(want), i+3)]}
}

// TestReportSkipped: the files a batch did not read are counted beside
// the four classes, linked to their list, which names them as names are
// shown (a right-to-left override and markup as text) up to maxListed and
// says how many more; a batch without any says nothing of them.
func TestReportSkipped(t *testing.T) {
	entries := []Entry{{Verdict: replay.Verdict{Name: "a.yaml", Valid: true, Replayed: true, Score: 4}}}
	var files []SkippedFile
	for i := range maxListed + 2 {
		files = append(files, SkippedFile{Name: fmt.Sprintf("subs/f-%d.yaml", i+1), Why: "a named pipe"})
	}
	files[0] = SkippedFile{Name: "subs/\u202elmay.<b>x</b>", Why: "a symbolic link"}
	var b bytes.Buffer
	if err := ReportWith(&b, "batch", entries, ReportOptions{Top: 1, Skipped: len(files), SkippedFiles: files}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		fmt.Sprintf(`<a href="#skipped" id="skipped-count">%d files skipped</a> (not read)</p>`, maxListed+2),
		`<h2 id="skipped">Skipped</h2>`,
		`<tr><td>subs/\u202elmay.&lt;b&gt;x&lt;/b&gt;</td><td>a symbolic link</td></tr>`,
		fmt.Sprintf(`<tr><td>subs/f-%d.yaml</td><td>a named pipe</td></tr>`, maxListed),
		`<tr class="more" id="more-skipped"><td colspan="2">2 more files skipped, not listed: verify named each on standard error.</td></tr>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %s", want)
		}
	}
	if strings.Contains(html, "\u202e") || strings.Contains(html, "<b>x") || strings.Contains(html, fmt.Sprintf("f-%d.yaml", maxListed+1)) {
		t.Error("the report shows a name's override or markup, or a name past the cap")
	}
	b.Reset()
	if err := ReportWith(&b, "batch", entries, ReportOptions{Top: 1}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "skipped") {
		t.Error("a batch that skipped nothing speaks of skipped files")
	}
}

// TestBrowserReportNeedsCappedLinks: the lines of a cut list link to the
// table filtered to all the replays of their kind, scrolled to: every
// suspicious replay, every invalid replay, then every valid copy, the
// last past the cap among them.
func TestBrowserReportNeedsCappedLinks(t *testing.T) {
	t.Parallel()
	const sus, copies, bad = maxListed + 4, maxListed + 7, maxListed + 5
	entries := capBatch(sus, copies, bad)
	var b bytes.Buffer
	if err := ReportWith(&b, "batch", entries, ReportOptions{Top: 2}); err != nil {
		t.Fatal(err)
	}
	ctx := openIn(t, tab(t), b.String(), 1280, 900, "", "body[data-ready]")
	for _, c := range []struct {
		line, kind, last string
		n                int
		what             string
	}{
		{"#more-suspicious", "suspicious", fmt.Sprintf("sus-%d.json", sus), sus, ""},
		{"#more-invalid", "invalid", fmt.Sprintf("bad-%d.json", bad), bad, ""},
		{"#more-valid", "valid", fmt.Sprintf("copy-%d.json", copies), copies, fmt.Sprintf("the same game as first.json (#1), the first of the game's %d replays in the batch's order (game abababababab)", copies+2)}, // the first, the copies, a suspicious one
	} {
		do(t, ctx, "follow "+c.line, chromedp.Click(c.line+" a"))
		want := fmt.Sprintf("%d of %d shown", c.n, len(entries))
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`document.getElementById("shown").textContent === %q`, want),
			chromedp.WithPollingTimeout(hangBound))); err != nil {
			t.Fatalf("%s: %v; shown: %s", c.line, err, eval[string](t, ctx, `document.getElementById("shown").textContent`))
		}
		if top := eval[float64](t, ctx, `document.getElementById("replays-title").getBoundingClientRect().top`); top < -1 || top > 900 {
			t.Errorf("%s: the table's title is at %.0f px, not in view", c.line, top)
		}
		var names []string
		for {
			rows := eval[[][]string](t, ctx, `Array.from(document.querySelectorAll("#replays tbody tr")).map(r => [r.dataset.kind, r.cells[1].textContent, r.querySelector(".what").textContent])`)
			for _, r := range rows {
				if r[0] != c.kind || !strings.HasSuffix(r[2], c.what) {
					t.Fatalf("%s: a row %q, want %s ending %q", c.line, r, c.kind, c.what)
				}
				names = append(names, r[1])
			}
			if eval[bool](t, ctx, `document.getElementById("pg-next").disabled`) {
				break
			}
			do(t, ctx, "the rows after", chromedp.Click("#pg-next"))
		}
		if len(names) != c.n || names[len(names)-1] != c.last {
			t.Errorf("%s: %d rows shown, the last %s; want %d, the last %s", c.line, len(names), names[len(names)-1], c.n, c.last)
		}
	}
}

// TestBatchReportCappedWorkers: a batch past both caps (interleaved
// invalid replays, tampered claims, and copies of one game) lists the
// first maxListed of each in the batch's order, and its report is byte
// for byte the same added in turn and with 1 and 2 workers, the later
// replays of each pair verified first with 2.
func TestBatchReportCappedWorkers(t *testing.T) {
	t.Parallel()
	const n = maxListed + 9
	seeded, _, _ := batch.Replays(n + 1)
	game := seeded[0].EncodeJSON()
	var games []replay.Input
	for i := range n {
		bad := *seeded[i+1]
		bad.Claim.Score += 4
		games = append(games, replay.Input{Name: fmt.Sprintf("bad-%d.json", i+1), Data: bad.EncodeJSON()},
			replay.Input{Name: fmt.Sprintf("copy-%d.json", i), Data: append(slices.Clone(game), strings.Repeat(" ", i)...)})
	}
	games[1].Name = "first.json" // copy-0: the first of the game
	var reports []string
	for _, workers := range []int{0, 1, 2} { // 0: each verified and added in turn
		html, _ := batchReportOf(t, games, workers, 0, 0, func(name string, verify func() replay.Verdict) replay.Verdict {
			if workers == 2 && strings.HasPrefix(name, "bad-") { // its copy, after it, goes first
				time.Sleep(time.Millisecond)
			}
			return verify()
		})
		reports = append(reports, html)
	}
	got, more := listedNames(t, reports[0])
	want := cappedTail()
	if !slices.Equal(got, want) {
		t.Errorf("the list: %d lines, want %d; from the first that differs: %v", len(got), len(want), firstDiff(got, want))
	}
	if m := more["more-invalid"]; !strings.HasPrefix(m, "9 more invalid replays are not listed") {
		t.Errorf("the line of the invalid past the cap: %q", m)
	}
	if m := more["more-valid"]; !strings.HasPrefix(m, "8 more replays of a game earlier in the batch's order are not listed") {
		t.Errorf("the line of the copies past the cap: %q", m)
	}
	for i, r := range reports[1:] {
		if r != reports[0] {
			t.Errorf("the report with %d workers differs from the one added in turn", i+1)
		}
	}
}

// cappedTail is the end of the list of a batch of capBatch's shape past
// both caps: the first maxListed copies, their "more" line, the first
// maxListed invalid replays and theirs.
func cappedTail() []string {
	var tail []string
	for i := range maxListed {
		tail = append(tail, fmt.Sprintf("copy-%d.json", i+1))
	}
	tail = append(tail, "more-valid")
	for i := range maxListed {
		tail = append(tail, fmt.Sprintf("bad-%d.json", i+1))
	}
	return append(tail, "more-invalid")
}

// TestReportNeedsUnreadable: the unreadable replays are listed last in
// the list of the replays that need your eyes, each with its reason and
// its error, the name in it shown as the names are (a newline \x0a, its
// markup text), the first maxListed of them then a line of how many more
// linking to the table's unreadable ones. Before 2026-12-07 the list left
// them out: a truncated upload, a file past the size bound or a profile
// the verifier does not know was in the counts and the table alone.
func TestReportNeedsUnreadable(t *testing.T) {
	const more = 3
	hostile := "subs/evil\nok     <b>x</b>.json"
	entries := []Entry{
		{Verdict: replay.Verdict{Name: "good.json", Valid: true, Replayed: true, Score: 8}},
		{Verdict: replay.Verdict{Name: hostile, Reason: replay.Malformed, Error: hostile + ":1:119: moves: character 101: 'Q' is not an action"}},
		{Verdict: replay.Verdict{Name: "bad.json", Reason: replay.IllegalMove, Replayed: true}},
		{Verdict: replay.Verdict{Name: "odd.json", Reason: replay.Refused, Error: "unknown profile a text of 15 bytes"}},
	}
	for i := range maxListed - 2 + more {
		entries = append(entries, Entry{Verdict: replay.Verdict{Name: fmt.Sprintf("cut-%d.json", i+1), Reason: replay.Malformed, Error: fmt.Sprintf("cut-%d.json: larger than 64 MiB", i+1)}})
	}
	var b bytes.Buffer
	if err := ReportWith(&b, "batch", entries, ReportOptions{Top: 1}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	got, lines := listedNames(t, html)
	want := []string{"good.json", "bad.json", `subs/evil\x0aok     &lt;b&gt;x&lt;/b&gt;.json`, "odd.json"}
	for i := range maxListed - 2 {
		want = append(want, fmt.Sprintf("cut-%d.json", i+1))
	}
	want = append(want, "more-unreadable")
	if !slices.Equal(got, want) {
		t.Errorf("the list: %d lines, want %d; from the first that differs: %v", len(got), len(want), firstDiff(got, want))
	}
	if w := fmt.Sprintf(`%d more unreadable replays are not listed: <a href="#kind-unreadable">all %d in the table</a>`, more, maxListed+more); lines["more-unreadable"] != w {
		t.Errorf("the line of the others: %q, want %q", lines["more-unreadable"], w)
	}
	for _, w := range []string{
		`<span class="verdict unreadable">malformed</span></td>
<td class="n">&ndash;</td><td class="n">&ndash;</td><td class="what">subs/evil\x0aok     &lt;b&gt;x&lt;/b&gt;.json:1:119: moves: character 101: &#39;Q&#39; is not an action</td>`,
		`<span class="verdict unreadable">refused</span></td>
<td class="n">&ndash;</td><td class="n">&ndash;</td><td class="what">unknown profile a text of 15 bytes</td>`,
	} {
		if !strings.Contains(html, w) {
			t.Errorf("the list lacks %s", w)
		}
	}
	if strings.Contains(html, "<b>x") || strings.Contains(html, fmt.Sprintf(">cut-%d.json<", maxListed-1)) {
		t.Error("the list shows a name's markup, or a name past the cap")
	}
}
