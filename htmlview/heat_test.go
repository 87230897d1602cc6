package htmlview

import (
	"bytes"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// firstCellGame plays a spawn-recorded game whose every tile is a 4 on
// the first empty cell: legal, and far from a fair generator.
func firstCellGame(t *testing.T, moves int) *replay.Replay {
	t.Helper()
	p, err := engine.BuiltinProfile("tile-merge")
	if err != nil {
		t.Fatal(err)
	}
	start, _ := engine.BoardFromValues([][]uint64{{4, 4, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}})
	g, err := engine.Load(p, engine.State{Board: start})
	if err != nil {
		t.Fatal(err)
	}
	r := &replay.Replay{Profile: p.Name, Rules: p.Version, Start: &start}
	for len(r.Actions) < moves && !g.Over() {
		d := g.LegalMoves()[0]
		sl, _ := g.Board().Slide(d)
		var s engine.Spawn
	find:
		for row := range 4 {
			for c := range 4 {
				if sl.Board.At(row, c) == 0 {
					s = engine.Spawn{Row: row, Col: c, Value: 4}
					break find
				}
			}
		}
		if _, err := g.MoveSpawn(d, s); err != nil {
			t.Fatal(err)
		}
		r.Actions, r.Spawns = append(r.Actions, engine.Action(d)), append(r.Spawns, s)
	}
	b := g.Board()
	r.Claim = replay.Claim{Score: g.Score(), MaxTile: g.MaxTile(), Moves: g.Moves(), Board: &b}
	return r
}

// TestSuspiciousHeat: the viewer page of a suspicious game says so in
// amber and draws where its tiles appeared against a fair generator:
// every spawn counted once, the fair expectation summing to the same,
// the first cells far above it; a valid game without warnings has no map.
func TestSuspiciousHeat(t *testing.T) {
	r := firstCellGame(t, 60)
	pv := NewViewer(r)
	vd := replay.NewVerifier().Walk(r, pv.Add)
	if !vd.Valid || len(vd.Warnings) == 0 {
		t.Fatalf("the game: valid %v, warnings %v", vd.Valid, vd.Warnings)
	}
	var b bytes.Buffer
	if err := pv.Write(&b, vd, Options{}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if !strings.Contains(html, `<span class="verdict suspicious" id="verdict">`) || !strings.Contains(html, `id="heat"`) {
		t.Fatal("no amber verdict or no heat map")
	}
	var seen, fair float64
	cells := regexp.MustCompile(`data-seen="([\d.]+)" data-fair="([\d.]+)"`).FindAllStringSubmatch(html, -1)
	for _, m := range cells {
		s, _ := strconv.ParseFloat(m[1], 64)
		f, _ := strconv.ParseFloat(m[2], 64)
		seen, fair = seen+s, fair+f
	}
	first, _ := strconv.ParseFloat(cells[0][1], 64)
	firstFair, _ := strconv.ParseFloat(cells[0][2], 64)
	if len(cells) != 16 || int(seen) != len(r.Actions) || fair < seen-1 || fair > seen+1 || first < 3*firstFair {
		t.Errorf("%d cells, %v seen, %.1f fair, the first cell %v against %v", len(cells), seen, fair, first, firstFair)
	}
	if h := page(t, load(t, "valid/tile-merge-spawns.yaml")); strings.Contains(h, `id="heat"`) {
		t.Error("a game without warnings has a heat map")
	}
}

// TestHeatLegible: every figure of the heat map has a contrast of 4 or
// more with its cell, the cell's colour laid over the map's, at every
// depth of amber and blue (before 2026-12-08 the figures were one dark
// brown on every cell: 1.5 on the deepest blue, the cells that matter
// most, and 2.8 on the deepest amber).
func TestHeatLegible(t *testing.T) {
	h := &heat{rows: 8, cols: 8, spawns: 1}
	for k := range 32 {
		depth := float64(k) / 31                                   // the colour's alpha
		h.fair[k], h.seen[k] = 10, math.Exp2(3*depth)*10.5-0.5     // amber: more than fair
		h.fair[32+k], h.seen[32+k] = 0.5*math.Exp2(3*depth)-0.5, 0 // blue: fewer
	}
	under := [3]float64{0xe4 / 255.0, 0xdd / 255.0, 0xd3 / 255.0} // .heat's background
	colour := regexp.MustCompile(`^rgba\((\d+),(\d+),(\d+),([\d.]+)\)$`)
	for _, c := range h.grid().Cells {
		m := colour.FindStringSubmatch(string(c.Colour))
		if m == nil {
			t.Fatalf("a colour %q", c.Colour)
		}
		a, _ := strconv.ParseFloat(m[4], 64)
		var bg [3]float64
		for i := range bg {
			v, _ := strconv.Atoi(m[i+1])
			bg[i] = a*float64(v)/255 + (1-a)*under[i]
		}
		if k := contrast(hexColour(t, string(c.Ink)), bg); k < 4 {
			t.Errorf("on %s its text %s has a contrast of %.2f", c.Colour, c.Ink, k)
		}
	}
}

// hexColour reads a colour written #rgb or #rrggbb.
func hexColour(t *testing.T, s string) [3]float64 {
	t.Helper()
	if len(s) == 4 {
		s = string([]byte{'#', s[1], s[1], s[2], s[2], s[3], s[3]})
	}
	var c [3]float64
	for i := range c {
		v, err := strconv.ParseUint(s[1+2*i:3+2*i], 16, 8)
		if err != nil || len(s) != 7 {
			t.Fatalf("not a colour: %q", s)
		}
		c[i] = float64(v) / 255
	}
	return c
}

// TestBrowserHeatInk: the figures of the heat map are drawn in their
// cell's ink (TestHeatLegible), no rule of the page's own over it.
func TestBrowserHeatInk(t *testing.T) {
	t.Parallel()
	r := firstCellGame(t, 60)
	pv := NewViewer(r)
	vd := replay.NewVerifier().Walk(r, pv.Add)
	var b bytes.Buffer
	if err := pv.Write(&b, vd, Options{}); err != nil {
		t.Fatal(err)
	}
	ctx := openAt(t, b.String(), 1280, 800, "", "#heat .hc")
	cells := eval[[][]string](t, ctx, `Array.from(document.querySelectorAll("#heat .hc")).map(c => [c.style.color,
		getComputedStyle(c.querySelector("b")).color, getComputedStyle(c.querySelector("span")).color])`)
	for _, c := range cells {
		if c[0] == "" || c[1] != c[0] || c[2] != c[0] {
			t.Errorf("a cell's ink %q, its figures %q and %q", c[0], c[1], c[2])
		}
	}
	if len(cells) != 16 {
		t.Errorf("%d cells", len(cells))
	}
}
