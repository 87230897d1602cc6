package htmlview

import (
	"context"
	"fmt"
	"html/template"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tileproof/tileproof/internal/testkit"
)

// classicWidth is what a window 1,280 px wide leaves a page beside a
// classic scrollbar (15 px, as Windows and most Linux desktops draw it;
// headless Chromium's overlay scrollbar takes no room, so the page is
// measured in a viewport that much narrower).
const classicWidth = 1280 - 15

// pageHeight is the page's height in px.
func pageHeight(t *testing.T, ctx context.Context) int {
	return eval[int](t, ctx, `document.documentElement.scrollHeight`)
}

// boardsInOneRow lists the cases of which a failing step shown (not
// folded) does not have its boards side by side in one row: the boards'
// figures at the same top, none past the window's right edge.
const boardsInOneRow = `(() => { let bad = [];
  for (const row of document.querySelectorAll(".case .row")) {
    if (row.offsetParent === null) continue; // folded
    const b = [...row.querySelectorAll("figure")].map(e => e.getBoundingClientRect());
    if (b.some(r => Math.abs(r.top - b[0].top) > 1 || r.right > document.documentElement.clientWidth)) bad.push(row.closest(".case").id);
  }
  return bad.join(" "); })()`

// conformPages starts two real runs that write their pages into a
// folder, and returns a function that waits for them and returns the
// folder: the reference adapter with its score-both-tiles mutant
// (score-both-tiles.html), and 2048-webcomponent against its baseline
// (webcomponent-2048.html; left out when node or the adapters' npm
// packages are missing). TILEPROOF_CONFORM_PAGES names a folder of them
// written before, to measure those instead.
func conformPages(t *testing.T) (wait func() string) {
	t.Helper()
	if dir := os.Getenv("TILEPROOF_CONFORM_PAGES"); dir != "" {
		return func() string { return dir }
	}
	dir := t.TempDir()
	root := testkit.Root
	tp, adapter := testkit.Binary(t, "./cmd/tileproof"), testkit.Binary(t, "./conformance/testdata/adapter")
	// The two runs at once: each mostly waits for its implementation.
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	run := func(page string, env []string, args ...string) {
		defer wg.Done()
		cmd := exec.Command(tp, append(append([]string{"conform"}, args...), "--html", filepath.Join(dir, page))...)
		cmd.Dir, cmd.Env = root, append(os.Environ(), env...)
		out, err := cmd.Output()
		// Exit 1 is a run with failures, as these are; anything else
		// (2: the run could not be made) wrote no page worth measuring.
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
			errs <- fmt.Errorf("%s: %v\n%s", page, err, out)
			return
		}
		// The command's last line is its verdict: the page must say it.
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if err := os.WriteFile(filepath.Join(dir, page+".verdict"), []byte(lines[len(lines)-1]), 0o644); err != nil {
			errs <- err
		}
	}
	wg.Add(1)
	go run("score-both-tiles.html", nil, "--impl", "exec:"+adapter+" --mutant score-both-tiles")
	_, nodeErr := exec.LookPath("node")
	if _, err := os.Stat(filepath.Join(root, "conformance/adapters/node_modules/2048-webcomponent")); err == nil && nodeErr == nil {
		wg.Add(1)
		go run("webcomponent-2048.html", []string{"WEBCOMPONENT_2048_SEED=2048"}, "--timeout", "30s", "--impl", "exec:node conformance/adapters/webcomponent-2048.js", "--profile", "conformance/adapters/webcomponent-2048.yaml",
			"--baseline", "conformance/adapters/webcomponent-2048.report.json")
	}
	return func() string {
		t.Helper()
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		return dir
	}
}

