package htmlview

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/replay"
)

// TestReportProfile: the report says under which profile each replay was
// verified, so that a game under the wrong profile (wrong-profile.yaml:
// after-end, "target reached") reads as such: the table's data carries
// the batch's profiles and a number a row (none for an unreadable
// replay), the list's verdict cell the profile, and the verdict filter
// a choice a profile with its count when the batch holds more than one.
// Before 2026-12-07 the report named no profile.
func TestReportProfile(t *testing.T) {
	entries := corpusEntries(t)
	html := reportHTML(t, "batch", entries)
	m := rowsScript.FindStringSubmatch(html)
	var d struct {
		Profiles []string
		Prof     []int
	}
	if m == nil || json.Unmarshal([]byte(m[1]), &d) != nil {
		t.Fatal("no table")
	}
	if len(d.Prof) != len(entries) || len(d.Profiles) < 2 || !slices.IsSorted(d.Profiles) {
		t.Fatalf("profiles %v, %d numbers for %d replays", d.Profiles, len(d.Prof), len(entries))
	}
	counts := map[string]int{}
	wrong := false
	for i, e := range entries {
		p := e.Verdict.Profile
		got := ""
		if k := d.Prof[i]; k > 0 {
			got = d.Profiles[k-1]
		}
		if got != p {
			t.Errorf("%s: profile %q, want %q", e.Verdict.Name, got, p)
		}
		counts[p]++
		if strings.HasSuffix(e.Verdict.Name, "wrong-profile.yaml") {
			wrong = true
			if want := `<td><span class="verdict invalid">after-end</span><span class="prof">` + p + `</span></td>`; p == "" || !strings.Contains(html, want) {
				t.Errorf("the list lacks %s", want)
			}
		}
	}
	if !wrong || counts[""] == 0 {
		t.Fatalf("the corpus: wrong-profile.yaml %v, %d unreadable", wrong, counts[""])
	}
	for _, p := range d.Profiles {
		if want := fmt.Sprintf(`<option value="profile:%s">profile %s %d</option>`, p, p, counts[p]); !strings.Contains(html, want) {
			t.Errorf("the verdict filter lacks %s", want)
		}
	}
	// One profile: no choice to make; none: nothing at all.
	one := []Entry{{Verdict: replay.Verdict{Name: "a.yaml", Valid: true, Replayed: true, Profile: "tile-merge"}}}
	if h := reportHTML(t, "one", one); strings.Contains(h, `value="profile:`) || !strings.Contains(h, `"profiles":["tile-merge"],"prof":[1]`) {
		t.Error("a batch of one profile: a filter of it, or no profile")
	}
	none := []Entry{{Verdict: replay.Verdict{Name: "a.yaml", Reason: replay.Malformed, Error: "x"}}}
	if h := rowsScript.FindString(reportHTML(t, "none", none)); strings.Contains(h, `"profiles"`) || strings.Contains(h, `"prof"`) {
		t.Error("a batch of no profile carries profiles")
	}
}

// TestBrowserReportProfile: the table's verdict cell names the profile
// under the verdict (none for an unreadable replay), and the verdict
// filter's profile choice shows that profile's replays alone.
func TestBrowserReportProfile(t *testing.T) {
	t.Parallel()
	entries := corpusEntries(t)
	ctx := openIn(t, tab(t), reportHTML(t, "batch", entries), 1280, 900, "", "body[data-ready]")
	cells := func() map[int]string {
		var got map[int]string
		js := eval[string](t, ctx, `JSON.stringify(Object.fromEntries(Array.from(document.querySelectorAll("#replays tbody tr")).map(r =>
			[+r.dataset.n, (r.cells[2].querySelector(".prof") || {textContent: ""}).textContent])))`)
		if err := json.Unmarshal([]byte(js), &got); err != nil {
			t.Fatal(err)
		}
		return got
	}
	all := cells()
	if len(all) != len(entries) {
		t.Fatalf("%d rows for %d replays", len(all), len(entries))
	}
	for n, p := range all {
		if want := entries[n-1].Verdict.Profile; p != want {
			t.Errorf("row %d: profile %q, want %q", n, p, want)
		}
	}
	want := entries[0].Verdict.Profile
	eval[any](t, ctx, fmt.Sprintf(`(e => { e.value = %q; e.dispatchEvent(new Event("change")); })(document.querySelector('[data-f="2"]'))`, "profile:"+want))
	shown := cells()
	n := 0
	for _, e := range entries {
		if e.Verdict.Profile == want {
			n++
		}
	}
	if len(shown) != n || n == 0 {
		t.Errorf("the filter profile:%s shows %d rows, want %d", want, len(shown), n)
	}
	for k, p := range shown {
		if p != want {
			t.Errorf("the filter profile:%s shows row %d, of %q", want, k, p)
		}
	}
	// The CSV of what is shown gives it after the verdict.
	lines := shownCSV(t, ctx)
	if len(lines) != n+1 || !strings.HasPrefix(lines[0], "n,replay,verdict,profile,claimed,") {
		t.Fatalf("the CSV: %q", lines)
	}
	for _, l := range lines[1:] {
		if f := strings.Split(l, ","); f[3] != want {
			t.Errorf("a CSV line: %q, want the profile %s", l, want)
		}
	}
}
