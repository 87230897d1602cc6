package hallabois

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// Import is a recording as a tileproof replay ([Convert]).
type Import struct {
	Replay *replay.Replay
	// Profile is the profile the replay names: built in for 3x3 and 4x4
	// boards (Builtin), otherwise made for the board ([ProfileFor]), which
	// tileproof verify must then be given as a file.
	Profile *engine.Profile
	Builtin bool
	// Result is the plain validator's verdict by the peer's rules; the
	// replay's claim is its figures (for an invalid second-format game,
	// those where it stopped).
	Result Validation
	// Notes say what the replay leaves out of the recording: the last
	// move of a first-format game, end markers that change nothing.
	Notes []Note
	// LastMoveScore is what the last move of a first-format game, left
	// out, scores: the peer's score holds it, the replay's does not.
	LastMoveScore uint64
}

// Note is something an import left out or changed, at a 1-based entry
// (first format) or move (second format).
type Note struct {
	At  int
	Msg string
}

// ConvertError is a recording that cannot become a tileproof replay: the
// peer's own validator finds the first-format recording inconsistent (a
// recorded board that its entry's move and spawn do not give, a spawn
// above 4, ...), or it holds something a tileproof replay cannot say (a
// move with no tile after it, an end marker that spawns a tile, a spawn on
// a full cell, ...). At is the 1-based entry or move; Kind is the plain
// validator's problem or finding kind (docs/peers.md).
type ConvertError struct {
	File   string
	Format Format
	At     int
	Kind   string
	Msg    string
}

// Error says where: "FILE: entry N: KIND: what" ("move N" in the second
// format).
func (e *ConvertError) Error() string {
	unit := "entry"
	if e.Format == FormatV2 {
		unit = "move"
	}
	if e.At == 0 {
		return fmt.Sprintf("%s: %s: %s", e.File, e.Kind, e.Msg)
	}
	return fmt.Sprintf("%s: %s %d: %s: %s", e.File, unit, e.At, e.Kind, e.Msg)
}

// ProfileFor returns the tileproof profile of the peer's rules for a
// recording format and a board of w columns and h rows: the built-in
// hallabois-3x3, hallabois-4x4 (second format) and hallabois-v1-3x3,
// hallabois-v1-4x4 (first format), with builtin true; for another board
// the same rules made for it, named hallabois-WxH or hallabois-v1-WxH
// (columns by rows, as the recording gives its size), the second
// format's break priced by the board as the peer prices it.
func ProfileFor(f Format, w, h int) (p *engine.Profile, builtin bool, err error) {
	prefix, rules := "hallabois-", &ClassicV2
	if f == FormatV1 {
		prefix, rules = "hallabois-v1-", &ClassicV1
	}
	if w < MinSide || w > MaxSide || h < MinSide || h > MaxSide {
		return nil, false, fmt.Errorf("a %dx%d board is outside %dx%d to %dx%d", w, h, MinSide, MinSide, MaxSide, MaxSide)
	}
	name := fmt.Sprintf("%s%dx%d", prefix, w, h)
	if p, err := engine.BuiltinProfile(name); err == nil {
		return p, true, nil
	}
	base, err := engine.BuiltinProfile(prefix + "4x4")
	if err != nil {
		return nil, false, err
	}
	p = base.Clone()
	p.Name, p.Rows, p.Cols = name, h, w
	p.Break.Price = rules.Cost(w, h)
	p.Title = fmt.Sprintf("The hallabois game, %d columns by %d rows (%s)", w, h, rules.Name)
	p.Description = fmt.Sprintf("The rules of %s (tileproof profiles %s) on a board of %d columns and %d rows, where a break costs %d points.\n",
		base.Name, base.Name, w, h, p.Break.Price)
	if err := p.Validate(); err != nil {
		return nil, false, err
	}
	return p, false, nil
}

