package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tileproof/tileproof/internal/testkit"
	"github.com/tileproof/tileproof/replay"
)

// readExample reads the example page (js/examples/web): its cells, its
// score, and its state, "over" once the game has ended.
const readExample = `(() => {
	const cells = Array.from(document.querySelectorAll('#board .cell'), c => +c.dataset.value);
	const state = document.body.dataset.state;
	return {
		board: [0, 1, 2, 3].map(r => cells.slice(4 * r, 4 * r + 4)),
		score: +document.getElementById('score').textContent,
		message: state === 'playing' || state === 'loading' ? '' : 'over',
		text: state,
	};
})()`

// example is the example's server, shared by the tests that use it at
// the same time (TestExamplePage, TestVerifyPage): a node process, and
// the module it loads and warms, once for them, not once each. It ends
// when the last of them ends.
var example struct {
	mu          sync.Mutex
	users       int
	base, store string
	stop        func()
}

// startExample returns the address of the example's server (node
// js/examples/web/server.mjs on a free port) and the file it stores
// verdicts in, starting it unless a test under way has; the server is
// shared (example), and none of its users submits a game but
// TestExamplePage.
func startExample(t *testing.T) (base, store string) {
	t.Helper()
	example.mu.Lock()
	defer example.mu.Unlock()
	if example.users == 0 {
		example.base, example.store, example.stop = runExample(t)
	}
	example.users++
	t.Cleanup(func() {
		example.mu.Lock()
		defer example.mu.Unlock()
		if example.users--; example.users == 0 {
			example.stop()
		}
	})
	return example.base, example.store
}

// runExample starts the example's server on a free port and returns its
// address, the file it stores verdicts in (in a folder of its own) and
// the function that ends it and removes the folder.
func runExample(t *testing.T) (base, store string, stop func()) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		absent(t, "no node on PATH")
	}
	dir, err := os.MkdirTemp("", "tileproof-example-")
	if err != nil {
		t.Fatal(err)
	}
	store = filepath.Join(dir, "verdicts.jsonl")
	cmd := exec.Command(node, filepath.Join("..", "js", "examples", "web", "server.mjs"), "--port", "0", "--wasm", testkit.KitWasm(t), "--store", store)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(dir)
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		t.Fatal(err)
	}
	stop = func() { cmd.Process.Kill(); cmd.Wait(); os.RemoveAll(dir) }
	first := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		first <- line
		io.Copy(io.Discard, stdout)
	}()
	select {
	case line := <-first:
		m := regexp.MustCompile(`listening on (http://\S+/)`).FindStringSubmatch(line)
		if m == nil {
			stop()
			t.Fatalf("the example server said %q", line)
		}
		return m[1], store, stop
	case <-time.After(time.Minute): // a bound on a hang: node starts in well under 1 s unloaded
		stop()
		t.Fatal("the example server did not start within a minute")
	}
	return "", "", nil
}

// post sends body to the example server and decodes its JSON answer.
func post(t *testing.T, url, body string, into any) int {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(into); err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	return resp.StatusCode
}

