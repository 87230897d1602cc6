package main

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The screen parser: it reads the bytes 2048.c writes to its terminal, in
// pieces of any size, and turns them into what a player saw: whole board
// frames (the score and the 16 cells) and the one-line messages under the
// board. It knows the layout of this one program (docs/2048c.md) and
// nothing of the rules; anything on the screen that is not that layout is
// an error naming the byte where it went wrong.
//
// A frame, as 2048.c draws it (drawBoard), after "\x1b[H" (cursor home):
//
//	line 0        "2048.c" then the score, %17d, then " pts"
//	line 1        empty
//	lines 2-13    four rows of three lines: each line four cells, each cell
//	              "\x1b[38;5;F;48;5;Bm", 7 characters, "\x1b[m"; the middle
//	              line of a row holds the numbers, centred, "·" for empty
//	line 14       empty
//	line 15       "        ←,↑,→,↓ or q        "
//
// and then "\x1b[A" (cursor up), so that a message overwrites the footer.
// Lines end in "\n", or "\r\n" where the terminal adds the carriage
// return. Before the first frame the program writes "\x1b[?25l" (hide the
// cursor) and "\x1b[2J" (clear); when it exits, "\x1b[?25h\x1b[m".

const (
	boardSize  = 4
	cellWidth  = 7       // characters a cell is wide
	frameLines = 16      // lines from the score to the footer
	maxLine    = 1 << 10 // bytes a screen line may hold (a board line is about 110)
	maxParams  = 32      // bytes of a control sequence's parameters
	maxNumber  = 9999999 // the largest number a 7-character cell can show
)

// The fixed lines of the screen, as the program prints them.
const (
	headerPrefix = "2048.c "
	headerSuffix = " pts"
	headerDigits = 17 // the score's field width
	footerLine   = "        ←,↑,→,↓ or q        "
	emptyCell    = "   ·   "
	padCell      = "       "
)

// EventKind says what an Event is.
type EventKind uint8

// The events of the screen.
const (
	FrameDrawn    EventKind = iota + 1 // a whole board frame
	QuitPrompt                         // "QUIT? (y/n)", after the key q
	RestartPrompt                      // "RESTART? (y/n)", after the key r
	GameOver                           // "GAME OVER": no move is left; the program exits
	Terminated                         // "TERMINATED": the program got SIGINT
	InputError                         // "Error! Cannot read keyboard input!": getchar failed
	Exiting                            // the cursor shown again and colours reset: the program exits
)

var eventNames = [...]string{
	FrameDrawn: "frame", QuitPrompt: "quit-prompt", RestartPrompt: "restart-prompt",
	GameOver: "game-over", Terminated: "terminated", InputError: "input-error", Exiting: "exiting",
}

// String names the kind as the testdata's event files do.
func (k EventKind) String() string {
	if int(k) < len(eventNames) && eventNames[k] != "" {
		return eventNames[k]
	}
	return fmt.Sprintf("event(%d)", uint8(k))
}

// messages are the message lines, exactly as the program prints them,
// by the kind of their event.
var messages = [...]string{
	QuitPrompt:    "        QUIT? (y/n)         ",
	RestartPrompt: "       RESTART? (y/n)       ",
	GameOver:      "         GAME OVER          ",
	Terminated:    "         TERMINATED         ",
	InputError:    "Error! Cannot read keyboard input!",
}

// ScreenBoard is one board as the screen showed it.
type ScreenBoard struct {
	Score uint64
	Board [boardSize][boardSize]uint64 // [row][col], top left first; 0 for an empty cell
}

// Event is one thing the screen showed.
type Event struct {
	Kind  EventKind
	Frame ScreenBoard // for FrameDrawn
	End   int64       // the offset in the stream of the byte after the event
}

// ScreenError is output that is not the game's screen: Offset is the byte
// of the stream at fault (0 is the first byte the program wrote).
type ScreenError struct {
	Offset int64
	Msg    string
}

