package lineproto

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// keyCounts returns the number of object keys in the JSON text line, as
// written and as a decoder keeps them (a map keeps one of each key).
func keyCounts(t *testing.T, line []byte) (written, kept int) {
	dec := json.NewDecoder(bytes.NewReader(line))
	inObject := []bool{}
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tok {
		case json.Delim('{'):
			inObject = append(inObject, true)
			expectKey = true
			continue
		case json.Delim('['):
			inObject = append(inObject, false)
			expectKey = false
			continue
		case json.Delim('}'), json.Delim(']'):
			inObject = inObject[:len(inObject)-1]
		default:
			if expectKey {
				written++
				expectKey = false
				continue
			}
		}
		// A value ended: the next token of an object is a key.
		expectKey = len(inObject) > 0 && inObject[len(inObject)-1]
	}
	var v any
	vdec := json.NewDecoder(bytes.NewReader(line))
	vdec.UseNumber() // a number past float64's range is still a value
	if err := vdec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var count func(any) int
	count = func(v any) int {
		n := 0
		switch v := v.(type) {
		case map[string]any:
			for _, e := range v {
				n += 1 + count(e)
			}
		case []any:
			for _, e := range v {
				n += count(e)
			}
		}
		return n
	}
	return written, count(v)
}

// FuzzParse holds Parse to encoding/json read into a map (keys exact, a
// key twice seen as fewer keys kept than written): a line of invalid
// UTF-8, or one that has a key twice, is never a request (id null); an
// object of valid UTF-8 with each key once and an integer "id" from 1 to
// MaxID is that request, whatever else is wrong with it; every refusal
// is JSON.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"id":1,"op":"move"}`, `{"id":1,"Id":2,"op":"hello"}`, `{"ID":7,"op":"hello"}`, `{"id":2,"a":1,"a":2}`, `{"id":3,"a":{"b":1,"b":2}}`, `[{"a":1},{"a":1}]`, `{"id":4,"a":1,"\u0061":2}`, `{"id":5,"op":[{"x":{}},{"x":[]}],"b":{"a":{"a":1}}}`, `{}`, `[]`, `"a"`, `{"":1,"":2}`, "{\"id\":6,\"op\":\"\xff\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		id, _, bad := Parse(line)
		if bad != nil && !json.Valid(bad) {
			t.Fatalf("%q: the refusal %q is not JSON", line, bad)
		}
		nullID := bytes.HasPrefix(bad, []byte(`{"id":null,"ok":false,"error":"bad-request"`))
		if !utf8.Valid(line) {
			if !nullID {
				t.Errorf("%q, not UTF-8: id %d, %s", line, id, bad)
			}
			return
		}
		if !json.Valid(line) {
			return
		}
		if written, kept := keyCounts(t, line); written != kept {
			if !nullID {
				t.Errorf("%q, %d keys written, %d kept: id %d, %s", line, written, kept, id, bad)
			}
			return
		}
		var m map[string]any
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		if dec.Decode(&m) != nil {
			return // not an object
		}
		n, isNum := m["id"].(json.Number)
		want, err := strconv.ParseInt(string(n), 10, 64)
		if !isNum || err != nil || want < 1 || want > MaxID {
			if !nullID {
				t.Errorf("%q, no id from 1 to 2^53-1: id %d, %s", line, id, bad)
			}
			return
		}
		if id != want || nullID {
			t.Errorf("%q: id %d, %s; want the id %d", line, id, bad, want)
		}
	})
}

