package main

import (
	"encoding/json"
	"testing"
)

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
		out, err := a.handle(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
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