func (e *ScreenError) Error() string {
	return fmt.Sprintf("screen byte %d: %s", e.Offset, e.Msg)
}

// phase is where the parser is in the screen's layout.
type phase uint8

const (
	atStart  phase = iota // before the first frame
	inFrame               // in a frame, at line Parser.line
	atFooter              // the footer line ended; the cursor goes up
	below                 // on the footer line again: a frame, a message, or the exit
	exiting               // the cursor shown again; the colour reset ends the output
	done                  // the program's last byte was read
)

// escape is where the parser is in a control sequence.
type escape uint8

const (
	ground escape = iota
	sawESC        // after ESC
	inCSI         // after ESC [
)

// Parser reads the screen. Feed it the output as it arrives; it keeps
// whatever it needs between pieces, so a split anywhere (inside a control
// sequence, a UTF-8 character, a "\r\n") reads the same. After an error
// it answers every Feed with that error. The zero Parser is ready to use.
type Parser struct {
	off     int64  // bytes read
	esc     escape // control sequence state
	params  []byte // the parameters of the control sequence being read
	cr      bool   // the last byte was a carriage return
	phase   phase
	line    int         // in a frame: the line being read, 0 to 15
	buf     []byte      // the text of the line being read, its colour sequences kept
	blanks  int         // empty lines below the board since the last frame
	frame   ScreenBoard // the frame being read
	colours [boardSize]string
	events  []Event
	err     error
}

// Feed reads the next piece of output and returns the events it
// completed, in order.
func (p *Parser) Feed(b []byte) ([]Event, error) {
	if p.err != nil {
		return nil, p.err
	}
	p.events = nil
	for _, c := range b {
		if err := p.byte(c); err != nil {
			p.err = err
			return p.events, err
		}
		p.off++
	}
	return p.events, nil
}

// Offset returns the number of bytes read.
func (p *Parser) Offset() int64 { return p.off }

func (p *Parser) fail(format string, args ...any) error {
	return &ScreenError{Offset: p.off, Msg: fmt.Sprintf(format, args...)}
}

func (p *Parser) byte(c byte) error {
	switch p.esc {
	case sawESC:
		if c != '[' {
			return p.fail("ESC %q: not a control sequence the game writes", c)
		}
		p.esc, p.params = inCSI, p.params[:0]
		return nil
	case inCSI:
		switch {
		case c >= 0x40 && c <= 0x7e:
			p.esc = ground
			return p.control(string(p.params), c)
		case c >= 0x20 && c <= 0x3f:
			if len(p.params) == maxParams {
				return p.fail("a control sequence longer than %d bytes", maxParams)
			}
			p.params = append(p.params, c)
			return nil
		}
		return p.fail("byte 0x%02x inside a control sequence", c)
	}
	if p.cr {
		p.cr = false
		if c != '\n' {
			return p.fail("a carriage return not followed by a line feed")
		}
	}
	switch {
	case c == 0x1b:
		p.esc = sawESC
	case c == '\r':
		p.cr = true
	case c == '\n':
		return p.endLine()
	case c < 0x20 || c == 0x7f:
		return p.fail("control byte 0x%02x", c)
	default:
		return p.text(c)
	}
	return nil
}

func (p *Parser) text(c byte) error {
	if p.phase != inFrame && p.phase != below {
		return p.fail("text %q %s", c, p.where())
	}
	if len(p.buf) == maxLine {
		return p.fail("a screen line longer than %d bytes", maxLine)
	}
	p.buf = append(p.buf, c)
	return nil
}

// where says where the parser is, for errors.
func (p *Parser) where() string {
	if p.phase == inFrame {
		return fmt.Sprintf("in line %d of a frame", p.line)
	}
	return [...]string{atStart: "before the first frame", atFooter: "after the footer, where the cursor goes up",
		below: "below the board", exiting: "in the program's exit sequence", done: "after the program's exit sequence"}[p.phase]
}

