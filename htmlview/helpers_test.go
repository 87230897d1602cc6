package htmlview

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// load decodes and traces a replay of the corpus (replays/...).
func load(t testing.TB, name string) TracedReplay {
	t.Helper()
	path := filepath.Join("..", "replays", name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return decodeGame(t, name, data)
}

func decodeGame(t testing.TB, name string, data []byte) TracedReplay {
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
	return TracedReplay{Replay: r, Verdict: vd, Frames: frames}
}

// page renders g's viewer page.
func page(t testing.TB, g TracedReplay) string {
	t.Helper()
	var b bytes.Buffer
	if err := Replay(&b, g, Options{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// reportHTML renders a batch report of entries, titled title.
func reportHTML(t testing.TB, title string, entries []Entry) string {
	t.Helper()
	var b bytes.Buffer
	if err := Report(&b, title, entries); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var (
	dataScript  = regexp.MustCompile(`(?s)<script type="application/json" id="tp-data">(.*?)</script>`)
	stepsScript = regexp.MustCompile(`(?s)<script type="text/plain" id="tp-steps">(.*?)</script>`)
)

// pageData is a viewer page's data as the tests read it: the JSON beside
// the records, and each frame rebuilt from the records (a decoder of the
// format of steps.go written apart from the page's script), a field a
// slice or a character a frame.
type pageData struct {
	data
	Board  []string
	Score  []uint64
	Moves  []int
	Gained []uint64
	Act    string
	Spawn  [][2]uint64
	Won    string
	Result string
	// Slides are the (from, to) pairs of each frame's slide.
	Slides [][][2]int
	// Packed is the records' size, compressed, in the page.
	Packed int
}

// embedded reads the data back out of a viewer page.
func embedded(t testing.TB, html string) pageData {
	t.Helper()
	m := dataScript.FindStringSubmatch(html)
	z := stepsScript.FindStringSubmatch(html)
	if m == nil || z == nil {
		t.Fatal("no tp-data or tp-steps script in the page")
	}
	var d pageData
	if err := json.Unmarshal([]byte(strings.TrimSpace(m[1])), &d.data); err != nil {
		t.Fatalf("the embedded data: %v", err)
	}
	d.Packed = len(z[1])
	packed, err := base64.RawURLEncoding.DecodeString(strings.TrimSpace(z[1]))
	if err != nil {
		t.Fatalf("the steps: %v", err)
	}
	var recs []byte
	if d.Frames > 1 {
		zr, err := gzip.NewReader(bytes.NewReader(packed))
		if err != nil {
			t.Fatalf("the steps: %v", err)
		}
		if recs, err = io.ReadAll(zr); err != nil {
			t.Fatalf("the steps: %v", err)
		}
	}
	cells := []byte(d.Start)
	score, moves, state := d.data.Score, d.data.Moves, byte(d.State)
	act, won, res := []byte{}, []byte{}, []byte{}
	frame := func(a byte, gained uint64, spawn [2]uint64, slide [][2]int) {
		d.Board = append(d.Board, string(cells))
		d.Score = append(d.Score, score)
		d.Moves = append(d.Moves, moves)
		d.Gained = append(d.Gained, gained)
		d.Spawn = append(d.Spawn, spawn)
		d.Slides = append(d.Slides, slide)
		act = append(act, a)
		w := byte('0')
		if state&0x80 != 0 {
			w = '1'
		}
		won = append(won, w)
		res = append(res, expDigits[state&0x7f])
	}
	frame('-', 0, [2]uint64{}, nil)
	r := bytes.NewReader(recs)
	next := func() byte {
		b, err := r.ReadByte()
		if err != nil {
			t.Fatalf("the steps end early, at frame %d", len(d.Board))
		}
		return b
	}
	for r.Len() > 0 {
		head := next()
		var gained uint64
		var spawn [2]uint64
		var slide [][2]int
		if head&recScore != 0 {
			v, _ := binary.ReadVarint(r)
			score = uint64(int64(score) + v)
		}
		if head&recMoves != 0 {
			v, _ := binary.ReadVarint(r)
			moves += int(v)
		}
		if head&recGained != 0 {
			gained, _ = binary.ReadUvarint(r)
		}
		if head&recState != 0 {
			state = next()
		}
		for n := int(next()); n > 0; n-- {
			c := next()
			cells[c] = expDigits[next()]
		}
		if head&recSpawn != 0 {
			c := next()
			spawn = [2]uint64{uint64(c), 1 << strings.IndexByte(expDigits, cells[c])}
			for m := int(next()); m > 0; m-- {
				slide = append(slide, [2]int{int(next()), int(next())})
			}
		}
		frame("UDLRZEKB"[head&7], gained, spawn, slide)
	}
	if len(d.Board) != d.Frames {
		t.Fatalf("%d frames in the records, the data says %d", len(d.Board), d.Frames)
	}
	d.Act, d.Won, d.Result = string(act), string(won), string(res)
	return d
}

func filepathGlob(pattern string) ([]string, error) { return filepath.Glob(pattern) }

func readFile(name string) ([]byte, error) { return os.ReadFile(name) }

// wideGame plays a game of 300 moves on an 8x8 board (a profile based on
// tile-merge) and returns it as a valid replay's game, to draw the
// largest board there is.
func wideGame(t testing.TB) TracedReplay {
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
	return TracedReplay{Replay: &replay.Replay{}, Frames: frames,
		Verdict: replay.Verdict{Name: "wide.yaml", Valid: true, Profile: "wide", Replayed: true, Score: last.Score, MaxTile: last.Board.MaxTile(), Moves: last.Moves}}
}

// analyseWith is a batch report's extras that give each legal game the
// analysis f returns, as the command's do (verify --analyze).
func analyseWith(f func(name string, r *replay.Replay) json.RawMessage) func(*replay.Verdict, *replay.Replay) {
	return func(vd *replay.Verdict, r *replay.Replay) {
		if vd.LegalGame() {
			vd.Analysis = f(vd.Name, r)
		}
	}
}
