package e2e

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"

	"github.com/tileproof/tileproof/engine"
)

var update = flag.Bool("update", false, "rewrite js/test/vectors/tp1.json from the engine")

// vectorsFile is the kit's tp1 vectors, which node's tests read.
var vectorsFile = filepath.Join("..", "js", "test", "vectors", "tp1.json")

// The seeds of the vectors: those of docs/tp1.md, then white space at each
// code point where the trim rules of JavaScript, Python and Unicode
// White_Space differ, then non-ASCII text and the length limit.
var vectorSeeds = []struct{ seed, note string }{
	{"7", "docs/tp1.md"},
	{"  7  ", "docs/tp1.md: trimmed to 7"},
	{"0", "docs/tp1.md"},
	{"2048-practice", "docs/tp1.md"},
	{"héllo wörld ✓", "docs/tp1.md"},
	{"\u00a0日本語\u3000", "docs/tp1.md: trimmed to 日本語"},
	{"\t\n\v\f\r 7 \r\f\v\n\t", "ASCII White_Space, trimmed"},
	{"\u0085x\u0085", "U+0085 NEXT LINE is White_Space: trimmed (JavaScript's trim keeps it)"},
	{"\ufeffx\ufeff", "U+FEFF BYTE ORDER MARK is not White_Space: kept (JavaScript's trim removes it)"},
	{"\ufeff", "U+FEFF alone is a seed of one character"},
	{"\u180ex\u180e", "U+180E MONGOLIAN VOWEL SEPARATOR is not White_Space since Unicode 6.3: kept"},
	{"\u001cx\u001f", "U+001C and U+001F are not White_Space: kept (Python's str.strip removes them)"},
	{"\u001d\u001ex", "U+001D and U+001E are not White_Space: kept (Python's str.strip removes them)"},
	{"\u200bx\u200b", "U+200B ZERO WIDTH SPACE is not White_Space: kept"},
	{"\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200ax\u2028\u2029\u202f\u205f\u3000", "the White_Space of U+1680 to U+3000, trimmed"},
	{" a b\tc ", "white space inside the seed is kept"},
	{"e\u0301", "two code points (e and a combining accent), not normalised"},
	{"🎲🎲", "characters outside the BMP: one code point each"},
	{strings.Repeat("x", 96), "96 characters: the longest seed"},
	{strings.Repeat("🎲", 96), "96 characters of 4 bytes each (192 UTF-16 units)"},
	{" " + strings.Repeat("é", 96) + "\u3000", "96 characters once trimmed"},
}

// The seeds tp1 refuses. (Invalid UTF-8 has no JSON form; the kit's tests
// check its JavaScript counterpart, a lone surrogate, on their own.)
var vectorSeedErrors = []struct{ seed, note string }{
	{"", "empty"},
	{"   ", "empty once trimmed"},
	{"\u3000\n", "empty once trimmed"},
	{"\u0085", "empty once trimmed: U+0085 is White_Space"},
	{strings.Repeat("x", 97), "97 characters"},
	{strings.Repeat("🎲", 97), "97 characters of 4 bytes each"},
}

// The games: spawn choices on boards of several sizes and weights, each
// step's slide and spawn as the engine plays them.
var vectorGames = []struct {
	seed       string
	rows, cols int
	startTiles int
	weights    []weight
	moves      int
}{
	{"7", 4, 4, 2, []weight{{2, 9}, {4, 1}}, 60},
	{"kit-3x5", 3, 5, 3, []weight{{2, 8}, {4, 1}, {8, 1}}, 40},
	{"kit-8x8 weights to 2^32-1", 8, 8, 5, []weight{{2, 1 << 31}, {4, 1<<31 - 4}, {1024, 3}}, 60},
	{"kit-2x2", 2, 2, 1, []weight{{4, 1}, {2, 2}}, 10},
}

// weight is a spawn tile and its weight, in the order a vector lists them.
type weight struct{ value, weight uint64 }

