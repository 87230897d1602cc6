package strictjson

import (
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// TestOptionsStrict: a strict reading takes the plain document and
// refuses each way a document could mean two things to two readers.
func TestOptionsStrict(t *testing.T) {
	type doc struct {
		State string `json:"state"`
	}
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{`{"state":"x"}`, true},
		{`{"state":"x","state":"y"}`, false}, // a key given twice
		{`{"STATE":"x"}`, false},             // another case
		{`{"ſtate":"x"}`, false},             // Unicode folding
		{`{"state":"x","other":1}`, false},   // an unknown key
		{"{\"state\":\"\xff\"}", false},      // invalid UTF-8
		{`{"state":"x"} {}`, false},          // a second value
	} {
		var d doc
		err := json.Unmarshal([]byte(tc.in), &d, Options())
		if (err == nil) != tc.ok {
			t.Errorf("%q: %v, want ok %v", tc.in, err, tc.ok)
		}
	}
}

func TestKindName(t *testing.T) {
	for k, want := range map[jsontext.Kind]string{'n': "null", 't': "a boolean", 'f': "a boolean", '"': "a string", '0': "a number", '{': "an object", '[': "a list", 0: "a value"} {
		if got := KindName(k); got != want {
			t.Errorf("KindName(%q) = %q, want %q", k, got, want)
		}
	}
}
