package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tileproof/tileproof/internal/testkit"
)

// TestServePlayNode plays games with the JavaScript kit's client
// (js/examples/serve-play.mjs, on ServerGame) through a real tileproof
// serve process signed with a key, over a real socket, and holds their
// replays to the real command: tileproof verify --times-key-file finds
// each game valid and its think times sealed, and analyze --times-key-file
// agrees; a time changed by 1 ms, or the seal changed, leaves the game
// valid and its times not sealed. It needs node (skipped without, unless
// TILEPROOF_NODE=required).
func TestServePlayNode(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		testkit.Absent(t, "TILEPROOF_NODE", "node not found: the kit's client is not run")
	}
	if testing.Short() {
		t.Skip("-short: builds the command")
	}
	bin := testkit.Binary(t, "./cmd/tileproof")
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	if err := os.WriteFile(keyFile, []byte("a key of thirty-two bytes or more for serve-play\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	line := startServe(t, ctx, bin, nil, "--key-file", keyFile, "--addr", "127.0.0.1:0", "--profiles", "tile-merge,online-2048")
	url := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(line)
	if url == "" {
		t.Fatalf("no address in %q", line)
	}

	play := func(args ...string) []byte {
		t.Helper()
		c := exec.CommandContext(ctx, node, append([]string{filepath.Join(testkit.Root, "js", "examples", "serve-play.mjs"), "--url", url}, args...)...)
		var errb bytes.Buffer
		c.Stderr = &errb
		out, err := c.Output()
		if err != nil {
			t.Fatalf("serve-play %v: %v\n%s", args, err, errb.String())
		}
		return out
	}
	games := append(play("--games", "2", "--think", "2", "--think-per-cell", "1"), // the server's seeds, to the end
		play("--game", "online-2048", "--seed", "node", "--max-moves", "40")...) // a seed of the client's, stopped early
	file := filepath.Join(dir, "games.jsonl")
	lines := strings.Split(strings.TrimSpace(string(games)), "\n")
	var tampered []string
	for i, line := range lines {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		times := strings.Fields(r["times"].(string))
		switch i {
		case 0: // a time 1 ms longer
			ms, _ := strconv.Atoi(times[len(times)/2])
			times[len(times)/2] = strconv.Itoa(ms + 1)
			r["times"] = strings.Join(times, " ")
		case 1: // another seal
			r["timesSeal"] = "hmac-sha256:" + strings.Repeat("5", 64)
		default: // the first two times swapped, where they differ
			if times[0] == times[1] {
				continue
			}
			times[0], times[1] = times[1], times[0]
			r["times"] = strings.Join(times, " ")
		}
		b, _ := json.Marshal(r)
		tampered = append(tampered, string(b))
	}
	forged := filepath.Join(dir, "forged.jsonl")
	for f, data := range map[string]string{file: string(games), forged: strings.Join(tampered, "\n") + "\n"} {
		if err := os.WriteFile(f, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	verdicts := func(f string) []map[string]any {
		t.Helper()
		out, err := exec.CommandContext(ctx, bin, "verify", "--json", "--times-key-file", keyFile, f).Output()
		if err != nil {
			t.Fatalf("verify %s: %v", f, err) // exit 0: every game valid, whatever its times
		}
		var vs []map[string]any
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var v map[string]any
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatal(err)
			}
			vs = append(vs, v)
		}
		return vs
	}
	for _, v := range verdicts(file) {
		tt, _ := v["thinkTimes"].(map[string]any)
		if v["valid"] != true || tt == nil || tt["sealed"] != true || tt["count"].(float64) < 1 {
			t.Errorf("a game played through serve: %v", v)
		}
	}
	if len(tampered) < 2 {
		t.Fatalf("%d tampered games", len(tampered))
	}
	for _, v := range verdicts(forged) {
		tt, _ := v["thinkTimes"].(map[string]any)
		if v["valid"] != true || tt == nil || tt["sealed"] != false || !strings.Contains(tt["reason"].(string), "not the times a server with this key measured") {
			t.Errorf("a game whose times were changed: %v", v)
		}
	}
	for f, want := range map[string]bool{file: true, forged: false} {
		out, err := exec.CommandContext(ctx, bin, "analyze", "--json", "--no-clairvoyance", "--times-key-file", keyFile, f).Output()
		if err != nil {
			t.Fatalf("analyze %s: %v", f, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var rep struct {
				ThinkTime *struct{ Sealed *bool } `json:"think_time"`
			}
			if err := json.Unmarshal([]byte(line), &rep); err != nil || rep.ThinkTime == nil || rep.ThinkTime.Sealed == nil || *rep.ThinkTime.Sealed != want {
				t.Errorf("analyze %s: want sealed %v in %s", filepath.Base(f), want, line)
			}
		}
	}
}