type seedVector struct {
	Note       string   `json:"note"`
	Seed       string   `json:"seed"`
	Normalized string   `json:"normalized"`
	Key        string   `json:"key"`
	Draws      []string `json:"draws"`
}

type errorVector struct {
	Note  string `json:"note"`
	Seed  string `json:"seed"`
	Error string `json:"error"`
}

type stepVector struct {
	Legal     []string      `json:"legal"` // the legal moves before it
	Direction string        `json:"direction"`
	Gained    uint64        `json:"gained"`
	After     [][]uint64    `json:"after"` // the board after the slide, before the spawn
	Spawn     *engine.Spawn `json:"spawn"`
}

type gameVector struct {
	Seed       string            `json:"seed"`
	Rows       int               `json:"rows"`
	Cols       int               `json:"cols"`
	StartTiles int               `json:"startTiles"`
	Weights    map[string]uint64 `json:"weights"`
	Start      [][]uint64        `json:"start"`
	Steps      []stepVector      `json:"steps"`
}

type vectors struct {
	Source     string        `json:"source"`
	WhiteSpace []string      `json:"whiteSpace"`
	Seeds      []seedVector  `json:"seeds"`
	SeedErrors []errorVector `json:"seedErrors"`
	Games      []gameVector  `json:"games"`
}

// makeVectors computes every vector with the engine.
func makeVectors(t *testing.T) []byte {
	v := vectors{Source: "computed by the Go engine (engine.NormalizeSeed, engine.SeedKey, engine.NewRNG, engine.NewGame): " +
		"go test ./e2e -run TestTP1Vectors checks this file against it, and with -update rewrites it"}
	// Every code point strings.TrimSpace trims.
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if strings.TrimSpace("x"+string(r)) == "x" {
			v.WhiteSpace = append(v.WhiteSpace, fmt.Sprintf("%04X", r))
		}
	}
	for _, s := range vectorSeeds {
		norm, err := engine.NormalizeSeed(s.seed)
		if err != nil {
			t.Fatalf("seed %q: %v", s.seed, err)
		}
		key, _ := engine.SeedKey(s.seed)
		rng, _ := engine.NewRNG(s.seed)
		sv := seedVector{Note: s.note, Seed: s.seed, Normalized: norm, Key: fmt.Sprintf("%016x", key)}
		for range 3 {
			sv.Draws = append(sv.Draws, fmt.Sprintf("%016x", rng.Next()))
		}
		v.Seeds = append(v.Seeds, sv)
	}
	for _, s := range vectorSeedErrors {
		_, err := engine.NormalizeSeed(s.seed)
		if err == nil {
			t.Fatalf("seed %q: no error", s.seed)
		}
		v.SeedErrors = append(v.SeedErrors, errorVector{Note: s.note, Seed: s.seed, Error: err.Error()})
	}
	for _, gs := range vectorGames {
		v.Games = append(v.Games, playVector(t, gs.seed, gs.rows, gs.cols, gs.startTiles, gs.weights, gs.moves))
	}
	return format(t, v)
}

// format writes the vectors as JSON with one seed, error or game step a
// line, so that a person can read the file and a diff shows one vector.
func format(t *testing.T, v vectors) []byte {
	compact := func(x any) string {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(x); err != nil {
			t.Fatal(err)
		}
		return escapeInvisible(strings.TrimSuffix(buf.String(), "\n"))
	}
	list := func(items []string, indent string) string {
		return "[\n" + indent + " " + strings.Join(items, ",\n"+indent+" ") + "\n" + indent + "]"
	}
	each := func(n int, f func(i int) any) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = compact(f(i))
		}
		return out
	}
	var games []string
	for _, g := range v.Games {
		steps := g.Steps
		g.Steps = nil
		head := strings.TrimSuffix(compact(g), `,"steps":null}`)
		games = append(games, head+`,"steps":`+list(each(len(steps), func(i int) any { return steps[i] }), "  ")+"}")
	}
	return []byte("{\n" +
		` "source": ` + compact(v.Source) + ",\n" +
		` "whiteSpace": ` + compact(v.WhiteSpace) + ",\n" +
		` "seeds": ` + list(each(len(v.Seeds), func(i int) any { return v.Seeds[i] }), " ") + ",\n" +
		` "seedErrors": ` + list(each(len(v.SeedErrors), func(i int) any { return v.SeedErrors[i] }), " ") + ",\n" +
		` "games": ` + list(games, " ") + "\n}\n")
}

