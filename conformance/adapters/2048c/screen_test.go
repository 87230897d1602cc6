package main

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tileproof/tileproof/engine"
)

// The parser is tested on the recordings of testdata (real output of
// /usr/games/2048, see record_test.go): read whole, they give the events
// checked in beside them; read in pieces, cut anywhere, the same events;
// and the boards they show are the ones the moves make by the rules
// 2048.c follows.

// TestRecordingsRead reads each recording whole and compares its events
// with the checked-in NAME.events, and its last events with what the
// scenario must end in.
func TestRecordingsRead(t *testing.T) {
	for _, rec := range recordings {
		t.Run(rec.name, func(t *testing.T) {
			data := readRecording(t, rec.name)
			events, err := parseAll(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", rec.name+".events"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), eventText(events)); diff != "" {
				t.Errorf("events (-%s.events +read):\n%s", rec.name, diff)
			}
			tail := map[string][]EventKind{
				"game":        {FrameDrawn, GameOver, Exiting},
				"quit":        {FrameDrawn, QuitPrompt, Exiting},
				"input-error": {FrameDrawn, InputError, Exiting},
			}[rec.name]
			if tail == nil {
				tail = []EventKind{QuitPrompt, FrameDrawn} // the redraw after the last move
			}
			var got []EventKind
			for _, e := range events[len(events)-len(tail):] {
				got = append(got, e.Kind)
			}
			if !slices.Equal(got, tail) {
				t.Errorf("the recording ends in %v, want %v", got, tail)
			}
		})
	}
}

