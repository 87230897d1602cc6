package e2e

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/server"
)

// serverGamePage plays a signed server's game with the kit's ServerGame,
// as docs/web.md gives it, moving in the first legal direction each time,
// and leaves the replay's JSON line (or the error) on the body.
const serverGamePage = `<!doctype html><meta charset="utf-8"><title>ServerGame</title><body>
<script type="module">
import { ServerGame } from './kit/src/server-game.js';
try {
  const game = await ServerGame.start(location.origin, { game: 'tile-merge', seed: 'in a browser' });
  for (let i = 0; i < 30 && !game.over; i++) {
    await new Promise((r) => setTimeout(r, 5)); // a think time of some ms
    await game.move(game.legalActions.find((a) => a.type === 'move').direction);
  }
  document.body.dataset.replay = game.toJSONLine();
} catch (e) {
  document.body.dataset.error = String(e && e.stack || e);
}
</script>`

// TestServerGameInBrowser: the kit's ServerGame plays a signed server's
// game in Chromium, from a page of the server's origin (the server's own
// handler, over a real socket), and its replay verifies, with the think
// times the server sealed. (ServerGame once called fetch as a method,
// which only a browser refuses: npm test, in node, never saw it.)
func TestServerGameInBrowser(t *testing.T) {
	t.Parallel()
	chromium(t)
	p, err := engine.BuiltinProfile("tile-merge")
	if err != nil {
		t.Fatal(err)
	}
	key := []byte("a key of thirty-two bytes or more, for the browser")
	srv, err := server.NewWith([]*engine.Profile{p}, server.Options{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/", srv)
	mux.Handle("/kit/", http.StripPrefix("/kit", http.FileServer(http.Dir(filepath.Join("..", "js")))))
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(serverGamePage))
	})
	ts := httptest.NewServer(mux)
	defer ts.Close()

	ctx := tab(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitReady(`body[data-replay], body[data-error]`)); err != nil {
		t.Fatal(err)
	}
	if msg, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.error || ""`)); err != nil || msg != "" {
		t.Fatalf("the page's game failed: %s %v", msg, err)
	}
	line, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.replay`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.Decode("browser", []byte(line))
	if err != nil {
		t.Fatalf("the page's replay: %v\n%s", err, line)
	}
	if vd := replay.NewVerifier().VerifyFile("browser", []byte(line)); !vd.Valid {
		t.Errorf("the page's replay does not verify: %+v\n%s", vd, line)
	}
	if len(r.Times) != len(r.Actions) || len(r.Actions) == 0 {
		t.Errorf("%d think times for %d actions", len(r.Times), len(r.Actions))
	}
	if err := server.CheckTimes(key, r); err != nil {
		t.Errorf("the think times do not check against the server's key: %v", err)
	}
}
