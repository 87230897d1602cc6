package conformance

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// onlineOnly is the engine declaring online-2048 alone, with the
// features given: an implementation written from Online 2048's document,
// which has a 4 by 4 grid and no keep playing, declares no other board
// size and no keep-playing.
type onlineOnly struct {
	*Builtin
	features []string
}

func (o onlineOnly) Hello() (Hello, error) {
	h, err := o.Builtin.Hello()
	h.Profiles, h.Features = []string{"online-2048"}, o.features
	return h, err
}

// everyOnlineFeature is what Online 2048 has for an implementation to
// declare, and the protocol's capabilities: no board size beside 4x4, no
// keep-playing.
var everyOnlineFeature = []string{protocol.LoadState, protocol.ForceSpawn, protocol.SeedTP1, protocol.Undo, protocol.EndRun, protocol.Setup}

// TestStrictNotApplicable: an honest implementation of online-2048 passes
// --strict: the cases on other board sizes and of keep playing cannot
// apply to it, and are reported so, not as skips; the same
// implementation without load-state still fails --strict on its skips.
func TestStrictNotApplicable(t *testing.T) {
	pack := loadRepoPack(t)
	rep, err := Run(t.Context(), pack, onlineOnly{&Builtin{}, everyOnlineFeature}, Options{Properties: true})
	if err != nil {
		t.Fatal(err)
	}
	var sizes, keep int
	for _, r := range rep.Results {
		switch {
		case r.Status == Skip && !r.NotApplicable:
			t.Errorf("%s [%s] skipped: %s", r.Case, r.Profile, r.Reason)
		case r.Status == Skip && strings.HasPrefix(r.Reason, "not applicable: profile online-2048 plays only 4x4 boards (the case needs size:"):
			sizes++
		case r.Status == Skip && r.Reason == "not applicable: profile online-2048 has no keep playing: its win.then is stop, not ask (the case needs keep-playing)":
			keep++
		case r.Status == Skip:
			t.Errorf("%s [%s] not applicable: %s", r.Case, r.Profile, r.Reason)
		case r.Status != Pass:
			t.Errorf("%s [%s]: %s: %s", r.Case, r.Profile, r.Status, r.Reason)
		}
	}
	if sizes != 12 || keep != 3 {
		t.Errorf("%d cases of other sizes and %d of keep playing not applicable, want 12 and 3", sizes, keep)
	}
	if g := rep.Gate(GateOptions{Strict: true}); !g.Pass || g.Skipped != 0 || g.NotApplicable != 15 {
		t.Errorf("--strict gate %+v, want a pass with 15 not applicable", g)
	}
	for _, r := range rep.Results {
		if r.Key() == "core/size-3x3-merge-left@online-2048" && r.Reason != "not applicable: profile online-2048 plays only 4x4 boards (the case needs size:3x3)" {
			t.Errorf("%s: %q", r.Key(), r.Reason)
		}
	}

	// Without load-state: a gap in what was checked, which --strict fails.
	rep, err = Run(t.Context(), pack, onlineOnly{&Builtin{}, slices.DeleteFunc(slices.Clone(everyOnlineFeature), func(f string) bool { return f == protocol.LoadState })}, Options{Properties: true})
	if err != nil {
		t.Fatal(err)
	}
	_, total := rep.Summaries()
	if g := rep.Gate(GateOptions{Strict: true}); g.Pass || g.Skipped == 0 || g.Skipped != total.Skipped || g.NotApplicable != 15 {
		t.Errorf("--strict gate without load-state %+v, want a fail on its skips, the 15 not applicable apart", g)
	}
	if line := rep.Verdict.Line(); !strings.HasPrefix(line, "--strict: ") {
		t.Errorf("gate line %q", line)
	}
}

// TestStrictBuiltin: the engine itself passes --strict with every
// profile, the 3x3 ones too, whose property checks the suite does not
// have (they play 4x4 boards): not applicable, not a skip of the
// implementation's.
func TestStrictBuiltin(t *testing.T) {
	rep, err := Run(t.Context(), loadRepoPack(t), &Builtin{}, Options{Properties: true})
	if err != nil {
		t.Fatal(err)
	}
	na := 0
	for _, r := range rep.Results {
		if r.NotApplicable && r.Case == "properties/metamorphic" && r.Profile == "hallabois-3x3" {
			na++
			if r.Reason != "not applicable: the property check plays on 4x4 boards; profile hallabois-3x3 plays on 3x3" {
				t.Errorf("%s: %q", r.Key(), r.Reason)
			}
		}
	}
	// Where int has 32 bits the case at 2^53-1 moves is not applicable
	// too: the limit is the build's, not the implementation's.
	for _, r := range rep.Results {
		if r.NotApplicable && r.Case == "profiles/move-count-past-the-safe-integers-overflow" {
			na++
			if r.Reason != pastIntReason {
				t.Errorf("%s: %q", r.Key(), r.Reason)
			}
		}
	}
	if g := rep.Gate(GateOptions{Strict: true}); !g.Pass || g.Skipped != 0 || g.NotApplicable != 10+pastIntNA || na != 1+pastIntNA {
		t.Errorf("--strict gate %+v (%d not applicable properties/metamorphic under hallabois-3x3), want a pass", g, na)
	}
}