// TestRecordingsInPieces reads each recording one byte at a time and cut
// at random places, and the smallest at every single cut: the same events
// each time.
func TestRecordingsInPieces(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(19, 4))
	for _, rec := range recordings {
		t.Run(rec.name, func(t *testing.T) {
			data := readRecording(t, rec.name)
			want, err := parseAll(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			check := func(how string, cuts []int) {
				t.Helper()
				got, err := parseAll(data, cuts)
				if err != nil {
					t.Fatalf("%s: %v", how, err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s: %d events, want %d:\n%s", how, len(got), len(want), cmp.Diff(eventText(want), eventText(got)))
				}
			}
			every := make([]int, 0, len(data))
			for i := 1; i < len(data); i++ {
				every = append(every, i)
			}
			check("one byte at a time", every)
			for range 50 {
				var cuts []int
				for c := r.IntN(64) + 1; c < len(data); c += r.IntN(4096) + 1 {
					cuts = append(cuts, c)
				}
				check("random pieces", cuts)
			}
			if len(data) > 8000 {
				return
			}
			for i := 1; i < len(data); i++ {
				check("two pieces", []int{i})
			}
		})
	}
}

// TestRecordingsFollowRules checks the boards the parser read against the
// moves of each scenario, move by move, with the engine: the board drawn
// after a move's slide is the engine's slide of the board before, its
// score the score before plus the points, the board drawn after the
// spawn is that one with one empty cell now a 2 or a 4, and a move the
// engine says changes nothing draws nothing. A parser that read rows as
// columns, dropped a digit or took the wrong frame fails here.
func TestRecordingsFollowRules(t *testing.T) {
	for _, rec := range recordings {
		if rec.moves == "" {
			continue
		}
		t.Run(rec.name, func(t *testing.T) {
			events, err := parseAll(readRecording(t, rec.name), nil)
			if err != nil {
				t.Fatal(err)
			}
			// Split the events at each new game and each redraw: what one
			// key drew.
			next := func() Event {
				t.Helper()
				if len(events) == 0 {
					t.Fatal("the recording ends early")
				}
				e := events[0]
				events = events[1:]
				return e
			}
			var cur ScreenBoard
			over, moves := false, 0
			for _, m := range rec.moves {
				switch {
				case m == 'N':
					if rec.name == "restart" && moves > 0 {
						if e := next(); e.Kind != RestartPrompt {
							t.Fatalf("restart: %s", e.Kind)
						}
						next() // initBoard's frame, with the old score
					}
					e := next()
					if e.Kind != FrameDrawn || e.Frame.Score != 0 || countTiles(e.Frame) != 2 {
						t.Fatalf("new game: %s %+v", e.Kind, e.Frame)
					}
					cur, over = e.Frame, false
					continue
				case over:
					continue // no game to take the key
				}
				moves++
				d, _ := engine.ParseDirection(map[rune]string{'U': "up", 'D': "down", 'L': "left", 'R': "right"}[m])
				b := engineBoard(t, cur)
				s, err := b.Slide(d)
				if err != nil {
					t.Fatal(err)
				}
				if !s.Changed {
					if e := next(); e.Kind != QuitPrompt {
						t.Fatalf("move %d (%c) changes nothing, but the game drew %s", moves, m, e.Kind)
					}
					if e := next(); e.Frame != cur {
						t.Fatalf("move %d (%c): the redraw is not the board before", moves, m)
					}
					continue
				}
				slid, spawned := next(), next()
				if slid.Kind != FrameDrawn || spawned.Kind != FrameDrawn {
					t.Fatalf("move %d (%c): %s, %s; want two frames", moves, m, slid.Kind, spawned.Kind)
				}
				if got := engineBoard(t, slid.Frame); got != s.Board || slid.Frame.Score != cur.Score+s.Gained {
					t.Fatalf("move %d (%c) from\n%v\nthe game drew\n%v score %d; the rules give\n%v score %d",
						moves, m, b, got, slid.Frame.Score, s.Board, cur.Score+s.Gained)
				}
				if n := spawnCells(slid.Frame, spawned.Frame); n != 1 || spawned.Frame.Score != slid.Frame.Score {
					t.Fatalf("move %d (%c): %d spawns", moves, m, n)
				}
				cur = spawned.Frame
				switch e := next(); e.Kind {
				case QuitPrompt:
					if e := next(); e.Frame != cur {
						t.Fatalf("move %d (%c): the redraw is not the board after the move", moves, m)
					}
				case GameOver:
					if !engineBoard(t, cur).Blocked() {
						t.Fatalf("move %d: GAME OVER with a move left:\n%v", moves, engineBoard(t, cur))
					}
					if e := next(); e.Kind != Exiting {
						t.Fatalf("after GAME OVER: %s", e.Kind)
					}
					over = true
				default:
					t.Fatalf("move %d (%c): then %s", moves, m, e.Kind)
				}
				if !over && engineBoard(t, cur).Blocked() {
					t.Fatalf("move %d: no move left, but no GAME OVER", moves)
				}
			}
			if len(events) != 0 {
				t.Fatalf("%d events after the last move", len(events))
			}
		})
	}
}

func engineBoard(t *testing.T, f ScreenBoard) engine.Board {
	t.Helper()
	rows := make([][]uint64, boardSize)
	for r := range rows {
		rows[r] = f.Board[r][:]
	}
	b, err := engine.BoardFromValues(rows)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func countTiles(f ScreenBoard) int {
	n := 0
	for _, row := range f.Board {
		for _, v := range row {
			if v != 0 {
				n++
			}
		}
	}
	return n
}

// spawnCells counts the cells empty in slid and a 2 or 4 in spawned; any
// other difference counts as 100.
func spawnCells(slid, spawned ScreenBoard) int {
	n := 0
	for r := range boardSize {
		for c := range boardSize {
			a, b := slid.Board[r][c], spawned.Board[r][c]
			switch {
			case a == b:
			case a == 0 && (b == 2 || b == 4):
				n++
			default:
				n += 100
			}
		}
	}
	return n
}

// TestScreenErrors changes a real recording where the screen would be
// wrong, and checks each change is an error at the byte it is at.
func TestScreenErrors(t *testing.T) {
	data := readRecording(t, "tiny")
	frame := bytes.Index(data, []byte("\x1b[H"))
	cellAt := bytes.Index(data, []byte("   2   "))
	tests := []struct {
		name, old, new string
		at             int // where the old text is found from
		want           string
	}{
		{"number off centre", "   2   ", "  2    ", cellAt, "not 2 centred"},
		{"not a number", "   2   ", "   x   ", cellAt, "is not a number"},
		{"a cell one character short", "   2   ", "   2  ", cellAt, "not 7 characters"},
		{"the score line", "2048.c ", "2049.c ", frame, "not the score line"},
		{"a negative score", "                 0 pts", "               -12 pts", frame, "is not a whole number"},
		{"the footer", "or q", "or x", frame, "not the footer"},
		{"a colour in another form", "\x1b[38;5;255;48;5;8m", "\x1b[1;37;40m", frame, "not a 256-colour"},
		{"a cell's lines in two colours", "\x1b[38;5;255;48;5;8m       \x1b[m\r\n", "\x1b[38;5;255;48;5;9m       \x1b[m\r\n", frame, "is coloured"},
		{"a line too many", "\x1b[A", "\r\n\x1b[A", frame, "a line feed after the footer"},
		{"an unknown escape", "\x1b[A", "\x1b[2A", frame, "ESC [2A after the footer"},
		{"not a control sequence", "\x1b[A", "\x1b]0;title\x07", frame, "not a control sequence"},
		{"a carriage return alone", "\r\n\r\n", "\r \n\r\n", frame, "carriage return not followed"},
		{"a control byte", "2048.c", "2048\x07c", frame, "control byte 0x07"},
		{"a message the game has not", "QUIT? (y/n)", "QUIT? (Y/N)", frame, "none of the game's messages"},
		{"text before the first frame", "\x1b[?25l", "hello\x1b[?25l", 0, "text 'h' before the first frame"},
		{"a frame cut short", "\r\n\r\n        \xe2\x86\x90", "\x1b[H\r\n\r\n        \xe2\x86\x90", frame, "ESC [H in line 13"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i := bytes.Index(data[tc.at:], []byte(tc.old))
			if i < 0 {
				t.Fatalf("%q is not in the recording", tc.old)
			}
			i += tc.at
			bad := slices.Concat(data[:i], []byte(tc.new), data[i+len(tc.old):])
			_, err := parseAll(bad, nil)
			var se *ScreenError
			if !errors.As(err, &se) {
				t.Fatalf("no screen error: %v", err)
			}
			if !strings.Contains(se.Msg, tc.want) {
				t.Errorf("error %q, want it to say %q", se, tc.want)
			}
			if se.Offset < int64(i) || se.Offset > int64(i+len(tc.new)+200) {
				t.Errorf("error at byte %d; the change is at %d", se.Offset, i)
			}
			// Cut anywhere near the change, the same error.
			for c := max(i-3, 1); c < min(i+len(tc.new)+3, len(bad)); c++ {
				if _, err2 := parseAll(bad, []int{c}); err2 == nil || err2.Error() != err.Error() {
					t.Errorf("cut at %d: %v; whole: %v", c, err2, err)
				}
			}
			// The parser stays failed.
			var p Parser
			p.Feed(bad)
			if _, err2 := p.Feed([]byte("x")); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("after the error, Feed gives %v", err2)
			}
		})
	}
}