// Convert turns a recording into a tileproof replay, checking it by the
// peer's rules first ([Recording.Validate]).
//
// A second-format recording becomes a seeded replay: its board's profile,
// rng hallabois-lcg, the seed, and the moves as U R D L, a break as B. An
// end marker that changes nothing (on a full board) is left out, with a
// note; one that spawns a tile, as the peer's validator has it do, is a
// [*ConvertError]. A game the peer's rules find invalid is converted all
// the same: tileproof verify then says where it fails.
//
// A first-format recording becomes a spawn-recorded replay: the first
// entry's board is the start, each entry's move is followed by its tile,
// and a break (which the next entry's smaller board implies) is a B after
// the entry it follows. The last entry's move has no tile after it and
// nothing checks the board it gives, so it is left out, with a note (the
// replay's score is then what it scored less). A recording the peer's
// validator finds inconsistent, or that holds what a tileproof replay
// cannot say (docs/peers.md, "What the peer leaves unchecked"), is a
// [*ConvertError] at its first such entry; only a break on a board with
// no move left, which the first format's profiles allow, passes.
//
// The claim is the plain validator's figures: the score after the
// breaks, the largest tile, the counted moves, the final board, won and
// over.
func Convert(file string, rec *Recording) (*Import, error) {
	if rec.V2 != nil {
		return convertV2(file, rec.V2)
	}
	return convertV1(file, rec.V1)
}

// actionOf maps the peer's directions to tileproof's actions.
var actionOf = [...]engine.Action{Up: engine.MoveUp, Right: engine.MoveRight, Down: engine.MoveDown, Left: engine.MoveLeft, Break: engine.Break}

func convertV2(file string, rec *V2) (*Import, error) {
	fail := func(at int, kind, format string, args ...any) (*Import, error) {
		return nil, &ConvertError{File: file, Format: FormatV2, At: at, Kind: kind, Msg: strings.TrimRight(fmt.Sprintf(format, args...), "\n")}
	}
	p, builtin, err := ProfileFor(FormatV2, rec.W, rec.H)
	if err != nil {
		return fail(0, "malformed", "%v", err)
	}
	res := ValidateV2(rec)
	for _, f := range res.Findings {
		if f.Kind == "end-spawn" {
			return fail(f.At, f.Kind, "%s; a tileproof replay has no action that spawns a tile without a move", f.Msg)
		}
	}
	seed := fmt.Sprint(rec.Seed)
	imp := &Import{Profile: p, Builtin: builtin, Result: res}
	r := &replay.Replay{Profile: p.Name, Rules: p.Version, RNG: Generator().String(), Seed: &seed,
		Source: fmt.Sprintf("%s, a hallabois second-format recording, imported by tileproof import hallabois", file)}
	// End markers after the last move are what the format's packing
	// leaves (it keeps base-6 digits by the length alone).
	n := len(rec.Moves)
	for n > 0 && rec.Moves[n-1] == End {
		n--
	}
	moves, trailing := rec.Moves[:n], len(rec.Moves)-n
	r.Actions = make([]engine.Action, 0, len(moves))
	for i, d := range moves {
		if d == End {
			imp.Notes = append(imp.Notes, Note{i + 1, "an end marker (digit 0) that changes nothing is left out; the actions after it are numbered one less"})
			continue
		}
		r.Actions = append(r.Actions, actionOf[d])
	}
	if trailing > 0 {
		markers := "1 end marker (digit 0)"
		if trailing != 1 {
			markers = fmt.Sprintf("%d end markers (digit 0)", trailing)
		}
		imp.Notes = append(imp.Notes, Note{len(moves) + 1, markers + " after the last move left out"})
	}
	if r.Claim, err = claimOf(res); err != nil {
		return fail(0, "overflow", "%v", err)
	}
	imp.Replay = r
	return imp, nil
}

// v1Allowed are the plain validator's first-format findings a replay can
// say: a break on a board with no move left (the first format's profiles
// allow it) and the last move (left out).
var v1Allowed = []string{"break-over", "last-move"}

// v1Why says, for each other finding, why a tileproof replay cannot say
// it.
func v1Why(kind string) string {
	switch kind {
	case "start-tiles":
		return "a tileproof game starts with two tiles of 2 or 4 (bad-start)"
	case "spawn-occupied":
		return "a tileproof spawn goes on a cell the move left empty (bad-spawn)"
	case "unchanged":
		return "a tileproof replay records only moves that change the board (illegal-move)"
	case "spawn-unchanged":
		return "a tileproof replay records only moves that change the board, and a tile only after one"
	case "spawn-value":
		return "the hallabois profiles spawn 2 and 4 (bad-spawn)"
	case "no-spawn":
		return "a tileproof move is followed by the tile that appeared"
	case "end":
		return "a tileproof replay has no end marker before its last move"
	case "break-board", "break-empty":
		return "the recording says a board that is not what the break leaves"
	case "break-move":
		return "the hallabois validator plays this direction as a move left, tileproof's B is a break"
	}
	return ""
}

