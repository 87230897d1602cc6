package replay

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/boardfmt"
)

// Reason names why a replay is not valid. Malformed and Refused are about
// the input (it cannot be judged); the others are verdicts on the game.
type Reason string

// The reasons, in docs/replay-format.md's words ([Reason.Describe] says
// each in a sentence).
const (
	Malformed       Reason = "malformed"
	Refused         Reason = "refused"
	SeedCommitment  Reason = "seed-commitment"
	ImpossibleClaim Reason = "impossible-claim"
	BadStart        Reason = "bad-start"
	IllegalMove     Reason = "illegal-move"
	AfterEnd        Reason = "after-end"
	BadSpawn        Reason = "bad-spawn"
	BadAction       Reason = "bad-action"
	Overflow        Reason = "overflow"
	ClaimMoves      Reason = "claim-moves"
	ClaimScore      Reason = "claim-score"
	ClaimMaxTile    Reason = "claim-max-tile"
	ClaimBoard      Reason = "claim-board"
	ClaimWon        Reason = "claim-won"
	ClaimOver       Reason = "claim-over"
	ClaimResult     Reason = "claim-result"
	// Implausible is given by no verification: [Verdict.Strict] gives it
	// to a valid replay whose spawns the plausibility tests warn about,
	// for a policy (verify --strict) that refuses those.
	Implausible Reason = "implausible"
)

// Describe says in one sentence what the reason means.
func (r Reason) Describe() string {
	switch r {
	case Malformed:
		return "The file is not a replay tileproof can read: its syntax, a missing field, or a move log that does not parse."
	case Refused:
		return "The replay names a profile, rules version or spawn generator this verifier does not know; it will not guess."
	case SeedCommitment:
		return "The seed does not hash to the commitment published before the game."
	case ImpossibleClaim:
		return "The claim contradicts itself: no game reaches those figures together (found before replaying)."
	case BadStart:
		return "The recorded start board is not one any game of this profile starts with."
	case IllegalMove:
		return "A move that changes nothing is recorded: it is not a move of the game."
	case AfterEnd:
		return "An action is recorded after the run had ended."
	case BadSpawn:
		return "A recorded spawn lands on a full cell, is a value the profile never spawns, or is missing."
	case BadAction:
		return "An undo, End run, keep playing or break is recorded where the rules do not allow it."
	case Overflow:
		return "A tile or the score goes beyond the safe-integer limits."
	case ClaimMoves:
		return "The claimed number of counted moves is not what the log holds (a truncated or padded log)."
	case ClaimScore:
		return "The claimed score is not what the moves produce."
	case ClaimMaxTile:
		return "The claimed largest tile is not what the moves produce."
	case ClaimBoard:
		return "The claimed final board is not the one the moves produce."
	case ClaimWon:
		return "The claimed win is not what the moves produce."
	case ClaimOver:
		return "The claim says the game is over, or not, and the moves say otherwise."
	case ClaimResult:
		return "The claimed result is not how the run stands after the moves."
	case Implausible:
		return "The moves are the rules', but the spawns are unlikely under the profile's weights, and the policy (verify --strict) refuses that."
	}
	return ""
}

// Unreadable reports whether the reason is about the input rather than
// the game: malformed or refused, a replay that could not be judged.
func (r Reason) Unreadable() bool { return r == Malformed || r == Refused }

// Strict returns the verdict as a policy that refuses implausible spawns
// reads it (verify --strict): a valid verdict with plausibility warnings
// becomes invalid, with reason [Implausible] (its figures, warnings and
// plausibility kept); any other verdict is returned as it is.
func (vd Verdict) Strict() Verdict {
	if vd.Valid && len(vd.Warnings) > 0 {
		vd.Valid, vd.Reason = false, Implausible
	}
	return vd
}

// LegalGame reports whether the game was played by the rules: the
// verdict is valid, or only --strict's policy on implausible spawns made
// it invalid ([Verdict.Strict]). Such a game is one to judge further (its
// evidence of computer play).
func (vd Verdict) LegalGame() bool { return vd.Valid || vd.Reason == Implausible }