// control handles a control sequence ESC [ params final.
func (p *Parser) control(params string, final byte) error {
	switch {
	case final == 'm' && p.phase == inFrame && p.line >= 2 && p.line <= 13:
		if len(p.buf)+len(params)+3 > maxLine {
			return p.fail("a screen line longer than %d bytes", maxLine)
		}
		p.buf = append(append(append(p.buf, "\x1b["...), params...), 'm')
		return nil
	case final == 'm' && params == "" && p.phase == exiting:
		p.phase = done
		p.emit(Event{Kind: Exiting})
		return nil
	case final == 'l' && params == "?25" && p.phase == atStart,
		final == 'J' && params == "2" && p.phase == atStart:
		return nil
	case final == 'H' && params == "" && (p.phase == atStart || p.phase == below && len(p.buf) == 0):
		p.phase, p.line, p.frame, p.blanks = inFrame, 0, ScreenBoard{}, 0
		return nil
	case final == 'A' && params == "" && p.phase == atFooter:
		p.phase = below
		return nil
	case final == 'h' && params == "?25" && p.phase == below && len(p.buf) == 0:
		p.phase = exiting
		return nil
	}
	return p.fail("ESC [%s%c %s", params, final, p.where())
}

func (p *Parser) emit(e Event) {
	e.End = p.off + 1
	p.events = append(p.events, e)
}

// endLine handles a line feed: the line is whole.
func (p *Parser) endLine() error {
	line := p.buf
	p.buf = p.buf[:0]
	switch p.phase {
	case inFrame:
		if err := p.frameLine(line); err != nil {
			return p.fail("line %d of a frame: %v: %s", p.line, err, quote(line))
		}
		p.line++
		if p.line == frameLines {
			p.phase = atFooter
			p.emit(Event{Kind: FrameDrawn, Frame: p.frame})
		}
		return nil
	case below:
		if len(line) == 0 {
			// puts("\nError! ...") starts with an empty line.
			if p.blanks++; p.blanks > 1 {
				return p.fail("a second empty line below the board")
			}
			return nil
		}
		kind := slices.Index(messages[:], string(line))
		if kind < 0 {
			return p.fail("below the board, a line that is none of the game's messages: %s", quote(line))
		}
		p.emit(Event{Kind: EventKind(kind)})
		return nil
	}
	return p.fail("a line feed %s", p.where())
}

// frameLine reads line p.line of a frame into p.frame.
func (p *Parser) frameLine(line []byte) error {
	switch n := p.line; {
	case n == 0:
		return p.header(string(line))
	case n == 1 || n == 14:
		if len(line) != 0 {
			return fmt.Errorf("not empty")
		}
		return nil
	case n == 15:
		if string(line) != footerLine {
			return fmt.Errorf("not the footer %q", footerLine)
		}
		return nil
	default:
		row, part := (n-2)/3, (n-2)%3
		cells, err := boardLine(line)
		if err != nil {
			return err
		}
		for col, c := range cells {
			if part == 0 {
				p.colours[col] = c.colour
			} else if c.colour != p.colours[col] {
				return fmt.Errorf("cell %d is coloured %q, its line above %q", col, c.colour, p.colours[col])
			}
			if part != 1 {
				if c.text != padCell {
					return fmt.Errorf("cell %d is %q, not blank", col, c.text)
				}
				continue
			}
			v, err := cellValue(c.text)
			if err != nil {
				return fmt.Errorf("cell %d: %v", col, err)
			}
			p.frame.Board[row][col] = v
		}
		return nil
	}
}