func convertV1(file string, rec *V1) (*Import, error) {
	fail := func(at int, kind, format string, args ...any) (*Import, error) {
		return nil, &ConvertError{File: file, Format: FormatV1, At: at, Kind: kind, Msg: strings.TrimRight(fmt.Sprintf(format, args...), "\n")}
	}
	res := ValidateV1(rec)
	if pr := res.Problem; pr != nil {
		return fail(pr.At, pr.Kind, "the recording is inconsistent by the hallabois validator's own rules: %s", pr.Msg)
	}
	n := len(rec.Entries)
	for _, f := range res.Findings {
		if f.At == n && f.Kind == "unchanged" {
			continue // the last move is left out whatever it does
		}
		if !slices.Contains(v1Allowed, f.Kind) {
			return fail(f.At, f.Kind, "%s: the hallabois validator lets it pass, but %s", f.Msg, v1Why(f.Kind))
		}
	}
	p, builtin, err := ProfileFor(FormatV1, rec.W, rec.H)
	if err != nil {
		return fail(0, "malformed", "%v", err)
	}
	start, err := engineBoard(rec.Entries[0].Board)
	if err != nil {
		return fail(1, "overflow", "%v", err)
	}
	imp := &Import{Profile: p, Builtin: builtin, Result: res}
	r := &replay.Replay{Profile: p.Name, Rules: p.Version, Start: &start,
		Source: fmt.Sprintf("%s, a hallabois first-format recording, imported by tileproof import hallabois", file)}
	r.Actions = make([]engine.Action, 0, n+len(res.BreakAt))
	r.Spawns = make([]engine.Spawn, 0, n+len(res.BreakAt))
	for i, e := range rec.Entries[:n-1] {
		// Every entry but the last has a move that changed the board and a
		// tile after it: the findings above say so.
		sp := e.Spawn
		r.Actions = append(r.Actions, actionOf[e.Dir])
		r.Spawns = append(r.Spawns, engine.Spawn{Row: sp.Y, Col: sp.X, Value: sp.Value})
		if slices.Contains(res.BreakAt, i+1) {
			r.Actions, r.Spawns = append(r.Actions, engine.Break), append(r.Spawns, engine.Spawn{})
		}
	}
	if r.Claim, err = claimOf(res); err != nil {
		return fail(0, "overflow", "%v", err)
	}
	if last := rec.Entries[n-1]; last.Dir.IsMove() {
		_, gain, changed, err := playV1(last.Board, last.Dir) // as the peer's validator plays it
		if err == nil && changed {
			r.Claim.Score -= gain
			r.Claim.Moves--
			imp.LastMoveScore = gain
			imp.Notes = append(imp.Notes, Note{n, fmt.Sprintf("the last entry's move (%s) is left out: no tile is recorded after it, and nothing checks the board it gives; the hallabois validator scores it, %d points, which the replay's score does not hold", last.Dir, gain)})
		} else {
			imp.Notes = append(imp.Notes, Note{n, fmt.Sprintf("the last entry's move (%s), which changes nothing, is left out", last.Dir)})
		}
	}
	imp.Replay = r
	return imp, nil
}

// claimOf is the claim of the plain validator's figures: the score after
// the breaks, the largest tile, the counted moves, the final board, won
// and over.
func claimOf(res Validation) (replay.Claim, error) {
	b, err := engineBoard(res.Board)
	if err != nil {
		return replay.Claim{}, err
	}
	won, over := res.Won, res.Over
	return replay.Claim{Score: res.ScoreEnd, MaxTile: b.MaxTile(), Moves: res.Moves, Board: &b, Won: &won, Over: &over}, nil
}

// engineBoard is a board as the engine holds it: at most 2^52 a tile.
func engineBoard(b Grid) (engine.Board, error) {
	rows := make([][]uint64, b.H)
	for y := range rows {
		rows[y] = b.Cells[y*b.W : (y+1)*b.W]
	}
	eb, err := engine.BoardFromValues(rows)
	if err != nil {
		return engine.Board{}, fmt.Errorf("a board tileproof cannot hold: %v", err)
	}
	return eb, nil
}
