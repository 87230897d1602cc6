package driver

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/tileproof/tileproof/protocol"
)

// appendRequest appends a request's line (without its newline) to b: the
// JSON encoding/json gives protocol.Request, written without reflection
// (TestAppendRequest holds the two equal), the keys in the struct's order.
func appendRequest(b []byte, r *protocol.Request) []byte {
	str := func(key, s string) {
		b = append(b, ",\""+key+"\":"...)
		b, _ = jsontext.AppendQuote(b, s) // invalid UTF-8 becomes U+FFFD, as encoding/json writes it
	}
	num := func(key string, v uint64) {
		b = append(b, ",\""+key+"\":"...)
		b = strconv.AppendUint(b, v, 10)
	}
	flag := func(key string, v bool) {
		b = append(b, ",\""+key+"\":"...)
		b = strconv.AppendBool(b, v)
	}
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, int64(r.ID), 10)
	b = append(b, `,"op":`...)
	b, _ = jsontext.AppendQuote(b, r.Op)
	if r.Protocol != 0 {
		b = append(b, `,"protocol":`...)
		b = strconv.AppendInt(b, int64(r.Protocol), 10)
	}
	if r.Profile != "" {
		str("profile", r.Profile)
	}
	if r.Seed != "" {
		str("seed", r.Seed)
	}
	if s := r.Setup; s != nil {
		b = append(b, `,"setup":{`...)
		if s.Target != 0 {
			b = append(b, `"target":`...)
			b = strconv.AppendUint(b, s.Target, 10)
		}
		if s.OpenEnded {
			if s.Target != 0 {
				b = append(b, ',')
			}
			b = append(b, `"openEnded":true`...)
		}
		b = append(b, '}')
	}
	if r.Rows != 0 {
		num("rows", uint64(r.Rows))
	}
	if r.Cols != 0 {
		num("cols", uint64(r.Cols))
	}
	if len(r.Board) > 0 {
		b = append(b, `,"board":[`...)
		for i, row := range r.Board {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			for j, v := range row {
				if j > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendUint(b, v, 10)
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	if r.Score != nil {
		num("score", *r.Score)
	}
	if r.Moves != nil {
		b = append(b, `,"moves":`...)
		b = strconv.AppendInt(b, int64(*r.Moves), 10)
	}
	if r.Won != nil {
		flag("won", *r.Won)
	}
	if r.KeepPlaying != nil {
		flag("keepPlaying", *r.KeepPlaying)
	}
	if r.Direction != "" {
		str("direction", r.Direction)
	}
	if sp := r.Spawn; sp != nil {
		b = append(b, `,"spawn":{"row":`...)
		b = strconv.AppendInt(b, int64(sp.Row), 10)
		b = append(b, `,"col":`...)
		b = strconv.AppendInt(b, int64(sp.Col), 10)
		b = append(b, `,"value":`...)
		b = strconv.AppendUint(b, sp.Value, 10)
		b = append(b, '}')
	}
	return append(b, '}')
}
