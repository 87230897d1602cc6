package conformance

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// wrongTwice makes every move also add 2 to the score and count one move
// too many: each step it plays misses two expectations that do not hang
// on each other.
func wrongTwice(_ engine.Direction, mr *MoveResult) {
	if mr.Changed {
		mr.State.Score += 2
		mr.State.Moves++
	}
}

// TestEveryMismatchReported: a step that misses two expectations reports
// both, the first as the status, in the result and in every report (text,
// JSON, JUnit), not only the first.
func TestEveryMismatchReported(t *testing.T) {
	rep, err := Run(t.Context(), loadRepoPack(t), altered{&Builtin{}, wrongTwice}, Options{Profiles: []string{"classic"}, Run: regexp.MustCompile(`^core/`)})
	if err != nil {
		t.Fatal(err)
	}
	var r *CaseResult
	for i := range rep.Results {
		if rep.Results[i].Status == ScoreDiverged && len(rep.Results[i].Mismatches) >= 2 {
			r = &rep.Results[i]
			break
		}
	}
	if r == nil {
		t.Fatal("no core case failed with two mismatches")
	}
	fields := map[string]bool{}
	for _, m := range r.Mismatches {
		fields[m.Field] = true
	}
	if !fields["score"] || !fields["moves"] {
		t.Fatalf("%s: mismatches %+v, want score and moves among them", r.Key(), r.Mismatches)
	}
	var moves StepMismatch
	for _, m := range r.Mismatches {
		if m.Field == "moves" {
			moves = m
		}
	}
	var text, junit bytes.Buffer
	rep.WriteText(&text, false)
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for what, out := range map[string]string{"text": text.String(), "JUnit": junit.String(), "JSON": string(js)} {
		if !strings.Contains(out, moves.Text) && !strings.Contains(out, strings.ReplaceAll(moves.Text, `"`, `\"`)) {
			t.Errorf("the %s report leaves out the second mismatch %q", what, moves.Text)
		}
	}
}
