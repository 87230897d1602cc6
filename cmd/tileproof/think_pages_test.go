package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestThinkPages: show --html --analyze and verify --analyze --report
// put a timed game's think-time figures on its viewer page, sealed with
// the signed server's key, NOT sealed with another's, not checked with
// none; the report has the column of the median think times; the page of
// the same game without times has no part of them.
func TestThinkPages(t *testing.T) {
	key := "0123456789abcdef0123456789abcdef"
	rep := playTimedGame(t, key, "think pages", 60)
	dir := t.TempDir()
	write := dirWriter(t, dir)
	keyFile := write("key", []byte(key))
	otherKey := write("other", []byte(strings.Repeat("x", 32)))
	timed := write("games/timed.json", rep.EncodeJSON())
	bare := untimedCopy(rep)
	untimed := write("games/untimed.json", bare.EncodeJSON())
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
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
		page := read(out)
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
	summary := read(report)
	if !strings.Contains(summary, `data-col="13"`) || !strings.Contains(summary, `"think":true`) {
		t.Error("the report has no column of the think times")
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "r_files", "timed.json-*.html"))
	if len(pages) != 1 || !strings.Contains(read(pages[0]), `data-sealed="sealed"`) {
		t.Errorf("the timed game's page in the report: %v", pages)
	}
}
