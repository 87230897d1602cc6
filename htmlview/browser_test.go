package htmlview

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The browser tests open the pages in headless Chromium, one browser for
// the package (a tab a test). They skip when Chromium is missing, unless
// TILEPROOF_BROWSER=required (as in CI), when they fail.

var (
	browserOnce   sync.Once
	browserCtx    context.Context
	browserCancel context.CancelFunc
	browserErr    error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if browserCancel != nil {
		browserCancel()
	}
	os.Exit(code)
}

func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// tab opens a new tab of the shared browser.
func tab(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		if os.Getenv("TILEPROOF_BROWSER") == "required" {
			t.Fatal("no chromium on PATH, and TILEPROOF_BROWSER=required")
		}
		t.Skip("no chromium on PATH (set TILEPROOF_BROWSER=required to fail instead)")
	}
	browserOnce.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(1000, 1000))
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(alloc)
		browserCtx = ctx
		browserCancel = func() { cancelCtx(); cancelAlloc() }
		browserErr = chromedp.Do(ctx) // starts the browser
	})
	if browserErr != nil {
		t.Fatalf("starting chromium: %v", browserErr)
	}
	ctx, cancel := chromedp.NewContext(browserCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancel() })
	return ctx
}

// open writes html to a file and opens it in a new tab.
func open(t *testing.T, html string) context.Context {
	t.Helper()
	ctx := tab(t)
	file := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(file, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file), chromedp.WaitVisible("#board .c")); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// shown is what the viewer shows, read from the page.
type shown struct {
	Step    int      `json:"step"`
	Slider  int      `json:"slider"`
	Score   string   `json:"score"`
	Moves   string   `json:"moves"`
	Cells   []uint64 `json:"cells"`
	Bad     []int    `json:"bad"`
	Note    string   `json:"note"`
	NoteOn  bool     `json:"noteOn"`
	Claimed []uint64 `json:"claimed"`
}

const readShown = `JSON.stringify({
	step: +document.getElementById("board").dataset.step,
	slider: +document.getElementById("slider").value,
	score: document.getElementById("f-score").textContent,
	moves: document.getElementById("f-moves").textContent,
	cells: Array.from(document.querySelectorAll("#board .c")).map(c => +c.dataset.value),
	bad: Array.from(document.querySelectorAll("#board .c")).flatMap((c, i) => c.classList.contains("bad") ? [i] : []),
	note: document.getElementById("note").textContent,
	noteOn: !document.getElementById("note").hidden,
	claimed: document.getElementById("claimfig").hidden ? [] : Array.from(document.querySelectorAll("#claimboard .c")).map(c => +c.dataset.value),
})`

func read(t *testing.T, ctx context.Context) shown {
	t.Helper()
	js, err := chromedp.Run(ctx, chromedp.Evaluate[string](readShown))
	if err != nil {
		t.Fatal(err)
	}
	var s shown
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func flat(values [][]uint64) []uint64 { return slices.Concat(values...) }

// check compares what the page shows with frame step of g.
func check(t *testing.T, ctx context.Context, g Game, step int, how string) {
	t.Helper()
	s := read(t, ctx)
	f := g.Frames[step]
	if s.Step != step || s.Slider != step {
		t.Fatalf("after %s: step %d (slider %d), want %d", how, s.Step, s.Slider, step)
	}
	if s.Score != strconv.FormatUint(f.Score, 10) || s.Moves != strconv.Itoa(f.Moves) {
		t.Errorf("after %s: score %s, moves %s; frame %d has %d, %d", how, s.Score, s.Moves, step, f.Score, f.Moves)
	}
	if want := flat(f.Board.Values()); !slices.Equal(s.Cells, want) {
		t.Errorf("after %s: cells %v, frame %d has %v", how, s.Cells, step, want)
	}
}

// TestBrowserStepping steps a long game (4,189 steps) with the keys, the
// buttons and the slider, and checks the board and figures at each stop
// against the frames.
func TestBrowserStepping(t *testing.T) {
	g := load(t, "valid/tile-merge-4096.yaml")
	ctx := open(t, page(t, g))
	last := len(g.Frames) - 1
	check(t, ctx, g, last, "loading")
	steps := []struct {
		how  string
		do   chromedp.Action[chromedp.Void]
		want int
	}{
		{"Home", chromedp.KeyEvent(kb.Home), 0},
		{"→", chromedp.KeyEvent(kb.ArrowRight), 1},
		{"→", chromedp.KeyEvent(kb.ArrowRight), 2},
		{"n", chromedp.KeyEvent("n"), 3},
		{"n", chromedp.KeyEvent("n"), 4},
		{"p", chromedp.KeyEvent("p"), 3},
		{"←", chromedp.KeyEvent(kb.ArrowLeft), 2},
		{"Page Down", chromedp.KeyEvent(kb.PageDown), 52},
		{"End", chromedp.KeyEvent(kb.End), last},
		{"→ at the end", chromedp.KeyEvent(kb.ArrowRight), last},
		{"Page Up", chromedp.KeyEvent(kb.PageUp), last - 50},
		{"the ◀ button", chromedp.Click("#prev"), last - 51},
		{"the |◀ button", chromedp.Click("#first"), 0},
		{"← at the start", chromedp.KeyEvent(kb.ArrowLeft), 0},
		{"the slider moved to 2500", chromedp.Evaluate[chromedp.Void](`(s => { s.value = 2500; s.dispatchEvent(new Event("input")); })(document.getElementById("slider"))`), 2500},
		{"→ on the focused slider", chromedp.Action[chromedp.Void](func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			return chromedp.Void{}, chromedp.Do(ctx, chromedp.Focus("#slider"), chromedp.KeyEvent(kb.ArrowRight))
		}), 2501},
	}
	for _, st := range steps {
		if err := chromedp.Do(ctx, st.do); err != nil {
			t.Fatalf("%s: %v", st.how, err)
		}
		check(t, ctx, g, st.want, st.how)
	}
}