// ClaimAloneFalse reports whether the verdict finds the claim alone
// false: its moves keep the rules to the end of the log, but the figures
// claimed are not theirs (a claim-* reason, or an impossible claim whose
// moves, replayed, keep the rules: its GameSHA256 is set).
func (vd Verdict) ClaimAloneFalse() bool {
	return vd.Reason.ClaimMismatch() || vd.Reason == ImpossibleClaim && vd.GameSHA256 != ""
}

// ClaimMismatch reports whether r is a claim-* reason: the log replayed
// to its end within the rules, a figure claimed not the game's.
func (r Reason) ClaimMismatch() bool {
	switch r {
	case ClaimMoves, ClaimScore, ClaimMaxTile, ClaimBoard, ClaimWon, ClaimOver, ClaimResult:
		return true
	}
	return false
}

// Replayable reports whether a replay with this verdict reason can be
// played from its start (so has frames, see [Verifier.Trace]): all but the
// unreadable ones and a bad start board.
func (r Reason) Replayable() bool { return !r.Unreadable() && r != BadStart }

// Verdict is the outcome of verifying one replay.
type Verdict struct {
	Name   string // the file, or stdin:LINE
	Valid  bool
	Reason Reason // why it is not valid
	Error  string // for malformed and refused replays

	Profile      string
	RulesVersion int
	Setup        *engine.Setup // the run's setup as it changes the profile's rules (canonical); nil for none
	RNG          string        // the generator a seeded replay was verified with: tp1 or hallabois-lcg
	Seed         *string       // the normalized seed text
	Unpinned     []string      // "rules", "rng": not pinned by the replay, so this verifier's were used

	// Replayed says the game was replayed, so the figures below are the
	// game's: to the end when valid, to the divergence otherwise. A
	// replay judged before replaying (unreadable, a seed commitment, an
	// impossible claim, a bad start board) has none.
	Replayed bool
	Score    uint64
	MaxTile  uint64
	Moves    int
	Won      bool
	Over     bool
	Result   engine.Result

	Divergence *Divergence
	Mismatches []Mismatch // every claimed figure that differs, the first of them the divergence's
	SHA256     string     // of the canonical replay, for a valid one
	// GameSHA256 is the SHA-256 of the canonical replay of the game as
	// played (undone moves left out), for a replay whose whole log keeps
	// the rules: a valid one, and an invalid one whose claim alone is
	// false (a claim-* reason, or an impossible claim whose moves,
	// replayed, keep the rules), which a copy of a game with its claim
	// raised shares with the game.
	GameSHA256   string
	Warnings     []string // the spawn plausibility tests below their threshold
	Plausibility *Plausibility

	// Analysis is evidence a caller adds to the verdict, as JSON: the
	// analyze package's report of a valid game (tileproof verify
	// --analyze), written as the verdict line's "analysis". Nil for none.
	Analysis json.RawMessage

	// ThinkTimes is what a check of the replay's think times against the
	// key of the signed server that dealt it found (tileproof verify
	// --times-key-file), written as the verdict line's "thinkTimes". Nil
	// when not checked. It says nothing of the game's legality.
	ThinkTimes *TimesCheck
}

// Divergence is the first point where a replay leaves the rules: the
// place, and what the replay says against what the rules give there
// ([Divergence.Says], [Divergence.Gives]). Which fields are set depends on
// the verdict's reason.
type Divergence struct {
	Action int           // 1-based position in the move log; the log's length for a claim; 0 when found before replaying
	Move   int           // counted moves before it
	Act    engine.Action // the action at Action (for the reasons about an action)
	// Board is the board there: before the action, or after its slide for
	// a bad spawn (where the tile would go); the final board for a claim;
	// the start board for a bad start.
	Board   *engine.Board
	Claimed *engine.Board // claim-board: the claimed final board

	Spawn        *engine.Spawn      // bad-spawn: the recorded tile
	Legal        []engine.Direction // illegal-move: the moves the rules accept there
	Ended        engine.Result      // after-end: how the run had ended
	AwaitingKeep bool               // after-end: stopped at the win in a profile whose win asks
	Claim        *Mismatch          // claim-*: the first claimed figure that differs
	Committed    string             // seed-commitment: the published commitment
	Computed     string             // seed-commitment: the seed's own
	Problem      string             // what the rules found, in words

	reason     Reason // the verdict's, which says which of the fields above are set
	claim      *Claim // impossible-claim: the claim
	startTiles int    // bad-start: the profile's start tiles
	spawns     string // bad-start: the values it spawns
}

