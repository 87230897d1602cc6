package htmlview

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// The browser tests of the viewer's issue 24 item 4: the play's speed,
// the animation, the moments, the layout at 1,280 px and on a phone, and
// touch.

// TestBrowserPlaySpeed: N steps played at S steps a second take N/S
// seconds, within 5%, the time of a step measured from the earliest
// steps of each half of the play (the play that rewrote the address on every step,
// on a timer that did not catch up, gave 68 to 94 of 120 steps a second);
// the address is written when the play stops, not while it plays.
//
// The three plays run at once, a tab each: each is two seconds of the
// page's timers, and the measure holds on a loaded machine (see below);
// a play the machine stalls for over a quarter of a second, or whose
// measure is off, is played again, twice at most.
func TestBrowserPlaySpeed(t *testing.T) {
	t.Parallel()
	g := load(t, "valid/tile-merge-4096.yaml")
	html := page(t, g)
	speeds := []int{8, 30, 120}
	tabs := make([]context.Context, len(speeds))
	starts := make([]int, len(speeds)) // the step each play started from
	// start plays from where the tab is, watching the steps shown.
	start := func(ctx context.Context) int {
		s0 := read(t, ctx).Step
		eval[any](t, ctx, `(() => {
			window.tpSeen = [];
			window.tpHashes = new Set();
			window.tpObs && window.tpObs.disconnect();
			window.tpObs = new MutationObserver(() => {
				tpSeen.push([+document.getElementById("board").dataset.step, performance.now()]);
				tpHashes.add(location.hash);
			});
			tpObs.observe(document.getElementById("board"), {attributes: true, attributeFilter: ["data-step"]});
		})()`)
		do(t, ctx, "play", chromedp.Click("button#play"))
		return s0
	}
	for i, s := range speeds {
		tabs[i] = open(t, html)
		goTo(t, tabs[i], 0)
		do(t, tabs[i], "speed", chromedp.SetValue("#speed", fmt.Sprint(s)))
		starts[i] = start(tabs[i])
	}
	for i, s := range speeds {
		ctx, n := tabs[i], 2*s // two seconds of play
		for try := 1; ; try++ {
			s0 := starts[i]
			poll := fmt.Sprintf(`+document.getElementById("board").dataset.step >= %d`, s0+n+2)
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](poll, chromedp.WithPollingTimeout(hangBound))); err != nil {
				t.Fatalf("at %d a second: step %d after %s", s, read(t, ctx).Step, hangBound)
			}
			do(t, ctx, "pause", chromedp.Click("button#play"))
			var seen [][2]float64
			if err := json.Unmarshal([]byte(eval[string](t, ctx, `JSON.stringify(tpSeen)`)), &seen); err != nil {
				t.Fatal(err)
			}
			// A play skips the steps it is late for. Skipping more than a
			// quarter of a second of them, it was stalled by the machine
			// (a play late at every step, by a timer that does not catch
			// up, skips none), and its measure would be the stall's: it
			// is played again, twice at most.
			stalled := false
			for k := 1; k < len(seen); k++ {
				stalled = stalled || seen[k][0]-seen[k-1][0] > float64(max(1, s/4))
			}
			if stalled && try < 3 {
				t.Logf("at %d a second: the play skipped over a quarter of a second (the machine stalled it); again", s)
				starts[i] = start(ctx)
				continue
			}
			// The time a step takes, as the page keeps it: a step k is
			// shown at t0 + k·P plus a delay of the machine's, never
			// less, and often none, whatever the load. So the earliest
			// step of each half, against the step times of the speed
			// asked (P0), gives P: P0 plus how much later the second
			// half's earliest step is than the first half's, spread over
			// the n/2 steps between the halves' starts. A play that
			// drifts (a step a timer) is later by its delay at each
			// step, its earliest steps are the first of each half, and it
			// fails by its drift, n/2 steps of it. A play late by the
			// machine's load, then caught up, does not: to fail, every
			// step of the second half must be later than the first
			// half's best by 5% of the play (50 ms here, at any speed).
			// (Divided by the steps between the two earliest steps
			// instead, two next to each other made a fraction of a ms of
			// the machine's 5% at 120 a second.)
			p0 := 1000 / float64(s)
			early := func(lo, hi int) (late float64) {
				late = math.Inf(1)
				for _, p := range seen {
					if int(p[0]) >= lo && int(p[0]) <= hi && p[1]-p[0]*p0 < late {
						late = p[1] - p[0]*p0
					}
				}
				if math.IsInf(late, 1) {
					t.Fatalf("at %d a second: no step from %d to %d shown (%v)", s, lo, hi, seen)
				}
				return late
			}
			a, b := early(s0+1, s0+n/2), early(s0+n/2+1, s0+n+1)
			took := float64(n) * (p0 + (b-a)/float64(n/2)) / 1000
			want := float64(n) / float64(s)
			t.Logf("%d steps at %d a second: %.3f s, want %.3f s (%+.1f%%)", n, s, took, want, 100*(took-want)/want)
			// A whole half played late by the machine's load (each step
			// late, none skipped) is off in either direction; a play
			// off by its own timing is off at every try.
			off := math.Abs(took-want) > 0.05*want
			if off && try < 3 {
				t.Logf("at %d a second: off by more than 5%%; again", s)
				starts[i] = start(ctx)
				continue
			}
			if off {
				t.Errorf("%d steps at %d a second took %.3f s, want %.3f s within 5%%", n, s, took, want)
			}
			hashes := eval[[]string](t, ctx, `Array.from(tpHashes)`)
			if want := fmt.Sprintf("#step=%d", s0); len(hashes) != 1 || hashes[0] != want {
				t.Errorf("at %d a second the address changed while playing: %v, want %s throughout", s, hashes, want)
			}
			if h, step := eval[string](t, ctx, `location.hash`), read(t, ctx).Step; h != fmt.Sprintf("#step=%d", step) {
				t.Errorf("paused at step %d, the address ends in %q", step, h)
			}
			break
		}
	}
}

