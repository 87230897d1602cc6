package main

import (
	"errors"
	"fmt"

	"github.com/tileproof/tileproof/conformance/internal/lineproto"
)

const (
	implName = "2048.c (Debian package 2048)"
	// profileName is the name in the profile file 2048c.yaml; a new game
	// may name the profile by it or by what hello declared.
	profileName = "2048c"
	// sizeFeature is the one board the game has (#define SIZE 4).
	sizeFeature = "size:4x4"
)

// adapter is one session of the protocol, driving one game at a time.
type adapter struct {
	cfg       gameConfig
	restart   bool   // start new games with the game's r key, not a new process
	runs      int64  // the runs of the program started: with -clock, the next run's second is cfg.second plus runs
	declared  string // the profile hello declares
	version   string // the program's version, for hello
	helloDone bool
	g         *game                 // the running program; nil when none runs
	started   bool                  // a game was started
	lost      string                // why the game was given up, after a failure
	st        lineproto.AnswerState // the game as its screen last showed it (shown)
}

// handle answers one request line; the answer has no newline. The line
// is checked in the order of docs/protocol.md ("Error words"): what
// lineproto.Parse checks, an op the game cannot do, hello, a game, the
// fields.
func (a *adapter) handle(line []byte) []byte {
	id, op, bad := lineproto.Parse(line)
	if bad != nil {
		return bad
	}
	// What the game cannot do, by op: all but hello, new and move.
	cannot := map[string]string{
		"load": "load a state", "legal": "list the legal moves", "undo": "undo a move",
		"end-run": "end a run", "keep-playing": "keep playing after a win (it never stops at one)",
	}[op]
	if cannot != "" {
		return lineproto.Refuse(id, "unsupported-op", "2048.c cannot %s: it can only start a game and take the four moves", cannot)
	}
	if op != "hello" && !a.helloDone {
		return lineproto.Refuse(id, "no-hello", "the first request must be hello, not %q", op)
	}
	if op == "move" && !a.started && a.lost == "" {
		return lineproto.Refuse(id, "no-game", "move before any new")
	}
	req, bad := lineproto.Decode(line, id)
	switch {
	case bad != nil:
		return bad
	case op == "new":
		return a.newGame(req)
	case op == "move":
		return a.move(req)
	case a.helloDone:
		return lineproto.Refuse(id, "bad-request", "hello comes once, first")
	}
	a.helloDone = true
	return lineproto.HelloAnswer(id, implName, a.version, []string{a.declared}, []string{sizeFeature})
}

func (a *adapter) newGame(req lineproto.LineRequest) []byte {
	switch {
	case req.Profile != a.declared && req.Profile != profileName:
		return lineproto.Refuse(req.ID, "bad-request", "profile %q is not the one this implementation declared (%s)", req.Profile, a.declared)
	case req.Seed != nil:
		return lineproto.Refuse(req.ID, "bad-request", "a seed was given, but 2048.c seeds itself from the clock (no seed-tp1)")
	case req.Setup != nil:
		return lineproto.Refuse(req.ID, "bad-request", "2048.c offers no choice of target or open-ended play (no setup)")
	}
	f, err := a.start()
	if err != nil {
		a.giveUp(err)
		return refusal(req.ID, err)
	}
	a.started, a.lost, a.st = true, "", shown(f, 0, false)
	return lineproto.StateAnswer(req.ID, a.st)
}

// start starts a game: a new run of the program, or with restart the
// game's own restart (r, then y) where the program runs.
func (a *adapter) start() (ScreenBoard, error) {
	if a.restart && a.g != nil && !a.st.Over {
		return a.restartGame()
	}
	a.stop()
	cfg := a.cfg
	cfg.second += a.runs
	a.runs++
	var f ScreenBoard
	var err error
	a.g, f, err = startGame(cfg) // a.g nil when it fails
	return f, err
}

// restartGame presses r and y: the game asks "RESTART? (y/n)", draws the
// new board (initBoard, still with the old score), then draws it again
// with the score reset.
func (a *adapter) restartGame() (ScreenBoard, error) {
	if err := a.g.press(restartKeys); err != nil {
		return ScreenBoard{}, err
	}
	var frames []ScreenBoard
	for prompted := false; len(frames) < 2; {
		e, err := a.g.next()
		switch {
		case err != nil:
			return ScreenBoard{}, err
		case e.Kind == RestartPrompt && !prompted:
			prompted = true
		case e.Kind == FrameDrawn && prompted:
			frames = append(frames, e.Frame)
		default:
			return ScreenBoard{}, &failure{unreadable, fmt.Sprintf("after r and y the game showed %s (screen byte %d); a restart shows its prompt and two boards", e.Kind, e.End)}
		}
	}
	return frames[1], nil
}