// TestParse: a line that is not a request is refused with the id null,
// an op that is not the protocol's with the request's id, and a request
// gives its id and op.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		line string
		id   int64
		op   string
		bad  string // in the refusal; "" for none
	}{
		{`not json`, 0, "", `{"id":null,"ok":false,"error":"bad-request","message":"the line is not a request of the protocol: jsontext: invalid character`},
		{`[1]`, 0, "", `{"id":null,"ok":false,"error":"bad-request"`},
		{`{"op":"hello"}`, 0, "", `{"id":null,"ok":false,"error":"bad-request","message":"the line is not a request of the protocol: it has no integer id"}`},
		{`{"id":1.5,"op":"hello"}`, 0, "", `{"id":null,"ok":false,"error":"bad-request"`},
		{`{"id":0,"op":"hello"}`, 0, "", `{"id":null,"ok":false,"error":"bad-request","message":"the line is not a request of the protocol: its id 0 is not from 1 to 2^53-1"}`},
		{`{"id":-5,"op":"hello"}`, 0, "", `{"id":null,"ok":false,"error":"bad-request","message":"the line is not a request of the protocol: its id -5 is not from 1 to 2^53-1"}`},
		{`{"id":9007199254740992,"op":"hello"}`, 0, "", `{"id":null,"ok":false,"error":"bad-request","message":"the line is not a request of the protocol: its id 9007199254740992 is not from 1 to 2^53-1"}`},
		{`{"id":3,"op":"hello","x":[{"a":1,"\u0061":2}]}`, 0, "", `{"id":null,"ok":false,"error":"bad-request","message":"the line is not a request of the protocol: it has the key \"a\" twice"}`},
		{`{"ID":7,"op":"hello"}`, 0, "", `{"id":null,"ok":false,"error":"bad-request","message":"the line is not a request of the protocol: it has no integer id"}`},
		{`{"id":1,"Id":2,"op":"hello"}`, 1, "hello", ""},
		{`{"id":3,"OP":"hello"}`, 3, "", `{"id":3,"ok":false,"error":"unsupported-op"`},
		{"{\"id\":3,\"op\":\"hello\",\"seed\":\"\xff\"}", 0, "", `{"id":null,"ok":false,"error":"bad-request"`},
		{`{"id":3}`, 3, "", `{"id":3,"ok":false,"error":"unsupported-op","message":"the request has no op"}`},
		{`{"id":3,"op":5}`, 3, "", `{"id":3,"ok":false,"error":"unsupported-op","message":"this implementation does not know the op 5"}`},
		{`{"id":3,"op":"fly"}`, 3, "", `{"id":3,"ok":false,"error":"unsupported-op","message":"this implementation does not know the op \"fly\""}`},
		{`{"id":9007199254740991,"op":"keep-playing","spawn":7}`, 9007199254740991, "keep-playing", ""},
	} {
		id, op, bad := Parse([]byte(tc.line))
		if id != tc.id || op != tc.op || (tc.bad == "") != (bad == nil) || !strings.HasPrefix(string(bad), tc.bad) {
			t.Errorf("%s: %d, %q, %s; want %d, %q, %s", tc.line, id, op, bad, tc.id, tc.op, tc.bad)
		}
	}
	if _, bad := Decode([]byte(`{"id":4,"op":"move","spawn":7}`), 4); !strings.HasPrefix(string(bad), `{"id":4,"ok":false,"error":"bad-request","message":"the request is not a JSON object of the protocol: `) {
		t.Errorf("a spawn of 7: %s", bad)
	}
	req, bad := Decode([]byte(`{"id":4,"op":"load","board":[[2,0]],"setup":{"target":512},"spawn":{"row":1,"col":2,"value":4}}`), 4)
	if bad != nil || req.ID != 4 || req.Op != "load" || *req.Board[0][0] != 2 || req.Setup.Target != 512 || *req.Spawn != (PlacedTile{1, 2, 4}) {
		t.Errorf("load: %+v, %s", req, bad)
	}
}

// TestAnswers: each answer has the fields of its op, all of them, in the
// page's order; a message over the bound is cut at a character.
func TestAnswers(t *testing.T) {
	st := AnswerState{Board: [][]int64{{2, 0}, {0, 4}}, Score: 4, Moves: 1, Result: "playing"}
	for _, tc := range []struct{ got, want string }{
		{string(HelloAnswer(1, "n", "v", []string{"classic"}, nil)), `{"id":1,"ok":true,"protocol":1,"name":"n","version":"v","profiles":["classic"],"features":[]}`},
		{string(StateAnswer(2, st)), `{"id":2,"ok":true,"state":{"board":[[2,0],[0,4]],"score":4,"moves":1,"won":false,"over":false,"result":"playing"}}`},
		{string(MoveAnswer(3, MoveReply{State: st})), `{"id":3,"ok":true,"changed":false,"gained":0,"spawn":null,"state":{"board":[[2,0],[0,4]],"score":4,"moves":1,"won":false,"over":false,"result":"playing"}}`},
		{string(MoveAnswer(3, MoveReply{Changed: true, Gained: 8, Spawn: &PlacedTile{1, 0, 2}, State: AnswerState{Board: [][]int64{{2}}}})), `{"id":3,"ok":true,"changed":true,"gained":8,"spawn":{"row":1,"col":0,"value":2},"state":{"board":[[2]],"score":0,"moves":0,"won":false,"over":false,"result":""}}`},
		{string(LegalAnswer(4, nil)), `{"id":4,"ok":true,"legal":[]}`},
		{string(LegalAnswer(4, []string{"up"})), `{"id":4,"ok":true,"legal":["up"]}`},
		{string(Refuse(0, "bad-request", "%d", 7)), `{"id":null,"ok":false,"error":"bad-request","message":"7"}`},
		{string(Refuse(5, "no-game", "move before %s", "new")), `{"id":5,"ok":false,"error":"no-game","message":"move before new"}`},
	} {
		if tc.got != tc.want {
			t.Errorf("got  %s\nwant %s", tc.got, tc.want)
		}
	}
	var r struct{ Message string }
	long := strings.Repeat("ab", 2047) + "€" + strings.Repeat("x", 1<<20)
	if err := json.Unmarshal(Refuse(6, "bad-request", "%s", long), &r); err != nil || r.Message != strings.Repeat("ab", 2047)+"..." {
		t.Errorf("a long message: %v, %.60q... (%d bytes)", err, r.Message, len(r.Message))
	}
}
