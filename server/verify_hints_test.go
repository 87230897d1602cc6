package server

import (
	"strings"
	"testing"
)

// TestVerifyEndpointHints: JSON Lines sent as one replay are told to go
// as JSON Lines (the replay reader's hint, TestJSONLinesAsOneReplay
// holds which bodies get it); a replay of a profile the server does not
// know is told how the server is given one.
func TestVerifyEndpointHints(t *testing.T) {
	ts := newTestServer(t, "")
	game := `{"profile":"tile-merge","seed":"7","moves":"","claim":{"score":0,"maxTile":4,"moves":0}}`
	const hint = "several replays, one a line, are JSON Lines: a .jsonl file, or application/jsonl over HTTP"
	for body, want := range map[string]bool{"\ufeff" + game + "\n" + game + "\n": true, game + " " + game: false} {
		code, got, _ := postVerify(t, ts.URL, "application/json", body)
		if code != 200 || !strings.Contains(got, `"reason":"malformed"`) || strings.Contains(got, hint) != want {
			t.Errorf("%q: %d %s", body, code, got)
		}
	}
	code, body, _ := postVerify(t, ts.URL, "application/json", strings.Replace(game, "tile-merge", "Tile_Merge", 1))
	if code != 200 || !strings.Contains(body, `unknown profile \"Tile_Merge\": did you mean tile-merge? (this verifier knows `) || !strings.Contains(body, "; a profile of a file is known once the file is given: serve --profiles FILE)") {
		t.Errorf("unknown profile: %d %s", code, body)
	}
}
