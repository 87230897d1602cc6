package htmlview

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/replay"
)

// hostileReason is a reason with markup in it: the pages must show it as
// text.
const hostileReason = `<script>alert("x")</script> & <b>bold</b>`

var timesLine = regexp.MustCompile(`(?s)<p id="think-times".*?</p>\n`)

// TestTimesViewerLine: a viewer page whose verdict carries a check of
// its think times says sealed (with the count), NOT sealed (the reason as
// text, and that the verdict on the game stands) or none (the reason);
// the line is all the check adds to the page, and a verdict without a
// check gives the page as it was.
func TestTimesViewerLine(t *testing.T) {
	for _, name := range []string{"valid/classic-2048.yaml", "tampered/illegal-move-inserted.yaml"} {
		g := load(t, name)
		base := page(t, g)
		if strings.Contains(base, "think") {
			t.Errorf("%s: a page without a check speaks of think times", name)
		}
		for _, tc := range []struct {
			check     replay.TimesCheck
			state     string
			want      []string
			dontWant  []string
			verdictOK bool
		}{
			{replay.TimesCheck{Count: 1234, Sealed: true}, "sealed",
				[]string{"think times: 1,234, sealed by the server whose key was given: the times it measured for this game."},
				[]string{"NOT sealed", "stands"}, true},
			{replay.TimesCheck{Count: 7, Reason: hostileReason}, "not-sealed",
				[]string{"think times: 7, NOT sealed by the server whose key was given: " + hostileReason + ". The verdict on the game stands: the times say nothing of whether its moves keep the rules."},
				nil, true},
			{replay.TimesCheck{Reason: "the replay has no times, or no times seal"}, "none",
				[]string{"think times: none to check: the replay has no times, or no times seal."},
				[]string{"stands"}, true},
		} {
			g.Verdict.ThinkTimes = &tc.check
			p := page(t, g)
			g.Verdict.ThinkTimes = nil
			line := strings.Join(strings.Fields(textOf(timesLine.FindString(p))), " ")
			for _, w := range tc.want {
				if line != w {
					t.Errorf("%s, %s: the line is\n%q\nwant\n%q", name, tc.state, line, w)
				}
			}
			for _, w := range tc.dontWant {
				if strings.Contains(line, w) {
					t.Errorf("%s, %s: the line has %q: %q", name, tc.state, w, line)
				}
			}
			if !strings.Contains(p, `data-times="`+tc.state+`"`) {
				t.Errorf("%s, %s: no data-times", name, tc.state)
			}
			if strings.Contains(p, "<script>alert") || strings.Contains(p, "<b>bold") {
				t.Errorf("%s, %s: the reason's markup reached the page", name, tc.state)
			}
			if rest := timesLine.ReplaceAllString(p, ""); rest != base {
				t.Errorf("%s, %s: the check changes the page beyond its line", name, tc.state)
			}
		}
	}
}

// timedEntries are the corpus's entries, each that was read given a check
// of its think times in turn sealed, NOT sealed (a hostile reason) and
// none; it returns the counts of each.
func timedEntries(t testing.TB) (entries []Entry, sealed, notSealed, none, unchecked int) {
	entries = corpusEntries(t)
	for i := range entries {
		v := &entries[i].Verdict
		if v.Reason.Unreadable() {
			unchecked++
			continue
		}
		switch i % 3 {
		case 0:
			v.ThinkTimes = &replay.TimesCheck{Count: 10 + i, Sealed: true}
			sealed++
		case 1:
			v.ThinkTimes = &replay.TimesCheck{Count: 10 + i, Reason: hostileReason}
			notSealed++
		default:
			v.ThinkTimes = &replay.TimesCheck{Reason: "the replay has no times, or no times seal"}
			none++
		}
	}
	return entries, sealed, notSealed, none, unchecked
}

// TestTimesReport: the batch report of checked replays counts each
// outcome under the verdicts' counts, links to the table filtered to the
// replays whose times are not sealed, whose "what" (and why in the list
// that needs your eyes) says so with the reason; the others' rows are as
// without the check. Without a check the report is as it was.
func TestTimesReport(t *testing.T) {
	entries, sealed, notSealed, none, unchecked := timedEntries(t)
	if sealed == 0 || notSealed == 0 || none == 0 || unchecked == 0 {
		t.Fatalf("the corpus gives %d, %d, %d, %d", sealed, notSealed, none, unchecked)
	}
	var b bytes.Buffer
	if err := Report(&b, "batch", entries); err != nil {
		t.Fatal(err)
	}
	p := b.String()
	counts := strings.Join(strings.Fields(textOf(regexp.MustCompile(`(?s)<p id="times-counts".*?</p>`).FindString(p))), " ")
	want := "think times, checked against the key given: " + itoa(sealed) + " sealed by the server whose key was given, " + itoa(notSealed) +
		" NOT sealed (the link shows them in the table; each game\u2019s page says why), " + itoa(none) + " without times, " + itoa(unchecked) +
		" not checked (unreadable). Times not sealed are not the times the server measured; the verdict on each game stands."
	if counts != want {
		t.Errorf("the counts:\n%q\nwant\n%q", counts, want)
	}
	if !strings.Contains(p, `<a href="#v?f11=think&#43;times&#43;NOT&#43;sealed" id="times-not-sealed"`) {
		t.Error("no link to the table filtered to the times not sealed")
	}
	if strings.Contains(p, "<script>alert") || strings.Contains(p, "<b>bold") {
		t.Error("a reason's markup reached the page")
	}
	rows := reportRowsData(t, p).Rows
	for i, e := range entries {
		w := rows[i][colWhat].(string)
		plain := what(e.Verdict)
		if e.Verdict.ThinkTimes.State() == replay.TimesNotSealed {
			plain += "; think times NOT sealed"
		}
		if plain += sameSuffix(entries, i); w != plain {
			t.Errorf("%s: what %q, want %q", e.Verdict.Name, w, plain)
		}
	}
	needs, _ := needsOf(entries, 10, sameGames(entries))
	if len(needs) == 0 {
		t.Fatal("no replay needs your eyes")
	}
	for _, n := range needs {
		if got := strings.HasSuffix(n.Why, "think times NOT sealed: "+hostileReason); got != (n.Verdict.ThinkTimes.State() == replay.TimesNotSealed) {
			t.Errorf("%s (%s): why %q", n.Verdict.Name, n.Verdict.ThinkTimes.State(), n.Why)
		}
	}

	// Without a check: no line of times, and the rows are the plain ones.
	for i := range entries {
		entries[i].Verdict.ThinkTimes = nil
	}
	b.Reset()
	if err := Report(&b, "batch", entries); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "think times") || strings.Contains(b.String(), "times-counts") {
		t.Error("a report without a check speaks of think times")
	}
}