// ghost is a tile of the step before, sliding over the board.
type ghost struct {
	From, To int
	Value    uint64
}

const readGhosts = `JSON.stringify(Array.from(document.querySelectorAll("#ghosts .c")).map(g => ({from: +g.dataset.from, to: +g.dataset.to, value: +g.dataset.value})))`

// TestBrowserAnimation: a step forward slides the tiles of the step
// before to where the records say (moving each ghost from its cell to
// its target and adding the tile that appeared gives the new board), pops
// the merged and grows the new tile, and is done within the step; the
// board is drawn at once. Unticked, or under prefers-reduced-motion,
// nothing moves.
func TestBrowserAnimation(t *testing.T) {
	t.Parallel()
	g := load(t, "valid/tile-merge-4096.yaml")
	ctx := open(t, page(t, g))
	tested, merged := 0, 0
	for i := 100; i < len(g.Frames) && tested < 12; i++ {
		f := g.Frames[i+1]
		if f.Spawn == nil {
			continue
		}
		goTo(t, ctx, i)
		// The step and what it animates, read in the one evaluation (the
		// animation is over in 220 ms, and a loaded machine may take
		// longer between two calls).
		var at struct {
			Ghosts []ghost
			Anims  int
			Merged int
		}
		// A timer of the page's, 400 ms after the step, reads what is
		// still moving then (below: a timer, not a wait of the test's,
		// so a loaded machine, which makes the page's timers late, makes
		// the reading late too; timers run in the order they are due).
		js := `(() => {
			document.dispatchEvent(new KeyboardEvent("keydown", {key: "n", bubbles: true}));
			clearTimeout(window.tpLaterTimer);
			window.tpLater = "";
			window.tpLaterTimer = setTimeout(() => {
				tpLater = JSON.stringify([document.getAnimations().length, document.querySelectorAll("#ghosts .c").length]);
			}, 400);
			return JSON.stringify({ghosts: JSON.parse(` + readGhosts + `), anims: document.getAnimations().length,
				merged: document.querySelectorAll("#board .c.merged").length});
		})()`
		if err := json.Unmarshal([]byte(eval[string](t, ctx, js)), &at); err != nil {
			t.Fatal(err)
		}
		gs := at.Ghosts
		check(t, ctx, g, i+1, "a step forward")
		if len(gs) == 0 {
			t.Fatalf("step %d to %d: no tile slides", i, i+1)
		}
		before, after := flat(g.Frames[i].Board.Values()), flat(f.Board.Values())
		board := slices.Clone(before)
		for _, gh := range gs {
			if before[gh.From] != gh.Value {
				t.Errorf("step %d: a %d slides from cell %d, which holds %d", i+1, gh.Value, gh.From, before[gh.From])
			}
			board[gh.From] = 0
		}
		for _, gh := range gs {
			board[gh.To] += gh.Value
		}
		cols := f.Board.Cols()
		board[f.Spawn.Row*cols+f.Spawn.Col] += f.Spawn.Value
		if !slices.Equal(board, after) {
			t.Errorf("step %d: the slides and the new tile make %v, the frame is %v", i+1, board, after)
		}
		if anims := at.Anims; anims < len(gs)+1 {
			t.Errorf("step %d: %d animations for %d sliding tiles and a new one", i+1, anims, len(gs))
		}
		if f.Gained > 0 {
			merged++
			if at.Merged == 0 {
				t.Errorf("step %d gains %d points: no tile pops", i+1, f.Gained)
			}
		}
		tested++
	}
	if merged == 0 {
		t.Fatal("no step with a merge tested")
	}
	// The last step's reading, 400 ms after it by the page's timers.
	later, err := chromedp.Run(ctx, chromedp.Poll[string](`window.tpLater`, chromedp.WithPollingTimeout(hangBound)))
	if err != nil {
		t.Fatalf("no reading 400 ms after the last step: %v", err)
	}
	if later != "[0,0]" {
		t.Errorf("400 ms after a step: [animations, sliding tiles] %s", later)
	}
	still := func(ctx context.Context, how string) {
		t.Helper()
		goTo(t, ctx, 200)
		do(t, ctx, "n", chromedp.KeyEvent("n"))
		if n, gs := eval[int](t, ctx, `document.getAnimations().length`), eval[int](t, ctx, `document.querySelectorAll("#ghosts .c").length`); n != 0 || gs != 0 {
			t.Errorf("%s: %d animations, %d sliding tiles", how, n, gs)
		}
		check(t, ctx, g, 201, how)
	}
	do(t, ctx, "untick", chromedp.Click("#animate"))
	still(ctx, "unticked")

	// The same tab, a new document opened in it below.
	do(t, ctx, "reduced motion", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
		return err
	}))
	file := writePage(t, page(t, g))
	do(t, ctx, "open", chromedp.Navigate("file://"+file), chromedp.WaitReady("#board .c"))
	if eval[bool](t, ctx, `document.getElementById("animate").checked`) {
		t.Error("under prefers-reduced-motion the animation is on")
	}
	still(ctx, "prefers-reduced-motion")
}