// Mismatch is one claimed figure that is not what the moves produce.
type Mismatch struct {
	Field   string // moves, score, maxTile, board, won, over or result
	Claimed string // what the replay says
	Found   string // what the rules give
}

// MarshalJSON writes a mismatch with both its present keys (replaySays,
// rulesGive) and its earlier ones (claimed, found).
func (m Mismatch) MarshalJSON() ([]byte, error) { return m.appendJSON(nil), nil }

func (m Mismatch) appendJSON(b []byte) []byte {
	w := jsonWriter{b: append(b, '{')}
	w.str("field", m.Field)
	w.str("replaySays", m.Claimed)
	w.str("rulesGive", m.Found)
	w.str("claimed", m.Claimed)
	w.str("found", m.Found)
	return append(w.b, '}')
}

// what names the divergence's action: "action 704 (left)".
func (d *Divergence) what() string { return fmt.Sprintf("action %d (%s)", d.Action, d.Act) }

// Says returns what the replay says at the divergence, for people.
func (d *Divergence) Says() string {
	switch d.reason {
	case SeedCommitment:
		return "seed commitment " + d.Committed
	case ImpossibleClaim:
		return fmt.Sprintf("score %d, max tile %d in %d moves", d.claim.Score, d.claim.MaxTile, d.claim.Moves)
	case BadStart:
		return "the start board below"
	case IllegalMove:
		return d.what() + ", a move that changes the board"
	case AfterEnd:
		return d.what() + ", played as if the run went on"
	case BadSpawn:
		return fmt.Sprintf("%s followed by %d in row %d, column %d", d.what(), d.Spawn.Value, d.Spawn.Row, d.Spawn.Col)
	case ClaimBoard:
		return "the final board marked - in the diff"
	case Overflow, BadAction:
		return d.what()
	}
	if d.Claim != nil {
		return d.Claim.words(d.Claim.Claimed)
	}
	return ""
}

// words says a figure of the mismatch for people: the field in words, then
// the value, true and false as yes and no ("game over yes", "max tile
// 2048").
func (m *Mismatch) words(value string) string {
	name := m.Field
	switch name {
	case "maxTile":
		name = "max tile"
	case "over":
		name = "game over"
	}
	switch value {
	case "true":
		value = "yes"
	case "false":
		value = "no"
	}
	return name + " " + value
}

// Gives returns what the rules give at the divergence, for people.
func (d *Divergence) Gives() string {
	switch d.reason {
	case SeedCommitment:
		return "the seed hashes to " + d.Computed
	case BadStart:
		return fmt.Sprintf("%d start tiles of %s; this board: %s", d.startTiles, d.spawns, d.Problem)
	case AfterEnd:
		s := fmt.Sprintf("the run ended after %d moves: %s", d.Move, d.Ended)
		if d.AwaitingKeep {
			s += " (a replay that plays on records K, keep playing)"
		}
		return s
	case ClaimBoard:
		return "the board the moves produce, marked + in the diff"
	}
	if d.Claim != nil {
		return d.Claim.words(d.Claim.Found)
	}
	return d.Problem
}

// Diff returns the claimed final board against the real one, row by row
// (- claimed, + real), for a claim-board divergence; "" otherwise.
func (d *Divergence) Diff() string {
	if d.Claimed == nil || d.Board == nil {
		return ""
	}
	return boardfmt.Diff(*d.Claimed, *d.Board)
}

