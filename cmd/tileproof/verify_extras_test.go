package main

import (
	"encoding/json"
	"testing"

	"github.com/tileproof/tileproof/replay"
)

// TestVerdictExtrasAdd: the extras, as verify, show --html and the
// report add them, check the think times of every replay that can be
// read, and analyse the legal games only: a valid one, and one only
// --strict made invalid; not a game that broke the rules.
func TestVerdictExtrasAdd(t *testing.T) {
	var checked, analysed []string
	x := verdictExtras{
		checkTimes: func(r *replay.Replay) *replay.TimesCheck {
			checked = append(checked, r.Profile)
			return &replay.TimesCheck{Sealed: true}
		},
		analyse: func(name string, r *replay.Replay) json.RawMessage {
			analysed = append(analysed, name)
			return json.RawMessage(`{}`)
		},
	}
	verdicts := []replay.Verdict{
		{Name: "valid", Valid: true},
		{Name: "strict", Reason: replay.Implausible},
		{Name: "illegal", Reason: replay.IllegalMove},
		{Name: "unreadable", Reason: replay.Malformed},
	}
	for _, vd := range verdicts {
		x.add(&vd, &replay.Replay{Profile: vd.Name})
		if (vd.ThinkTimes != nil) != (vd.Name != "unreadable") || (vd.Analysis != nil) != (vd.Name == "valid" || vd.Name == "strict") {
			t.Errorf("%s: times %v, analysis %s", vd.Name, vd.ThinkTimes, vd.Analysis)
		}
	}
	if len(checked) != 3 || len(analysed) != 2 || analysed[0] != "valid" || analysed[1] != "strict" {
		t.Errorf("times checked for %v, analysed %v", checked, analysed)
	}
}
