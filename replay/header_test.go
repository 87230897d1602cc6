package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/tileproof/tileproof/engine"
)

var (
	boardsEqual = cmp.Comparer(func(a, b engine.Board) bool { return a == b })
	formsEqual  = cmp.Options{boardsEqual, cmp.AllowUnexported(form{}, pos{})}
)

// FuzzReadHeader checks readHeader against the YAML decoder: whatever
// document it takes, the decoder must take too and read the same.
func FuzzReadHeader(f *testing.F) {
	for _, s := range []string{
		"profile: tile-merge\nseed: \"7\"\nmoves: \"\"\nclaim:\n  score: 20544\n  maxTile: 2048\n  moves: 1033\n",
		"source: \"tileproof record\"\nprofile: tile-merge\nrules: 1\nrng: tp1\nseed: \"corpus-4\"\nmoves: \"\"\n\n\nclaim:\n  score: 89468\n  maxTile: 4096\n  moves: 4189\n  board: |2\n       2    8    4    2\n     256   64   32    8\n    1024  512  128   16\n    4096 2048 1024    4\n  won: true\n  over: true\n  result: no-moves\n",
		"# a comment\nprofile: pgs # the profile\nseed: 12\nmoves: \"\"\nclaim:\n   board: |\n     2 4 . .\n\n     . . . .\n     . . . 8\n     . . . .\n   won: false\n",
		"profile: x\nclaim:\n  board: |-\n    2 4\n    4 2\n# ends the block\n  over: true\n",
		"profile: x\nclaim:\n  board: |3\n    2 4\n    4 2\n",
		"profile: x\nclaim:\n  board: |+\n    2 4\n      \n    4 2\n\n  over: true\n",
		"profile: x\nclaim:\n  board: |2-\n      2 4\n    4 2\n   \n", "claim:\n  board: |\n    2 4\n   4 2\n", "claim:\n  board: |\n    2 4\n    4 2",
		"profile: \"a #b\" # c\nrules: 007\n",
		"profile: null\nseed: True\n",
		"profile: x\nprofile: y\n",
		"claim:\n  score: 1\n    moves: 2\n",
		"profile: x\n  y\n",
		"seedCommitment: sha256:ab\n",
		"claim: {score: 1,maxTile: 2}\n",
		"claim: { score: 1 , moves: 2 } # c\n",
		"claim: {score:1}\n",
		"claim: {score: 1,}\n",
		"claim: {won: true, result: no-moves, over: false}\n",
		"claim: {score: 1}\nclaim:\n  moves: 2\n",
		"profile: x\nmoves: \"\"\ntimes: \"812 95\"\ntimesSeal: \"hmac-sha256:ab\"\n",
		"times: 812\n", "times: |\n  812 95\n  7\n", "times: [1, 2]\n",
		"seed: -12\nsource: a:b\n", "rng: a:\n", "profile: on\n", "claim: {result: a:b, won: yes}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var fast form
		if !readHeader([]byte(text), &fast) {
			return
		}
		var slow form
		if err := readYAML("f.yaml", []byte(text), &slow, headerLimits); err != nil {
			t.Fatalf("readHeader took a document the YAML reader refuses: %v\n%+v", err, fast)
		}
		if diff := cmp.Diff(slow, fast, formsEqual); diff != "" {
			t.Fatalf("(-YAML reader +readHeader):\n%s", diff)
		}
		// The same form means the same messages; checked, in case the
		// form ever holds what cmp leaves out.
		var rf, rs Replay
		fast.doc, slow.doc = []byte(text), []byte(text)
		if fe, se := fast.replay("f.yaml", &rf), slow.replay("f.yaml", &rs); fmt.Sprint(fe) != fmt.Sprint(se) {
			t.Fatalf("replay: readHeader: %v\nYAML reader: %v", fe, se)
		}
	})
}

