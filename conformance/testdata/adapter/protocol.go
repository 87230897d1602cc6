package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/tileproof/tileproof/conformance/internal/lineproto"
)

const (
	adapterName    = "tileproof-reference-adapter"
	adapterVersion = "1.0.0"
	// ownSeed seeds the adapter's own generator, which gives the tp1 key of
	// each game the runner gives no tp1 seed: a loaded state, or a new game
	// without a seed. Each such game gets the next draw, so successive
	// games spawn differently (as Math.random would), while a session
	// replays identically.
	ownSeed = "tileproof-reference-adapter"
)

// allFeatures are the features the adapter declares by default.
func allFeatures() []string {
	fs := []string{"load-state", "force-spawn", "seed-tp1", "undo", "end-run", "keep-playing", "setup"}
	for r := 2; r <= 8; r++ {
		for c := 2; c <= 8; c++ {
			fs = append(fs, sizeFeature(r, c))
		}
	}
	return fs
}

func sizeFeature(rows, cols int) string { return fmt.Sprintf("size:%dx%d", rows, cols) }

// The hooks' ends of the session: the process must exit (errCrash, with
// status 3 and no answer) or stop answering (errHang).
var (
	errCrash = errors.New("crash")
	errHang  = errors.New("hang")
)

// adapter is one session of the protocol.
type adapter struct {
	mutant       string
	profiles     []string // declared
	features     []string // declared
	helloDone    bool
	game         *game
	own          *splitmix // the adapter's own generator; nil until the first game that needs it
	moveRequests int
}

// ownKey returns the tp1 key of a game without a seed.
func (a *adapter) ownKey() uint64 {
	if a.own == nil {
		key, _ := seedKey(ownSeed, "")
		a.own = &splitmix{key}
	}
	return a.own.next()
}

func (a *adapter) declared(feature string) bool { return slices.Contains(a.features, feature) }

// handle answers one request line. The answer has no newline; with the
// error of a hook (errCrash, errHang) there is none to write. A line is
// checked in the order docs/protocol.md ("Error words") gives: a line
// that is not a request is bad-request with the id null, an op that is
// not the protocol's unsupported-op (lineproto.Parse); then an op whose
// feature it did not declare is unsupported-op; then a request before
// hello is no-hello, one that needs a game before any is no-game; then
// anything else wrong with the request's fields is bad-request; and only
// then do the rules answer.
func (a *adapter) handle(line []byte) ([]byte, error) {
	id, op, bad := lineproto.Parse(line)
	if bad != nil {
		return bad, nil
	}
	if op == "move" {
		a.moveRequests++
		if a.moveRequests == 5 {
			switch a.mutant {
			case "crash-on-move":
				return nil, errCrash
			case "hang-on-move":
				return nil, errHang
			}
		}
	}
	if op == "legal" && a.mutant == "garbage-on-legal" {
		return []byte("legal: up, down (this line is not JSON)"), nil
	}
	switch feature, _ := lineproto.OpFeature(op); {
	case feature != "" && !a.declared(feature):
		return lineproto.Refuse(id, "unsupported-op", "this implementation did not declare the feature of the op %q", op), nil
	case op != "hello" && !a.helloDone:
		return lineproto.Refuse(id, "no-hello", "the first request must be hello, not %s", op), nil
	case op != "hello" && op != "new" && op != "load" && a.game == nil:
		return lineproto.Refuse(id, "no-game", "%s before any new or load", op), nil
	}
	req, bad := lineproto.Decode(line, id)
	if bad != nil {
		return bad, nil
	}
	var r *refusal
	switch req.Op {
	case "hello":
		return a.hello(req), nil
	case "new":
		return a.newGame(req), nil
	case "load":
		return a.load(req), nil
	case "move":
		return a.move(req), nil
	case "legal":
		return lineproto.LegalAnswer(req.ID, a.game.legalMoves()), nil
	case "undo":
		r = a.game.undo()
	case "end-run":
		r = a.game.endRun()
	default:
		r = a.game.keepPlaying()
	}
	if r != nil {
		return r.answer(req.ID), nil
	}
	return lineproto.StateAnswer(req.ID, a.state()), nil
}

func (a *adapter) hello(req lineproto.LineRequest) []byte {
	if a.helloDone {
		return lineproto.Refuse(req.ID, "bad-request", "hello comes once, first")
	}
	a.helloDone = true
	version := adapterVersion
	if a.mutant != "" {
		version += "+" + a.mutant
	}
	return lineproto.HelloAnswer(req.ID, adapterName, version, a.profiles, a.features)
}

// profile returns the declared profile a request names, set up as the
// request's setup chooses: online-2048 offers the targets 128, 512, 2048
// and 4096 and open-ended play, pgs its continue mode.
func (a *adapter) profile(req lineproto.LineRequest) (*profile, []byte) {
	p := builtin(req.Profile)
	if p == nil || !slices.Contains(a.profiles, req.Profile) {
		return nil, lineproto.Refuse(req.ID, "bad-request", "profile %q is not one this implementation declared (%v)", req.Profile, a.profiles)
	}
	if req.Setup == nil {
		return p, nil
	}
	if !a.declared("setup") {
		return nil, lineproto.Refuse(req.ID, "bad-request", "a setup was given, but this implementation did not declare setup")
	}
	// A run may choose the profile's own win tile, or one of its targets;
	// open-ended play where the profile offers it, or plays on anyway.
	targets := append([]int64{p.winTile}, map[string][]int64{"online-2048": {128, 512, 4096}}[p.name]...)
	target := req.Setup.Target
	if target == 0 {
		target = p.winTile
	}
	if !slices.Contains(targets, target) {
		return nil, lineproto.Refuse(req.ID, "unsupported", "profile %s offers no setup with target %d", p.name, target)
	}
	if req.Setup.OpenEnded && p.name != "online-2048" && p.name != "pgs" && p.winThen != "continue" {
		return nil, lineproto.Refuse(req.ID, "unsupported", "profile %s has no open-ended play", p.name)
	}
	q := *p
	q.winTile = target
	if req.Setup.OpenEnded {
		q.winThen = "continue"
	}
	return &q, nil
}