// Proved states what a valid replay proved ("" for another), with the
// rules it holds under in full: "score 12, tile 8 in 4 moves is reachable
// from seed "7" under profile tile-merge, rules version 1, spawns by tp1",
// and the setup where the run made one.
func (vd Verdict) Proved() string {
	if !vd.Valid {
		return ""
	}
	return string(vd.appendProof(nil))
}

// appendProof appends the proof to b, with appends: every valid replay of
// a batch writes one.
func (vd Verdict) appendProof(b []byte) []byte {
	b = append(b, "score "...)
	b = strconv.AppendUint(b, vd.Score, 10)
	b = append(b, ", tile "...)
	b = strconv.AppendUint(b, vd.MaxTile, 10)
	b = append(b, " in "...)
	b = strconv.AppendInt(b, int64(vd.Moves), 10)
	b = append(b, " moves is reachable from "...)
	if vd.Seed != nil {
		b = strconv.AppendQuote(append(b, "seed "...), *vd.Seed)
	} else {
		b = append(b, "the recorded start board and spawns"...)
	}
	b = vd.appendRules(append(b, " under "...))
	if vd.RNG != "" {
		b = append(append(b, ", spawns by "...), vd.RNG...)
	}
	return b
}

// RulesText names the rules the verdict was reached under, as the proof
// does: "profile online-2048, rules version 1, setup target 512" (the
// setup only where the run made one that changes the rules; the version
// only once known).
func (vd Verdict) RulesText() string { return string(vd.appendRules(nil)) }

func (vd Verdict) appendRules(b []byte) []byte {
	b = append(append(b, "profile "...), vd.Profile...)
	if vd.RulesVersion != 0 {
		b = strconv.AppendInt(append(b, ", rules version "...), int64(vd.RulesVersion), 10)
	}
	if setup := vd.Setup; setup != nil {
		b = append(b, ", setup "...)
		if setup.Target != 0 {
			b = strconv.AppendUint(append(b, "target "...), setup.Target, 10)
			if setup.OpenEnded {
				b = append(b, " and "...)
			}
		}
		if setup.OpenEnded {
			b = append(b, "open-ended"...)
		}
	}
	return b
}

// Headline returns the verdict's first line for people, without the
// replay's name: "valid: score 12, max tile 8, 4 moves (playing)",
// "illegal-move at action 704 (after 703 counted moves)", or the reason
// and error of an unreadable replay.
func (vd Verdict) Headline() string {
	switch {
	case vd.Valid:
		return fmt.Sprintf("score %d, max tile %d, %d moves (%s)", vd.Score, vd.MaxTile, vd.Moves, vd.Result)
	case vd.Reason == Implausible:
		return fmt.Sprintf("score %d, max tile %d, %d moves (%s); --strict: the spawns are implausible", vd.Score, vd.MaxTile, vd.Moves, vd.Result)
	case vd.Reason.Unreadable():
		return string(vd.Reason) + ": " + vd.Error
	}
	s := string(vd.Reason)
	if d := vd.Divergence; d != nil && d.Action > 0 {
		s += fmt.Sprintf(" at action %d (after %d counted moves)", d.Action, d.Move)
	}
	return s
}

// MarshalJSON writes the verdict as docs/replay-format.md gives it
// ([Verdict.AppendJSON]).
func (vd Verdict) MarshalJSON() ([]byte, error) { return vd.AppendJSON(nil), nil }

