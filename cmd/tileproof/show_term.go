package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/term"

	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/termview"
)

// showTerminal shows the frame held at position step of s. On a terminal
// (stdin and stdout both) the keys step through the frames held, redrawn
// in place; otherwise it prints the one step, in colour when stdout alone
// is a terminal.
func (c *cli) showTerminal(s *shown, step int) int {
	in, out, interactive := c.terminals()
	mode := termview.DetectMode(out != nil, os.Getenv)
	opts := termview.Options{Mode: mode, Digits: s.digits}
	if !interactive {
		fmt.Fprintln(c.stdout, strings.Join(showLines(s, step, opts), "\n"))
		return exitOK
	}
	t, err := openRawTerminal(in, out)
	if err != nil {
		return c.fail(exitBadUsage, "show: %v", err)
	}
	defer t.restore()
	help := "right, down, n: next   left, up, p: back   Home, g: start   End, G: last   q: quit"
	if len(s.frames) < s.total {
		help = heldSteps(s) + "\n" + help
	}
	for {
		t.draw(append(showLines(s, step, opts), "", help))
		k, err := t.readKey()
		if err != nil {
			return exitOK // the input ended, or a signal came: leave
		}
		switch termview.ShowCommand(k) {
		case termview.Next:
			step = min(step+1, len(s.frames)-1)
		case termview.Prev:
			step = max(step-1, 0)
		case termview.First:
			step = 0
		case termview.Last:
			step = len(s.frames) - 1
		case termview.Quit:
			return exitOK
		}
	}
}

// showLines returns the lines that show frame step of s: a title, the
// board, the caption and the replay's verdict (at every step: it is the
// verdict of the whole replay, and its divergence is at the last frame).
func showLines(s *shown, step int, opts termview.Options) []string {
	title := fmt.Sprintf("%s   profile %s", safetext.Terminal(s.name), safetext.Terminal(s.replay.Profile))
	if s.replay.Seed != nil {
		title += fmt.Sprintf("   seed %q", *s.replay.Seed)
	} else {
		title += "   spawns recorded"
	}
	f := s.frames[step]
	lines := []string{title, ""}
	lines = append(lines, termview.Indent("    ", termview.Board(f.Board, opts))...)
	lines = append(lines, "")
	lines = append(lines, termview.FrameCaption(f, s.total-1)...)
	return append(lines, termview.VerdictLines(s.verdict)...)
}

// heldSteps says which steps of a game held in part (shown.walkFrames)
// the keys step through: "steps 0 to 262141, 300000 and the last,
// 33554431, held here: tileproof show --step N shows any other".
func heldSteps(s *shown) string {
	fs := s.frames
	i := 1
	for i < len(fs) && fs[i].Step == fs[i-1].Step+1 {
		i++
	}
	held := fmt.Sprintf("steps 0 to %d", fs[i-1].Step)
	for _, f := range fs[i : len(fs)-1] {
		held += fmt.Sprintf(", %d", f.Step)
	}
	return fmt.Sprintf("%s and the last, %d, held here: tileproof show --step N shows any other", held, fs[len(fs)-1].Step)
}

// terminals returns stdin and stdout when they are terminals (nil for one
// that is not), and whether both are.
func (c *cli) terminals() (in, out *os.File, both bool) {
	in, out = terminalFile(c.stdin), terminalFile(c.stdout)
	return in, out, in != nil && out != nil
}

// terminalFile returns s when it is a terminal, else nil.
func terminalFile(s any) *os.File {
	if f, ok := s.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return f
	}
	return nil
}

// rawTerminal is a terminal in raw mode showing a full-screen view. Its
// restore puts everything back; call it on every way out (a deferred call
// covers errors and panics; Ctrl-C arrives as a key in raw mode, and the
// signals that could still come, SIGINT, SIGTERM and SIGHUP, end readKey).
type rawTerminal struct {
	in, out *os.File
	old     *term.State
	keys    chan keyRead
	signals chan os.Signal
	resized chan os.Signal
	last    []string // the lines drawn last, drawn again when the window changes size
	// restore leaves the full-screen view and the raw mode; it may be
	// called more than once.
	restore func()
}

type keyRead struct {
	key termview.Key
	err error
}

// errSignal is readKey's error when a signal ends the view.
var errSignal = errors.New("interrupted by a signal")

func openRawTerminal(in, out *os.File) (*rawTerminal, error) {
	old, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return nil, fmt.Errorf("the terminal's raw mode: %w", err)
	}
	t := &rawTerminal{in: in, out: out, old: old, keys: make(chan keyRead), signals: make(chan os.Signal, 1), resized: make(chan os.Signal, 1)}
	signal.Notify(t.signals, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	if len(resizeSignals) > 0 {
		signal.Notify(t.resized, resizeSignals...)
	}
	t.restore = sync.OnceFunc(func() {
		signal.Stop(t.signals)
		signal.Stop(t.resized)
		io.WriteString(t.out, termview.LeaveScreen)
		term.Restore(int(t.in.Fd()), t.old)
	})
	io.WriteString(out, termview.EnterScreen)
	go func() {
		d := termview.NewDecoder(in)
		for {
			k, err := d.ReadKey()
			t.keys <- keyRead{k, err}
			if err != nil {
				return
			}
		}
	}()
	return t, nil
}

// draw redraws the screen with lines, fitted to the window's size.
func (t *rawTerminal) draw(lines []string) {
	t.last = lines
	if w, h, err := term.GetSize(int(t.out.Fd())); err == nil && w > 0 && h > 0 {
		lines = termview.Fit(lines, w, h)
	}
	io.WriteString(t.out, termview.Redraw(lines))
}

// readKey waits for the next key, the end of the input or a signal; when
// the window changes size meanwhile, it draws the view again.
func (t *rawTerminal) readKey() (termview.Key, error) {
	for {
		select {
		case k := <-t.keys:
			return k.key, k.err
		case <-t.signals:
			return 0, errSignal
		case <-t.resized:
			t.draw(t.last)
		}
	}
}