func (a *adapter) move(req lineproto.LineRequest) []byte {
	keys, ok := arrowKeys(req.Direction)
	switch {
	case !ok:
		return lineproto.Refuse(req.ID, "bad-request", "direction %q is not up, down, left or right", req.Direction)
	case req.Spawn != nil:
		return lineproto.Refuse(req.ID, "bad-request", "2048.c places its own tiles (no force-spawn)")
	case a.lost != "":
		return lineproto.Refuse(req.ID, implError, "%s: the game was given up after an earlier failure (%s); new starts another", gameExited, a.lost)
	case a.st.Over:
		// The program exited after GAME OVER: a key changes nothing.
		return lineproto.MoveAnswer(req.ID, lineproto.MoveReply{State: a.st})
	}
	m, err := a.play(keys)
	if err != nil {
		a.giveUp(err)
		return refusal(req.ID, err)
	}
	return lineproto.MoveAnswer(req.ID, m)
}

// play presses a move and the redraw keys and reads what the game drew: a
// move that changes the board draws it after the slide, then after the
// spawn (with a pause between); the redraw follows, or, when no move is
// left, GAME OVER and the program's exit. A move that changes nothing
// draws nothing before the redraw.
func (a *adapter) play(keys string) (lineproto.MoveReply, error) {
	if err := a.g.press(keys + syncKeys); err != nil {
		return lineproto.MoveReply{}, err
	}
	var frames []ScreenBoard
	e, err := a.g.next()
	for ; err == nil && e.Kind == FrameDrawn; e, err = a.g.next() {
		frames = append(frames, e.Frame)
	}
	var final ScreenBoard
	over := false
	switch {
	case err != nil:
		return lineproto.MoveReply{}, err
	case e.Kind == QuitPrompt:
		if e, err = a.g.next(); err != nil {
			return lineproto.MoveReply{}, err
		}
		if e.Kind != FrameDrawn {
			return lineproto.MoveReply{}, &failure{unreadable, fmt.Sprintf("after QUIT? (y/n) and n the game showed %s, not the board (screen byte %d)", e.Kind, e.End)}
		}
		final = e.Frame
	case e.Kind == GameOver:
		if len(frames) == 0 {
			return lineproto.MoveReply{}, &failure{unreadable, fmt.Sprintf("GAME OVER after a move that drew nothing (screen byte %d)", e.End)}
		}
		if err := a.g.ends(); err != nil {
			return lineproto.MoveReply{}, err
		}
		final, over = frames[len(frames)-1], true
	default:
		return lineproto.MoveReply{}, &failure{unreadable, fmt.Sprintf("the game showed %s after a move (screen byte %d)", e.Kind, e.End)}
	}
	switch len(frames) {
	case 0:
		// Nothing drawn: the game did not take the move.
		a.st = shown(final, a.st.Moves, false)
		return lineproto.MoveReply{State: a.st}, nil
	case 2:
	default:
		return lineproto.MoveReply{}, &failure{unreadable, fmt.Sprintf("the move drew %d boards; a move draws two (after the slide, after the spawn) or none", len(frames))}
	}
	slid, spawned := frames[0], frames[1]
	if final != spawned {
		return lineproto.MoveReply{}, &failure{unreadable, "the board drawn again after the move is not the one drawn after its spawn"}
	}
	var sp *lineproto.PlacedTile
	for r := range boardSize {
		for c := range boardSize {
			if spawned.Board[r][c] == slid.Board[r][c] {
				continue
			}
			if sp != nil {
				return lineproto.MoveReply{}, &failure{unreadable, fmt.Sprintf("cells (%d, %d) and (%d, %d) both changed between the board after the slide and the board after the spawn", sp.Row, sp.Col, r, c)}
			}
			sp = &lineproto.PlacedTile{Row: r, Col: c, Value: int64(spawned.Board[r][c])}
		}
	}
	var gained int64
	if int64(slid.Score) > a.st.Score {
		gained = int64(slid.Score) - a.st.Score
	}
	a.st = shown(final, a.st.Moves+1, over)
	return lineproto.MoveReply{Changed: true, Gained: gained, Spawn: sp, State: a.st}, nil
}

// shown is the game's state as the protocol gives it: the board and score
// as the screen showed them, the moves the adapter saw the game make, and
// whether it said GAME OVER. 2048.c has no win: won is always false; its
// only end is GAME OVER, no move left.
func shown(f ScreenBoard, moves int64, over bool) lineproto.AnswerState {
	st := lineproto.AnswerState{Board: make([][]int64, boardSize), Score: int64(f.Score), Moves: moves, Over: over, Result: "playing"}
	for r, row := range f.Board {
		for _, v := range row {
			st.Board[r] = append(st.Board[r], int64(v))
		}
	}
	if over {
		st.Result = "no-moves"
	}
	return st
}

// giveUp ends a game the adapter lost track of.
func (a *adapter) giveUp(err error) {
	a.stop()
	a.lost = err.Error()
}

// stop ends the program, if one runs.
func (a *adapter) stop() {
	if a.g != nil {
		a.g.close()
		a.g = nil
	}
}

// implError is the protocol's word for an implementation that failed:
// the adapter's own failure words (the game exited, its screen could not
// be read) begin its message.
const implError = "impl-error"

// refusal answers a failure of the game: impl-error, the failure's word
// and what happened in the message.
func refusal(id int64, err error) []byte {
	var f *failure
	if errors.As(err, &f) {
		return lineproto.Refuse(id, implError, "%s: %s", f.word, f.msg)
	}
	return lineproto.Refuse(id, implError, "%s: %v", cannotStart, err)
}
