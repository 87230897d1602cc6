package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pageBand returns the band of a page's section "Moves compared with reference evaluators and players"
// ("" when it has none).
func pageBand(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<section id="evidence" class="evidence" data-band="(\w+)"`).FindSubmatch(data)
	if m == nil {
		if strings.Contains(string(data), "Moves compared with reference evaluators and players") {
			t.Fatalf("%s: a section without its band", file)
		}
		return ""
	}
	return string(m[1])
}

// verifyBands returns the band of each game's analysis as verify
// --analyze --json gives it, by name ("" for none).
func verifyBands(t *testing.T, args ...string) map[string]string {
	t.Helper()
	_, out, errOut := runCLI(t, "", append([]string{"verify", "--analyze", "--json"}, args...)...)
	bands := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var v struct {
			Name     string
			Analysis *struct{ Band string }
		}
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%s: %v (%s)", line, err, errOut)
		}
		bands[v.Name] = ""
		if v.Analysis != nil {
			bands[v.Name] = v.Analysis.Band
		}
	}
	return bands
}

// TestShowHTMLAnalyze: show --html --analyze writes a valid game's page
// with the section, its band verify --analyze's; a 3x3 game's says it
// is not analysable; an invalid game's page has none, nor a page without
// --analyze; --analyze without --html is a usage error.
func TestShowHTMLAnalyze(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.yaml")
	if code, _, errOut := runCLI(t, "", "record", "--profile", "hallabois-v1-3x3", "--player", "random", "--seed", "x", "-o", small); code != exitOK {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	valid := "../../replays/valid/online-2048-target-512.yaml"
	want := verifyBands(t, valid, small)
	if want[valid] == "" || want[small] != "insufficient" {
		t.Fatalf("verify --analyze gives %q", want)
	}
	for _, name := range []string{valid, small} {
		page := filepath.Join(dir, filepath.Base(name)+".html")
		code, out, errOut := runCLI(t, "", "show", "--html", "--analyze", "-o", page, name)
		if code != exitOK || !strings.HasSuffix(out, ", analysis: "+want[name]+"\n") {
			t.Errorf("%s: exit %d, %q %s", name, code, out, errOut)
		}
		if got := pageBand(t, page); got != want[name] {
			t.Errorf("%s: the page's band %q, verify's %q", name, got, want[name])
		}
		data, _ := os.ReadFile(page)
		if name == small && !strings.Contains(string(data), "<p class=\"why\" id=\"evidence-why\">not analysable: a 3x3 board") {
			t.Errorf("the 3x3 game's page does not say why it was not analysed")
		}
		code, out, _ = runCLI(t, "", "show", "--html", "-o", page, name)
		if code != exitOK || strings.Contains(out, "analysis") || pageBand(t, page) != "" {
			t.Errorf("%s without --analyze: exit %d, %q", name, code, out)
		}
	}
	page := filepath.Join(dir, "bad.html")
	code, out, _ := runCLI(t, "", "show", "--html", "--analyze", "-o", page, "../../replays/tampered/move-changed.yaml")
	if code != exitFailed || strings.Contains(out, "analysis") || pageBand(t, page) != "" {
		t.Errorf("an invalid game: exit %d, %q", code, out)
	}
	if code, _, errOut := runCLI(t, "", "show", "--analyze", valid); code != exitBadUsage || !strings.Contains(errOut, "--analyze goes with --html") {
		t.Errorf("--analyze without --html: exit %d, %s", code, errOut)
	}
}

// TestVerifyReportAnalyze: verify --report --analyze gives the same
// verdicts as verify --analyze, each valid game's page carries the
// section with its band, the invalid game's none, and the summary has
// the band column; without --analyze it has none.
func TestVerifyReportAnalyze(t *testing.T) {
	dir := t.TempDir()
	inputs := []string{"../../replays/valid/committed-seed.yaml", "../../replays/valid/online-2048-target-512.yaml",
		"../../replays/valid/classic-spawns-random.yaml", "../../replays/tampered/move-changed.yaml"}
	want := verifyBands(t, inputs...)
	report := filepath.Join(dir, "r.html")
	_, plain, _ := runCLI(t, "", append([]string{"verify", "--analyze", "--json"}, inputs...)...)
	code, out, errOut := runCLI(t, "", append([]string{"verify", "--analyze", "--json", "--report-top", "1", "--report", report}, inputs...)...)
	if code != exitFailed || out != plain {
		t.Fatalf("exit %d; the verdicts with --report:\n%s\nwithout:\n%s\n%s", code, out, plain, errOut)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"bands":["insufficient","consistent","review","strong"]`) || !strings.Contains(string(data), `<th data-col="12"`) {
		t.Error("the report has no band column")
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "r_files", "*.html"))
	if len(pages) != len(inputs) {
		t.Fatalf("%d pages for %d replays", len(pages), len(inputs))
	}
	for _, name := range inputs {
		base := filepath.Base(name)
		var page string
		for _, p := range pages {
			if strings.HasPrefix(filepath.Base(p), base+"-") {
				page = p
			}
		}
		if got := pageBand(t, page); got != want[name] {
			t.Errorf("%s: the page's band %q, verify's %q", name, got, want[name])
		}
	}
	if code, _, _ := runCLI(t, "", append([]string{"verify", "--report", report}, inputs...)...); code != exitFailed {
		t.Fatalf("verify --report: exit %d", code)
	}
	data, _ = os.ReadFile(report)
	pages, _ = filepath.Glob(filepath.Join(dir, "r_files", "*.html"))
	if strings.Contains(string(data), `"bands"`) || len(pages) != len(inputs) {
		t.Errorf("without --analyze: a band column, or %d pages", len(pages))
	}
	for _, p := range pages {
		if pageBand(t, p) != "" {
			t.Errorf("%s: a section without --analyze", p)
		}
	}
}
