package conformance

import (
	"encoding/xml"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// An implementation names itself and words its messages: each is made
// safe for where the report writes it (issue 25, items 5 and 6).

// hostileImpl is a name that, raw, repaints a terminal's line and sets
// its title, and in Markdown ends its cell, adds a row of passes, and
// comments out the real row.
const hostileImpl = "evil\x1b[2K\rok\x1b]0;t\x07 | ✓ 1 | ✓ 1 |\n| honest 1 | ✓ 1 | ✓ 1 |\n<!--"

func hostileReport() *Report {
	res := matrixResult("core", BoardDiverged)
	res.Profile = "classic\x1b[31m"
	res.Reason = "the board \x1b]52;c;cm0gLXJmIH4=\x07 differs"
	res.Mismatches = []StepMismatch{{Field: "board", Status: BoardDiverged, Text: "got \x1b[1A\x1b[2K ok"}}
	return matrixReport(hostileImpl, "1\x1b[0m", res)
}

// TestTextReportHostileName: conform's text report shows the name, the
// profile and the messages visibly (\x1b), never raw.
func TestTextReportHostileName(t *testing.T) {
	var b strings.Builder
	hostileReport().WriteText(&b, true)
	out := b.String()
	for i := 0; i < len(out); i++ {
		if c := out[i]; c < 0x20 && c != '\n' || c == 0x7f {
			t.Fatalf("byte %#x at %d: %q", c, i, out)
		}
	}
	if !strings.Contains(out, `evil\x1b[2K\x0dok`) || !strings.Contains(out, `\x1b]52;c;`) {
		t.Errorf("the name or the message is not shown:\n%s", out)
	}
}

// TestMatrixHostileName: the hostile name is one row, failing, with its
// text shown escaped; it adds no row and comments nothing out (C14).
func TestMatrixHostileName(t *testing.T) {
	var b strings.Builder
	if err := WriteMatrix(&b, []*Report{hostileReport(), matrixReport("honest", "1", matrixResult("core", Pass))}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	var rows []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| ") {
			rows = append(rows, line)
		}
	}
	if len(rows) != 3 || strings.Contains(out, "<!--") || strings.Contains(out, "\x1b") {
		t.Fatalf("rows %d:\n%s", len(rows), out)
	}
	// The hostile row: its cells split on unescaped pipes are the name,
	// core and total, and it fails.
	cells := strings.Split(strings.ReplaceAll(rows[1], `\|`, ""), "|")
	if len(cells) != 5 || !strings.Contains(cells[2], "✗ 1 of 1") || !strings.HasPrefix(rows[2], "| honest 1 | ✓ 1 |") {
		t.Errorf("rows:\n%s", strings.Join(rows, "\n"))
	}
}

// TestJUnitHostileName: encoding/xml escapes the name and the messages:
// the document parses back to one suite with the name whole, its control
// characters replaced (XML 1.0 has none).
func TestJUnitHostileName(t *testing.T) {
	r := hostileReport()
	r.Impl.Name = `</testsuites><testsuites name="x">` + hostileImpl
	var b strings.Builder
	if err := r.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if !strings.HasPrefix(doc.Name, `tileproof conformance: </testsuites><testsuites name="x">evil`) || len(doc.Suites) != 1 || strings.Contains(b.String(), "\x1b") {
		t.Errorf("name %q, %d suites\n%s", doc.Name, len(doc.Suites), b.String())
	}
	// The controls and format characters show as a terminal shows them,
	// not as U+FFFD, and no right-to-left override is left to act on a
	// CI's page (before 2026-12-07 it was written raw).
	r.Impl.Name += "\u202e"
	r.Results[0].Reason += "\u2067"
	b.Reset()
	if err := r.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(b.String(), "\u202e\u2067\ufffd") || !strings.Contains(b.String(), `evil\x1b[2K\x0dok`) || !strings.Contains(b.String(), `differs\u2067`) {
		t.Errorf("%s", b.String())
	}
}

// noControlBytes fails unless out has no control byte but newlines.
func noControlBytes(t *testing.T, what, out string) {
	t.Helper()
	for i := 0; i < len(out); i++ {
		if c := out[i]; c < 0x20 && c != '\n' || c == 0x7f {
			t.Fatalf("%s: byte %#x at %d: %q", what, c, i, out)
		}
	}
}