// TestReadHeaderCorpus reads every seeded corpus replay's header both
// ways and checks that readHeader takes the form tileproof record writes,
// so the fast way is the one the benchmarks and the corpus exercise.
func TestReadHeaderCorpus(t *testing.T) {
	taken := 0
	for _, name := range corpusFiles(t) {
		data := mustRead(t, "../replays/"+name)
		c, ok := cutMoves(data)
		if !ok {
			continue
		}
		rest := c.rest
		var fast form
		if !readHeader(rest, &fast) {
			continue
		}
		taken++
		var slow form
		if err := readYAML(name, rest, &slow, headerLimits); err != nil {
			t.Fatalf("%s: readHeader took it, the YAML reader says %v", name, err)
		}
		if diff := cmp.Diff(slow, fast, formsEqual); diff != "" {
			t.Errorf("%s (-YAML reader +readHeader):\n%s", name, diff)
		}
	}
	for _, name := range []string{"valid/tile-merge-4096.yaml", "valid/tile-merge-2048.yaml", "minimal.yaml"} {
		c, ok := cutMoves(mustRead(t, "../replays/"+name))
		if taken := readHeader(c.rest, &form{}); !ok || !taken {
			t.Errorf("%s: not read the fast way (cut %v)", name, ok)
		}
	}
	if taken < 10 {
		t.Errorf("readHeader took %d corpus replays; the recorder's form is most of them", taken)
	}
}

// TestReadHeaderDeclines lists documents readHeader must leave to the
// YAML decoder, each for a reason the decoder handles differently or
// words as an error.
func TestReadHeaderDeclines(t *testing.T) {
	for _, text := range []string{
		"",
		"profile: x\nprofile: y\n",              // a repeated key
		"profile: null\n",                       // null, not a word
		"claim:\n  won: yes\n",                  // YAML 1.1 booleans: the decoder's call
		"rules: 007\n",                          // a leading zero
		"rules: -1\n",                           // a sign
		"unknown: 1\n",                          // an unknown field
		"claim:\n  score: 1\n   moves: 2\n",     // uneven indentation
		"profile: x\n  y\n",                     // a continued plain scalar
		"profile: 'x'\n",                        // single quotes
		"profile: \"a\\tb\"\n",                  // an escape
		"profile: x\n\tseed: 1\n",               // a tab
		"claim:\n  board: |\n    2 4\n   4 2\n", // a block line less indented than the first
		"claim:\n  board: |--\n    2 4\n    4 2\n",
		"claim:\n  board: |\n    2 4\n    2\n", // a board that does not parse
		"claim:\n",
		"claim:\nmoves: 0\n", // claim is null
		"---\nprofile: x\n",
		"claim: {score: 1, score: 2}\n",
		"claim: {score: 1,}\n",
		"claim: {board: 2 4/4 2}\n",
	} {
		if f := (form{}); readHeader([]byte(text), &f) {
			t.Errorf("readHeader took %q: %+v", text, f)
		}
	}
	if !readHeader([]byte("profile: x\n"), &form{}) {
		t.Error("readHeader refused a one-line header")
	}
}

// TestDecodeLongYAMLLog: a YAML replay as record writes it (the moves in
// lines of 80 letters) decodes whatever its length: its header, once the
// move log's lines are blanked, holds blank lines, which begin no YAML
// node. 200,002 actions take 2,501 lines; 80,000 were refused before,
// counted as 1,033 nodes of the header's 1,024.
func TestDecodeLongYAMLLog(t *testing.T) {
	seed := "long-1"
	actions := make([]engine.Action, 0, 200_002)
	for range 100_001 {
		actions = append(actions, engine.MoveDown, engine.Undo)
	}
	r := &Replay{Profile: "online-2048", Seed: &seed, Actions: actions}
	data := r.EncodeYAML(80)
	got, err := Decode("long.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Actions) != len(actions) || got.Actions[len(actions)-1] != engine.Undo {
		t.Errorf("%d actions decoded of %d", len(got.Actions), len(actions))
	}
}

