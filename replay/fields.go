package replay

import (
	"bytes"

	"github.com/tileproof/tileproof/engine"
)

// The replay format's fields are stated once, in the tables below: the
// YAML and JSON readers, the reader of the plain form recorders write, the
// writers and the canonical form take their keys, kinds and order from
// them.

// fieldID names a field of the replay format.
type fieldID uint8

const (
	fSource fieldID = iota
	fProfile
	fRules
	fRNG
	fSetup
	fTarget
	fOpenEnded
	fSeed
	fCommitment
	fStart
	fMoves
	fClaim
	fScore
	fMaxTile
	fClaimMoves
	fBoard
	fWon
	fOver
	fResult
	fTimes
	fTimesSeal
	numFields
)

// kind is what a field's value is, in every syntax.
type kind uint8

const (
	kText   kind = iota // a string
	kSeed               // a string, or a whole number standing for its decimal text
	kCount              // a whole number written plainly: 0, or 1-9 and more digits; at most 2^53-1
	kFlag               // true or false
	kBoard              // a text grid, or rows of numbers with null or 0 for an empty cell
	kLog                // the move log, a string
	kTimes              // the think times, a string of whole numbers
	kObject             // a mapping of the fields under it
)

// field is one field of the format.
type field struct {
	key  string
	id   fieldID
	kind kind
	sub  []field // an object's fields
}

var (
	setupFields = []field{
		{"target", fTarget, kCount, nil},
		{"openEnded", fOpenEnded, kFlag, nil},
	}
	claimFields = []field{
		{"score", fScore, kCount, nil},
		{"maxTile", fMaxTile, kCount, nil},
		{"moves", fClaimMoves, kCount, nil},
		{"board", fBoard, kBoard, nil},
		{"won", fWon, kFlag, nil},
		{"over", fOver, kFlag, nil},
		{"result", fResult, kText, nil},
	}
	// replayFields are the top-level fields, in the order they are written.
	replayFields = []field{
		{"source", fSource, kText, nil},
		{"profile", fProfile, kText, nil},
		{"rules", fRules, kCount, nil},
		{"rng", fRNG, kText, nil},
		{"setup", fSetup, kObject, setupFields},
		{"seed", fSeed, kSeed, nil},
		{"seedCommitment", fCommitment, kText, nil},
		{"start", fStart, kBoard, nil},
		{"moves", fMoves, kLog, nil},
		{"times", fTimes, kTimes, nil},
		{"timesSeal", fTimesSeal, kText, nil},
		{"claim", fClaim, kObject, claimFields},
	}
)

// paths are the fields' names in messages: "claim.score" (the tables'
// keys, TestPaths checks).
var paths = [numFields]string{
	fSource: "source", fProfile: "profile", fRules: "rules", fRNG: "rng",
	fSetup: "setup", fTarget: "setup.target", fOpenEnded: "setup.openEnded",
	fSeed: "seed", fCommitment: "seedCommitment", fStart: "start", fMoves: "moves",
	fClaim: "claim", fScore: "claim.score", fMaxTile: "claim.maxTile", fClaimMoves: "claim.moves",
	fBoard: "claim.board", fWon: "claim.won", fOver: "claim.over", fResult: "claim.result",
	fTimes: "times", fTimesSeal: "timesSeal",
}

func lookup(fields []field, key string) (field, bool) {
	for _, f := range fields {
		if f.key == key {
			return f, true
		}
	}
	return field{}, false
}

// pos is a place in a document: 1-based line and column, 0 when unknown;
// or, as the JSON reader records places (finding lines takes a scan), the
// byte offset plus one in off, turned into a line and column only for a
// message ([decodeError.add]).
type pos struct{ line, col, off int }

// resolve returns the place with its line and column, found from the
// byte offset in src where it has one.
func (p pos) resolve(src []byte) pos {
	if p.line != 0 || p.off == 0 || src == nil {
		return p
	}
	off := min(p.off-1, len(src))
	line := 1 + bytes.Count(src[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
	return pos{line: line, col: col}
}

// form is a replay document as its fields were read, before the meaning
// of the whole is checked ([form.replay]), or a replay's fields about to
// be written ([Replay.form]).
type form struct {
	has   uint32 // bit 1<<id: field id is present
	text  [numFields]string
	num   [numFields]uint64
	flag  [numFields]bool
	start engine.Board
	board engine.Board
	at    [numFields]pos // where each field's key is
	// movesOf, when set, is the replay whose move log is written, without
	// spaces, in place of text[fMoves]: the canonical form's, straight
	// into its JSON (the YAML writer reads text only).
	movesOf *Replay
	src     []byte // the document, for places recorded as offsets
	doc     []byte // the document, to place an error inside a move log written as a block
}

func (f *form) present(id fieldID) bool { return f.has&(1<<id) != 0 }

func (f *form) set(id fieldID) { f.has |= 1 << id }

func (f *form) mark(id fieldID, at pos) {
	f.set(id)
	f.at[id] = at
}

func (f *form) setText(id fieldID, s string) {
	f.set(id)
	f.text[id] = s
}

// optText sets text field id to s unless s is empty.
func (f *form) optText(id fieldID, s string) {
	if s != "" {
		f.setText(id, s)
	}
}

func (f *form) setNum(id fieldID, n uint64) {
	f.set(id)
	f.num[id] = n
}

func (f *form) setFlag(id fieldID, v bool) {
	f.set(id)
	f.flag[id] = v
}

func (f *form) boardOf(id fieldID) *engine.Board {
	if id == fStart {
		return &f.start
	}
	return &f.board
}
