package conformance

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

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
		if _, err := parseCases("imported.yaml", cases); err != nil {
			t.Fatalf("the imported cases do not read back: %v\n%s", err, cases)
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
		r.compare(r)
		WriteMatrix(&sb, []*Report{r, r})
	})
}

// FuzzValidCaseID holds validCaseID to the regular expression it
// replaces.
func FuzzValidCaseID(f *testing.F) {
	for _, id := range []string{"merge-left", "a", "0_x", "-a", "_a", "Merge", "a b", "é", ""} {
		f.Add(id)
	}
	caseID := regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	f.Fuzz(func(t *testing.T, id string) {
		if got, want := validCaseID(id), caseID.MatchString(id); got != want {
			t.Errorf("validCaseID(%q) = %v, want %v", id, got, want)
		}
	})
}