// TestExploreObserveTextHostile: conform --explore's and --observe's
// summaries show the implementation's name and messages visibly
// (\x1b), as the report does (before 2026-12-07 they were written raw).
func TestExploreObserveTextHostile(t *testing.T) {
	res := hostileReport().Results[0]
	impl := Hello{Name: hostileImpl, Version: "1\x1b[0m"}
	found := &FoundCase{ID: "explore-classic-x", YAML: []byte("cases: []\n"), Case: &Case{}, Result: res, Reproduced: true}
	x := &Exploration{Impl: impl, Profiles: []string{"classic"}, Divergences: []ExploreDivergence{{Game: 1, Move: 2, Profile: "classic", Result: res, Found: found}},
		Stopped: "interrupted \x1b[2K"}
	var b strings.Builder
	x.WriteText(&b)
	noControlBytes(t, "explore", b.String())
	if !strings.Contains(b.String(), `evil\x1b[2K\x0dok`) || !strings.Contains(b.String(), `\x1b]52;c;`) {
		t.Errorf("the name or the message is not shown:\n%s", b.String())
	}
	o := &ObserveResult{Impl: impl, Profiles: []string{"classic"}, Divergences: []Observed{{Game: 1, Move: 2, Profile: "classic", Player: "random", Result: res}},
		Results: []CaseResult{res}}
	b.Reset()
	o.WriteText(&b)
	noControlBytes(t, "observe", b.String())
	if !strings.Contains(b.String(), `evil\x1b[2K\x0dok`) || !strings.Contains(b.String(), `\x1b]52;c;`) {
		t.Errorf("the name or the message is not shown:\n%s", b.String())
	}
}

// hostileBuiltin is the engine under a hostile name, refusing every
// move left with a hostile message.
type hostileBuiltin struct{ *Builtin }

func (h hostileBuiltin) Hello() (Hello, error) {
	hello, err := h.Builtin.Hello()
	hello.Name, hello.Version = hostileImpl, "1\x1b[0m"
	return hello, err
}

func (h hostileBuiltin) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	if d == engine.Left {
		return MoveResult{}, &RuleError{Code: "illegal-move", Message: "no\x1b[2K\rok\u202e\x00\nsteps: []"}
	}
	return h.Builtin.Move(d, spawn)
}

// TestExploreHostileName: a divergence of an implementation whose name
// and messages hold control characters is written as a case all the
// same, their controls shown (\x1b) in its source, description and
// comment: before 2026-12-07 the case did not read back (a YAML
// document holds no control character), and the run stopped, exit 2.
func TestExploreHostileName(t *testing.T) {
	rep, err := Explore(t.Context(), hostileBuiltin{&Builtin{}}, ExploreOptions{Games: 2, Seed: 1, Profiles: []string{"classic"}, Impl: "exec:evil\x1b[8m"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Divergences) == 0 || rep.Divergences[0].Found == nil {
		t.Fatalf("divergences %+v", rep.Divergences)
	}
	yaml := string(rep.Divergences[0].Found.YAML)
	noControlBytes(t, "the case", yaml)
	for _, want := range []string{`evil\x1b[2K\x0dok`, `exec:evil\x1b[8m`, `no\x1b[2K\x0dok\u202e\x00`} {
		if !strings.Contains(yaml, want) {
			t.Errorf("the case does not show %s:\n%s", want, yaml)
		}
	}
}

// TestJSONReportNoTerminalRunes: conform --json writes the C1 controls
// and format characters of the implementation's name and messages as
// \u escapes (\u009b, \u202e, a pair beyond the BMP), which JSON itself
// writes raw, as verify --json does; the report reads back the same.
func TestJSONReportNoTerminalRunes(t *testing.T) {
	r := hostileReport()
	r.Impl.Name = "a\u009b2J\u202eb\U000e0001"
	r.Results[0].Reason = "r\u2067\u0085"
	var b strings.Builder
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, c := range []rune{0x9b, 0x202e, 0xe0001, 0x2067, 0x85} {
		if strings.ContainsRune(out, c) {
			t.Errorf("%U written raw", c)
		}
	}
	if !strings.Contains(out, `a\u009b2J\u202eb\udb40\udc01`) {
		t.Errorf("the name: %s", out[:200])
	}
	back, err := ReadReport(strings.NewReader(out))
	if err != nil || back.Impl.Name != r.Impl.Name || back.Results[0].Reason != r.Results[0].Reason {
		t.Errorf("read back: %v, %q", err, back.Impl.Name)
	}
}

// longRefuser is the engine refusing every move with a message of
// 65,536 four-byte characters, the longest the exec protocol allows.
type longRefuser struct{ *Builtin }

var longRefusal = strings.Repeat("\U0001F600", 65536)

func (l longRefuser) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	return MoveResult{}, &RuleError{Code: "illegal-move", Message: longRefusal}
}