// playVector plays up to moves moves of a game in the engine, each the
// legal move a fixed generator picks, and records each step.
func playVector(t *testing.T, seed string, rows, cols, startTiles int, weights []weight, moves int) gameVector {
	p, err := engine.BuiltinProfile("tile-merge")
	if err != nil {
		t.Fatal(err)
	}
	p = p.Clone()
	p.Name, p.Rows, p.Cols, p.StartTiles = "kit-vectors", rows, cols, startTiles
	p.Spawn = nil
	for _, w := range weights {
		p.Spawn = append(p.Spawn, engine.SpawnWeight{Value: w.value, Weight: w.weight})
	}
	for i := 1; i < len(p.Spawn); i++ { // the engine wants them ascending
		for j := i; j > 0 && p.Spawn[j].Value < p.Spawn[j-1].Value; j-- {
			p.Spawn[j], p.Spawn[j-1] = p.Spawn[j-1], p.Spawn[j]
		}
	}
	p.Win.Tile = 0
	g, err := engine.NewGame(p, seed)
	if err != nil {
		t.Fatalf("game %q: %v", seed, err)
	}
	gv := gameVector{Seed: seed, Rows: rows, Cols: cols, StartTiles: startTiles, Weights: map[string]uint64{}, Start: g.Board().Values()}
	for _, w := range weights {
		gv.Weights[fmt.Sprint(w.value)] = w.weight
	}
	pick := engine.RNGFromState(uint64(len(seed)))
	for range moves {
		legal := g.LegalMoves()
		if len(legal) == 0 {
			break
		}
		names := make([]string, len(legal))
		for i, d := range legal {
			names[i] = d.String()
		}
		d := legal[pick.Next()%uint64(len(legal))]
		step, err := g.Move(d)
		if err != nil {
			t.Fatalf("game %q: %v", seed, err)
		}
		after := g.Board().Values()
		after[step.Spawn.Row][step.Spawn.Col] = 0
		spawn := step.Spawn
		gv.Steps = append(gv.Steps, stepVector{Legal: names, Direction: d.String(), Gained: step.Gained, After: after, Spawn: &spawn})
	}
	return gv
}

// escapeInvisible writes the characters a person cannot see (white space
// other than the space, format and control characters) as JSON \u escapes;
// outside strings, JSON has none of them.
func escapeInvisible(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsPrint(r) {
			b.WriteRune(r)
		} else if r > 0xFFFF {
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, "\\u%04x\\u%04x", r1, r2)
		} else {
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

// TestTP1Vectors checks that the kit's vectors are the engine's: the seeds'
// normalisation, keys and first draws, the seeds it refuses with its
// message, the White_Space it trims, and the spawns of whole games.
func TestTP1Vectors(t *testing.T) {
	want := makeVectors(t)
	if *update {
		if err := os.WriteFile(vectorsFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(vectorsFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := 0; i < min(len(gl), len(wl)); i++ {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Fatalf("%s line %d is %q; the engine gives %q (go test ./e2e -run TestTP1Vectors -update rewrites the file)", vectorsFile, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s has %d lines; the engine gives %d (go test ./e2e -run TestTP1Vectors -update rewrites the file)", vectorsFile, len(gl), len(wl))
	}
}

// TestWhiteSpaceIsUnicode checks the premise of the vectors' whiteSpace
// list: what the engine trims is exactly Unicode's White_Space property.
func TestWhiteSpaceIsUnicode(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		trimmed := strings.TrimSpace("x"+string(r)) == "x"
		if ws := unicode.Is(unicode.White_Space, r); trimmed != ws {
			t.Errorf("U+%04X: trimmed %v, White_Space %v", r, trimmed, ws)
		}
	}
}