func (a *adapter) newGame(req lineproto.LineRequest) []byte {
	p, bad := a.profile(req)
	if bad != nil {
		return bad
	}
	var key uint64
	var err error
	switch {
	case req.Seed == nil:
		key = a.ownKey()
	case !a.declared("seed-tp1"):
		return lineproto.Refuse(req.ID, "bad-request", "a seed was given, but this implementation did not declare seed-tp1")
	default:
		key, err = seedKey(*req.Seed, a.mutant)
	}
	if err != nil {
		return lineproto.Refuse(req.ID, "bad-request", "%v", err)
	}
	a.game = newGame(p, a.mutant, 4, 4, key)
	return lineproto.StateAnswer(req.ID, a.state())
}

func (a *adapter) load(req lineproto.LineRequest) []byte {
	p, bad := a.profile(req)
	if bad != nil {
		return bad
	}
	rows := len(req.Board)
	cols := 0
	if rows > 0 {
		cols = len(req.Board[0])
	}
	switch {
	case rows < 2 || rows > 8 || cols < 2 || cols > 8:
		return lineproto.Refuse(req.ID, "bad-request", "a board is 2 to 8 cells a side, not %dx%d", rows, cols)
	case req.Rows != nil && *req.Rows != rows, req.Cols != nil && *req.Cols != cols:
		return lineproto.Refuse(req.ID, "bad-request", "rows and cols do not match the %dx%d board", rows, cols)
	case (rows != 4 || cols != 4) && !a.declared(sizeFeature(rows, cols)):
		return lineproto.Refuse(req.ID, "bad-request", "this implementation did not declare %s", sizeFeature(rows, cols))
	case req.Score < 0 || req.Score > maxSafe:
		return lineproto.Refuse(req.ID, "bad-request", "score %d is not between 0 and 2^53-1", req.Score)
	case req.Moves < 0 || req.Moves > maxSafe:
		return lineproto.Refuse(req.ID, "bad-request", "move count %d is not between 0 and 2^53-1", req.Moves)
	}
	b := board{rows: rows, cols: cols, cells: make([]int64, 0, rows*cols)}
	for r, row := range req.Board {
		if len(row) != cols {
			return lineproto.Refuse(req.ID, "bad-request", "board row %d has %d cells; row 1 has %d", r+1, len(row), cols)
		}
		for c, v := range row {
			var t int64
			if v != nil {
				t = *v
			}
			if t != 0 && (t < 2 || t > maxTile || t&(t-1) != 0) {
				return lineproto.Refuse(req.ID, "bad-request", "board row %d, column %d: %d is not a tile (a power of two, 2 to 2^52) or 0", r+1, c+1, t)
			}
			b.cells = append(b.cells, t)
		}
	}
	a.game = loadGame(p, a.mutant, b, req.Score, req.Moves, req.Won, req.KeepPlaying, a.ownKey())
	return lineproto.StateAnswer(req.ID, a.state())
}

func (a *adapter) move(req lineproto.LineRequest) []byte {
	i := slices.Index(dirNames[:], req.Direction)
	if i < 0 {
		return lineproto.Refuse(req.ID, "bad-request", "direction %q is not up, down, left or right", req.Direction)
	}
	d := dir(i)
	if a.mutant == "up-down-swapped" && (d == up || d == down) { // MUTANT: the keys of up and down are swapped
		d = up + down - d
	}
	if req.Spawn != nil && !a.declared("force-spawn") {
		return lineproto.Refuse(req.ID, "bad-request", "a spawn was given, but this implementation did not declare force-spawn")
	}
	// A spawn outside what the protocol sends (a row or column from 0 to
	// 7, a tile) is not a request of it; one the protocol allows that the
	// slide does not (off this board, a value never spawned) is the
	// rules' bad-spawn.
	if sp := req.Spawn; sp != nil && (sp.Row < 0 || sp.Row > 7 || sp.Col < 0 || sp.Col > 7 || sp.Value < 2 || sp.Value > maxTile || sp.Value&(sp.Value-1) != 0) {
		return lineproto.Refuse(req.ID, "bad-request", "spawn of %d at row %d, column %d: not a row and a column from 0 to 7 and a tile", sp.Value, sp.Row, sp.Col)
	}
	step, r := a.game.move(d, req.Spawn)
	if r != nil {
		return r.answer(req.ID)
	}
	step.State = a.state()
	return lineproto.MoveAnswer(req.ID, step)
}

func (a *adapter) state() lineproto.AnswerState {
	g := a.game
	return lineproto.AnswerState{Board: g.board.values(), Score: g.score, Moves: g.moves, Won: g.won, Over: g.result != playing, Result: g.result}
}
