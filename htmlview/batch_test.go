package htmlview

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/replay"
)

// TestBatchReportDirSwapped: the pages' directory swapped for a link to
// another directory while the batch runs is not written through: the
// pages go to the directory the report opened (an os.Root), wherever it
// now is, and nothing is written or removed in the link's target (issue
// 25, item 9).
func TestBatchReportDirSwapped(t *testing.T) {
	base := t.TempDir()
	valid, err := os.ReadFile("../replays/minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(base, "outside")
	os.Mkdir(outside, 0o755)
	bait := filepath.Join(outside, "bait-0123abcd.html") // named as a page: a stale page would be removed
	os.WriteFile(bait, []byte("keep"), 0o644)
	report := filepath.Join(base, "report.html")
	h, err := CreateBatchReport(report, []string{"in/a.yaml"}, replay.NewVerifier(), 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(base, "moved")
	if err := os.Rename(h.Dir(), moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, h.Dir()); err != nil {
		t.Skip(err)
	}
	for _, name := range []string{"in/a.yaml", "in/b.yaml"} {
		vd := h.Verify(name, valid)
		if !vd.Valid {
			t.Fatalf("%s: %+v", name, vd)
		}
		h.Add(vd)
	}
	pages, _, _, err := h.Finish("test")
	if err != nil || pages != 2 {
		t.Fatalf("%d pages, %v", pages, err)
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 || entries[0].Name() != filepath.Base(bait) {
		t.Errorf("the link's target holds %v, want the bait alone", entries)
	}
	written, _ := filepath.Glob(filepath.Join(moved, "*.html"))
	if len(written) != 2 {
		t.Errorf("the report's own directory holds %q, want the 2 pages", written)
	}
}

// TestReportFileLinksNoScheme: the report's link to a replay's file is a
// relative URL whatever the file's name: a file named
// javascript:alert(1).jsonl beside the report was linked as
// href="javascript:alert%281%29.jsonl" (url.PathEscape keeps the colon),
// which a click runs as a script. Every part is escaped as the page's
// script escapes it (encodeURIComponent), the colon too. So is the
// pages' folder, named after the report: a report scores-10:00.html had
// every page link of its table of replays that need your eyes made
// href="#ZgotmplZ" by html/template, and javascript:alert(3).html had
// the page's script make href="javascript:alert%283%29_files/...".
func TestReportFileLinksNoScheme(t *testing.T) {
	base := t.TempDir()
	game := `{"profile":"tile-merge","seed":"7","moves":"LLUR","claim":{"score":12,"maxTile":8,"moves":4}}`
	lines := filepath.Join(base, "javascript:alert(1).jsonl")
	file := filepath.Join(base, "javascript:alert(2).yaml")
	for _, f := range []string{lines, file} {
		if err := os.WriteFile(f, []byte(game+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	report := filepath.Join(base, "javascript:alert(3).html")
	h, err := CreateBatchReport(report, []string{lines, file}, replay.NewVerifier(), 10, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{lines + ":1", file} {
		vd := h.Verify(name, []byte(game))
		if !vd.Valid {
			t.Fatalf("%s: %+v", name, vd)
		}
		h.Add(vd)
	}
	if _, _, _, err := h.Finish("test"); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"javascript%3Aalert(1).jsonl"`, `"javascript%3Aalert(2).yaml"`, `"pre":"javascript%3Aalert(3)_files/"`, `href="javascript%3Aalert%283%29_files/javascript_alert_2_.yaml-`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the report has no link %s", want)
		}
	}
	for _, bad := range []string{`"javascript:`, "#ZgotmplZ"} {
		if i := strings.Index(string(page), bad); i >= 0 {
			t.Errorf("a link with a scheme of its own, or refused: %.60s", page[i:])
		}
	}
	for name, want := range map[string]string{
		"a b/c:d@e&f=g+h$i,j;k#l?m%n": "a%20b/c%3Ad%40e%26f%3Dg%2Bh%24i%2Cj%3Bk%23l%3Fm%25n",
		"-_.!~*'()é":                  "-_.!~*'()%C3%A9",
	} {
		if got := pathURL(name); got != want {
			t.Errorf("pathURL(%q) = %q, want %q (encodeURIComponent's, a part at a time)", name, got, want)
		}
	}
}

// TestReportFileLinkNotUTF8: the link of a row to a replay file whose
// name is not UTF-8 is written out, not left to the page's script to
// make from the name: the name travels in JSON, where its bytes that are
// not UTF-8 become U+FFFD, and encodeURIComponent of that is not the
// file's name (bad\xff.yaml was linked as bad%EF%BF%BD.yaml, a file
// that is not there; now bad%FF.yaml). A UTF-8 name is still left to the
// script.
func TestReportFileLinkNotUTF8(t *testing.T) {
	for name, want := range map[string]string{
		"subs/bad\xff.yaml": `"subs/bad%FF.yaml"`,
		"subs/é.yaml":       `1`,
	} {
		v := replay.Verdict{Name: name, Valid: true, Replayed: true, Score: 4, MaxTile: 4, Moves: 1}
		data, err := rowsJSON([]Entry{{Verdict: v, Source: pathURL(name)}}, sameSet{})
		if err != nil {
			t.Fatal(err)
		}
		var table struct{ Rows [][]json.RawMessage }
		if err := json.Unmarshal(data, &table); err != nil || len(table.Rows) != 1 || len(table.Rows[0]) < 11 {
			t.Fatalf("%q: %v %s", name, err, data)
		}
		if got := string(table.Rows[0][10]); got != want {
			t.Errorf("%q: the file's link %s, want %s", name, got, want)
		}
	}
}

// TestReportUnreadableNameShown: an unreadable replay's why, its error,
// names the file: the name's controls and format characters are shown
// there as in its name's cell (\u202e), in the data the page's script
// draws the table's why from. Before, a right-to-left override in the
// name turned the rest of the cell around.
func TestReportUnreadableNameShown(t *testing.T) {
	name := "subs/\u202elmay.ecila\x1b[31m"
	v := replay.Verdict{Name: name, Reason: replay.Malformed, Error: name + ": line 1: not a replay"}
	b := reportHTML(t, "batch", []Entry{{Verdict: v}})
	rows := regexp.MustCompile(`(?s)<script type="application/json" id="tp-rows">(.*?)</script>`)
	if outside := rows.ReplaceAllString(b, ""); strings.ContainsAny(outside, "\u202e\x1b") {
		t.Errorf("the page shows the name's controls as they are")
	}
	m := rows.FindStringSubmatch(b)
	var table struct{ Rows [][]any }
	if m == nil || json.Unmarshal([]byte(m[1]), &table) != nil || len(table.Rows) != 1 || len(table.Rows[0]) < 12 {
		t.Fatalf("no rows: %v", m)
	}
	if why, _ := table.Rows[0][11].(string); why != `subs/\u202elmay.ecila\x1b[31m: line 1: not a replay` {
		t.Errorf("the why the script draws: %q", why)
	}
}

// TestReportUnreadableNameLines: an unreadable replay's error names
// the file with its newlines and tabs shown (\x0a), as the name's own
// cell and verify's error line show them; before, the cell read the
// name's newline as a space ("x ok     y.yaml: score 99999"), a name
// the name's cell did not show.
func TestReportUnreadableNameLines(t *testing.T) {
	name := "subs/evil\nok     bob.json: score 99999\t.json"
	v := replay.Verdict{Name: name, Reason: replay.Malformed, Error: name + ":1:119: moves: character 101: 'Q' is not an action\nsecond line"}
	data, err := rowsJSON([]Entry{{Verdict: v}}, sameSet{})
	if err != nil {
		t.Fatal(err)
	}
	var table struct{ Rows [][]any }
	if err := json.Unmarshal(data, &table); err != nil || len(table.Rows) != 1 || len(table.Rows[0]) < 12 {
		t.Fatalf("no rows: %v %s", err, data)
	}
	want := `subs/evil\x0aok     bob.json: score 99999\x09.json:1:119: moves: character 101: 'Q' is not an action` + "\nsecond line"
	if why, _ := table.Rows[0][colWhat].(string); why != want {
		t.Errorf("the why the script draws:\n%q\nwant\n%q", why, want)
	}
}

// TestBatchReportClaimNamedTwice: a replay named more than once (a file
// given on the command line and in its directory, say) has its claimed
// score in every row, whether the workers verify each copy before or after
// the rows before it are added; before 2026-12-07 the first row took the
// claim and the others showed a dash, a figure never computed.
func TestBatchReportClaimNamedTwice(t *testing.T) {
	data, err := os.ReadFile("../replays/minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.Decode("minimal.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	want := r.Claim.Score
	h, err := CreateBatchReport(filepath.Join(t.TempDir(), "r.html"), nil, replay.NewVerifier(), 10, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Three copies verified before any is added, then one verified and
	// added after them.
	var vds []replay.Verdict
	for range 3 {
		vds = append(vds, h.Verify("in/a.yaml", data))
	}
	for _, vd := range vds {
		h.Add(vd)
	}
	h.Add(h.Verify("in/a.yaml", data))
	if _, _, _, err := h.Finish("t"); err != nil {
		t.Fatal(err)
	}
	for i, e := range h.entries {
		if e.Claimed == nil || *e.Claimed != want {
			t.Errorf("row %d: claimed %v, want %d", i+1, e.Claimed, want)
		}
	}
	if len(h.claims) != 0 {
		t.Errorf("after Finish, claims held for %d names", len(h.claims))
	}
}