// TestDecodeCRLF: every replay of the corpus with its lines ended by CR
// LF, as a Windows checkout leaves them, decodes as with LF alone; a
// spawn-recorded one of 500 moves was refused before (its move log, not
// cut out, counted 1,090 YAML nodes of the header's 1,024).
func TestDecodeCRLF(t *testing.T) {
	files, _ := filepath.Glob("../replays/*/*.yaml")
	if len(files) < 20 {
		t.Fatalf("%d replays", len(files))
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr := Decode(file, data)
		got, err := Decode(file, bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")))
		if (err != nil) != (wantErr != nil) || err != nil && err.Error() != wantErr.Error() {
			t.Errorf("%s: with CR LF %v; with LF %v", file, err, wantErr)
			continue
		}
		if diff := cmp.Diff(want, got, boardsEqual); diff != "" {
			t.Errorf("%s: with CR LF (-LF +CR LF):\n%s", file, diff)
		}
	}
}

// TestEncodeYAMLEveryCharacter: a seed and a source holding any one
// character read back from the YAML writer as written, as from the JSON
// one: every rune below U+3000, the last of the BMP, and 3,000 others.
// DEL, the C1 controls and U+FFFE/U+FFFF were written as they are, which
// YAML refuses or (NEL) reads as a line break.
func TestEncodeYAMLEveryCharacter(t *testing.T) {
	var runes []rune
	for r := rune(0); r < 0x3000; r++ {
		runes = append(runes, r)
	}
	for r := rune(0xFFF0); r <= 0x10000; r++ {
		runes = append(runes, r)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for range 3000 {
		runes = append(runes, rune(rng.IntN(utf8.MaxRune+1)))
	}
	for _, c := range runes {
		if !utf8.ValidRune(c) {
			continue
		}
		seed, source := "a"+string(c)+"b", "by "+string(c)
		r := &Replay{Profile: "tile-merge", Seed: &seed, Actions: []engine.Action{engine.MoveLeft}, Source: source}
		for form, data := range map[string][]byte{"yaml": r.EncodeYAML(80), "json": r.EncodeJSON()} {
			got, err := Decode("c."+form, data)
			if err != nil || *got.Seed != seed || got.Source != source {
				t.Fatalf("%U in %s: %v; read %+q", c, form, err, data)
			}
		}
	}
}

// longSpawnGame plays a game of online-2048 (which has undo) with the
// engine, the first move of down, left, right, up that changes the board
// each time, every move taken back and played again 400 times, to
// actions actions or the game's end; spawn-recorded.
func longSpawnGame(t *testing.T, actions int) *Replay {
	t.Helper()
	p, _ := engine.BuiltinProfile("online-2048")
	rules, err := engine.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := NewRecorder(rules, "long-2")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	do := func(a engine.Action) {
		if err := rec.Do(a); err != nil {
			t.Fatal(err)
		}
		n++
	}
	for n < actions && len(rec.Game().LegalMoves()) > 0 {
		for _, a := range []engine.Action{engine.MoveDown, engine.MoveLeft, engine.MoveRight, engine.MoveUp} {
			if d, _ := a.Direction(); rec.Game().Legal(d) {
				do(a)
				for i := 0; i < 400 && n < actions && rec.Game().CanUndo(); i++ {
					do(engine.Undo)
					do(a)
				}
				break
			}
		}
	}
	return rec.SpawnRecorded()
}

// TestDecodeLongLogAnyHeader: a YAML replay whose move log has more lines
// than the header's 64 KiB holds bytes (a line break each, once the log is
// cut out) decodes whatever the style of its other fields, which the YAML
// library reads when they are not in the plain form readHeader takes. A
// spawn-recorded one as record writes it (its start board a literal block,
// which readHeader leaves to the library) was refused before: "75422
// bytes; this document may have at most 65536", for a game of 74,560
// lines; so was any seeded one of a header in another style. Fields other
// than the move log past 64 KiB are still refused.
func TestDecodeLongLogAnyHeader(t *testing.T) {
	r := longSpawnGame(t, 70_000)
	if len(r.Actions) < 70_000 {
		t.Fatalf("the game ended after %d actions", len(r.Actions))
	}
	// The log a token a line, as a literal block: 70,000 lines.
	log := "moves: |\n  " + strings.Join(strings.Fields(r.MoveLog()), "\n  ") + "\n"
	written := string(r.EncodeYAML(80)) // as record writes it
	i, j := strings.Index(written, "moves: |\n"), strings.Index(written, "claim:\n")
	if i < 0 || j < i {
		t.Fatalf("not the form record writes:\n%.500s", written)
	}
	written = written[:i] + log + written[j:]
	c := r.Claim
	flowClaim := fmt.Sprintf("{score: %d, maxTile: %d, moves: %d}", c.Score, c.MaxTile, c.Moves)
	start, _ := json.Marshal(r.Start.Values()) // a flow list of rows
	docs := map[string]string{
		"as written": written,
		"a flow claim, quoted keys, comments": "# a game\n\"profile\": online-2048\n'start': " + string(start) + "  # the start\n" + log +
			" # a comment, indented less than the log\n\"claim\": " + flowClaim + "\n",
		"the claim first, a document start": "--- # a document\nclaim:\n    score: " + fmt.Sprint(c.Score) + "\n    maxTile: " + fmt.Sprint(c.MaxTile) +
			"\n    moves: " + fmt.Sprint(c.Moves) + "\nstart: " + string(start) + "\nprofile: \"online-2048\"\n" + log + "...\n",
	}
	seed := "long-3"
	seeded := &Replay{Profile: "online-2048", Seed: &seed, Actions: r.Actions, Claim: Claim{Moves: 1}}
	seededLog := "moves: >-\n   " + strings.Join(strings.Split(seeded.MoveLog(), ""), "\n   ") + "\n"
	docs["seeded, the plain header"] = "profile: online-2048\nseed: \"long-3\"\n" + seededLog + "claim: {score: 0, maxTile: 0, moves: 1}\n"
	docs["seeded, a flow claim"] = "'profile': online-2048\nseed: 'long-3'\n" + seededLog + "claim: {score: 0, maxTile: 0, moves: 1}\n"
	for name, doc := range docs {
		if n := strings.Count(doc, "\n"); n < 70_000 {
			t.Fatalf("%s: %d lines", name, n)
		}
		got, err := Decode("long.yaml", []byte(doc))
		if err != nil {
			t.Errorf("%s: %.300v", name, err)
			continue
		}
		if len(got.Actions) != len(r.Actions) || got.Actions[len(got.Actions)-1] != r.Actions[len(r.Actions)-1] {
			t.Errorf("%s: %d actions, want %d", name, len(got.Actions), len(r.Actions))
		}
		if !strings.HasPrefix(name, "seeded") && (got.Start == nil || *got.Start != *r.Start || got.Claim.Moves != c.Moves || len(got.Spawns) != len(r.Spawns)) {
			t.Errorf("%s: read %v, %+v", name, got.Start, got.Claim)
		}
	}
	// The other fields are bounded as before, whatever their style.
	long := "'source': '" + strings.Repeat("x", MaxHeader) + "'\n" + docs["a flow claim, quoted keys, comments"]
	if _, err := Decode("long.yaml", []byte(long)); err == nil || !strings.Contains(err.Error(), "the replay's fields other than moves take 65") || !strings.Contains(err.Error(), "at most 65536") {
		t.Errorf("a header of %d bytes: %.300v", MaxHeader+200, err)
	}
}

// TestDecodeManyLogLines: a move log of a million short lines costs what
// its bytes do, whoever reads the header: some 2 bytes allocated a byte
// of input (the header with the lines blanked, the log). readHeader split
// the header into lines, 24 bytes each: 10 bytes a byte before, 661 MiB
// for 64 MiB of " L" lines.
func TestDecodeManyLogLines(t *testing.T) {
	for _, header := range []string{"profile: online-2048\nseed: \"x\"\n", "'profile': online-2048\nseed: \"x\"\n"} {
		doc := []byte(header + "moves: |\n" + strings.Repeat(" L\n", 1_000_000) + "claim: {score: 0, maxTile: 4, moves: 1}\n")
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Decode("long.yaml", doc)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%q: %v", header, err)
		}
		if mem := after.TotalAlloc - before.TotalAlloc; mem > 3*uint64(len(doc)) {
			t.Errorf("%q: %d bytes allocated for %d bytes of input", header, mem, len(doc))
		}
	}
}
