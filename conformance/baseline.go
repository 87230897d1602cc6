package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/tileproof/tileproof/internal/strictjson"
)

// WriteJSON writes the report as one JSON document, which --baseline reads
// back. The C1 controls and Unicode's format characters (bidirectional
// overrides among them) of the implementation's name and messages are
// written as \uXXXX escapes, as tileproof verify --json writes them: the
// same strings to a JSON reader, but nothing a terminal showing the
// report could act on (JSON escapes the C0 controls already).
func (r *Report) WriteJSON(w io.Writer) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", " ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	_, err := w.Write(escapeTerminalRunes(b.Bytes()))
	return err
}

// escapeTerminalRunes returns JSON text with its C1 controls and format
// characters written as \uXXXX escapes (a pair of them beyond the BMP);
// they occur only inside strings, where the escape is valid.
func escapeTerminalRunes(text []byte) []byte {
	if !bytes.ContainsFunc(text, terminalRune) {
		return text
	}
	out := make([]byte, 0, len(text)+64)
	for len(text) > 0 {
		r, n := utf8.DecodeRune(text)
		switch {
		case !terminalRune(r):
			out = append(out, text[:n]...)
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		text = text[n:]
	}
	return out
}

// terminalRune reports whether a terminal may act on r, written raw in
// JSON text: a C1 control or a format character.
func terminalRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r != utf8.RuneError && unicode.Is(unicode.Cf, r)
}

// ReadReport reads a report written by WriteJSON, strictly
// (internal/strictjson: a key unknown, in another case or given twice,
// invalid UTF-8 or anything after the report refused).
func ReadReport(rd io.Reader) (*Report, error) {
	var r Report
	dec := jsontext.NewDecoder(rd, strictjson.Options(), nanoseconds())
	err := jsonv2.UnmarshalDecode(dec, &r)
	if err == nil {
		if _, err = dec.ReadToken(); err == io.EOF {
			return &r, nil
		}
		err = fmt.Errorf("something after the report, at byte %d", dec.InputOffset())
	}
	return nil, fmt.Errorf("not a conformance report: %w", err)
}

// nanoseconds reads a duration as WriteJSON writes it: a number of
// nanoseconds.
func nanoseconds() jsonv2.Options {
	return jsonv2.WithUnmarshalers(jsonv2.UnmarshalFunc(func(b []byte, d *time.Duration) error {
		n, err := strconv.ParseInt(string(b), 10, 64)
		*d = time.Duration(n)
		return err
	}))
}

// Change is a case whose outcome differs from a baseline report.
type Change struct {
	Key    string `json:"key"`
	Before Status `json:"before"`
	After  Status `json:"after"`
	Reason string `json:"reason,omitempty"`
	// How says what differs in a failure that failed in the baseline
	// too (a changed failure): the step, the mismatched fields.
	How string `json:"how,omitempty"`
}

// failureShape is what a baseline keeps of a failure to tell a changed
// one: its class, its step and the fields its step mismatched.
func failureShape(res CaseResult) string {
	fields := make([]string, len(res.Mismatches))
	for i, m := range res.Mismatches {
		fields[i] = m.Field
	}
	return fmt.Sprintf("%s at step %d on [%s]", res.Status, res.Step, strings.Join(fields, ", "))
}

// compare lists the regressions (passing in base, failing now), the fixes
// (failing in base, passing now) and the changed failures (failing in
// both, in another class, at another step or on other fields) of r
// against base. Results on states no game reaches are left out: they do
// not decide a run.
func (r *Report) compare(base *Report) (regressions, fixes, changed []Change) {
	before := map[string]CaseResult{}
	for _, res := range base.Results {
		before[res.Key()] = res
	}
	for _, res := range r.Results {
		if res.Unreachable != "" {
			continue
		}
		b, ok := before[res.Key()]
		switch {
		case !ok:
			if res.Status.Failed() {
				regressions = append(regressions, Change{Key: res.Key(), Before: "new", After: res.Status, Reason: res.Reason})
			}
		case !b.Status.Failed() && res.Status.Failed():
			regressions = append(regressions, Change{Key: res.Key(), Before: b.Status, After: res.Status, Reason: res.Reason})
		case b.Status.Failed() && res.Status == Pass:
			fixes = append(fixes, Change{Key: res.Key(), Before: b.Status, After: res.Status})
		case b.Status.Failed() && res.Status.Failed() && failureShape(b) != failureShape(res):
			changed = append(changed, Change{Key: res.Key(), Before: b.Status, After: res.Status, Reason: res.Reason,
				How: failureShape(b) + " -> " + failureShape(res)})
		}
	}
	return regressions, fixes, changed
}

