package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
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
	help := "right, down, n: next   left, up, p: back   Home, g: start   End, G: last   q: quit"
	if len(s.frames) < s.total {
		help = heldSteps(s) + "\n" + help
	}
	_, err := onTerminal(in, out, func() []string { return append(showLines(s, step, opts), "", help) }, func(k termview.Key) bool {
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
			return false
		}
		return true
	})
	if err != nil {
		return c.fail(exitBadUsage, "show: %v", err)
	}
	return exitOK // q, the end of the input, or a signal
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

// onTerminal runs a full-screen view on the terminal in and out, in raw
// mode: it draws screen(), fitted to the window's size, and hands the
// next key to key, again and again, until key returns false, the input
// ends or a signal comes (Ctrl-C arrives as a key in raw mode; SIGINT,
// SIGTERM and SIGHUP can still come), which it reports. The terminal is
// put back on every way out, an error or a panic too; when the window
// changes size, the view is drawn again.
func onTerminal(in, out *os.File, screen func() []string, key func(termview.Key) bool) (signalled bool, err error) {
	old, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return false, fmt.Errorf("the terminal's raw mode: %w", err)
	}
	signals, resized := make(chan os.Signal, 1), make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	if len(resizeSignals) > 0 {
		signal.Notify(resized, resizeSignals...)
	}
	defer func() {
		signal.Stop(signals)
		signal.Stop(resized)
		io.WriteString(out, termview.LeaveScreen)
		term.Restore(int(in.Fd()), old)
	}()
	io.WriteString(out, termview.EnterScreen)
	keys := make(chan termview.Key)
	go func() {
		d := termview.NewDecoder(in)
		for k, err := d.ReadKey(); err == nil; k, err = d.ReadKey() {
			keys <- k
		}
		close(keys)
	}()
	for lines := screen(); ; {
		fitted := lines
		if w, h, err := term.GetSize(int(out.Fd())); err == nil && w > 0 && h > 0 {
			fitted = termview.Fit(lines, w, h)
		}
		io.WriteString(out, termview.Redraw(fitted))
		select {
		case k, ok := <-keys:
			if !ok || !key(k) {
				return false, nil
			}
			lines = screen()
		case <-signals:
			return true, nil
		case <-resized:
		}
	}
}