// TestBrowserConformTargets measures the pages of two real runs
// (conformPages): at 1,280 px with a classic scrollbar, the
// score-both-tiles mutant's at most 6,000 px tall (31,578 px before the
// failures were grouped by cause) and 2048-webcomponent's at most 4,000
// (12,258); at 1,280 and 390 px, the boards of every step shown in one
// row. Under --baseline with no regression, the page says PASS, as the
// command's exit status does.
func TestBrowserConformTargets(t *testing.T) {
	if testkit.ChromiumPath() == "" {
		tab(t) // skips, or fails under TILEPROOF_BROWSER=required
	}
	// The runs begin before the test waits for its parallel turn, beside
	// the quick sequential tests after it (the timed ones are before it):
	// they are the package's longest work.
	pages := conformPages(t)
	t.Parallel()
	dir := pages()
	in := tab(t) // each page a new document in the one tab, at its width
	folds := 0
	defer func() {
		if folds == 0 && !t.Failed() {
			t.Error("no page had a fold of failures on states no game reaches")
		}
	}()
	for _, p := range []struct {
		file string
		max  int
	}{{"score-both-tiles.html", 6000}, {"webcomponent-2048.html", 4000}} {
		html, err := os.ReadFile(filepath.Join(dir, p.file))
		if os.IsNotExist(err) && p.file == "webcomponent-2048.html" {
			t.Logf("%s: not written (node or conformance/adapters/node_modules missing)", p.file)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if line, err := os.ReadFile(filepath.Join(dir, p.file+".verdict")); err == nil && p.file == "webcomponent-2048.html" &&
			!strings.Contains(string(html), `<span class="verdict valid big">PASS</span> `+template.HTMLEscapeString(string(line))) {
			t.Errorf("%s: the verdict is not the command's, PASS and %q", p.file, line)
		}
		ctx := openIn(t, in, string(html), classicWidth, 844, "", "#summary")
		h := pageHeight(t, ctx)
		t.Logf("%s: %d px tall at 1,280 px with a classic scrollbar", p.file, h)
		if h > p.max {
			t.Errorf("%s: %d px tall, want at most %d", p.file, h, p.max)
		}
		if bad := eval[string](t, ctx, boardsInOneRow); bad != "" {
			t.Errorf("%s at 1,280 px: the boards of %s are not in one row", p.file, bad)
		}
		// The failures on states no game reaches are folded; a link to
		// one of them opens the fold and shows it.
		if link := eval[string](t, ctx, firstApartLink); link != "" {
			folds++
			eval[bool](t, ctx, `(() => { document.querySelector('.causes-toc a[href="`+link+`"]').click(); return true })()`)
			shown := `(() => { const el = document.getElementById(decodeURIComponent("` + link[1:] + `")); return document.getElementById("unreachable-causes").open && el.getBoundingClientRect().height > 0 })()`
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](shown, chromedp.WithPollingTimeout(hangBound))); err != nil {
				t.Errorf("%s: the link %s did not open the fold and show its cause: %v", p.file, link, err)
			}
		}
		phone := openIn(t, in, string(html), 390, 844, "", "#summary")
		if bad := eval[string](t, phone, boardsInOneRow); bad != "" {
			t.Errorf("%s at 390 px: the boards of %s are not in one row", p.file, bad)
		}
		t.Logf("%s: %d px tall at 390 px", p.file, pageHeight(t, phone))
	}
}

// firstApartLink is the href of the first link of the causes' list into
// the fold of failures on states no game reaches, checked closed; "" when
// there is none.
const firstApartLink = `(() => {
	const fold = document.getElementById("unreachable-causes");
	if (!fold || fold.open) return "";
	const a = Array.from(document.querySelectorAll(".causes-toc a")).find(a => fold.contains(document.getElementById(decodeURIComponent(a.hash.slice(1)))));
	return a ? a.getAttribute("href") : "";
})()`

// TestConformScreenshots writes the conformance page's screenshots of
// docs/conformance.md when TILEPROOF_SCREENSHOTS names a directory
// (../docs/images), from the pages of conformPages.
func TestConformScreenshots(t *testing.T) {
	out := os.Getenv("TILEPROOF_SCREENSHOTS")
	if out == "" {
		t.Skip("set TILEPROOF_SCREENSHOTS=DIR to write the screenshots")
	}
	dir := conformPages(t)()
	for _, shot := range []struct {
		file, page, hash string
		w, h             int64
	}{
		{"conform-webcomponent.png", "webcomponent-2048.html", "", classicWidth, 1000},
		{"conform-mutant-phone.png", "score-both-tiles.html", "#cause-1", 390, 844},
	} {
		html, err := os.ReadFile(filepath.Join(dir, shot.page))
		if err != nil {
			t.Fatal(err)
		}
		shoot(t, openAt(t, string(html), shot.w, shot.h, shot.hash, "#summary"), filepath.Join(out, shot.file))
	}
}