// TestNotApplicableFeatures: what a profile's own rules rule out, feature
// by feature, and what they never do (the protocol's capabilities).
func TestNotApplicableFeatures(t *testing.T) {
	prof := func(name string) *engine.Profile {
		p, err := engine.BuiltinProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	classic, online, tileMerge, small := prof("classic"), prof("online-2048"), prof("tile-merge"), prof("hallabois-3x3")
	for _, tc := range []struct {
		p       *engine.Profile
		feature string
		want    string
	}{
		{online, "size:3x3", "profile online-2048 plays only 4x4 boards"},
		{online, "size:4x4", ""},
		{small, "size:4x4", "profile hallabois-3x3 plays only 3x3 boards"},
		{small, "size:3x3", ""},
		{online, protocol.KeepPlaying, "profile online-2048 has no keep playing: its win.then is stop, not ask"},
		{tileMerge, protocol.KeepPlaying, "profile tile-merge has no keep playing: its win.then is continue, not ask"},
		{classic, protocol.KeepPlaying, ""},
		{classic, protocol.Undo, "profile classic has no undo"},
		{online, protocol.Undo, ""},
		{classic, protocol.EndRun, "profile classic has no End run"},
		{online, protocol.EndRun, ""},
		// Capabilities: never ruled out, whatever the profile.
		{classic, protocol.LoadState, ""},
		{small, protocol.ForceSpawn, ""},
		{tileMerge, protocol.SeedTP1, ""},
		{classic, protocol.Setup, ""},
	} {
		if got := ruledOut(tc.p, tc.feature); got != tc.want {
			t.Errorf("ruledOut(%s, %s) = %q, want %q", tc.p.Name, tc.feature, got, tc.want)
		}
	}
	// A feature declared runs the case as written under a built-in
	// profile; under a variant it cannot run, declared or not.
	all := Hello{Features: []string{"size:3x3", protocol.LoadState}}
	if na := notApplicable(all, online, []string{protocol.LoadState, "size:3x3"}, false); na != "" {
		t.Errorf("declared size:3x3 under online-2048: %q, want the case run", na)
	}
	if na := notApplicable(all, online, []string{protocol.LoadState, "size:3x3"}, true); na != "not applicable: profile online-2048 plays only 4x4 boards (the case needs size:3x3)" {
		t.Errorf("declared size:3x3 under a variant: %q", na)
	}
	if na := notApplicable(Hello{}, online, []string{protocol.LoadState, "size:3x3"}, false); na != "not applicable: profile online-2048 plays only 4x4 boards (the case needs size:3x3)" {
		t.Errorf("undeclared size:3x3 and load-state under online-2048: %q", na)
	}
	if na := notApplicable(Hello{}, online, []string{protocol.LoadState, protocol.Undo}, false); na != "" {
		t.Errorf("undeclared load-state and undo under online-2048: %q, want a skip, not not applicable", na)
	}
}

// TestNotApplicableVariant: under a variant, the engine (which declares
// every feature) gets the cases the variant's rules rule out as not
// applicable, not as skips: a case of another size, an undo, End run or
// keep playing it lacks.
func TestNotApplicableVariant(t *testing.T) {
	v := continueVariant(t)
	rep, err := Run(t.Context(), loadRepoPack(t), &Builtin{Profiles: []*engine.Profile{v}}, Options{Profiles: []string{v.Name}, Known: []*engine.Profile{v}})
	if err != nil {
		t.Fatal(err)
	}
	ruled := map[string]int{}
	for _, r := range rep.Results {
		switch {
		case r.Status == Skip && r.NotApplicable:
			for _, f := range regexp.MustCompile(`the case needs ([a-z0-9:-]+)`).FindAllStringSubmatch(r.Reason, -1) {
				ruled[strings.SplitN(f[1], ":", 2)[0]]++ // size:RxC as size
			}
		case r.Status == Skip && regexp.MustCompile(`its start board is|has no`).MatchString(r.Reason):
			t.Errorf("%s [%s] skipped, not applicable: %s", r.Case, r.Profile, r.Reason)
		}
	}
	if ruled["size"] == 0 || ruled[protocol.Undo] == 0 || ruled[protocol.EndRun] == 0 || ruled[protocol.KeepPlaying] == 0 {
		t.Errorf("not applicable under the variant, by feature: %v", ruled)
	}
}

// TestNotApplicableReports: a case not applicable to its profile is
// counted apart from the skips in every form: the text summary's n/a
// column, the JSON report (read back as it was written), JUnit (a skip,
// saying so), the matrix's brackets, and the gate's counts.
func TestNotApplicableReports(t *testing.T) {
	r := &Report{Impl: Hello{Name: "impl", Version: "1"}, Pack: "p", PackVersion: "1", Contract: 1, Results: []CaseResult{
		{Case: "core/a", Area: "core", Profile: "online-2048", Status: Pass},
		{Case: "core/size-3x3", Area: "core", Profile: "online-2048", Status: Skip, NotApplicable: true,
			Reason: "not applicable: profile online-2048 plays only 4x4 boards (the case needs size:3x3)"},
		{Case: "tp1/seed", Area: "tp1", Profile: "online-2048", Status: Skip, Reason: "needs seed-tp1"},
	}}
	areas, total := r.Summaries()
	if total.Skipped != 1 || total.NotApplicable != 1 || total.Passed != 1 || areas[0].NotApplicable != 1 || areas[1].NotApplicable != 0 {
		t.Errorf("summaries %+v, total %+v", areas, total)
	}
	var text strings.Builder
	r.WriteText(&text, true)
	for _, want := range []string{
		"  area           passed failed  xfail skipped    n/a\n",
		"  core                1      0      0       0      1\n",
		"  total               1      0      0       1      1\n",
		"skip  core/size-3x3 [online-2048]: not applicable: profile online-2048 plays only 4x4 boards (the case needs size:3x3)\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"notApplicable": true`) || strings.Count(js.String(), `"notApplicable"`) != 1 {
		t.Errorf("JSON:\n%s", js.String())
	}
	back, err := ReadReport(&js)
	if err != nil || !back.Results[1].NotApplicable || back.Results[2].NotApplicable {
		t.Errorf("JSON round trip: %v, %+v", err, back)
	}
	var junit bytes.Buffer
	if err := r.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(junit.String(), `<skipped message="not applicable: profile online-2048 plays only 4x4 boards (the case needs size:3x3)">`) ||
		!strings.Contains(junit.String(), `tests="3" failures="0" skipped="2"`) {
		t.Errorf("JUnit:\n%s", junit.String())
	}
	var m strings.Builder
	if err := WriteMatrix(&m, []*Report{r}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.String(), "| ✓ 1 (1 n/a) | skipped (1) | ✓ 1 (1, 1 n/a) |") || !strings.Contains(m.String(), "as n/a in the brackets") {
		t.Errorf("matrix:\n%s", m.String())
	}
	if g := r.Gate(GateOptions{}); !g.Pass || g.Skipped != 1 || g.NotApplicable != 1 {
		t.Errorf("gate %+v", g)
	}
	if g := r.Gate(GateOptions{Strict: true}); g.Pass || g.Line() != "--strict: 1 skipped, 0 unexpected passes, 0 failures on states no game reaches" {
		t.Errorf("--strict gate %+v: %s, want a fail on the one skip", g, g.Line())
	}
	r.Results = r.Results[:2] // the skip gone, the case not applicable remains
	if g := r.Gate(GateOptions{Strict: true}); !g.Pass {
		t.Errorf("--strict gate %+v, want a pass: the case not applicable is no skip", g)
	}
	var only strings.Builder
	if err := WriteMatrix(&only, []*Report{{Pack: "p", PackVersion: "1", Contract: 1, Results: r.Results[1:]}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(only.String(), "| n/a (1) | n/a (1) |") {
		t.Errorf("matrix of a case not applicable alone:\n%s", only.String())
	}
}

// TestTextTableAligned: each header of the text report's table ends in
// the column its numbers end in, with the n/a and not-run columns and
// without (before 2026-12-07 "skipped" stood one column past its
// numbers, and the columns after it with it).
func TestTextTableAligned(t *testing.T) {
	for _, results := range [][]CaseResult{
		{{Case: "core/a", Area: "core", Profile: "classic", Status: Pass}},
		{{Case: "core/a", Area: "core", Profile: "classic", Status: Skip, NotApplicable: true, Reason: "not applicable: x"}},
		{{Case: "core/a", Area: "core", Profile: "classic", Status: NotRun, Reason: "not run: x"}},
		{{Case: "core/a", Area: "core", Profile: "classic", Status: Skip, NotApplicable: true, Reason: "not applicable: x"},
			{Case: "core/b", Area: "core", Profile: "classic", Status: NotRun, Reason: "not run: x"}},
	} {
		r := &Report{Impl: Hello{Name: "impl"}, Results: results}
		var text strings.Builder
		r.WriteText(&text, false)
		var table []string
		for _, line := range strings.Split(text.String(), "\n") {
			if strings.HasPrefix(line, "  area ") || strings.HasPrefix(line, "  core ") || strings.HasPrefix(line, "  total ") {
				table = append(table, line)
			}
		}
		if len(table) != 3 {
			t.Fatalf("no table in\n%s", text.String())
		}
		ends := func(line string) (out []int) {
			for i := 1; i <= len(line); i++ {
				if line[i-1] != ' ' && (i == len(line) || line[i] == ' ') {
					out = append(out, i)
				}
			}
			return out[1:] // the area's name is left-aligned
		}
		for _, row := range table[1:] {
			if !slices.Equal(ends(table[0]), ends(row)) {
				t.Errorf("the headers and the numbers do not line up:\n%s\n%s", table[0], row)
			}
		}
	}
}
