package main

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTimesPages: verify --times-key-file --report and show --html
// --times-key-file put the check of the think times on the pages: a
// game's viewer page says sealed, NOT sealed (why, and that the verdict
// stands) or none; the report counts each and links to the table
// filtered to the games whose times are not sealed. Without the key the
// pages of a timed replay are those of the same replay without its times,
// byte for byte.
func TestTimesPages(t *testing.T) {
	rep := playTimedGame(t, "times pages", 40)
	dir := t.TempDir()
	write := dirWriter(t, dir)
	keyFile := write("key", []byte(timesKey))
	good := write("games/good.json", rep.EncodeJSON())
	slower := slowerAt(rep, 3)
	forged := write("games/forged.json", slower.EncodeJSON())
	bare := untimedCopy(rep)
	untimed := write("games/untimed.json", bare.EncodeJSON())
	n := itoa(len(rep.Times))

	// A game's page, by show --html.
	out := filepath.Join(dir, "show.html")
	for _, tc := range []struct {
		file, line string
		want       []string
	}{
		{good, ", think times: sealed", []string{`data-times="sealed"`, n + ", sealed by the server whose key was given"}},
		{forged, ", think times: NOT sealed", []string{`data-times="not-sealed"`, n + ", NOT sealed by the server whose key was given: the times seal does not match", "The verdict on the game stands"}},
		{untimed, ", think times: none", []string{`data-times="none"`, "none to check: the replay has no times, or no times seal"}},
	} {
		code, stdout, errOut := runCLI(t, "", "show", "--html", "--times-key-file", keyFile, "-o", out, tc.file)
		if code != exitOK || !strings.Contains(stdout, tc.line) {
			t.Fatalf("show %s: exit %d\n%s%s", tc.file, code, stdout, errOut)
		}
		raw := readText(t, out)
		text := pageText(raw)
		for _, w := range tc.want {
			if !strings.Contains(text, w) && !strings.Contains(raw, w) {
				t.Errorf("show %s: the page lacks %q", tc.file, w)
			}
		}
	}
	if code, _, errOut := runCLI(t, "", "show", "--times-key-file", keyFile, good); code != exitBadUsage || !strings.Contains(errOut, "--times-key-file goes with --html") {
		t.Errorf("show --times-key-file without --html: exit %d, %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "", "show", "--html", "-o", out, "--times-key-file", filepath.Join(dir, "none"), good); code != exitBadUsage || !strings.Contains(errOut, "--times-key-file") {
		t.Errorf("show --times-key-file of a missing file: exit %d, %s", code, errOut)
	}

	// The batch report and its pages, by verify --report.
	report := filepath.Join(dir, "r.html")
	code, _, errOut := runCLI(t, "", "verify", "--report", report, "--times-key-file", keyFile, filepath.Join(dir, "games"))
	if code != exitOK {
		t.Fatalf("verify --report --times-key-file: exit %d\n%s", code, errOut)
	}
	summary := readText(t, report)
	counts := pageText(regexp.MustCompile(`(?s)<p id="times-counts".*?</p>`).FindString(summary))
	if !strings.Contains(counts, "1 sealed by the server whose key was given, 1 NOT sealed") || !strings.Contains(counts, "1 without times") {
		t.Errorf("the report's counts of the think times: %q", counts)
	}
	if !strings.Contains(summary, `href="#v?f11=think&#43;times&#43;NOT&#43;sealed"`) {
		t.Errorf("the report has no link to the games whose times are not sealed")
	}
	for name, want := range map[string]string{"good": `data-times="sealed"`, "forged": `data-times="not-sealed"`, "untimed": `data-times="none"`} {
		pages, _ := filepath.Glob(filepath.Join(dir, "r_files", name+".json-*.html"))
		if len(pages) != 1 || !strings.Contains(readText(t, pages[0]), want) {
			t.Errorf("%s's page: %v, want %s", name, pages, want)
		}
	}

	// Without the key the pages are those of the replay without times.
	pagesOf := func(file string, data []byte) []string {
		t.Helper()
		write(file, data)
		runCLI(t, "", "show", "--html", "-o", out, filepath.Join(dir, file))
		runCLI(t, "", "verify", "--report", report, filepath.Join(dir, file))
		pages, _ := filepath.Glob(filepath.Join(dir, "r_files", "*.html"))
		all := []string{readText(t, out), readText(t, report)}
		for _, p := range pages {
			all = append(all, readText(t, p))
		}
		return all
	}
	a := pagesOf("alone/g.json", rep.EncodeJSON())
	b := pagesOf("alone/g.json", bare.EncodeJSON())
	if len(a) != 3 || len(a) != len(b) {
		t.Fatalf("pages without a key: %d and %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] || strings.Contains(a[i], "think times") {
			t.Errorf("without a key, page %d of a timed replay differs from the untimed one's, or speaks of times", i)
		}
	}
}

// TestThinkPages: show --html --analyze and verify --analyze --report
// put a timed game's think-time figures on its viewer page, sealed with
// the signed server's key, NOT sealed with another's, not checked with
// none; the report has the column of the median think times; the page of
// the same game without times has no part of them.
func TestThinkPages(t *testing.T) {
	rep := playTimedGame(t, "think pages", 60)
	dir := t.TempDir()
	write := dirWriter(t, dir)
	keyFile := write("key", []byte(timesKey))
	otherKey := write("other", []byte(strings.Repeat("x", 32)))
	timed := write("games/timed.json", rep.EncodeJSON())
	bare := untimedCopy(rep)
	untimed := write("games/untimed.json", bare.EncodeJSON())
	out := filepath.Join(dir, "show.html")
	for _, tc := range []struct {
		file string
		args []string
		want string
	}{
		{timed, []string{"--times-key-file", keyFile}, `<p id="think-seal" data-sealed="sealed">`},
		{timed, []string{"--times-key-file", otherKey}, `<p id="think-seal" data-sealed="not-sealed">`},
		{timed, nil, `<p id="think-seal" data-sealed="unchecked">`},
		{untimed, []string{"--times-key-file", keyFile}, ""},
	} {
		args := append(append([]string{"show", "--html", "--analyze", "-o", out}, tc.args...), tc.file)
		if code, stdout, errOut := runCLI(t, "", args...); code != exitOK {
			t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, errOut)
		}
		page := readText(t, out)
		if !strings.Contains(page, `id="evidence"`) {
			t.Fatalf("%v: no section of evidence", args)
		}
		if tc.want == "" {
			if strings.Contains(page, `id="think-title"`) || strings.Contains(page, "think-seal") {
				t.Errorf("%v: the page of a game without times has a part of them", args)
			}
			continue
		}
		if !strings.Contains(page, tc.want) || !strings.Contains(pageText(page), "These figures change no band") {
			t.Errorf("%v: the page lacks %s or the sentence that the figures change no band", args, tc.want)
		}
		if m := regexp.MustCompile(`<dd id="think-median">([\d,]+) ms, quartiles [\d,]+ to [\d,]+ ms</dd>`).FindStringSubmatch(page); m == nil {
			t.Errorf("%v: no median of the think times", args)
		}
	}

	report := filepath.Join(dir, "r.html")
	if code, _, errOut := runCLI(t, "", "verify", "--analyze", "--times-key-file", keyFile, "--report", report, filepath.Join(dir, "games")); code != exitOK {
		t.Fatalf("verify --analyze --report: exit %d\n%s", code, errOut)
	}
	summary := readText(t, report)
	if !strings.Contains(summary, `data-col="13"`) || !strings.Contains(summary, `"think":true`) {
		t.Error("the report has no column of the think times")
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "r_files", "timed.json-*.html"))
	if len(pages) != 1 || !strings.Contains(readText(t, pages[0]), `data-sealed="sealed"`) {
		t.Errorf("the timed game's page in the report: %v", pages)
	}
}

// pageText is a page's text, the tags left out, the entities read and
// each run of white space one space.
func pageText(page string) string {
	return strings.Join(strings.Fields(html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page, ""))), " ")
}

// readText returns the text of the file name, read whole.
func readText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
