package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tileproof/tileproof/internal/testkit"
)

// TestServeNamesItsGames: serve's first line names each game as a client
// asks for it, a profile file's by the name the file gives (with the
// file it came from), and those are the games the server lists.
func TestServeNamesItsGames(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: builds the command")
	}
	bin := testkit.Binary(t, "./cmd/tileproof")
	file := filepath.Join(t.TempDir(), "my.yaml")
	if err := os.WriteFile(file, []byte("name: classic-eights\nbase: classic\nspawn: {2: 8, 4: 1, 8: 1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	// Unsigned, whatever the environment holds.
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "TILEPROOF_KEY=") })
	line := startServe(t, ctx, bin, env, "--addr", "127.0.0.1:0", "--profiles", "classic, "+file)
	if want := "tileproof: serving classic, classic-eights (from " + file + ") on http://"; !strings.HasPrefix(line, want) {
		t.Fatalf("serve says %q, want it to start %q", line, want)
	}
	url := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(line)
	resp, err := http.Get(url + "/api/games")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct{ Games []string }
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatalf("/api/games: %v", err)
	}
	if !slices.Equal(list.Games, []string{"classic", "classic-eights"}) {
		t.Errorf("/api/games lists %q, want classic and classic-eights", list.Games)
	}
}

// startServe starts bin serve with args, in environment env (nil: the
// test's), ended when t ends, and returns the first line it writes: the
// games it serves and its address. The rest of what it writes is read
// and dropped.
func startServe(t *testing.T, ctx context.Context, bin string, env []string, args ...string) string {
	t.Helper()
	srv := exec.CommandContext(ctx, bin, append([]string{"serve"}, args...)...)
	srv.Env = env
	stderr, _ := srv.StderrPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	sc := bufio.NewScanner(stderr)
	if !sc.Scan() {
		t.Fatalf("serve said nothing: %v", sc.Err())
	}
	go func() {
		for sc.Scan() {
		}
	}()
	return sc.Text()
}