// AppendJSON appends the verdict's JSON form, as docs/replay-format.md
// gives it, to b: the game's figures only for a replay that was replayed,
// empty fields left out. It is written by hand, not by reflection: a
// batch writes one a replay, and through the JSON library the line cost
// a short game's verification much more, its reflection the web kit
// much of its size (docs/verify.md). FuzzVerdictJSON holds it to the
// library's text of the same verdict.
func (vd Verdict) AppendJSON(b []byte) []byte {
	w := jsonWriter{b: append(b, '{')}
	if vd.Name != "" {
		w.str("name", vd.Name)
	}
	w.key("valid")
	w.b = strconv.AppendBool(w.b, vd.Valid)
	w.opt("reason", string(vd.Reason))
	w.opt("error", vd.Error)
	w.opt("profile", vd.Profile)
	if vd.RulesVersion != 0 {
		w.num("rulesVersion", uint64(vd.RulesVersion))
	}
	if s := vd.Setup; s != nil {
		w.key("setup")
		var f form
		f.setSetup(*s) // as the canonical form writes it
		w.b = f.appendJSON(w.b, setupFields)
	}
	w.opt("rng", vd.RNG)
	if vd.Seed != nil {
		w.str("seed", *vd.Seed)
	}
	appendList(&w, "unpinned", vd.Unpinned, appendQuoted[string])
	if vd.Replayed {
		w.num("score", vd.Score)
		w.num("maxTile", vd.MaxTile)
		w.num("moves", uint64(vd.Moves))
		w.key("won")
		w.b = strconv.AppendBool(w.b, vd.Won)
		w.key("over")
		w.b = strconv.AppendBool(w.b, vd.Over)
		w.str("result", vd.Result.Name())
	}
	if d := vd.Divergence; d != nil {
		w.key("divergence")
		w.b = d.appendJSON(w.b)
	}
	appendList(&w, "mismatches", vd.Mismatches, func(b []byte, m Mismatch) []byte { return m.appendJSON(b) })
	if vd.Valid {
		var buf [192]byte
		w.key("proved")
		w.b = appendQuoted(w.b, vd.appendProof(buf[:0]))
	}
	w.opt("sha256", vd.SHA256)
	w.opt("gameSha256", vd.GameSHA256)
	appendList(&w, "warnings", vd.Warnings, appendQuoted[string])
	if pl := vd.Plausibility; pl != nil {
		w.key("plausibility")
		w.b = pl.appendJSON(w.b)
	}
	if tc := vd.ThinkTimes; tc != nil {
		w.key("thinkTimes")
		w.b = tc.appendJSON(w.b)
	}
	if len(vd.Analysis) > 0 {
		w.key("analysis")
		w.b = append(w.b, vd.Analysis...)
	}
	return append(w.b, '}')
}

// appendJSON writes the divergence as docs/replay-format.md gives it:
// what the replay says and what the rules give (replaySays, rulesGive,
// and under their earlier names expected and found), the board as a text
// grid, the diff of a claimed board.
func (d *Divergence) appendJSON(b []byte) []byte {
	w := jsonWriter{b: append(b, '{')}
	w.num("action", uint64(d.Action))
	w.num("move", uint64(d.Move))
	says, gives := d.Says(), d.Gives()
	w.str("replaySays", says)
	w.str("rulesGive", gives)
	w.str("expected", says)
	w.str("found", gives)
	if d.Board != nil {
		w.str("board", d.Board.String())
	}
	w.opt("diff", d.Diff())
	return append(w.b, '}')
}

// MarshalJSON writes the divergence as the verdict's JSON has it.
func (d *Divergence) MarshalJSON() ([]byte, error) { return d.appendJSON(nil), nil }

// jsonWriter appends the members of a JSON object.
type jsonWriter struct {
	b    []byte
	more bool // a member is written: the next needs a comma
}

func (w *jsonWriter) key(k string) {
	if w.more {
		w.b = append(w.b, ',')
	}
	w.more = true
	w.b = append(append(append(w.b, '"'), k...), '"', ':')
}

func (w *jsonWriter) str(k, v string) {
	w.key(k)
	w.b = appendQuoted(w.b, v)
}

// opt writes a string member unless it is empty.
func (w *jsonWriter) opt(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

func (w *jsonWriter) num(k string, v uint64) {
	w.key(k)
	w.b = strconv.AppendUint(w.b, v, 10)
}

// appendList writes a list member unless vs is empty, each value by add.
func appendList[T any](w *jsonWriter, k string, vs []T, add func([]byte, T) []byte) {
	if len(vs) == 0 {
		return
	}
	w.key(k)
	w.b = append(w.b, '[')
	for i, v := range vs {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = add(w.b, v)
	}
	w.b = append(w.b, ']')
}