// TestExploreKeepsLittle: exploring an implementation that refuses
// every move with the longest message allowed keeps a little of each
// game's divergence after the first of its kind, not all of it: 2,000
// games held 980 MB (before 2026-12-07).
func TestExploreKeepsLittle(t *testing.T) {
	var rep *Exploration
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rep, err := Explore(t.Context(), longRefuser{&Builtin{}}, ExploreOptions{Games: 100, Seed: 1, Profiles: []string{"classic"}})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if len(rep.Divergences) != 100 || !strings.Contains(rep.Divergences[0].Result.Reason, longRefusal[:maxMessage-16]) { // the first: the message bounded (TestLongMessageBounded)
		t.Fatalf("%d divergences", len(rep.Divergences))
	}
	if d := rep.Divergences[99].Result.Reason; len(d) > 250 || !strings.HasPrefix(d, "move ") {
		t.Errorf("the 100th divergence's reason: %.300s", d)
	}
	if n := int64(after.HeapAlloc) - int64(before.HeapAlloc); n > 8<<20 {
		t.Errorf("the exploration holds %.1f MB of heap", float64(n)/(1<<20))
	}
	runtime.KeepAlive(rep)
}

// longStartRefuser is the engine refusing every new game and load with
// the longest message allowed: each case fails at its start.
type longStartRefuser struct{ *Builtin }

func (l longStartRefuser) New(profile, seed string, setup *engine.Setup) (ImplState, error) {
	return ImplState{}, &RuleError{Code: "unsupported", Message: longRefusal}
}

func (l longStartRefuser) Load(profile string, st LoadState) (ImplState, error) {
	return ImplState{}, &RuleError{Code: "unsupported", Message: longRefusal}
}

// longFailer is the engine whose every move fails in the driver, the
// driver's message as long as the longest refusal.
type longFailer struct{ *Builtin }

func (l longFailer) Move(d engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	return MoveResult{}, &DriverError{Status: ProtocolError, Msg: longRefusal}
}

// TestLongMessageBounded: a result keeps the first maxMessage bytes of an
// implementation's message and a note of how many it cut, however the
// message came (a refusal the rules do not make, a failed start, a
// property check's move, a driver's error), so that every report holds
// the bounded text.
func TestLongMessageBounded(t *testing.T) {
	kept := longRefusal[:maxMessage-16] // a refusal's code may come first
	note := regexp.MustCompile(`\.\.\. \(2580[0-9]{2} bytes cut\)`)
	for _, impl := range []Impl{longRefuser{&Builtin{}}, longStartRefuser{&Builtin{}}, longFailer{&Builtin{}}} {
		pack, err := DefaultPack()
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Run(t.Context(), pack, impl, Options{Profiles: []string{"classic"}, Properties: true})
		if err != nil {
			t.Fatal(err)
		}
		bounded := 0
		for _, res := range rep.Results {
			if len(res.Reason) > maxMessage+1000 {
				t.Fatalf("%s: a reason of %d bytes", res.Key(), len(res.Reason))
			}
			if strings.Contains(res.Reason, kept) && note.MatchString(res.Reason) {
				bounded++
			}
		}
		if bounded < 10 {
			t.Errorf("%T: %d reasons keep the message's first %d bytes and the note %q", impl, bounded, maxMessage, note)
		}
		var text, js, junit strings.Builder
		rep.WriteText(&text, true)
		rep.WriteJSON(&js)
		rep.WriteJUnit(&junit)
		for form, out := range map[string]string{"text": text.String(), "JSON": js.String(), "JUnit": junit.String()} {
			if strings.Contains(out, longRefusal[:maxMessage+4]) || !note.MatchString(out) {
				t.Errorf("%T: the %s report (%d bytes) holds more of the message than its first %d bytes, or no note", impl, form, len(out), maxMessage)
			}
		}
	}
}