func itoa(n int) string { return grouped(uint64(n)) }

// TestBatchReportTimesCheck: extras that check the think times
// (SetExtras) are added to each replay that decodes as it is verified:
// the verdict carries the check, and the page of each game (written during the batch, or held
// and written by Finish) shows it; the summary counts them.
func TestBatchReportTimesCheck(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "r.html")
	h, err := CreateBatchReport(report, nil, replay.NewVerifier(), 100, 1)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	h.SetExtras(func(vd *replay.Verdict, r *replay.Replay) {
		checked++
		vd.ThinkTimes = &replay.TimesCheck{Count: len(r.Actions), Reason: "spawns recorded"}
		if r.Seed != nil {
			vd.ThinkTimes = &replay.TimesCheck{Count: len(r.Actions), Sealed: true}
		}
	})
	files, _ := filepath.Glob("../replays/valid/*.yaml")
	more, _ := filepath.Glob("../replays/tampered/*.yaml")
	files = append(files[:min(4, len(files))], more[:min(3, len(more))]...)
	files = append(files, "../replays/unreadable/unknown-field.yaml")
	states := map[string]replay.TimesState{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		vd := h.Verify(f, data)
		h.Add(vd)
		states[f] = vd.ThinkTimes.State()
		if vd.Reason.Unreadable() != (vd.ThinkTimes == nil) {
			t.Errorf("%s (%s): check %+v", f, vd.Reason, vd.ThinkTimes)
		}
	}
	if checked != len(files)-1 {
		t.Errorf("%d replays checked of %d", checked, len(files)-1)
	}
	if _, _, _, err := h.Finish("batch"); err != nil {
		t.Fatal(err)
	}
	pages := 0
	for f, state := range states {
		if state == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, "r_files", pageFile(f)))
		if err != nil {
			continue // a replay that cannot be replayed has no page
		}
		pages++
		if !strings.Contains(string(data), `data-times="`+string(state)+`"`) {
			t.Errorf("%s's page does not say its times are %s", f, state)
		}
	}
	if pages < 6 {
		t.Errorf("%d pages checked", pages)
	}
	summary, _ := os.ReadFile(report)
	if !strings.Contains(string(summary), `id="times-counts"`) {
		t.Error("the summary has no counts of the think times")
	}
}

// TestTimesReportSize: the check keeps the report within its size target
// (150 bytes a submission, docs/viewer-html.md) whatever the outcomes:
// a row whose times are sealed or absent costs nothing, one whose times
// are not sealed the 24 bytes of "; think times NOT sealed".
func TestTimesReportSize(t *testing.T) {
	t.Parallel()
	const n = 20000
	size := func(check *replay.TimesCheck) (bytes, unreadable, needs int) {
		entries := fabricated(n)
		for i := range entries {
			if entries[i].Verdict.Reason.Unreadable() {
				unreadable++
			} else {
				entries[i].Verdict.ThinkTimes = check
			}
		}
		b := reportHTML(t, "audit", entries)
		listed, _ := needsOf(entries, 10, sameGames(entries))
		// The replays listed: not the lines saying how many more, nor
		// the unreadable, whose times are not checked.
		listed = slices.DeleteFunc(listed, func(n need) bool { return n.More > 0 || n.Kind == kindUnreadable })
		return len(b), unreadable, len(listed)
	}
	plain, _, _ := size(nil)
	counts := 1000 // at most the paragraph of the counts and the list's sentence
	for _, tc := range []struct {
		check replay.TimesCheck
		row   int
	}{
		{replay.TimesCheck{Count: 500, Sealed: true}, 0},
		{replay.TimesCheck{Reason: "the replay has no times, or no times seal"}, 0},
		{replay.TimesCheck{Count: 500, Reason: "the times seal does not match: these are not the times a server with this key measured for this game"}, len("; think times NOT sealed")},
	} {
		got, unreadable, needs := size(&tc.check)
		extra := got - plain - tc.row*(n-unreadable)
		if tc.row > 0 { // and in the list that needs your eyes, the why and the reason
			extra -= needs * len("; think times NOT sealed: "+tc.check.Reason)
		}
		if extra < 0 || extra > counts {
			t.Errorf("%+v: %d bytes, %d without a check: %d beyond %d a row", tc.check, got, plain, extra, tc.row)
		}
		if per := float64(got) / n; per > 150 {
			t.Errorf("%+v: %.1f bytes a submission", tc.check, per)
		}
		t.Logf("%s: %.1f bytes a submission (%.1f without a check)", tc.check.State(), float64(got)/n, float64(plain)/n)
	}
}
