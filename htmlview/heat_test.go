package htmlview

import (
	"bytes"
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