// TestScreenBounds checks the parser's limits: a line and a control
// sequence cannot grow without end.
func TestScreenBounds(t *testing.T) {
	data := readRecording(t, "tiny")
	frame := bytes.Index(data, []byte("\x1b[H"))
	for _, tc := range []struct {
		name string
		add  []byte
		want string
	}{
		{"a long line", bytes.Repeat([]byte(" "), 2*maxLine), "longer than"},
		{"a long control sequence", append([]byte("\x1b["), bytes.Repeat([]byte("1;"), maxParams)...), "longer than"},
	} {
		bad := slices.Concat(data[:frame+3], tc.add)
		if _, err := parseAll(bad, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// FuzzParser feeds the parser any bytes, whole and cut in two: it never
// panics, and the cut changes nothing, neither the events nor the error.
func FuzzParser(f *testing.F) {
	for _, name := range []string{"tiny", "quit", "input-error", "restart"} {
		data, err := os.ReadFile(filepath.Join("testdata", name+".raw"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint16(len(data)/2))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		whole, errWhole := parseAll(data, nil)
		c := int(cut) % (len(data) + 1)
		split, errSplit := parseAll(data, []int{c})
		if !slices.Equal(whole, split) {
			t.Fatalf("cut at %d: %d events, whole %d", c, len(split), len(whole))
		}
		if (errWhole == nil) != (errSplit == nil) || errWhole != nil && errWhole.Error() != errSplit.Error() {
			t.Fatalf("cut at %d: error %v, whole %v", c, errSplit, errWhole)
		}
	})
}
