package lineproto

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Version is the protocol version the adapters speak.
const Version = 1

// MaxID is the largest id of a request, 2^53-1.
const MaxID = 1<<53 - 1

// maxMessage bounds a refusal's message, in bytes: a message that quotes
// a request's field (up to a line's MiB) is cut, well within the 65,536
// characters the protocol allows.
const maxMessage = 4096

// PlacedTile is a tile placed after a slide: a move's answer, or a request's
// forced spawn.
type PlacedTile struct {
	Row   int   `json:"row"`
	Col   int   `json:"col"`
	Value int64 `json:"value"`
}

// GameSetup is a new or loaded game's choice of win tile and open-ended play.
type GameSetup struct {
	Target    int64 `json:"target"`
	OpenEnded bool  `json:"openEnded"`
}

// LineRequest is a request with the fields of every op: a field the request
// leaves out is zero, or nil where a pointer tells it from a zero.
type LineRequest struct {
	ID          int64       `json:"id"`
	Op          string      `json:"op"`
	Protocol    *int        `json:"protocol"`
	Profile     string      `json:"profile"`
	Seed        *string     `json:"seed"`
	Setup       *GameSetup  `json:"setup"`
	Rows        *int        `json:"rows"`
	Cols        *int        `json:"cols"`
	Board       [][]*int64  `json:"board"`
	Score       int64       `json:"score"`
	Moves       int64       `json:"moves"`
	Won         bool        `json:"won"`
	KeepPlaying bool        `json:"keepPlaying"`
	Direction   string      `json:"direction"`
	Spawn       *PlacedTile `json:"spawn"`
}

// AnswerState is a game's state in an answer.
type AnswerState struct {
	Board  [][]int64 `json:"board"`
	Score  int64     `json:"score"`
	Moves  int64     `json:"moves"`
	Won    bool      `json:"won"`
	Over   bool      `json:"over"`
	Result string    `json:"result"`
}

// MoveReply is what a move's answer says besides its id.
type MoveReply struct {
	Changed bool        `json:"changed"`
	Gained  int64       `json:"gained"`
	Spawn   *PlacedTile `json:"spawn"` // null when no tile appeared
	State   AnswerState `json:"state"`
}

// OpFeature returns the feature an op needs, "" for none, and known
// false for an op that is not the protocol's.
func OpFeature(op string) (feature string, known bool) {
	switch op {
	case "hello", "new", "move", "legal":
		return "", true
	case "load":
		return "load-state", true
	case "undo", "end-run", "keep-playing":
		return op, true
	}
	return "", false
}

// Parse reads the first of a request line that docs/protocol.md ("Error
// words") checks: a line that is not a request (not a JSON object of
// valid UTF-8, a key twice at any depth, no id from 1 to [MaxID]) is
// refused as bad-request with the id null; an op that is missing, not a
// string or not one of the protocol's, as unsupported-op. Otherwise it
// returns the request's id and op, and the refusal nil; the adapter
// checks the rest (its features, hello, a game) and then reads the
// fields with [Decode]. Keys match exactly, case included: "ID" is not
// the id (encoding/json would take it, and let the last of "id" and
// "Id" win).
func Parse(line []byte) (id int64, op string, refusal []byte) {
	var probe struct {
		ID *int64         `json:"id"`
		Op jsontext.Value `json:"op"`
	}
	err := json.Unmarshal(line, &probe)
	why := ""
	se, syntactic := errors.AsType[*jsontext.SyntacticError](err)
	switch {
	case syntactic && errors.Is(err, jsontext.ErrDuplicateName):
		why = fmt.Sprintf("it has the key %q twice", se.JSONPointer.LastToken())
	case err != nil:
		why = err.Error()
	case probe.ID == nil:
		why = "it has no integer id"
	case *probe.ID < 1 || *probe.ID > MaxID:
		why = fmt.Sprintf("its id %d is not from 1 to 2^53-1", *probe.ID)
	}
	if why != "" {
		return 0, "", Refuse(0, "bad-request", "the line is not a request of the protocol: %s", why)
	}
	id = *probe.ID
	if probe.Op == nil {
		return id, "", Refuse(id, "unsupported-op", "the request has no op")
	}
	err = json.Unmarshal(probe.Op, &op)
	if _, known := OpFeature(op); err != nil || !known {
		return id, "", Refuse(id, "unsupported-op", "this implementation does not know the op %s", probe.Op)
	}
	return id, op, nil
}

// Decode reads the fields of the request line that [Parse] gave id: a
// field of the wrong type is refused as bad-request.
func Decode(line []byte, id int64) (LineRequest, []byte) {
	var req LineRequest
	if err := json.Unmarshal(line, &req); err != nil {
		return req, Refuse(id, "bad-request", "the request is not a JSON object of the protocol: %v", err)
	}
	return req, nil
}

// Refuse returns the refusal with the error word and the message, to the
// request of id (0: the line was not a request, the id null). A message
// over 4 KiB is cut, "..." marking the cut.
func Refuse(id int64, word, format string, args ...any) []byte {
	msg := fmt.Sprintf(format, args...)
	if len(msg) > maxMessage {
		n := maxMessage
		for n > 0 && !utf8.RuneStart(msg[n]) {
			n--
		}
		msg = msg[:n] + "..."
	}
	var nullable *int64
	if id != 0 {
		nullable = &id
	}
	return marshal(struct {
		ID      *int64 `json:"id"`
		OK      bool   `json:"ok"`
		Error   string `json:"error"`
		Message string `json:"message"`
	}{nullable, false, word, msg})
}

// HelloAnswer returns the answer to hello: the protocol's version, the
// implementation's name and version, and what it declares.
func HelloAnswer(id int64, name, version string, profiles, features []string) []byte {
	return marshal(struct {
		ID       int64    `json:"id"`
		OK       bool     `json:"ok"`
		Protocol int      `json:"protocol"`
		Name     string   `json:"name"`
		Version  string   `json:"version"`
		Profiles []string `json:"profiles"`
		Features []string `json:"features"`
	}{id, true, Version, name, version, profiles, features})
}

// StateAnswer returns the answer of new, load, undo, end-run and
// keep-playing: the state.
func StateAnswer(id int64, st AnswerState) []byte {
	return marshal(struct {
		ID    int64       `json:"id"`
		OK    bool        `json:"ok"`
		State AnswerState `json:"state"`
	}{id, true, st})
}

// MoveAnswer returns the answer of a move.
func MoveAnswer(id int64, m MoveReply) []byte {
	return marshal(struct {
		ID int64 `json:"id"`
		OK bool  `json:"ok"`
		MoveReply
	}{id, true, m})
}

// LegalAnswer returns the answer of legal: the directions that change
// the board.
func LegalAnswer(id int64, legal []string) []byte {
	return marshal(struct {
		ID    int64    `json:"id"`
		OK    bool     `json:"ok"`
		Legal []string `json:"legal"`
	}{id, true, legal})
}

// marshal returns an answer's JSON: a nil list is [] (the protocol has
// no null lists), and invalid UTF-8 in a message (a screen's bytes) is
// written U+FFFD.
func marshal(v any) []byte {
	b, err := json.Marshal(v, jsontext.AllowInvalidUTF8(true))
	if err != nil {
		panic(err) // the answers are plain structs
	}
	return b
}
