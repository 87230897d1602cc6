package driver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/conformance/internal/adaptertest"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/protocol"
)

// docs/protocol.schema.json, compiled once: the schema of each op's
// answer, and of a request.
var schemas = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) {
	data, err := os.ReadFile("../../docs/protocol.schema.json")
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("protocol.schema.json", doc); err != nil {
		return nil, err
	}
	out := map[string]*jsonschema.Schema{}
	for _, name := range append(ops, "request", "") {
		ref := "protocol.schema.json"
		switch name {
		case "":
		case "request":
			ref += "#/$defs/request"
		default:
			ref += "#/$defs/answer-to-" + name
		}
		if out[name], err = c.Compile(ref); err != nil {
			return nil, err
		}
	}
	return out, nil
})

var ops = []string{"hello", "new", "load", "move", "legal", "undo", "end-run", "keep-playing"}

func schema(t testing.TB, name string) *jsonschema.Schema {
	t.Helper()
	s, err := schemas()
	if err != nil {
		t.Fatal(err)
	}
	return s[name]
}

// schemaVerdict validates line against s: nil when the schema takes it.
func schemaVerdict(s *jsonschema.Schema, line []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// beyondSchema reports whether readAnswer refused line for what the
// schema cannot say: not one JSON value by RFC 8259 as jsontext reads it
// strictly (a key given twice, invalid UTF-8), or a board whose rows
// differ in length.
func beyondSchema(line []byte, err error) bool {
	var se *schemaError
	if !jsontext.Value(bytes.TrimSpace(line)).IsValid() {
		return true
	}
	return errors.As(err, &se) && strings.HasPrefix(se.Field, "/state/board/") && strings.Contains(se.Msg, "cells; row 0 has")
}

// answerCorpus is answers to each op that the schema takes (ok) and
// refuses, one keyword of it each.
var answerCorpus = []struct {
	op   string
	line string
	ok   bool
}{
	{"hello", `{"id":1,"ok":true,"protocol":1,"name":"x","version":"1.0","profiles":["classic"],"features":["load-state","size:3x5"]}`, true},
	{"hello", `{"id":1,"ok":true,"protocol":1,"name":"x","version":"","profiles":["classic","classic"],"features":[]}`, true},
	{"hello", `{"id":1,"ok":true,"protocol":1,"name":"x","version":"1","profiles":[],"features":[]}`, false},
	{"hello", `{"id":1,"ok":true,"protocol":1,"name":"","version":"1","profiles":["c"],"features":[]}`, false},
	{"hello", `{"id":1,"ok":true,"protocol":1,"name":"x","version":"1","profiles":["c"],"features":["size:9x9"]}`, false},
	{"hello", `{"id":1,"ok":true,"protocol":1,"name":"x","version":"1","profiles":["c"],"features":["load_state"]}`, false},
	{"hello", `{"id":1,"ok":true,"protocol":1,"name":"x","version":"1","profiles":["c"]}`, false},
	{"hello", `{"id":1,"ok":true,"protocol":0,"name":"x","version":"1","profiles":["c"],"features":[]}`, false},
	{"hello", `{"id":1,"ok":true,"protocol":1.0,"name":"x","version":"1","profiles":["c"],"features":[]}`, true},
	{"hello", `{"id":1,"ok":true,"protocol":1.5,"name":"x","version":"1","profiles":["c"],"features":[]}`, false},
	{"hello", `{"id":1,"ok":true,"protocol":1,"name":"x","version":"1","profiles":["` + strings.Repeat("é", 256) + `"],"features":[]}`, true},
	{"hello", `{"id":1,"ok":true,"protocol":1,"name":"x","version":"1","profiles":["` + strings.Repeat("é", 257) + `"],"features":[]}`, false},
	{"hello", `{"id":1,"ok":true,"protocol":1,"name":"x","version":"1","profiles":[` + strings.Repeat(`"c",`, 255) + `"c"],"features":[]}`, true},
	{"hello", `{"id":1,"ok":true,"protocol":1,"name":"x","version":"1","profiles":[` + strings.Repeat(`"c",`, 256) + `"c"],"features":[]}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,4]],"score":0,"moves":0,"won":false,"over":false}}`, true},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,4]],"score":0,"moves":0,"won":false,"over":false,"result":"playing"}}`, true},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,4]],"score":0,"moves":0,"won":false,"over":true,"result":"playing"}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,4]],"score":0,"moves":0,"won":false,"over":false,"result":"no-moves"}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,4]],"score":0,"moves":0,"won":false,"over":true,"result":"lost"}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,4]],"score":0,"moves":0,"won":false,"over":false,"result":null}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,3]],"score":0,"moves":0,"won":false,"over":false}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,1]],"score":0,"moves":0,"won":false,"over":false}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,4503599627370496]],"score":0,"moves":0,"won":false,"over":false}}`, true},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,9007199254740992]],"score":0,"moves":0,"won":false,"over":false}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,4.0]],"score":0,"moves":0,"won":false,"over":false}}`, true},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0.4e1]],"score":0,"moves":0,"won":false,"over":false}}`, true},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,-0]],"score":0,"moves":0,"won":false,"over":false}}`, true},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,-2]],"score":0,"moves":0,"won":false,"over":false}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,"4"]],"score":0,"moves":0,"won":false,"over":false}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0]],"score":0,"moves":0,"won":false,"over":false}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0,0,0,0,0,0,0,0],[0,0]],"score":0,"moves":0,"won":false,"over":false}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0]],"score":9007199254740991,"moves":0,"won":false,"over":false}}`, true},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0]],"score":9007199254740992,"moves":0,"won":false,"over":false}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0]],"score":1e999999,"moves":0,"won":false,"over":false}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0]],"score":0,"moves":1e-999999,"won":false,"over":false}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0]],"score":0,"won":false,"over":false}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":0,"over":false}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":false,"maxTile":2}}`, false},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":false},"changed":true}`, false},
	{"new", `{"id":2,"ok":true}`, false},
	{"new", `{"id":2,"ok":true,"state":null}`, false},
	{"new", `{"id":2,"ok":true,"state":[]}`, false},
	{"new", `{"id":null,"ok":true,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":false}}`, false},
	{"new", `{"id":0,"ok":true,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":false}}`, false},
	{"new", `{"id":"2","ok":true,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":false}}`, false},
	{"new", `{"ok":true,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":false}}`, false},
	{"new", `{"id":2,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":false}}`, false},
	{"new", `{"id":2,"OK":true,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":false}}`, false},
	{"move", `{"id":3,"ok":true,"changed":true,"gained":4,"spawn":{"row":0,"col":1,"value":2},"state":{"board":[[4,2],[0,0]],"score":4,"moves":1,"won":false,"over":false}}`, true},
	{"move", `{"id":3,"ok":true,"changed":false,"gained":0,"spawn":null,"state":{"board":[[4,2],[0,0]],"score":4,"moves":1,"won":false,"over":false}}`, true},
	{"move", `{"id":3,"ok":true,"changed":false,"gained":0,"state":{"board":[[4,2],[0,0]],"score":4,"moves":1,"won":false,"over":false}}`, false},
	{"move", `{"id":3,"ok":true,"changed":false,"spawn":null,"state":{"board":[[4,2],[0,0]],"score":4,"moves":1,"won":false,"over":false}}`, false},
	{"move", `{"id":3,"ok":true,"changed":true,"gained":4,"spawn":{"row":0,"col":8,"value":2},"state":{"board":[[4,2],[0,0]],"score":4,"moves":1,"won":false,"over":false}}`, false},
	{"move", `{"id":3,"ok":true,"changed":true,"gained":4,"spawn":{"row":0,"col":1,"value":3},"state":{"board":[[4,2],[0,0]],"score":4,"moves":1,"won":false,"over":false}}`, false},
	{"move", `{"id":3,"ok":true,"changed":true,"gained":4,"spawn":{"row":0,"col":1},"state":{"board":[[4,2],[0,0]],"score":4,"moves":1,"won":false,"over":false}}`, false},
	{"move", `{"id":3,"ok":true,"changed":true,"gained":4,"spawn":{"row":0,"col":1,"value":2,"x":1},"state":{"board":[[4,2],[0,0]],"score":4,"moves":1,"won":false,"over":false}}`, false},
	{"move", `{"id":3,"ok":true,"changed":true,"gained":4,"spawn":{"row":null,"col":1,"value":2},"state":{"board":[[4,2],[0,0]],"score":4,"moves":1,"won":false,"over":false}}`, false},
	{"legal", `{"id":4,"ok":true,"legal":[]}`, true},
	{"legal", `{"id":4,"ok":true,"legal":["up","down","left","right"]}`, true},
	{"legal", `{"id":4,"ok":true,"legal":["up","up"]}`, false},
	{"legal", `{"id":4,"ok":true,"legal":["Up"]}`, false},
	{"legal", `{"id":4,"ok":true,"legal":"up"}`, false},
	{"legal", `{"id":4,"ok":true}`, false},
	{"undo", `{"id":5,"ok":false,"error":"no-undo","message":"nothing to undo"}`, true},
	{"undo", `{"id":5,"ok":false,"error":"no-undo"}`, false},
	{"undo", `{"id":5,"ok":false,"message":"nothing to undo"}`, false},
	{"undo", `{"id":5,"ok":false,"error":"oops","message":"?"}`, false},
	{"undo", `{"id":5,"ok":false,"error":"no-undo","message":"x","state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":false}}`, false},
	{"undo", `{"id":null,"ok":false,"error":"bad-request","message":"not JSON"}`, true},
	{"undo", `{"id":null,"ok":false,"error":"no-undo","message":"x"}`, false},
	{"end-run", `{"id":6,"ok":false,"error":"impl-error","message":""}`, true},
	{"keep-playing", `{"id":7,"ok":false,"error":"not-stopped","message":"` + strings.Repeat("m", 65536) + `"}`, true},
	{"keep-playing", `{"id":7,"ok":false,"error":"not-stopped","message":"` + strings.Repeat("m", 65537) + `"}`, false},
	{"move", `[]`, false},
	{"move", `{"id":3,"ok":false,"error":"finished","message":"over"} {}`, false},
	{"move", `{"id":3,"ok":false,"error":"finished","message":"over"}  `, true},
	{"move", `{"id":3,"ok":false,"error":"finished","message":"over"`, false},
	{"move", ``, false},
	// Answers in the plain form adapters write.
	{"move", `{"id":12345,"ok":true,"changed":true,"gained":4,"spawn":{"row":0,"col":3,"value":2},"state":{"board":[[4,0,0,2],[0,0,0,0],[0,16,0,0],[0,0,8,0]],"score":4,"moves":1,"won":false,"over":false,"result":"playing"}}`, true},
	{"move", `{"id":7,"ok":true,"changed":false,"gained":0,"spawn":null,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":false}}`, true},
	{"hello", `{"id":1,"ok":true,"protocol":1,"name":"ref","version":"1.0","profiles":["classic","tile-merge"],"features":["load-state","seed-tp1"]}`, true},
	{"legal", `{"id":3,"ok":true,"legal":["up","left"]}`, true},
	{"legal", `{"id":3,"ok":true,"legal":[]}`, true},
	{"legal", `{"id":null,"ok":false,"error":"bad-request","message":"not JSON"}`, true},
	{"new", ` { "id" : 2 , "ok" : true , "state" : { "board" : [ [ 0 , 2 ] , [ 4 , 0 ] ] , "score" : 0 , "moves" : 0 , "won" : false , "over" : false } } `, true},
	// And in other spellings of the same values.
	{"legal", `{"\u0069d":3,"ok":true,"legal":["\u0075p"]}`, true},
	{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,4]],"score":0,"moves":0,"won":false,"over":false,"result":"pl\u0061ying"}}`, true},
}

// TestAnswerSchema: on every answer of the corpus, and every answer the
// reference adapter gives to the requests of the run below, the driver
// and docs/protocol.schema.json agree, and each says what the corpus
// says.
func TestAnswerSchema(t *testing.T) {
	for _, tc := range answerCorpus {
		_, err := readAnswer(tc.op, []byte(tc.line))
		serr := schemaVerdict(schema(t, tc.op), []byte(tc.line))
		if (err == nil) != tc.ok || (serr == nil) != tc.ok {
			t.Errorf("%s %s:\nthe driver: %v\nthe schema: %v\nwant ok %v", tc.op, safetext.Cut(tc.line, 200), err, serr, tc.ok)
		}
	}
}

// TestAnswerBeyondSchema: what the schema cannot say, the driver checks:
// a key given twice (JSON parsers differ on which one counts), invalid
// UTF-8, rows of a board of different lengths.
func TestAnswerBeyondSchema(t *testing.T) {
	const st = `"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":false}`
	for _, tc := range []struct{ op, line, says string }{
		{"new", `{"id":2,"ok":true,"ok":true,` + st + `}`, "/ok: a key given twice"},
		{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0]],"score":0,"score":4,"moves":0,"won":false,"over":false}}`, "/state/score: a key given twice"},
		{"move", `{"id":2,"ok":true,"changed":true,"gained":0,"spawn":{"row":0,"col":1,"value":2,"row":1},` + st + `}`, "/spawn/row: a key given twice"},
		{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":false,"result":"pl` + "\xff" + `ying"}}`, "not JSON"},
		{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0,0]],"score":0,"moves":0,"won":false,"over":false}}`, "/state/board/1: 3 cells; row 0 has 2"},
	} {
		_, err := readAnswer(tc.op, []byte(tc.line))
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want %q", tc.line, err, tc.says)
		}
		if !beyondSchema([]byte(tc.line), err) {
			t.Errorf("%s: the fuzz test would hold the schema to it", tc.line)
		}
	}
}

// TestAnswerMessages: a refused answer names the field, what was wanted
// and what was found.
func TestAnswerMessages(t *testing.T) {
	const logHint = " (stdout carries the protocol's answers alone, a JSON object a line: write anything else to stderr)"
	const st = `"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":false}`
	for _, tc := range []struct{ op, line, says string }{
		{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,"4"]],"score":0,"moves":0,"won":false,"over":false}}`, "/state/board/1/1: want an integer, not a string"},
		{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],4],"score":0,"moves":0,"won":false,"over":false}}`, "/state/board/1: want an array, not a number"},
		{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0,0,0,0,0,0,0,0]],"score":0,"moves":0,"won":false,"over":false}}`, "/state/board/1: more than 8 items"},
		{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0]],"score":0,"moves":0,"won":false,"over":false}}`, "/state/board/1: 1 items, fewer than 2"},
		{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,3]],"score":0,"moves":0,"won":false,"over":false}}`, "/state/board/1/1: 3 is not 0 or a tile (a power of two, 2 to 2^52)"},
		{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0]],"score":100000000000000000000000,"moves":0,"won":false,"over":false}}`, "/state/score: 100000000000000000000000 is not an integer from 0 to 9007199254740991"},
		{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0]],"score":1e16,"moves":0,"won":false,"over":false}}`, "/state/score: 1e16 is not from 0 to 9007199254740991"},
		{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":null}}`, "/state/over: null, where the schema has a value"},
		{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false}}`, `/state: missing field "over"`},
		{"new", `{"id":2,"ok":true,"legal":[],` + st + `}`, "/legal: a field an answer to new with ok true does not have"},
		{"move", `{"id":2,"ok":true,"changed":true,"gained":0,"spawn":{"row":null,"col":1,"value":2},` + st + `}`, "/spawn/row: null, where the schema has a value"},
		{"move", `{"id":2,"ok":true,"changed":1,"gained":0,"spawn":null,` + st + `}`, "/changed: want true or false, not a number"},
		{"move", `{"id":2,"ok":true,"changed":true,"gained":0,"spawn":{"row":0,"col":1,"value":0},` + st + `}`, "/spawn/value: 0 is not a tile (a power of two, 2 to 2^52)"},
		{"new", `{"id":2,"ok":true,"state":{"board":[[2,0],[0,9007199254740992]],"score":0,"moves":0,"won":false,"over":false}}`, "/state/board/1/1: 9007199254740992 is not from 0 to 4503599627370496"},
		{"move", `{"id":2,"ok":true,"changed":true,"gained":0,"spawn":[],` + st + `}`, "/spawn: want an object, not a list"},
		{"hello", `{"id":1,"ok":true,"protocol":1,"name":"x","version":"1","profiles":[3],"features":[]}`, "/profiles/0: want a string, not a number"},
		{"legal", `{"id":4,"ok":true,"legal":[],"Legal":[]}`, "/Legal: unknown field"},
		{"legal", `3`, "the answer is a number, not a JSON object" + logHint},
		// A line of the implementation's own on stdout.
		{"hello", `adapter ready`, "not JSON: invalid character 'a' at start of value at byte 0" + logHint},
		{"hello", `{"id":1,"ok":true,"protocol":1 "name":"x"}`, "not JSON: invalid character '\"' after object value (expecting ',' or '}') at byte 31"},
	} {
		if _, err := readAnswer(tc.op, []byte(tc.line)); err == nil || err.Error() != tc.says {
			t.Errorf("%s: %v, want %q", tc.line, err, tc.says)
		}
	}
}

// TestReferenceAnswersSchema runs the reference adapter as a process on
// requests of every op, taken and refused, and checks each answer
// against the schema of its op's answer.
func TestReferenceAnswersSchema(t *testing.T) {
	bin, err := adaptertest.Build()
	if err != nil {
		t.Fatal(err)
	}
	reqs := []string{
		`{"id":1,"op":"hello","protocol":1}`,
		`{"id":2,"op":"legal"}`,
		`{"id":3,"op":"new","profile":"online-2048","seed":"7"}`,
		`{"id":4,"op":"move","direction":"up"}`,
		`{"id":5,"op":"undo"}`,
		`{"id":6,"op":"undo"}`,
		`{"id":7,"op":"end-run"}`,
		`{"id":8,"op":"move","direction":"up"}`,
		`{"id":9,"op":"keep-playing"}`,
		`{"id":10,"op":"load","profile":"tile-merge","rows":2,"cols":2,"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"keepPlaying":false}`,
		`{"id":11,"op":"move","direction":"up"}`,
		`{"id":12,"op":"move","direction":"right","spawn":{"row":0,"col":0,"value":2}}`,
		`{"id":13,"op":"move","direction":"down","spawn":{"row":1,"col":1,"value":4}}`,
		`{"id":14,"op":"legal"}`,
		`{"id":15,"op":"new","profile":"nope"}`,
		`{"id":16,"op":"dance"}`,
		`not json`,
		`{"id":18,"op":"hello","protocol":1}`,
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(strings.Join(reqs, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for i := 0; sc.Scan(); i++ {
		var req struct{ Op string }
		json.Unmarshal([]byte(reqs[i]), &req)
		op := req.Op
		if op == "dance" || op == "" {
			op = "legal" // any op's schema takes a refusal
		}
		if err := schemaVerdict(schema(t, op), sc.Bytes()); err != nil {
			t.Errorf("%s\n-> %s\n%v", reqs[i], sc.Bytes(), err)
		}
		if _, err := readAnswer(op, sc.Bytes()); err != nil {
			t.Errorf("%s\n-> %s\nthe driver: %v", reqs[i], sc.Bytes(), err)
		}
	}
}

// FuzzExecAnswer holds the driver's reading of answers to
// docs/protocol.schema.json: for any line, readAnswer takes it exactly
// when the schema does, but for what the schema cannot say.
func FuzzExecAnswer(f *testing.F) {
	for _, tc := range answerCorpus {
		if len(tc.line) < 2000 {
			f.Add(uint8(slices.Index(ops, tc.op)), []byte(tc.line))
		}
	}
	f.Fuzz(func(t *testing.T, opIndex uint8, line []byte) {
		op := ops[int(opIndex)%len(ops)]
		_, err := readAnswer(op, line)
		if err != nil && beyondSchema(line, err) {
			return
		}
		serr := schemaVerdict(schema(t, op), line)
		if (err == nil) != (serr == nil) {
			t.Fatalf("%s %q:\nthe driver: %v\nthe schema: %v", op, line, err, serr)
		}
	})
}

// requestCorpus is a request of each kind, with every field the driver
// writes.
func requestCorpus() []protocol.Request {
	b, _ := engine.ParseBoard("2 4 . ./. . . 4503599627370496/. . . ./8 . . 2")
	b3, _ := engine.ParseBoard("2 . ./. . ./. . 4")
	score, moves, yes := uint64(9007199254740991), 99999, true
	return []protocol.Request{
		{ID: 1, Op: "hello", Protocol: protocol.Version},
		{ID: 2, Op: "new", Profile: "classic"},
		{ID: 3, Op: "new", Profile: "online-2048", Seed: " 7\u3000\"\\", Setup: &engine.Setup{Target: 512, OpenEnded: true}},
		{ID: 4, Op: "new", Profile: "pgs", Seed: "x", Setup: &engine.Setup{OpenEnded: true}},
		{ID: 5, Op: "new", Profile: "pgs", Setup: &engine.Setup{}},
		loadRequest("classic", conformance.LoadState{Board: b, Score: score, Moves: moves, Won: yes}),
		loadRequest("tile-merge", conformance.LoadState{Board: b3, KeepPlaying: yes, Setup: &engine.Setup{Target: 2048}}),
		{ID: 8, Op: "move", Direction: "left"},
		{ID: 9, Op: "move", Direction: "down", Spawn: &engine.Spawn{Row: 7, Col: 0, Value: 4}},
		{ID: 10, Op: "legal"}, {ID: 11, Op: "undo"}, {ID: 12, Op: "end-run"}, {ID: 13, Op: "keep-playing"},
	}
}

// TestAppendRequest: docs/protocol.schema.json takes every request the
// driver writes, one line each.
func TestAppendRequest(t *testing.T) {
	for i, r := range requestCorpus() {
		if r.ID == 0 {
			r.ID = i + 1
		}
		got := appendRequest([]byte("x"), &r)[1:]
		if bytes.IndexByte(got, '\n') >= 0 {
			t.Errorf("%s: more than one line", got)
		}
		for _, s := range []string{"request", ""} {
			if err := schemaVerdict(schema(t, s), got); err != nil {
				t.Errorf("%s: the schema refuses it: %v", got, err)
			}
		}
	}
	// And it refuses what the runner never sends.
	for _, bad := range []string{
		`{"id":1,"op":"hello"}`,
		`{"id":1,"op":"fly"}`,
		`{"id":1,"op":"move","direction":"left","spawn":null}`,
		`{"id":1,"op":"load","profile":"classic","rows":2,"cols":2,"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false}`,
		`{"id":0,"op":"legal"}`,
		`{"id":1,"op":"legal","direction":"up"}`,
	} {
		if schemaVerdict(schema(t, "request"), []byte(bad)) == nil {
			t.Errorf("the schema takes the request %s", bad)
		}
	}
}

// BenchmarkAnswer measures what reading a move's answer costs the
// driver (readAnswer, once per answer on the hot path) against validating
// it with the JSON Schema validator, in the same run: the ratio is
// "x-driver".
func BenchmarkAnswer(b *testing.B) {
	line := []byte(`{"id":12345,"ok":true,"changed":true,"gained":4,"spawn":{"row":0,"col":3,"value":2},"state":{"board":[[4,0,0,2],[0,0,0,0],[0,16,0,0],[0,0,8,0]],"score":4,"moves":1,"won":false,"over":false,"result":"playing"}}`)
	var driver float64
	b.Run("driver", func(b *testing.B) {
		for b.Loop() {
			if _, err := readAnswer("move", line); err != nil {
				b.Fatal(err)
			}
		}
		driver = float64(b.Elapsed()) / float64(b.N)
	})
	b.Run("schema", func(b *testing.B) {
		s := schema(b, "move")
		for b.Loop() {
			if err := schemaVerdict(s, line); err != nil {
				b.Fatal(err)
			}
		}
		if driver > 0 {
			b.ReportMetric(float64(b.Elapsed())/float64(b.N)/driver, "x-driver")
		}
	})
}

// TestAnswerBounded: a board is refused as soon as it has a 9th row or a
// row a 9th cell, a list of strings at its item past the schema's most,
// so a line of a megabyte of items costs a few allocations, not one an
// item.
func TestAnswerBounded(t *testing.T) {
	const st = `,"state":{"board":%s,"score":0,"moves":0,"won":false,"over":false}}`
	for _, tc := range []struct{ op, line, says string }{
		{"new", `{"id":2,"ok":true` + fmt.Sprintf(st, "[["+strings.Repeat("0,", 500000)+"0]]"), "/state/board/0: more than 8 items"},
		{"new", `{"id":2,"ok":true` + fmt.Sprintf(st, "["+strings.Repeat("[],", 300000)+"[]]"), "/state/board: more than 8 items"},
		{"hello", `{"id":1,"ok":true,"protocol":1,"name":"x","version":"1","profiles":[` + strings.Repeat(`"",`, 300000) + `""],"features":[]}`, "/profiles: more than 256 items"},
		{"legal", `{"id":1,"ok":true,"legal":[` + strings.Repeat(`"",`, 300000) + `""]}`, "/legal: more than 4 items"},
	} {
		var err error
		allocs := testing.AllocsPerRun(2, func() { _, err = readAnswer(tc.op, []byte(tc.line)) })
		if err == nil || err.Error() != tc.says || allocs > 1000 {
			t.Errorf("%.60s...: %v, %.0f allocations; want %q", tc.line, err, allocs, tc.says)
		}
	}
}
