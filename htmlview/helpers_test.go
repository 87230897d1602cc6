package htmlview

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// load decodes and traces a replay of the corpus (replays/...).
func load(t testing.TB, name string) Game {
	t.Helper()
	path := filepath.Join("..", "replays", name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return decodeGame(t, name, data)
}

func decodeGame(t testing.TB, name string, data []byte) Game {
	t.Helper()
	r, err := replay.Decode(name, data)
	if err != nil {
		t.Fatal(err)
	}
	vd, frames := replay.NewVerifier().Trace(r)
	vd.Name = name
	if len(frames) == 0 {
		t.Fatalf("%s: no frames (%s)", name, vd.Reason)
	}
	return Game{Replay: r, Verdict: vd, Frames: frames}
}

// page renders g's viewer page.
func page(t testing.TB, g Game) string {
	t.Helper()
	var b bytes.Buffer
	if err := Replay(&b, g, Options{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var dataScript = regexp.MustCompile(`(?s)<script type="application/json" id="tp-data">(.*?)</script>`)

// embedded reads the JSON data back out of a viewer page.
func embedded(t testing.TB, html string) data {
	t.Helper()
	m := dataScript.FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no tp-data script in the page")
	}
	var d data
	if err := json.Unmarshal([]byte(strings.TrimSpace(m[1])), &d); err != nil {
		t.Fatalf("the embedded data: %v", err)
	}
	return d
}

func filepathGlob(pattern string) ([]string, error) { return filepath.Glob(pattern) }

func readFile(name string) ([]byte, error) { return os.ReadFile(name) }

// wideGame plays a game of 300 moves on an 8x8 board (a profile based on
// tile-merge) and returns it as a valid replay's game, to draw the
// largest board there is.
func wideGame(t testing.TB) Game {
	t.Helper()
	p, err := engine.ParseProfile("wide.yaml", []byte("name: wide\nbase: tile-merge\nrows: 8\ncols: 8\n"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(p, "wide")
	if err != nil {
		t.Fatal(err)
	}
	frames := []replay.Frame{{Board: g.Board()}}
	for i := 1; i <= 300 && !g.Over(); i++ {
		d := g.LegalMoves()[i%len(g.LegalMoves())]
		st, err := g.Move(d)
		if err != nil {
			t.Fatal(err)
		}
		f := replay.Frame{Step: i, Action: engine.Action(d), Gained: st.Gained, Board: g.Board(), Score: g.Score(), Moves: g.Moves(), Won: g.Won(), Result: g.Result()}
		if st.Changed {
			s := st.Spawn
			f.Spawn = &s
		}
		frames = append(frames, f)
	}
	last := frames[len(frames)-1]
	return Game{Replay: &replay.Replay{}, Frames: frames,
		Verdict: replay.Verdict{Name: "wide.yaml", Valid: true, Profile: "wide", Replayed: true, Score: last.Score, MaxTile: last.Board.MaxTile(), Moves: last.Moves}}
}
