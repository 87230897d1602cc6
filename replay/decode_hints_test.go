package replay

import (
	"reflect"
	"strings"
	"testing"
)

// TestByteOrderMark: a replay that starts with a UTF-8 byte-order mark
// (as Notepad and Windows PowerShell 5 write one) reads as the same
// replay without it, in JSON and in YAML, and its errors name the same
// places.
func TestByteOrderMark(t *testing.T) {
	yaml := "profile: tile-merge\nseed: \"7\"\nmoves: LLUR\nclaim: {score: 12, maxTile: 8, moves: 4}\n"
	for name, doc := range map[string]string{"g.json": goodJSON, "g.yaml": yaml} {
		want, err := Decode(name, []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(name, []byte("\ufeff"+doc))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s with a byte-order mark: %+v, %v; without: %+v", name, got, err, want)
		}
	}
	mustDecodeFail(t, "a.json", "\ufeff"+strings.Replace(goodJSON, `"seed":"7"`, `"seed":true`, 1), "a.json:1:32: seed: true is not a seed")
}

// TestJSONLinesAsOneReplay: JSON Lines read as one replay are told what
// they are, whether the first line's replay is good or not; an object
// after the first on the same line, or other data, is not.
func TestJSONLinesAsOneReplay(t *testing.T) {
	const hint = "several replays, one a line, are JSON Lines: a .jsonl file, or application/jsonl over HTTP"
	for _, c := range []struct {
		text string
		hint bool
	}{
		{goodJSON + "\n" + goodJSON + "\n", true},
		{"\ufeff" + goodJSON + " \r\n\n  " + goodJSON, true},
		{`{"profile": 3}` + "\n" + goodJSON, true},
		{goodJSON + " " + goodJSON, false},
		{`{"profile": 3} {}`, false},
		{goodJSON + "\n[1]\n", false},
	} {
		_, err := Decode("a.json", []byte(c.text))
		if err == nil || strings.Contains(err.Error(), hint) != c.hint {
			t.Errorf("%.60q: %v, want the hint %v", c.text, err, c.hint)
		}
	}
}
