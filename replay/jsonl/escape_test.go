package jsonl

import (
	"encoding/json"
	"testing"

	"github.com/tileproof/tileproof/replay"
)

// TestAppendVerdictEscapes: a verdict line escapes what an HTML page's
// script and a terminal could act on, as `verify --json` does.
func TestAppendVerdictEscapes(t *testing.T) {
	vd := replay.Verdict{Name: "a<b>&\u2028\u202e\u0085\u200b\ufeff\u00adz", Reason: replay.Malformed, Error: "x"}
	got := string(AppendVerdict(nil, vd))
	want := `{"name":"a\u003cb\u003e\u0026\u2028\u202e\u0085\u200b\ufeff\u00adz","valid":false,"reason":"malformed","error":"x"}` + "\n"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Format characters whose UTF-8 starts with another byte: the Arabic
	// letter mark (a bidirectional mark), the Mongolian vowel separator,
	// a language tag.
	vd.Name = "a\u061c\u180e\U000e0001z"
	got = string(AppendVerdict(nil, vd))
	want = `{"name":"a\u061c\u180e\udb40\udc01z","valid":false,"reason":"malformed","error":"x"}` + "\n"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	var back struct{ Name string }
	if err := json.Unmarshal([]byte(got), &back); err != nil || back.Name != vd.Name {
		t.Errorf("read back: %q, %v; want %q", back.Name, err, vd.Name)
	}
}