// TestBrowserMoments: the moments of a game (D.marks, and an invalid
// game's divergence) are ticks on the slider, marks on the chart and
// buttons of a list; each goes to its step, as m and M do.
func TestBrowserMoments(t *testing.T) {
	t.Parallel()
	in := tab(t) // each page a new document in the one tab
	for _, name := range []string{"valid/tile-merge-4096.yaml", "tampered/illegal-move-inserted.yaml"} {
		g := load(t, name)
		html := page(t, g)
		d := embedded(t, html)
		var steps []int
		for _, m := range d.Marks {
			steps = append(steps, m.Step)
		}
		if d.Div != nil {
			steps = append(steps, d.Div.Step)
		}
		slices.Sort(steps)
		if len(steps) < 3 {
			t.Fatalf("%s: %d moments", name, len(steps))
		}
		ctx := openIn(t, in, html, 0, 0, "", "#board .c")
		for sel, want := range map[string]int{"#ticks button": len(steps), "#moments button": len(steps), "#chart circle.moment": len(steps)} {
			if n := eval[int](t, ctx, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel)); n != want {
				t.Errorf("%s: %d %s, want %d", name, n, sel, want)
			}
		}
		// The ticks of near moments overlap (the list is the precise
		// way): a tick is pressed by the script.
		for k, s := range steps {
			eval[any](t, ctx, fmt.Sprintf(`document.querySelectorAll("#ticks button")[%d].click()`, k))
			if got := read(t, ctx).Step; got != s {
				t.Errorf("%s: tick %d goes to step %d, want %d", name, k, got, s)
			}
		}
		u := slices.Compact(slices.Clone(steps))
		do(t, ctx, "Home", chromedp.KeyEvent(kb.Home))
		var via []int
		for range u {
			do(t, ctx, "m", chromedp.KeyEvent("m"))
			via = append(via, read(t, ctx).Step)
		}
		if !slices.Equal(via, u) {
			t.Errorf("%s: m goes to %v, the moments are at %v", name, via, u)
		}
		do(t, ctx, "M", chromedp.KeyEvent("M"))
		if got := read(t, ctx).Step; got != u[len(u)-2] {
			t.Errorf("%s: M from the last moment goes to %d, want %d", name, got, u[len(u)-2])
		}
		do(t, ctx, "a moment of the list", chromedp.Click(`#moments li:first-child button`))
		if got := read(t, ctx).Step; got != steps[0] {
			t.Errorf("%s: the first moment of the list goes to %d, want %d", name, got, steps[0])
		}
	}
}