// header reads the score line: "2048.c" then %17d then " pts".
func (p *Parser) header(s string) error {
	digits, ok := strings.CutPrefix(s, headerPrefix)
	if ok {
		digits, ok = strings.CutSuffix(digits, headerSuffix)
	}
	if !ok || len(digits) != headerDigits {
		return fmt.Errorf("not the score line %q", headerPrefix+"<17 characters>"+headerSuffix)
	}
	digits = strings.TrimLeft(digits, " ")
	v, err := strconv.ParseUint(digits, 10, 32)
	if err != nil || digits == "" || len(digits) > 1 && digits[0] == '0' {
		return fmt.Errorf("the score %q is not a whole number", digits)
	}
	p.frame.Score = v
	return nil
}

// cell is one cell of a board line: its colour sequence's parameters and
// its 7 characters.
type cell struct {
	colour string
	text   string
}

// boardLine splits a board line into its four cells: each a colour
// sequence "\x1b[38;5;F;48;5;Bm", 7 characters and the reset "\x1b[m".
func boardLine(line []byte) ([boardSize]cell, error) {
	var cells [boardSize]cell
	rest := line
	for i := range cells {
		var ok bool
		if rest, ok = bytes.CutPrefix(rest, []byte("\x1b[")); !ok {
			return cells, fmt.Errorf("cell %d does not start with a colour sequence", i)
		}
		end := bytes.IndexByte(rest, 'm')
		if end < 0 {
			return cells, fmt.Errorf("cell %d: a colour sequence without its end", i)
		}
		colour := string(rest[:end])
		if !colourParams(colour) {
			return cells, fmt.Errorf("cell %d: colour sequence ESC [%sm is not a 256-colour foreground and background", i, colour)
		}
		rest = rest[end+1:]
		end = bytes.Index(rest, []byte("\x1b[m"))
		if end < 0 {
			return cells, fmt.Errorf("cell %d does not end with the colour reset", i)
		}
		text := rest[:end]
		if !utf8.Valid(text) || bytes.IndexByte(text, 0x1b) >= 0 || utf8.RuneCount(text) != cellWidth {
			return cells, fmt.Errorf("cell %d is %q, not %d characters", i, text, cellWidth)
		}
		cells[i] = cell{colour, string(text)}
		rest = rest[end+3:]
	}
	if len(rest) != 0 {
		return cells, fmt.Errorf("%q after the fourth cell", rest)
	}
	return cells, nil
}

// colourParams reports whether s is "38;5;F;48;5;B" with F and B colour
// numbers 0 to 255.
func colourParams(s string) bool {
	f := strings.Split(s, ";")
	if len(f) != 6 || f[0] != "38" || f[1] != "5" || f[3] != "48" || f[4] != "5" {
		return false
	}
	for _, n := range []string{f[2], f[5]} {
		v, err := strconv.ParseUint(n, 10, 8)
		if err != nil || strconv.FormatUint(v, 10) != n {
			return false
		}
	}
	return true
}

// cellValue reads the middle line of a cell: "   ·   " for an empty cell,
// or a number centred as the program centres it (the spare columns split,
// the odd one on the left).
func cellValue(text string) (uint64, error) {
	if text == emptyCell {
		return 0, nil
	}
	digits := strings.TrimSpace(text)
	v, err := strconv.ParseUint(digits, 10, 64)
	if err != nil || v == 0 || v > maxNumber || strconv.FormatUint(v, 10) != digits {
		return 0, fmt.Errorf("%q is not a number or the empty cell %q", text, emptyCell)
	}
	if centred(v) != text {
		return 0, fmt.Errorf("%q is not %d centred as the game centres it (%q)", text, v, centred(v))
	}
	return v, nil
}

// centred returns v as the middle line of its cell.
func centred(v uint64) string {
	s := strconv.FormatUint(v, 10)
	t := cellWidth - len(s)
	return strings.Repeat(" ", t-t/2) + s + strings.Repeat(" ", t/2)
}

// quote shows a screen line in an error, shortened.
func quote(line []byte) string {
	if len(line) > 160 {
		return fmt.Sprintf("%q...", line[:160])
	}
	return fmt.Sprintf("%q", line)
}
