package conformance

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
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

// TestFailureSaysWhereAndWhy: a failure in the text and JUnit reports
// names the case's file and line, the spawn its failing step forces and
// the source the case cites, so that it can be fixed from the report
// alone (JUnit showed the mismatches and a diff only, the text report
// neither the spawn nor the source, before 2026-12-08).
func TestFailureSaysWhereAndWhy(t *testing.T) {
	pack := loadRepoPack(t)
	rep, err := Run(t.Context(), pack, altered{&Builtin{}, wrongTwice}, Options{Profiles: []string{"classic"}, Run: regexp.MustCompile(`^core/`)})
	if err != nil {
		t.Fatal(err)
	}
	rep.Describe(pack)
	var r *CaseResult
	for i, res := range rep.Results {
		if res.Status.Failed() && res.Info != nil && res.Step > 0 && res.Info.Steps[res.Step-1].Spawn != "" {
			r = &rep.Results[i]
			break
		}
	}
	if r == nil {
		t.Fatal("no core case failed at a step that forces a spawn")
	}
	var text, junit bytes.Buffer
	rep.WriteText(&text, false)
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(junit.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var failure string
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Name == r.Case+" ["+r.Profile+"]" && c.Failure != nil {
				failure = c.Failure.Text
			}
		}
	}
	want := []string{fmt.Sprintf("at step %d (%s:%d)", r.Step, r.File, r.Line), "the step forces the spawn " + r.Info.Steps[r.Step-1].Spawn, "source: " + r.Info.Source}
	for what, out := range map[string]string{"text": text.String(), "JUnit": failure} {
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the %s report leaves out %q:\n%s", r.Key(), what, w, out)
			}
		}
	}
}

// eights spawns 8s: its start and each spawn are the engine's cells with
// the value 8.
type eights struct{ *Builtin }

func (e eights) New(profile, seed string, setup *engine.Setup) (ImplState, error) {
	st, err := e.Builtin.New(profile, seed, setup)
	cells := st.Board.Values()
	for r, row := range cells {
		for c, v := range row {
			if v != 0 {
				cells[r][c] = 8
			}
		}
	}
	st.Board, _ = engine.BoardFromValues(cells)
	return st, err
}

func (e eights) Move(dir engine.Direction, spawn *engine.Spawn) (MoveResult, error) {
	mr, err := e.Builtin.Move(dir, spawn)
	if sp := mr.Spawn; err == nil && sp != nil {
		sp.Value = 8
		mr.State.Board.Set(sp.Row, sp.Col, 8)
	}
	return mr, err
}

// TestMismatchWords: a step that only checks the state says "the board
// differs", not "the board after the step" (it has none); a spawned 8
// is "a tile of 8", not "a 8".
func TestMismatchWords(t *testing.T) {
	rep, err := Run(t.Context(), loadRepoPack(t), eights{&Builtin{}}, Options{Profiles: []string{"classic"}, Run: regexp.MustCompile(`^tp1/tp1-(opening-seed-7|seed-7-first-move)$`)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"tp1/tp1-opening-seed-7": "check: the board differs", "tp1/tp1-seed-7-first-move": "a tile of 8 spawned; profile classic spawns only 2 and 4"}
	for _, res := range rep.Results {
		if w, ok := want[res.Case]; ok {
			if res.Reason != w {
				t.Errorf("%s: %q, want %q", res.Case, res.Reason, w)
			}
			delete(want, res.Case)
		}
	}
	if len(want) > 0 {
		t.Errorf("not run: %v", want)
	}
}