// postEarlyAnswer is post for a body the server may refuse before it has
// read it all: it answers and closes, so the writing may fail (a broken
// pipe, or a reset) with the answer already there to read. The body is
// written on a connection of its own, its write's error not the test's;
// its Content-Length says length, which may be more than it holds. The
// answer must come within 30 s.
func postEarlyAnswer(t *testing.T, address, body string, length int, into any) int {
	t.Helper()
	u, err := url.Parse(address)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	go func() {
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n", u.RequestURI(), u.Host, length)
		io.WriteString(conn, body)
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("POST %s: %v", address, err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(into); err != nil {
		t.Fatalf("POST %s: %v", address, err)
	}
	return resp.StatusCode
}

type stored struct {
	ID      string          `json:"id"`
	Score   uint64          `json:"score"`
	SHA256  string          `json:"sha256"`
	Verdict replay.Verdict  `json:"verdict"`
	Replay  json.RawMessage `json:"replay"`
}

// TestExamplePage runs docs/web.md's example as a reader would: the
// example server, its page in a browser, a game played by keys to its end,
// the page's replay verified and stored by the server. Then it plays the
// cheater against the server: another game's replay, a tampered claim, a
// second submission and an oversized one are all refused.
func TestExamplePage(t *testing.T) {
	t.Parallel()
	start := time.Now()
	chromium(t) // before the server and its build
	base, storeFile := startExample(t)
	// A directory where the server stores its verdicts: the first
	// submission cannot be stored, so it is not scored, the page says so,
	// and Submit sends the game again once the store works.
	if err := os.Mkdir(storeFile, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := tab(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base), chromedp.WaitVisible(`body[data-state="playing"]`)); err != nil {
		t.Fatal(err)
	}
	s, keys := playByKeys(t, ctx, reader(t, ctx, readExample), 5000)
	if s.Message == "" {
		t.Fatalf("the game did not end within %d keys", keys)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`body[data-state="verified"], body[data-state="rejected"], body[data-state="error"]`)); err != nil {
		t.Fatalf("the page did not answer the first submission (state %s): %v", s.Text, err)
	}
	if shown, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.state + ': ' + document.getElementById('verdict').textContent`)); err != nil || !strings.Contains(shown, "error: Error: the verdict could not be stored; submit the game again") {
		t.Fatalf("with the store failing, the page shows %q (%v)", shown, err)
	}
	if err := os.Remove(storeFile); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click("#submit"), chromedp.WaitReady(`body:not([data-state="error"])`)); err != nil {
		t.Fatalf("Submit did not send the game again: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`body[data-state="verified"], body[data-state="rejected"], body[data-state="error"]`)); err != nil {
		t.Fatalf("the page did not show a verdict (state %s): %v", s.Text, err)
	}
	screenshot(t, ctx, "example")
	shownVerdict, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.state + ': ' + document.getElementById('verdict').textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(shownVerdict, "verified: ") {
		t.Fatalf("the page shows %q", shownVerdict)
	}

	data, err := os.ReadFile(storeFile)
	if err != nil {
		t.Fatal(err)
	}
	var saved stored
	if err := json.Unmarshal(data, &saved); err != nil || bytes.Count(data, []byte("\n")) != 1 {
		t.Fatalf("the server stored %q (%v); want one verdict", data, err)
	}
	if !strings.Contains(shownVerdict, saved.SHA256) || saved.SHA256 == "" {
		t.Errorf("the page shows %q; the server stored the hash %s", shownVerdict, saved.SHA256)
	}
	saveReplay(t, "example", saved.Replay)
	v := checkVerdict(t, "example", saved.Replay, s) // verified again here, and against what the page shows
	if v.SHA256 != saved.SHA256 || saved.Score != s.Score || v.Seed == nil || !v.Over {
		t.Errorf("the stored verdict %+v, the verdict here %+v, the page's score %d", saved, v, s.Score)
	}
	var scores []stored
	resp, err := http.Get(base + "api/scores")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&scores)
	resp.Body.Close()
	if len(scores) != 1 || scores[0].SHA256 != saved.SHA256 {
		t.Errorf("the leaderboard is %+v; want the one stored game", scores)
	}
	t.Logf("example page: %d keys, %d moves, score %d, in %v", keys, v.Moves, v.Score, time.Since(start).Round(time.Millisecond))

	// The cheater's submissions.
	var game struct{ ID, Seed, SeedCommitment string }
	newGame := func() {
		if code := post(t, base+"api/games", "", &game); code != 200 {
			t.Fatalf("POST api/games: %d", code)
		}
	}
	var answer map[string]any
	newGame()
	if code := post(t, base+"api/games/"+game.ID+"/replay", string(saved.Replay), &answer); code != 422 {
		t.Errorf("another game's replay: %d %v; want 422", code, answer)
	}
	newGame()
	fake := fmt.Sprintf(`{"profile":"tile-merge","rules":1,"rng":"tp1","seed":%q,"seedCommitment":%q,"moves":"","claim":{"score":2048,"maxTile":2048,"moves":0}}`, game.Seed, game.SeedCommitment)
	if code := post(t, base+"api/games/"+game.ID+"/replay", fake, &answer); code != 200 || answer["valid"] != false {
		t.Errorf("a tampered claim: %d %v; want a verdict that is not valid", code, answer)
	}
	if code := post(t, base+"api/games/"+game.ID+"/replay", fake, &answer); code != 404 {
		t.Errorf("a second submission: %d %v; want 404", code, answer)
	}
	newGame()
	if code := postEarlyAnswer(t, base+"api/games/"+game.ID+"/replay", strings.Repeat(" ", 2<<20), 2<<20, &answer); code != 413 {
		t.Errorf("a 2 MiB body: %d %v; want 413", code, answer)
	}
	// A body said to be 5 MB is refused at once, not after node's
	// request timeout (300 s) for the bytes that never come; the game
	// stays open.
	if code := postEarlyAnswer(t, base+"api/games/"+game.ID+"/replay", "{", 5_000_000, &answer); code != 413 {
		t.Errorf("a body said to be 5 MB: %d %v; want 413", code, answer)
	}
	for _, body := range []string{"null", "[1,2]", `"x"`} {
		if code := post(t, base+"api/games/"+game.ID+"/replay", body, &answer); code != 400 || answer["error"] != "the replay is not a JSON object" {
			t.Errorf("%s: %d %v; want 400, not a JSON object", body, code, answer)
		}
	}
	if data2, _ := os.ReadFile(storeFile); !bytes.Equal(data2, data) {
		t.Errorf("the refused submissions changed the store: %s", data2)
	}
}

// TestExampleServerStart: the example server's usage errors and a port
// in use are said in a line, never node's stack trace: --help prints the
// usage (exit 0), an unknown option is refused with it (exit 2), and a
// port another server has ends it with the port named (exit 1).
func TestExampleServerStart(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		absent(t, "no node on PATH")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for _, tc := range []struct {
		args []string
		code int
		out  string // what stdout or stderr holds
	}{
		{[]string{"--help"}, 0, "usage: node js/examples/web/server.mjs [--port 8049]"},
		{[]string{"--bogus"}, 2, "server.mjs: Unknown option '--bogus'"},
		{[]string{"--port", port, "--wasm", testkit.KitWasm(t)}, 1, "server.mjs: cannot listen on 127.0.0.1:" + port + ": EADDRINUSE"},
	} {
		cmd := exec.Command(node, append([]string{filepath.Join("..", "js", "examples", "web", "server.mjs")}, tc.args...)...)
		out, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != tc.code || !strings.Contains(string(out), tc.out) || strings.Contains(string(out), "    at ") {
			t.Errorf("server.mjs %s: exit %d, %q; want exit %d and %q, no stack trace", strings.Join(tc.args, " "), code, out, tc.code, tc.out)
		}
	}
}
