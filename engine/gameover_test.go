package engine

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestGameOverRuleOfEachProfile holds each built-in profile's game-over
// rule to its source (docs/sources.md, "What each source decides"): only
// Rosetta Code's "loses if no valid moves are possible" makes an empty
// board over; the others end the run only on a full board with no merge.
func TestGameOverRuleOfEachProfile(t *testing.T) {
	want := map[string]GameOverRule{
		"classic": FullNoMerge, "online-2048": FullNoMerge, "pgs": FullNoMerge, "tile-merge": FullNoMerge,
		"hallabois-3x3": FullNoMerge, "hallabois-4x4": FullNoMerge, "hallabois-v1-3x3": FullNoMerge, "hallabois-v1-4x4": FullNoMerge,
		"rosetta": NoValidMove,
	}
	for _, name := range BuiltinNames() {
		p := mustProfile(t, name)
		if w, ok := want[name]; !ok || p.GameOver != w {
			t.Errorf("%s: gameOver %v, want %v (listed: %v)", name, p.GameOver, w, ok)
		}
	}
}

// TestEmptyBoardOver loads an empty board under each rule, on the packed
// 4x4 path and on a 5x5 board: over (no-moves) under no-valid-move,
// playing with nothing legal under full-no-merge. A full board with no
// merge is over under both.
func TestEmptyBoardOver(t *testing.T) {
	for _, rule := range []GameOverRule{FullNoMerge, NoValidMove} {
		for _, side := range []int{4, 5} {
			p := mustProfile(t, "classic")
			p.Name, p.Rows, p.Cols, p.GameOver = "classic-over", side, side, rule
			b, err := NewBoard(side, side)
			if err != nil {
				t.Fatal(err)
			}
			g, err := Load(p, State{Board: b, RNG: seeded("empty")})
			if err != nil {
				t.Fatal(err)
			}
			over := rule == NoValidMove
			if g.Over() != over || (g.Result() == NoMoves) != over || len(g.LegalMoves()) != 0 {
				t.Errorf("%v, %dx%d empty board: over %v, result %v, legal %v; want over %v", rule, side, side, g.Over(), g.Result(), g.LegalMoves(), over)
			}
			full := ""
			for r := range side {
				row := make([]string, side)
				for c := range side {
					row[c] = []string{"2", "4"}[(r+c)%2]
				}
				full += strings.Join(row, " ") + "/"
			}
			g, err = Load(p, State{Board: mustBoard(t, strings.TrimSuffix(full, "/")), RNG: seeded("full")})
			if err != nil {
				t.Fatal(err)
			}
			if g.Result() != NoMoves {
				t.Errorf("%v, %dx%d full board with no merge: result %v, want no-moves", rule, side, side, g.Result())
			}
		}
	}
}

// TestBreakToEmptyBoard clears every tile with a hallabois break: the
// validator counts an empty cell as a move possible (docs/peers.md), so
// the run goes on.
func TestBreakToEmptyBoard(t *testing.T) {
	g := loadScore(t, mustProfile(t, "hallabois-4x4"), "2 4 8 ./. . . ./. . . ./. . . .", 5000)
	if err := g.Break(); err != nil {
		t.Fatal(err)
	}
	if g.Board().Empty() != 16 || g.Over() {
		t.Errorf("a break that clears the board: %v, over %v, want an empty board, playing", g.Board(), g.Over())
	}
}

// TestParseProfileGameOver reads the gameOver field, keeps a base's, writes
// it back, and refuses an unknown rule with its line.
func TestParseProfileGameOver(t *testing.T) {
	p, err := ParseProfile("r.yaml", []byte("name: r-empty\nbase: classic\ngameOver: no-valid-move\n"))
	if err != nil || p.GameOver != NoValidMove {
		t.Fatalf("gameOver: no-valid-move: %v, %v", p, err)
	}
	q, err := ParseProfile("r.yaml", []byte("name: r-kept\nbase: rosetta\n"))
	if err != nil || q.GameOver != NoValidMove {
		t.Fatalf("a base's gameOver: %v, %v", q, err)
	}
	d, err := ParseProfile("d.yaml", []byte("name: d\n"))
	if err != nil || d.GameOver != FullNoMerge {
		t.Fatalf("no base: the default gameOver: %v, %v", d, err)
	}
	out, err := yaml.Marshal(p)
	if err != nil || !strings.Contains(string(out), "gameOver: no-valid-move\n") {
		t.Fatalf("MarshalYAML: %v\n%s", err, out)
	}
	back, err := ParseProfile("back.yaml", out)
	if err != nil || back.GameOver != NoValidMove {
		t.Fatalf("read back: %v, %v", back, err)
	}
	_, err = ParseProfile("bad.yaml", []byte("name: bad\nrows: 4\ngameOver: empty\n"))
	if err == nil || !strings.Contains(err.Error(), "bad.yaml:3") || !strings.Contains(err.Error(), "full-no-merge") {
		t.Fatalf("an unknown gameOver: %v", err)
	}
}
