package main

import "testing"

// TestDecodeLineJSONStrict: the line command's JSON is read strictly,
// each refusal named: a key in another case, a key given twice, invalid
// UTF-8, data after the object and JSON cut short.
func TestDecodeLineJSONStrict(t *testing.T) {
	for in, want := range map[string]string{
		`{"LINEBEFORESWIPE":[2]}`:                       `unknown field "LINEBEFORESWIPE"; the input has only "lineBeforeSwipe"`,
		`{"lineBeforeSwipe":[2],"lineBeforeSwipe":[4]}`: `"lineBeforeSwipe" given twice`,
		"{\"lineBeforeSwipe\":[2],\"x\xff\":1}":         "invalid JSON at byte 25: invalid UTF-8",
		`{"lineBeforeSwipe":[2]} x`:                     "data after the object, at byte 24",
		" \n":                                           "empty input; want {\"lineBeforeSwipe\": [...]}",
		`{"lineBeforeSwipe":[2`:                         "invalid JSON: the input ends inside a value",
		`{"lineBeforeSwipe":[2,]}`:                      "invalid JSON at byte 22: invalid character ']' at start of value",
		// Unfinished JSON is named so, whatever its first token.
		`[`:     "invalid JSON: the input ends inside a value",
		`{"a":`: "invalid JSON: the input ends inside a value",
		`[1]`:   "want a JSON object, found a list",
	} {
		if _, err := decodeLineJSON([]byte(in)); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}
