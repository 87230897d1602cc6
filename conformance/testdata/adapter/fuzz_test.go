package main

import (
	"bytes"
	"encoding/json"
	"testing"
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

// FuzzRepeatedKey holds repeatedKey to a decoder's count: a JSON text
// has a key twice exactly when it writes more keys than a map keeps.
func FuzzRepeatedKey(f *testing.F) {
	for _, s := range []string{`{"id":1,"op":"move"}`, `{"a":1,"a":2}`, `{"a":{"b":1,"b":2}}`, `[{"a":1},{"a":1}]`, `{"a":1,"\u0061":2}`, `{"a":[{"x":{}},{"x":[]}],"b":{"a":{"a":1}}}`, `{}`, `[]`, `"a"`, `{"":1,"":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		key, twice := repeatedKey(line)
		if !json.Valid(line) {
			return
		}
		written, kept := keyCounts(t, line)
		if twice != (written != kept) {
			t.Errorf("%q: repeatedKey %q; %d keys written, %d kept", line, key, written, kept)
		}
	})
}

// FuzzHandle holds the adapter's answer to any line to the protocol: one
// JSON object with ok, an id null only with bad-request, and an answer
// that is not a refusal only to a request with an id from 1 to 2^53-1.
func FuzzHandle(f *testing.F) {
	for _, s := range []string{helloReq, `{"id":2,"op":"new","profile":"classic","seed":"7"}`, `{"id":0,"op":"legal"}`,
		`{"id":3,"op":"move","direction":"left","direction":"up"}`, `{"id":3,"op":"move","direction":"left","spawn":{"row":9,"col":0,"value":2}}`,
		`not json`, `{"id":4,"op":5}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		a := newAdapter("")
		a.handle([]byte(helloReq))
		a.handle([]byte(`{"id":2,"op":"new","profile":"classic","seed":"7"}`))
		out, h := a.handle(line)
		if h != hookNone {
			t.Fatalf("%q: hook %d", line, h)
		}
		var ans struct {
			ID    *int64 `json:"id"`
			OK    *bool  `json:"ok"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal(out, &ans); err != nil || ans.OK == nil {
			t.Fatalf("%q: answer %q: %v", line, out, err)
		}
		if ans.ID == nil && ans.Error != "bad-request" {
			t.Errorf("%q: id null with %q", line, ans.Error)
		}
		if ans.ID != nil && (*ans.ID < 1 || *ans.ID > maxSafe) {
			t.Errorf("%q: answered with id %d", line, *ans.ID)
		}
	})
}
