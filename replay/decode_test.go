package replay

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tileproof/tileproof/engine"
	"go.yaml.in/yaml/v3"
)

// FuzzCutMoves checks the fast way of reading a YAML move log against the
// YAML decoder: whenever cutMoves takes a document, decoding it the fast
// way and the slow way must agree, on the log's exact text and on every
// message, those about the log's characters ("character N") included.
func FuzzCutMoves(f *testing.F) {
	f.Add("profile: tile-merge\nseed: \"7\"\nmoves: LLDRUL   # a comment\nclaim: {score: 0, maxTile: 0, moves: 0}\n")
	f.Add("profile: x\nmoves: |\n  LLDR\n  UULL\n\n  RR\nclaim: {score: 0, maxTile: 0, moves: 0}\n")
	f.Add("moves: |-\n    L3:2 R5:2\n    U0:4\nprofile: x\n")
	f.Add("moves: LL\n  RR\nprofile: x\n")
	f.Add("moves: L: R\n")
	f.Add("moves: |\n\tLL\n")
	f.Add("source: 'a\nmoves: LL\nb'\nprofile: x\n")
	f.Add("profile: tile-merge\nstart: [[2, 0], [0, 0]]\nmoves: |\n  L1:2 U0:2\n  R99:2\nclaim: {score: 0, maxTile: 2, moves: 3}\n")
	f.Add("profile: tile-merge\nseed: \"7\"\nmoves: >-\n  LL UR\n\n   LL\n  D D  \n     \n  UQ\n\n")
	f.Add("profile: tile-merge\nseed: \"7\"\nmoves: >\n\n  LL\n  RR\n\n\n  U\n     \n  \n")
	f.Add("moves: |\n  LL\n \t\n  RR\nprofile: x\n")
	f.Add("moves: |\n  LL\n    ")
	f.Add("moves: >\n  LL\n    RR\n  UU\n\n  DD\n")
	f.Add("moves: |-\n  LL  \n   \n  RR")
	f.Add("moves: >-\n  L\n  \n    \n  R\n")
	f.Add("moves: |\n   LL\n # c\nprofile: x\n")
	f.Fuzz(func(t *testing.T, text string) {
		if _, ok := cutMoves([]byte(text)); !ok || strings.HasPrefix(strings.TrimSpace(text), "{") {
			return // not the fast way of YAML (JSON has its own, checked by TestJSONMatchesYAML)
		}
		var fast, slow form
		_, fastErr := decodeForm("f.yaml", []byte(text), &fast)
		slowErr := readYAML("f.yaml", []byte(text), &slow, headerLimits)
		if fmt.Sprint(fastErr) != fmt.Sprint(slowErr) {
			t.Fatalf("fast: %v\nslow: %v", fastErr, slowErr)
		}
		if fastErr != nil {
			return
		}
		if diff := cmp.Diff(slow, fast, formsEqual); diff != "" {
			t.Fatalf("(-slow +fast):\n%s", diff)
		}
		// What the fields mean together, and the move log's errors placed
		// in the document.
		var rf, rs Replay
		fast.doc, slow.doc = []byte(text), []byte(text)
		fastErr, slowErr = fast.replay("f.yaml", &rf), slow.replay("f.yaml", &rs)
		if fmt.Sprint(fastErr) != fmt.Sprint(slowErr) {
			t.Fatalf("replay: fast: %v\nslow: %v", fastErr, slowErr)
		}
	})
}

// TestJSONMatchesYAML decodes every corpus replay from YAML, then from
// the same document in JSON (read by encoding/json), and compares.
func TestJSONMatchesYAML(t *testing.T) {
	for _, file := range corpusFiles(t) {
		data := mustRead(t, "../replays/"+file)
		fromYAML, errY := Decode(file, data)
		var v any
		if err := yaml.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		j, _ := json.Marshal(v)
		fromJSON, errJ := Decode(file, j)
		if (errY == nil) != (errJ == nil) {
			t.Fatalf("%s: YAML %v, JSON %v", file, errY, errJ)
		}
		if diff := cmp.Diff(fromYAML, fromJSON, cmp.Comparer(func(a, b engine.Board) bool { return a == b })); errY == nil && diff != "" {
			t.Errorf("%s (-yaml +json):\n%s", file, diff)
		}
	}
}

