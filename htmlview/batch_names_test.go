package htmlview

import (
	"regexp"
	"testing"
)

// FuzzPageNames holds isPageName, jsonlFile and safeName to the regular
// expressions they replace.
func FuzzPageNames(f *testing.F) {
	for _, name := range []string{
		"game-0123abcd.html",
		"a-b-0123abcd.html",
		"-0123abcd.html",
		"game-0123ABCD.html",
		"game-0123abc.html",
		"gäme-0123abcd.html",
		"replays/x.jsonl:12",
		"x.jsonl:",
		"x.jsonl:1:2",
		"a:b.jsonl:3",
		"a\nb.jsonl:3",
		"x.json:3",
		"my game (1).yaml",
		"ünï\xffcode  name",
		"",
	} {
		f.Add(name)
	}
	pageName := regexp.MustCompile(`^[A-Za-z0-9._-]+-[0-9a-f]{8}\.html$`)
	jsonlLine := regexp.MustCompile(`^(.*\.jsonl):\d+$`)
	unsafeChars := regexp.MustCompile(`[^A-Za-z0-9._-]+`)
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := isPageName(name), pageName.MatchString(name); got != want {
			t.Errorf("isPageName(%q) = %v, want %v", name, got, want)
		}
		wantFile, wantOK := "", false
		if m := jsonlLine.FindStringSubmatch(name); m != nil {
			wantFile, wantOK = m[1], true
		}
		if file, ok := jsonlFile(name); file != wantFile || ok != wantOK {
			t.Errorf("jsonlFile(%q) = %q, %v; want %q, %v", name, file, ok, wantFile, wantOK)
		}
		if got, want := safeName(name), unsafeChars.ReplaceAllString(name, "_"); got != want {
			t.Errorf("safeName(%q) = %q, want %q", name, got, want)
		}
	})
}
