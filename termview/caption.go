package termview

import (
	"fmt"
	"strings"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/replay"
)

// FrameCaption returns the lines that go under a replay's board at frame
// f, of a game whose last step is last: the step, score and counted moves,
// then what led there (the action and the tile that appeared), then how the
// run stands once it is won or over. For example:
//
//	step 3 of 1670   score 12 (+4)   moves 3
//	left, then a 2 appeared in cell 7 (row 1, column 3)
func FrameCaption(f replay.Frame, last int) []string {
	head := fmt.Sprintf("step %d of %d   score %d", f.Step, last, f.Score)
	if f.Gained > 0 {
		head += fmt.Sprintf(" (+%d)", f.Gained)
	}
	head += fmt.Sprintf("   moves %d", f.Moves)
	lines := []string{head, Action(f)}
	var state []string
	if f.Won {
		state = append(state, "won")
	}
	if f.Result != engine.Playing {
		state = append(state, "run over: "+f.Result.String())
	}
	if len(state) > 0 {
		lines = append(lines, strings.Join(state, ", "))
	}
	return lines
}

// Action describes what led to frame f: "the start" for frame 0, else the
// action and, after a counted move, the tile that appeared.
func Action(f replay.Frame) string {
	if f.Step == 0 {
		return "the start"
	}
	var s string
	switch f.Action {
	case engine.Undo:
		s = "undo: the last move taken back"
	case engine.EndRun:
		s = "end run"
	case engine.KeepPlaying:
		s = "keep playing after the win"
	default:
		s = f.Action.String()
	}
	if sp := f.Spawn; sp != nil {
		s += fmt.Sprintf(", then a %d appeared in cell %d (row %d, column %d)", sp.Value, sp.Row*f.Board.Cols()+sp.Col, sp.Row, sp.Col)
	}
	return s
}

// VerdictLines returns a verdict for a person, as the last frame of a
// replay shows it: "VALID" and what was proved, or "INVALID", the
// verdict's headline (its first line, and " ..." when more follow), what
// the replay says and what the rules give at the first divergence, and
// the other figures that differ ([replay.Verdict.Explain]):
//
//	INVALID: illegal-move at action 704 (after 703 counted moves)
//	the replay says: action 704 (left), a move that changes the board
//	the rules give:  moving left does not change the board, ...
func VerdictLines(v replay.Verdict) []string {
	if v.Valid {
		lines := []string{"VALID"}
		if v.Proved() != "" {
			lines = append(lines, v.Proved())
		}
		return lines
	}
	e := v.Explain()
	headline, _, more := strings.Cut(e.Headline, "\n")
	if more {
		headline += " ..."
	}
	lines := []string{"INVALID: " + headline}
	if e.Says != "" || e.Gives != "" {
		lines = append(lines, "the replay says: "+e.Says, "the rules give:  "+e.Gives)
	}
	for _, a := range e.Also {
		lines = append(lines, "also "+a)
	}
	for i, l := range lines {
		lines[i] = safetext.Terminal(l) // a message may quote the replay: shown, never acted on
	}
	return lines
}
