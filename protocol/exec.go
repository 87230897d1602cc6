package protocol

import "github.com/tileproof/tileproof/engine"

// Version is the exec protocol version this package speaks.
const Version = 1

// MaxLine is the longest line of the exec protocol, in bytes before its
// newline: a request or an answer longer than this is a protocol error.
const MaxLine = 1 << 20

// The limits of hello's answer (docs/protocol.schema.json): how many
// profiles and features it lists, and how long a profile is.
const (
	MaxProfiles      = 256
	MaxFeatures      = 256
	MaxProfileLength = 256
	MaxNameLength    = 256 // the name and the version
	MaxMessageLength = 65536
)

// The ops of the exec protocol.
const (
	OpHello       = "hello"
	OpNew         = "new"
	OpLoad        = "load"
	OpMove        = "move"
	OpLegal       = "legal"
	OpUndo        = "undo"
	OpEndRun      = "end-run"
	OpKeepPlaying = "keep-playing"
)

// The error words of an answer with ok: false (docs/protocol.md). The
// first are the rules' refusals, the words of engine.Refusal and of the
// case format's error expectation; the others say that the request could
// not be answered at all.
const (
	ErrorIllegalMove = "illegal-move" // a move that changes nothing, in a profile that rejects it
	ErrorFinished    = "finished"     // a move (in a profile that rejects it), undo or End run after the end of the run
	ErrorUnsupported = "unsupported"  // an action or a setup the profile does not have
	ErrorNoUndo      = "no-undo"      // nothing to undo
	ErrorNotStopped  = "not-stopped"  // keep playing when play is not stopped at the win
	ErrorBadSpawn    = "bad-spawn"    // a forced spawn off the board, on a tile, or of a value the profile never spawns
	ErrorOverflow    = "overflow"     // a merge would make a tile above 2^52, or the score or the move count would pass 2^53-1

	ErrorBadRequest    = "bad-request"    // the request is not what the protocol or the declaration allows
	ErrorNoHello       = "no-hello"       // a request before hello
	ErrorNoGame        = "no-game"        // a request that needs a game, before any new or load
	ErrorUnsupportedOp = "unsupported-op" // an op the implementation does not have, or did not declare the feature of
	ErrorImpl          = "impl-error"     // the implementation failed for a reason of its own
)

// RuleWord reports whether an error word is one of the rules' refusals,
// which a case can expect, rather than a failure to answer.
func RuleWord(word string) bool {
	switch word {
	case ErrorIllegalMove, ErrorFinished, ErrorUnsupported, ErrorNoUndo, ErrorNotStopped, ErrorBadSpawn, ErrorOverflow:
		return true
	}
	return false
}

// ProtocolWord reports whether an error word is one of the protocol's
// own: the request could not be answered.
func ProtocolWord(word string) bool {
	switch word {
	case ErrorBadRequest, ErrorNoHello, ErrorNoGame, ErrorUnsupportedOp, ErrorImpl:
		return true
	}
	return false
}

// Request is an exec protocol request: one JSON object on one line. Each
// op has the fields docs/protocol.md gives it; the others are left out.
type Request struct {
	ID       int    `json:"id"`
	Op       string `json:"op"`
	Protocol int    `json:"protocol,omitempty"` // hello

	// new and load
	Profile     string        `json:"profile,omitempty"`
	Seed        string        `json:"seed,omitempty"`
	Setup       *engine.Setup `json:"setup,omitempty"`
	Rows        int           `json:"rows,omitempty"`
	Cols        int           `json:"cols,omitempty"`
	Board       [][]uint64    `json:"board,omitempty"`
	Score       *uint64       `json:"score,omitempty"`
	Moves       *int          `json:"moves,omitempty"`
	Won         *bool         `json:"won,omitempty"`
	KeepPlaying *bool         `json:"keepPlaying,omitempty"`

	// move
	Direction string        `json:"direction,omitempty"`
	Spawn     *engine.Spawn `json:"spawn,omitempty"`
}

// Answer is an exec protocol answer as the runner reads it, once checked
// against docs/protocol.schema.json: the fields of its op, the others
// zero.
type Answer struct {
	ID      int64 // 0 for null: the answer to a line that was not a request
	OK      bool
	Error   string // ok false: the word
	Message string // ok false: free text

	// hello
	Protocol int
	Name     string
	Version  string
	Profiles []string
	Features []string

	// move
	Changed bool
	Gained  uint64
	Spawn   *engine.Spawn // nil when no tile appeared

	// legal
	Legal []string

	// new, load, move, undo, end-run, keep-playing
	State *WireState
}

// WireState is a game's state as an implementation reports it, on the exec
// protocol and (as its observation) on the HTTP API.
type WireState struct {
	Board  [][]uint64 `json:"board"`
	Score  uint64     `json:"score"`
	Moves  int        `json:"moves"`
	Won    bool       `json:"won"`
	Over   bool       `json:"over"`
	Result string     `json:"result,omitempty"` // optional: "" when the implementation does not track it
}
