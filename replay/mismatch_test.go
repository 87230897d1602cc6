package replay

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMismatchJSON: a mismatch's JSON, alone or in a verdict, has both
// its present keys and its earlier ones, as encoding/json writes them.
func TestMismatchJSON(t *testing.T) {
	for _, m := range []Mismatch{
		{"score", "12", "16"},
		{"board", "2 . . .\n. . . .", "4 . . .\n. . . ."},
		{"result", `a "quoted" <name> & \ more`, "playing"},
	} {
		want, err := json.Marshal(struct {
			Field   string `json:"field"`
			Says    string `json:"replaySays"`
			Gives   string `json:"rulesGive"`
			Claimed string `json:"claimed"`
			Found   string `json:"found"`
		}{m.Field, m.Claimed, m.Found, m.Claimed, m.Found})
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(m)
		if err != nil || string(got) != string(want) {
			t.Errorf("json.Marshal(%q) = %s, %v; want %s", m, got, err, want)
		}
		vd := Verdict{Mismatches: []Mismatch{m, m}}
		var back struct{ Mismatches []map[string]string }
		if err := json.Unmarshal(vd.AppendJSON(nil), &back); err != nil {
			t.Fatal(err)
		}
		if len(back.Mismatches) != 2 {
			t.Fatalf("%s: %d mismatches; want 2", vd.AppendJSON(nil), len(back.Mismatches))
		}
		for _, got := range back.Mismatches {
			if got["field"] != m.Field || got["replaySays"] != m.Claimed || got["claimed"] != m.Claimed || got["rulesGive"] != m.Found || got["found"] != m.Found || len(got) != 5 {
				t.Errorf("verdict mismatch %v; want %q", got, m)
			}
		}
		if !strings.Contains(string(vd.AppendJSON(nil)), `"mismatches":[{"field":`) {
			t.Errorf("%s: no mismatches list", vd.AppendJSON(nil))
		}
	}
}
