package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestVerdictSchema holds every verdict line verify --json writes to
// docs/verdict.schema.json: the corpus, the tampered set and the other
// replays of replays/ (valid, invalid, unreadable, spawn-recorded with
// their plausibility), with --analyze and --strict, and unreadable
// JSON Lines. And the schema refuses what is not a verdict.
func TestVerdictSchema(t *testing.T) {
	data, err := os.ReadFile("../../docs/verdict.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("verdict.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("verdict.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	check := func(what, line string) error {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
		if err == nil {
			err = schema.Validate(inst)
		}
		return err
	}
	// A timed game, its times sealed and not, checked with the key.
	rep := playTimedGame(t, "schema", 20)
	dir := t.TempDir()
	forged := *rep
	forged.TimesSeal = "hmac-sha256:" + strings.Repeat("a", 64)
	for name, data := range map[string][]byte{"key": []byte(timesKey), "g/sealed.json": rep.EncodeJSON(), "g/forged.json": forged.EncodeJSON()} {
		os.MkdirAll(filepath.Join(dir, "g"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for _, args := range [][]string{
		{"verify", "--json", "../../replays"},
		{"verify", "--json", "--analyze", "--strict", "../../replays/valid"},
		{"verify", "--json", "--times-key-file", filepath.Join(dir, "key"), filepath.Join(dir, "g"), "../../replays/valid"},
	} {
		_, out, _ := runCLI(t, "", args...)
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if err := check(strings.Join(args, " "), line); err != nil {
				t.Errorf("%s: %s\n%v", strings.Join(args, " "), line, err)
			}
			for _, k := range []string{`"valid":true`, `"valid":false`, `"plausibility"`, `"divergence"`, `"mismatches"`, `"analysis"`, `"reason":"malformed"`, `"sealed":true`, `"sealed":false`, `"reason":"claim-score"`} {
				if strings.Contains(line, k) {
					seen[k] = true
				}
			}
		}
	}
	_, out, _ := runCLI(t, "{\"profile\":\n[1,\n", "verify", "--json", "-")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if err := check("stdin", line); err != nil {
			t.Errorf("stdin: %s\n%v", line, err)
		}
	}
	if len(seen) != 10 {
		t.Errorf("the lines checked hold only %v", seen)
	}
	for _, bad := range []string{
		`{"valid":true}`,                              // a valid verdict proves nothing
		`{"valid":false}`,                             // no reason
		`{"valid":false,"reason":"malformed"}`,        // no error
		`{"valid":false,"reason":"lost","error":"x"}`, // no such reason
		`{"valid":false,"reason":"illegal-move","colour":"red"}`,
		`{"valid":false,"reason":"illegal-move","thinkTimes":{"count":1,"sealed":false}}`,             // not sealed, no reason
		`{"valid":false,"reason":"illegal-move","thinkTimes":{"count":1,"sealed":true,"reason":"x"}}`, // sealed with a reason
		`{"valid":false,"reason":"illegal-move","gameSha256":"` + strings.Repeat("ab", 32) + `"}`,     // moves that break the rules are no game
	} {
		if check("bad", bad) == nil {
			t.Errorf("the schema takes %s", bad)
		}
	}
}
