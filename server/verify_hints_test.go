package server

import (
	"strings"
	"testing"
)

// TestVerifyEndpointHints: JSON Lines sent as one replay are told to go
// as application/jsonl, and only they; a replay of a profile the server
// does not know is told how the server is given one.
func TestVerifyEndpointHints(t *testing.T) {
	ts := newTestServer(t, "")
	game := `{"profile":"tile-merge","seed":"7","moves":"","claim":{"score":0,"maxTile":4,"moves":0}}`
	const hint = "several replays, one a line, are JSON Lines: a .jsonl file, or application/jsonl over HTTP"
	for _, c := range []struct {
		body string
		hint bool
	}{
		{game + "\n" + game + "\n", true},
		{"\ufeff" + game + " \r\n\n  " + game, true},
		{game + " " + game, false},             // on one line: not JSON Lines
		{game + "\n[1]\n", false},              // an array after
		{game + "\nx\n", false},                // not JSON after
		{`{"profile": 3}` + "\n" + game, true}, // the first line wrong too
	} {
		code, body, _ := postVerify(t, ts.URL, "application/json", c.body)
		if code != 200 || !strings.Contains(body, `"reason":"malformed"`) || strings.Contains(body, hint) != c.hint {
			t.Errorf("%q: %d %s", c.body, code, body)
		}
	}
	code, body, _ := postVerify(t, ts.URL, "application/json", strings.Replace(game, "tile-merge", "Tile_Merge", 1))
	if code != 200 || !strings.Contains(body, `unknown profile \"Tile_Merge\": did you mean tile-merge? (this verifier knows `) || !strings.Contains(body, "; a profile of a file is known once the file is given: serve --profiles FILE)") {
		t.Errorf("unknown profile: %d %s", code, body)
	}
}
