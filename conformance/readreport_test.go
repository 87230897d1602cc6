package conformance

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// TestReadReportStrict: a report reads back as WriteJSON wrote it, its
// duration included, and the reports in the repository read; a key in
// another case, a key given twice, an unknown key and data after the
// report are refused.
func TestReadReportStrict(t *testing.T) {
	var buf bytes.Buffer
	in := &Report{Pack: "p", Duration: 1234567 * time.Microsecond, Results: []CaseResult{{Case: "a/b", Area: "a", Status: Pass}}}
	in.WriteJSON(&buf)
	back, err := ReadReport(&buf)
	if err != nil || back.Duration != in.Duration || back.Pack != "p" || len(back.Results) != 1 || back.Results[0].Case != "a/b" {
		t.Fatalf("%v, %+v", err, back)
	}
	for _, f := range []string{"adapters/original-2048.report.json", "adapters/webcomponent-2048.report.json", "adapters/2048term.report.json", "adapters/2048c/2048c.report.json"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if r, err := ReadReport(bytes.NewReader(data)); err != nil || r.Duration <= 0 || len(r.Results) == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	for doc, says := range map[string]string{
		`{"PACK":"p"}`:            `unknown object member name "PACK"`,
		`{"pack":"p","pack":"q"}`: "duplicate object member name",
		`{"pack":"p","extra":1}`:  `unknown object member name "extra"`,
		`{"pack":"p"} {}`:         "something after the report",
		`{"durationNs":"1s"}`:     "durationNs",
		"{\"pack\":\"p\xff\"}":    "invalid UTF-8",
	} {
		if _, err := ReadReport(strings.NewReader(doc)); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: %v, want %q", doc, err, says)
		}
	}
}
