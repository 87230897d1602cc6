package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// FuzzImportPGS feeds arbitrary documents to the PGS importer: it returns
// an error or a profile and a case file, never panics, and a case file it
// returns reads back as cases of that profile.
func FuzzImportPGS(f *testing.F) {
	if doc, err := os.ReadFile("testdata/pgs-2048.json"); err == nil {
		f.Add(doc)
	}
	f.Add([]byte(`{"testCases":[{"id":"x","initialState":{"board":[[2,2,null,null]]},"actions":[{"type":"move","direction":"left"}],"expectedState":{}}]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, cases, err := ImportPGS(data, "fuzzed", "fuzz")
		if err != nil {
			return
		}
		if p == nil || p.Validate() != nil {
			t.Fatalf("ImportPGS returned no error and an invalid profile %+v", p)
		}
		if _, err := ParseCases("imported.yaml", cases); err != nil {
			t.Fatalf("the imported cases do not read back: %v\n%s", err, cases)
		}
	})
}

// FuzzExecAnswer feeds arbitrary lines to what the exec driver makes of an
// implementation's answer: an error or a state, never a panic.
func FuzzExecAnswer(f *testing.F) {
	f.Add([]byte(`{"id":1,"ok":true,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0},"changed":true,"gained":4,"spawn":{"row":0,"col":1,"value":2}}`))
	f.Add([]byte(`{"id":1,"ok":true,"state":{"board":[[3]]}}`))
	f.Add([]byte(`{"state":{"board":[[2,2],[2]]},"changed":false}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var w wire
		if json.Unmarshal(data, &w) != nil {
			return
		}
		st, err := w.state()
		if err != nil {
			return
		}
		if st.Board.Rows() == 0 {
			t.Fatalf("a state without a board from %q", data)
		}
		moveResult(st, w.Changed, w.Gained, w.Spawn)
	})
}

// FuzzHTTPAnswer feeds arbitrary answers to what the HTTP driver makes of
// a server's response: an error or a state, never a panic.
func FuzzHTTPAnswer(f *testing.F) {
	f.Add([]byte(`{"ok":true,"state":{"x":1},"observation":{"board":[[2,0],[0,0]],"score":4,"moves":1},"legalActions":[{"type":"move","direction":"up"},{"type":"move","direction":"sideways"}]}`))
	f.Add([]byte(`{"ok":true,"state":{},"observation":{"board":[]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r httpResponse
		if json.Unmarshal(data, &r) != nil {
			return
		}
		h := &HTTP{}
		if st, err := h.take(&r); err == nil && st.Board.Rows() == 0 {
			t.Fatalf("a state without a board from %q", data)
		}
	})
}

// FuzzReadReport feeds arbitrary JSON to ReadReport, as --baseline and
// tileproof matrix do, and writes what it reads in every form: never a
// panic, whatever the boards or statuses inside.
func FuzzReadReport(f *testing.F) {
	if rep, err := os.ReadFile("adapters/original-2048.report.json"); err == nil {
		f.Add(rep)
	}
	f.Add([]byte(`{"results":[{"case":"a/b","area":"a","status":"board-diverged","step":1,"start":"2 2\n. .","want":"4 .\n. .","got":"2 2"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ReadReport(bytes.NewReader(data))
		if err != nil {
			return
		}
		var sb strings.Builder
		r.WriteText(&sb, true)
		r.WriteJSON(&sb)
		r.WriteJUnit(&sb)
		r.Compare(r)
		WriteMatrix(&sb, []*Report{r, r})
	})
}