// FuzzReadJSONPlain checks readJSONPlain against the JSON reader:
// whatever document it takes, the reader takes too and reads the same
// form, places included.
func FuzzReadJSONPlain(f *testing.F) {
	for _, s := range []string{
		`{"profile":"tile-merge","seed":"7","moves":"LLUR","claim":{"score":12,"maxTile":8,"moves":4}}`,
		` { "source" : "x" , "profile":"classic","rules":1,"rng":"tp1","setup":{"target":2048,"openEnded":false},"seed":-12,"seedCommitment":"sha256:ab","moves":"L U","claim":{"score":0,"maxTile":4,"moves":1,"board":"2 . . .\n. . . .","won":false,"over":true,"result":"no-moves"}}` + "\n",
		`{"profile":"x","start":[[2,null,0,4],[0,0,0,0]],"moves":"L3:2","claim":{"score":0,"maxTile":4,"moves":1,"board":[[2, 0],[0 ,null]]}}`,
		`{"profile":"x","profile":"y"}`,
		`{"profile":"x","seed":7.0}`,
		`{"profile":"x","claim":{"score":012}}`,
		`{"profile":"x","claim":{"won":True}}`,
		`{"profile":"x\u0041"}`,
		`{}`, `{"profile":"x"} x`, `{"claim":{}}`,
		`{"profile":"x","seed":"7","moves":"LU","times":"812 95","timesSeal":"hmac-sha256:ab","claim":{"score":0,"maxTile":4,"moves":2}}`,
		`{"profile":"x","times":812}`, `{"profile":"x","times":"1\n2"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var fast form
		if !readJSONPlain([]byte(text), &fast) {
			return
		}
		var slow form
		if err := readJSON("f.json", []byte(text), &slow); err != nil {
			t.Fatalf("readJSONPlain took a document the JSON reader refuses: %v\n%+v", err, fast)
		}
		fast.src = slow.src
		if diff := cmp.Diff(slow, fast, formsEqual); diff != "" {
			t.Fatalf("(-JSON reader +readJSONPlain):\n%s", diff)
		}
	})
}

// FuzzReadJSONStructs holds the token reader the verifier uses for JSON
// replays (readJSON, decode_json.go) to the plain reader that decodes
// into structs (readJSONStructs, decode_json_struct_test.go): the same
// documents taken, read into the same form. The token reader is kept for
// its size: the struct reader's reflection added 360 KB to the kit's
// WebAssembly module gzipped (docs/web.md). Their error messages may word
// a syntax error differently.
func FuzzReadJSONStructs(f *testing.F) {
	for _, s := range []string{
		`{"profile":"tile-merge","seed":"7","moves":"LLUR","claim":{"score":12,"maxTile":8,"moves":4}}`,
		` { "source" : "x" , "profile":"classic","rules":1,"rng":"tp1","setup":{"target":2048,"openEnded":false},"seed":-12,"seedCommitment":"sha256:ab","moves":"L U","claim":{"score":0,"maxTile":4,"moves":1,"board":"2 . . .\n. . . .","won":false,"over":true,"result":"no-moves"}}` + "\n",
		`{"profile":"x","start":[[2,null,0,4],[0,0,0,0]],"moves":"L3:2","claim":{"score":0,"maxTile":4,"moves":1,"board":[[2, 0],[0 ,null]]}}`,
		`{"profile":"x","profile":"y"}`, `{"profile":"x","Profile":"y"}`, `{"profile":"x","seed":7.0}`,
		`{"profile":"x","claim":{"score":012}}`, `{"profile":"x","claim":{"won":True}}`,
		`{"profile":"x\u0041"}`, "{\"profile\":\"\xff\"}", `{}`, `{"profile":"x"} x`, `{"claim":{}}`, `[]`, `{"claim":[]}`,
		`{"profile":"x","moves":"LU","times":"812 95","timesSeal":"hmac-sha256:ab"}`, `{"times":[1,2]}`, `{"times":"1 2","times":"3"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var tokens, structs form
		errT := readJSON("f.json", []byte(text), &tokens)
		errS := readJSONStructs("f.json", []byte(text), &structs)
		if (errT == nil) != (errS == nil) {
			t.Fatalf("the token reader says %v, the struct reader %v", errT, errS)
		}
		if errT != nil {
			return
		}
		if diff := cmp.Diff(tokens, structs, formsEqual); diff != "" {
			t.Fatalf("(-token reader +struct reader):\n%s", diff)
		}
	})
}

// TestJSONPlainBoardAllocs: the plain JSON reader reads a board's rows
// into arrays on its stack, so a board costs no allocation. It broke once
// without a test failing: BoardFromValues, inlined here, made its call of
// the engine's generic board maker count as an escape.
func TestJSONPlainBoardAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation changes what the compiler inlines")
	}
	var f form
	data := []byte(`[[2, 0, 4, null], [0, 0, 0, 0], [8, 16, 0, 2], [0, 0, 0, 4]]`)
	allocs := testing.AllocsPerRun(50, func() {
		p := plainJSON{data: data}
		if !p.rows(field{id: fBoard}, &f) {
			t.Fatal("the rows were not read")
		}
	})
	if allocs != 0 {
		t.Errorf("reading a board's rows allocates %v times; want none", allocs)
	}
	if got := f.boardOf(fBoard).String(); strings.Join(strings.Fields(strings.SplitN(got, "\n", 2)[0]), " ") != "2 . 4 ." {
		t.Errorf("board read as\n%s", got)
	}
}