// Gate is a run's verdict as the command gives it (its exit status), for
// every report to show the same: under a baseline, its regressions, fixes
// and changed failures; without one, the unexpected failures (those an
// expectations file does not name). Failures on states no game reaches
// are counted apart, and decide only under Strict. A check that did not
// run ([NotRun]: the run was cut short) is not passing: with a baseline
// or without, one fails the gate.
type Gate struct {
	Baseline      string   `json:"baseline,omitempty"` // the baseline report's file, "" for none
	Regressions   []Change `json:"regressions,omitempty"`
	Fixes         []Change `json:"fixes,omitempty"`
	Changed       []Change `json:"changed,omitempty"`
	AcceptChanged bool     `json:"acceptChanged,omitempty"` // changed failures do not fail the gate
	Failed        int      `json:"failed"`                  // unexpected failures on reachable states
	Unreachable   int      `json:"unreachableFailures"`     // failures on states no game reaches
	Strict        bool     `json:"strict,omitempty"`
	Skipped       int      `json:"skipped"`                 // checks that did not run: the implementation does not declare what they need
	NotApplicable int      `json:"notApplicable,omitempty"` // skips of cases the profile's own rules rule out: never failing
	XPass         int      `json:"unexpectedPasses"`        // expected failures that passed
	NotRun        int      `json:"notRun"`                  // checks a run cut short did not reach or finish
	Pass          bool     `json:"pass"`
	// known are the failures the baseline has, unchanged: not the run's
	// to answer for.
	known map[string]bool
}

// GateOptions shape a [Report.Gate].
type GateOptions struct {
	Baseline      *Report // nil: no baseline
	BaselineFile  string
	AcceptChanged bool // a changed failure passes the gate
	Strict        bool // a failure on a state no game reaches fails too, and without a baseline a skip (not one not applicable) or an unexpected pass
}

// Gate decides the run and records the verdict on the report (r.Gate),
// which the text, JSON, JUnit and HTML forms read.
func (r *Report) Gate(o GateOptions) *Gate {
	g := &Gate{Baseline: o.BaselineFile, AcceptChanged: o.AcceptChanged, Strict: o.Strict, known: map[string]bool{}}
	failed, xpass := r.Failures()
	_, total := r.Summaries()
	g.Failed, g.Unreachable = len(failed), len(r.UnreachableFailures())
	g.Skipped, g.NotApplicable, g.XPass, g.NotRun = total.Skipped, total.NotApplicable, len(xpass), total.NotRun
	if o.Baseline != nil {
		g.Regressions, g.Fixes, g.Changed = r.compare(o.Baseline)
		surprising := map[string]bool{}
		for _, ch := range append(slices.Clone(g.Regressions), g.Changed...) {
			surprising[ch.Key] = true
		}
		for _, res := range failed {
			if !surprising[res.Key()] {
				g.known[res.Key()] = true
			}
		}
		g.Pass = len(g.Regressions) == 0 && (len(g.Changed) == 0 || o.AcceptChanged)
	} else {
		g.Pass = g.Failed == 0
	}
	// Not reached is not passed. Strict is certification: without a
	// baseline a skip or an unexpected pass fails too; with or without
	// one, a failure on a state no game reaches. A case the profile's own
	// rules rule out is not a skip here: it could not apply.
	if g.NotRun > 0 || o.Strict && (g.Unreachable > 0 || o.Baseline == nil && (g.Skipped > 0 || g.XPass > 0)) {
		g.Pass = false
	}
	r.Verdict = g
	return g
}

// Line is the gate's verdict in one line, as the command prints it and
// the page shows it: under a baseline "against FILE (gate: pass): 0
// changed, 0 regressions, 0 fixes"; without one the unexpected failures,
// or under Strict what else failed the run, or "no unexpected failure";
// then the checks not run, when the run was cut short.
func (g *Gate) Line() string {
	apart := ""
	if g.Unreachable > 0 {
		apart = fmt.Sprintf("; %s on states no game reaches, apart", count(g.Unreachable, "failure", "failures"))
	}
	if g.NotRun > 0 {
		apart += fmt.Sprintf("; %s not run (the run was cut short)", count(g.NotRun, "check", "checks"))
	}
	switch {
	case g.Baseline != "":
		verdict, accepted := "pass", ""
		if !g.Pass {
			verdict = "fail"
		}
		if g.AcceptChanged && len(g.Changed) > 0 {
			accepted = " (accepted)"
		}
		return fmt.Sprintf("against %s (gate: %s): %d changed%s%s, %d regressions, %d fixes",
			g.Baseline, verdict, len(g.Changed), accepted, apart, len(g.Regressions), len(g.Fixes))
	case g.Failed > 0:
		return count(g.Failed, "unexpected failure", "unexpected failures") + apart
	case g.NotRun > 0:
		return "no unexpected failure in what ran" + apart
	case !g.Pass:
		return fmt.Sprintf("--strict: %d skipped, %s, %s on states no game reaches", g.Skipped,
			count(g.XPass, "unexpected pass", "unexpected passes"), count(g.Unreachable, "failure", "failures"))
	}
	return "no unexpected failure" + apart
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Known reports whether the gate's baseline has the failure of result
// key (CASE@PROFILE), unchanged: it does not fail the gate.
func (g *Gate) Known(key string) bool { return g != nil && g.known[key] }