// TestBrowserDivergence opens invalid replays of the corpus: the page
// opens on the divergence with the right cells marked and says why.
func TestBrowserDivergence(t *testing.T) {
	t.Run("bad-spawn", func(t *testing.T) {
		g := load(t, "tampered/spawn-on-full-cell.yaml")
		ctx := open(t, page(t, g))
		s := read(t, ctx)
		sp := g.Replay.Spawns[300]
		cell := sp.Row*4 + sp.Col
		dir, _ := g.Replay.Actions[300].Direction()
		slid, _ := g.Frames[300].Board.Slide(dir)
		if s.Step != 301 || !slices.Equal(s.Bad, []int{cell}) || !s.NoteOn {
			t.Errorf("on opening: step %d, marked %v, note shown %v; want step 301, cell %d", s.Step, s.Bad, s.NoteOn, cell)
		}
		if want := flat(slid.Board.Values()); !slices.Equal(s.Cells, want) {
			t.Errorf("cells %v, want the slide %v", s.Cells, want)
		}
		// A step back: the last frame the rules accept, nothing marked.
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
			t.Fatal(err)
		}
		check(t, ctx, g, 300, "←")
		if s := read(t, ctx); len(s.Bad) != 0 || s.NoteOn {
			t.Errorf("step 300 marks %v, note shown %v", s.Bad, s.NoteOn)
		}
	})
	t.Run("illegal-move", func(t *testing.T) {
		g := load(t, "tampered/illegal-move-inserted.yaml")
		ctx := open(t, page(t, g))
		check(t, ctx, g, 508, "loading")
		if s := read(t, ctx); !s.NoteOn || len(s.Bad) != 0 || !strings.Contains(s.Note, "action 509 (left)") || !strings.Contains(s.Note, "illegal move") {
			t.Errorf("note %q (shown %v), marked %v", s.Note, s.NoteOn, s.Bad)
		}
	})
}

// TestScreenshots writes the screenshots of docs/viewer-html.md when
// TILEPROOF_SCREENSHOTS names a directory (../docs/images).
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("TILEPROOF_SCREENSHOTS")
	if dir == "" {
		t.Skip("set TILEPROOF_SCREENSHOTS=DIR to write the screenshots")
	}
	var rep, conf bytes.Buffer
	if err := Report(&rep, "tileproof verify replays", corpusEntries(t)); err != nil {
		t.Fatal(err)
	}
	if err := Conformance(&conf, failingReport()); err != nil {
		t.Fatal(err)
	}
	for _, shot := range []struct{ file, html, hash string }{
		{"viewer-bad-spawn.png", page(t, load(t, "tampered/spawn-on-full-cell.yaml")), ""},
		{"viewer-valid.png", page(t, load(t, "valid/tile-merge-4096.yaml")), "#step=2500"},
		{"report.png", rep.String(), ""},
		{"conformance.png", conf.String(), ""},
	} {
		ctx := tab(t)
		file := filepath.Join(t.TempDir(), "page.html")
		if err := os.WriteFile(file, []byte(shot.html), 0o644); err != nil {
			t.Fatal(err)
		}
		png, err := chromedp.Run(ctx, chromedp.Action[[]byte](func(ctx context.Context, tg *chromedp.Target) ([]byte, error) {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(900, 820), chromedp.Navigate("file://"+file+shot.hash), chromedp.Sleep(200*time.Millisecond)); err != nil {
				return nil, err
			}
			return chromedp.Run(ctx, chromedp.CaptureScreenshot())
		}))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, shot.file), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
