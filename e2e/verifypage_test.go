package e2e

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tileproof/tileproof/internal/testkit"
)

// TestVerifyPage: the example's verify.html verifies in a browser worker
// with the kit's verifier: a valid replay of the corpus and a tampered one
// get the verdicts the command gives them (replays/manifest.yaml).
func TestVerifyPage(t *testing.T) {
	t.Parallel()
	chromium(t)
	base, _ := startExample(t)
	// The module goes gzipped to a client that takes gzip, as docs/web.md
	// advises serving it (Chromium's fetch below takes it so), and as it
	// is to one that does not.
	wasm, err := os.ReadFile(testkit.KitWasm(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, enc := range []string{"gzip, deflate, br", ""} {
		req, _ := http.NewRequest("GET", base+"dist/verifier.wasm", nil)
		req.Header.Set("Accept-Encoding", enc) // set: the client does not decompress
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if enc != "" {
			want = "gzip"
		}
		var body io.Reader = resp.Body
		if got := resp.Header.Get("Content-Encoding"); got != want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", enc, got, want)
		} else if got == "gzip" {
			if body, err = gzip.NewReader(resp.Body); err != nil {
				t.Fatal(err)
			}
		}
		got, err := io.ReadAll(body)
		resp.Body.Close()
		if err != nil || !bytes.Equal(got, wasm) {
			t.Errorf("Accept-Encoding %q: %d bytes, not the module's %d (%v)", enc, len(got), len(wasm), err)
		}
	}
	ctx := tab(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"verify.html"), chromedp.WaitVisible(`body[data-state="ready"]`)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, want string }{
		{"minimal.yaml", `"valid": true`},
		{"tampered/move-changed.yaml", `"reason": "illegal-move"`},
	} {
		data, err := os.ReadFile(filepath.Join("..", "replays", filepath.FromSlash(c.file)))
		if err != nil {
			t.Fatal(err)
		}
		// The replay into the text area (quoted as JSON, which is a
		// JavaScript string), then Verify.
		quoted, _ := json.Marshal(string(data))
		set := `document.getElementById('verdicts').textContent = ''; document.getElementById('replay').value = ` + string(quoted) + `; document.getElementById('verify').click(); true`
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](set)); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.WaitVisible(`#verdicts:not(:empty)`)); err != nil {
			t.Fatalf("%s: no verdict: %v", c.file, err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('verdicts').textContent`))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got, c.want) || !strings.Contains(got, `"name": "replay"`) {
			t.Errorf("%s: the page shows %s; want %s", c.file, got, c.want)
		}
	}
}
