package protocol

import "github.com/tileproof/tileproof/engine"

// Version is the exec protocol version this package speaks.
const Version = 1

// Message is an exec protocol request or answer: one JSON object on one
// line. Each op uses the fields docs/protocol.md gives it; the others are
// left out.
type Message struct {
	ID       int    `json:"id"`
	Op       string `json:"op,omitempty"`
	OK       *bool  `json:"ok,omitempty"`
	Error    string `json:"error,omitempty"`
	Message  string `json:"message,omitempty"`
	Protocol int    `json:"protocol,omitempty"`

	// hello's answer
	Name     string   `json:"name,omitempty"`
	Version  string   `json:"version,omitempty"`
	Profiles []string `json:"profiles,omitempty"`
	Features []string `json:"features,omitempty"`

	// new and load
	Profile     string        `json:"profile,omitempty"`
	Setup       *engine.Setup `json:"setup,omitempty"`
	Seed        string        `json:"seed,omitempty"`
	Rows        int           `json:"rows,omitempty"`
	Cols        int           `json:"cols,omitempty"`
	Board       [][]uint64    `json:"board,omitempty"`
	Score       *uint64       `json:"score,omitempty"`
	Moves       *int          `json:"moves,omitempty"`
	Won         *bool         `json:"won,omitempty"`
	KeepPlaying *bool         `json:"keepPlaying,omitempty"`

	// move, and its answer
	Direction string        `json:"direction,omitempty"`
	Spawn     *engine.Spawn `json:"spawn,omitempty"`
	Changed   *bool         `json:"changed,omitempty"`
	Gained    *uint64       `json:"gained,omitempty"`

	// legal's answer
	Legal []string `json:"legal,omitempty"`

	// the answers of new, load, move, undo, end-run, keep-playing
	State *State `json:"state,omitempty"`
}

// State is a game's state as an implementation reports it, on the exec
// protocol and (as its observation) on the HTTP API.
type State struct {
	Board  [][]uint64 `json:"board"`
	Score  uint64     `json:"score"`
	Moves  int        `json:"moves"`
	Won    bool       `json:"won"`
	Over   bool       `json:"over"`
	Result string     `json:"result,omitempty"` // optional: "" when the implementation does not track it
}
