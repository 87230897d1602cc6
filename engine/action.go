package engine

import (
	"fmt"
	"slices"
	"unicode/utf8"
)

// Action is one entry of a move log: a move in one of the four directions
// (the first four actions are the [Direction] values), or one of the
// run's other actions.
type Action uint8

// The actions. A move log writes each as one letter: U D L R for the
// moves, Z for undo, E for End run, K for keep playing and B for a break.
const (
	MoveUp             = Action(Up)
	MoveDown           = Action(Down)
	MoveLeft           = Action(Left)
	MoveRight          = Action(Right)
	Undo        Action = 4 // take back the last counted move (profiles with undo)
	EndRun      Action = 5 // end the run early (profiles with End run)
	KeepPlaying Action = 6 // play on after the win (profiles whose win asks)
	Break       Action = 7 // clear the small tiles for a price in points (profiles with a break)
)

const actionLetters = "UDLRZEKB"

var actionNames = []string{"up", "down", "left", "right", "undo", "end-run", "keep-playing", "break"}

// ActionOf returns the action a log letter stands for, in either case.
func ActionOf(letter byte) (Action, bool) {
	if a := logByte[letter]; a != 0 && a != skip {
		return Action(a - 1), true
	}
	return 0, false
}

// Letter returns the action's letter in a move log.
func (a Action) Letter() byte {
	if int(a) < len(actionLetters) {
		return actionLetters[a]
	}
	return '?'
}

// String returns the action's name: up, down, left, right, undo, end-run,
// keep-playing or break.
func (a Action) String() string { return enumName(actionNames, int(a)) }

// Direction returns the direction of a move; ok is false for the other
// actions.
func (a Action) Direction() (d Direction, ok bool) { return Direction(a), a <= MoveRight }

// ActionError is a character of a move log that is not an action.
type ActionError struct {
	Offset int // byte offset in the log
	Char   rune
}

// Error names the character that is not an action and where it is.
func (e *ActionError) Error() string {
	return fmt.Sprintf("character %d: %q is not an action (U D L R, Z undo, E end run, K keep playing, B break)", e.Offset+1, e.Char)
}

// logByte classifies the bytes of a move log: an action plus 1 for its
// letter in either case (actionLetters' order), skip for white space, 0
// for any other byte. (A literal, which the compiler lays out: nothing is
// built when the program starts.)
var logByte = [256]uint8{
	'U': 1, 'u': 1, 'D': 2, 'd': 2, 'L': 3, 'l': 3, 'R': 4, 'r': 4,
	'Z': 5, 'z': 5, 'E': 6, 'e': 6, 'K': 7, 'k': 7, 'B': 8, 'b': 8,
	' ': skip, '\t': skip, '\n': skip, '\r': skip,
}

const skip = 255

// ParseActions reads a move log: action letters, in either case, with
// white space between them ignored. Errors are [*ActionError].
func ParseActions(log string) ([]Action, error) {
	return AppendParsedActions(nil, log)
}

// AppendParsedActions appends the actions of a move log to dst, as
// [ParseActions] reads them, and returns the extended slice; on an error
// it returns dst as it was.
func AppendParsedActions(dst []Action, log string) ([]Action, error) {
	actions := slices.Grow(dst, len(log)) // a byte an action at the most: one allocation at the most
	for i := 0; i < len(log); i++ {
		switch c := logByte[log[i]]; c {
		case skip:
		case 0:
			r, _ := utf8.DecodeRuneInString(log[i:])
			return dst, &ActionError{i, r}
		default:
			actions = append(actions, Action(c-1))
		}
	}
	return actions, nil
}

// FormatActions writes actions as a move log of letters.
func FormatActions(actions []Action) string {
	return string(AppendActions(make([]byte, 0, len(actions)), actions))
}

// AppendActions appends the move log of actions, as [FormatActions]
// writes it, to b and returns the extended buffer.
func AppendActions(b []byte, actions []Action) []byte {
	for _, a := range actions {
		b = append(b, a.Letter())
	}
	return b
}

// Do applies one action: a move, an undo, End run, keep playing or a
// break.
func (g *Game) Do(a Action) (Step, error) {
	switch a {
	case Break:
		return Step{}, g.Break()
	case Undo:
		return Step{}, g.Undo()
	case EndRun:
		return Step{}, g.EndRun()
	case KeepPlaying:
		return Step{}, g.KeepPlaying()
	}
	if d, ok := a.Direction(); ok {
		return g.Move(d)
	}
	return Step{}, fmt.Errorf("invalid action %d", a)
}
