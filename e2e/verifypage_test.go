package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestVerifyPage: the example's verify.html verifies in a browser worker
// with the kit's verifier: a valid replay of the corpus and a tampered one
// get the verdicts the command gives them (replays/manifest.yaml).
func TestVerifyPage(t *testing.T) {
	t.Parallel()
	chromium(t)
	base, _ := startExample(t)
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