type box struct{ Top, Bottom, Left, Right, Width, Height float64 }

func rect(t *testing.T, ctx context.Context, sel string) box {
	t.Helper()
	var b box
	js := fmt.Sprintf(`(r => JSON.stringify({top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height}))(document.querySelector(%q).getBoundingClientRect())`, sel)
	if err := json.Unmarshal([]byte(eval[string](t, ctx, js)), &b); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBrowserViewerLayout at 1,280 by 800: a board of about 450 px (an
// 8x8 board too), whole in the first screen, under a headline of the
// game's figures with digits grouped; an invalid game's board before the
// verdict's details, its reason beside it.
func TestBrowserViewerLayout(t *testing.T) {
	t.Parallel()
	g := load(t, "valid/tile-merge-4096.yaml")
	in := tab(t) // each page a new document in the one tab
	for _, p := range []struct {
		name string
		g    TracedReplay
	}{{"a valid game", g}, {"an 8x8 game", wideGame(t)}, {"an illegal move", load(t, "tampered/illegal-move-inserted.yaml")}} {
		html := page(t, p.g)
		ctx := openIn(t, in, html, 1280, 800, "", "body[data-shown]")
		t.Logf("%s: a page of %d bytes, its first board drawn %s ms after the page's start", p.name, len(html), eval[string](t, ctx, `document.body.dataset.shown`))
		b, h := rect(t, ctx, "#board"), rect(t, ctx, "#headline")
		if b.Width < 430 || b.Width > 470 {
			t.Errorf("%s: the board is %.0f px wide, want about 450", p.name, b.Width)
		}
		if b.Bottom > 800 || h.Bottom > b.Top {
			t.Errorf("%s: the headline ends at %.0f, the board spans %.0f to %.0f in an 800 px window", p.name, h.Bottom, b.Top, b.Bottom)
		}
		head := eval[string](t, ctx, `document.getElementById("headline").textContent`)
		v := p.g.Verdict
		for _, want := range []string{grouped(v.Score) + " points", "largest tile " + grouped(v.MaxTile), grouped(uint64(v.Moves)) + " moves"} {
			if !strings.Contains(head, want) {
				t.Errorf("%s: the headline %q does not say %q", p.name, head, want)
			}
		}
		if !v.Valid {
			w, n := rect(t, ctx, "#why"), rect(t, ctx, "#note")
			if w.Top < b.Bottom || n.Height == 0 || n.Top > b.Bottom || n.Left < b.Right {
				t.Errorf("%s: the board %+v, the reason %+v, the details %+v", p.name, b, n, w)
			}
		}
	}
	if grouped(89468) != "89,468" {
		t.Fatal(grouped(89468))
	}
}

// touch sends a touch from (x0, y0) to (x1, y1) in a few moves: a swipe,
// or a tap when the points are the same.
func touch(x0, y0, x1, y1 float64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		pt := func(x, y float64) []*input.TouchPoint {
			id := 1.0
			return []*input.TouchPoint{{X: x, Y: y, ID: &id}}
		}
		if _, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: pt(x0, y0)}); err != nil {
			return err
		}
		for k := 1; k <= 5; k++ {
			x, y := x0+(x1-x0)*float64(k)/5, y0+(y1-y0)*float64(k)/5
			if _, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchMove, TouchPoints: pt(x, y)}); err != nil {
				return err
			}
		}
		_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}})
		return err
	})
}

// TestBrowserPhone at 390 by 844: every control at least 44 px high and
// in the window wherever the page is scrolled, nothing wider than the
// window; a swipe left on the board goes on a step, right back a step; a
// tap plays, another pauses. The viewer of an illegal move is held to the
// same in TestBrowserWidths, on the page it opens at 390 px.
func TestBrowserPhone(t *testing.T) {
	t.Parallel()
	g := load(t, "valid/tile-merge-4096.yaml")
	// The game at step 2500, for the swipes below.
	late := openAt(t, page(t, g), 390, 844, "#step=2500", "#board .c")
	if m := measure(t, late); m.Scroll > m.Client {
		t.Errorf("#step=2500: %d px wide in a window of %d", m.Scroll, m.Client)
	}
	phoneControls(t, late, "#step=2500")
	// Only scrolled above: still at step 2500.
	ctx := late
	eval[any](t, ctx, `document.getElementById("board").scrollIntoView({block: "center"})`)
	b := rect(t, ctx, "#board")
	y, x0, x1 := b.Top+b.Height/2, b.Left+b.Width*0.8, b.Left+b.Width*0.2
	do(t, ctx, "swipe left", touch(x0, y, x1, y))
	check(t, ctx, g, 2501, "a swipe to the left")
	do(t, ctx, "swipe right", touch(x1, y, x0, y))
	do(t, ctx, "swipe right", touch(x1, y, x0, y))
	check(t, ctx, g, 2499, "two swipes to the right")
	do(t, ctx, "tap", touch(x0, y, x0, y))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`+document.getElementById("board").dataset.step >= 2501`, chromedp.WithPollingTimeout(hangBound))); err != nil {
		t.Fatalf("a tap does not play: step %d", read(t, ctx).Step)
	}
	do(t, ctx, "tap", touch(x0, y, x0, y))
	if p := eval[string](t, ctx, `document.getElementById("play").getAttribute("aria-pressed")`); p != "false" {
		t.Errorf("a second tap does not pause (pressed %s)", p)
	}
}

// phoneControls checks a page open at 390 by 844: every control at least
// 44 px high and in the window, scrolled to the top and to the bottom.
func phoneControls(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	for _, y := range []string{"0", "document.documentElement.scrollHeight"} {
		eval[any](t, ctx, "window.scrollTo(0, "+y+")")
		var small []string
		js := `JSON.stringify(Array.from(document.querySelectorAll(".controls .buttons button, .controls select, .controls .opt")).filter(e => e.getBoundingClientRect().height < 44 || e.getBoundingClientRect().bottom > innerHeight || e.getBoundingClientRect().top < 0).map(e => e.id || e.className))`
		if err := json.Unmarshal([]byte(eval[string](t, ctx, js)), &small); err != nil {
			t.Fatal(err)
		}
		if len(small) > 0 {
			t.Errorf("%s scrolled to %s: controls under 44 px or out of the window: %v", name, y, small)
		}
	}
}

// writePage writes html to a file of the test's and returns its path.
func writePage(t *testing.T, html string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(file, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestBrowserBreakNamed: a hallabois game's break is named on the page,
// its price shown as the points it gained (a negative number), and a
// refused break is named over the board (before 2026-12-08 each said
// "undefined", and the break gained 0 points while the score fell by its
// price).
func TestBrowserBreakNamed(t *testing.T) {
	t.Parallel()
	p, err := engine.BuiltinProfile("hallabois-v1-4x4")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := engine.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := replay.NewRecorder(rules, "break")
	if err != nil {
		t.Fatal(err)
	}
	g := rec.Game()
	for g.Score() < p.Break.Price && !g.Over() { // a corner player's moves
		d := engine.Up
		for _, c := range []engine.Direction{engine.Left, engine.Down, engine.Right} {
			if g.Legal(c) {
				d = c
				break
			}
		}
		if err := rec.Do(engine.Action(d)); err != nil {
			t.Fatal(err)
		}
	}
	score := g.Score()
	if err := rec.Do(engine.Break); err != nil {
		t.Fatal(err)
	}
	r := rec.SpawnRecorded()
	at := len(r.Actions) // the break's step
	valid := decodeTraced(t, r)
	in := tab(t)
	ctx := openIn(t, in, page(t, valid), 1280, 800, fmt.Sprintf("#step=%d", at), "#board .c")
	shown := eval[string](t, ctx, `["cap", "f-action", "f-gained", "f-score"].map(id => document.getElementById(id).textContent).join(" | ")`)
	if want := fmt.Sprintf("after action %d (break) | break | -%d | %d", at, p.Break.Price, score-p.Break.Price); shown != want {
		t.Errorf("the break's step: %q, want %q", shown, want)
	}
	// A break with too few points is refused, and named.
	r.Actions = append([]engine.Action{engine.Break}, r.Actions...)
	r.Spawns = append([]engine.Spawn{{}}, r.Spawns...)
	refused := decodeTraced(t, r)
	ctx = openIn(t, in, page(t, refused), 1280, 800, "", "#board .c")
	over := eval[string](t, ctx, `document.querySelector("#board .refused .what").textContent`)
	action := eval[string](t, ctx, `document.getElementById("f-action").textContent`)
	if !strings.HasPrefix(over, "break: ") || action != "break (refused)" {
		t.Errorf("the refused break: %q over the board, the action %q", over, action)
	}
}

// decodeTraced traces r as a page shows it.
func decodeTraced(t *testing.T, r *replay.Replay) TracedReplay {
	t.Helper()
	vd, frames := replay.NewVerifier().Trace(r)
	vd.Name = "break.yaml"
	return TracedReplay{Replay: r, Verdict: vd, Frames: frames}
}
