package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// The game process: 2048.c run under a pseudo-terminal of its own, its
// keys written to the terminal, its screen read back through the Parser.

// The keys the adapter presses: the arrow keys, as a terminal sends them
// (the game reads ESC and "[" as keys that do nothing and the letter as
// the move), and q then n, which make the game ask "QUIT? (y/n)" and,
// answered no, draw the board again: a redraw after every move, so that
// a move that changes nothing (and draws nothing) is known without
// waiting for a timeout.

// arrowKeys returns a direction's arrow key: ESC [ then A, B, C or D.
func arrowKeys(direction string) (keys string, ok bool) {
	i := slices.Index([]string{"up", "down", "right", "left"}, direction)
	return "\x1b[" + string(rune('A'+i)), i >= 0
}

const (
	syncKeys    = "qn"
	restartKeys = "ry"
)

// failure is a step the adapter could not get a proper answer for; word
// is the protocol's error word.
type failure struct {
	word string
	msg  string
}

func (f *failure) Error() string { return f.word + ": " + f.msg }

// The failure words.
const (
	unreadable  = "unreadable-screen" // the output is not the game's screen, or not the frames a key draws
	noAnswer    = "game-timeout"      // the screen did not come within the timeout
	gameExited  = "game-exited"       // the program ended where it should not have
	cannotStart = "game-failed"       // the program could not be started
)

// gameConfig says how to run the program.
type gameConfig struct {
	binary  string        // the program, /usr/games/2048
	args    []string      // its arguments: the colour scheme
	nosleep *os.File      // the -fast shim to preload, or nil
	clock   *os.File      // the -clock shim to preload, or nil
	second  int64         // with clock: the second the game's clock shows
	timeout time.Duration // for each screen read
	trace   io.Writer     // gets every byte the program writes, or nil
}

// game is one run of the program.
type game struct {
	cfg    gameConfig
	cmd    *exec.Cmd
	ptmx   *os.File      // the terminal's controlling side, polled by the runtime
	tty    *os.File      // the program's side, held open by the adapter too
	chunks chan []byte   // the program's output; closed once it has exited and all is read
	quit   chan struct{} // closed by close, to end the reader
	waited chan struct{} // closed when the program has been waited for
	parser Parser
	queue  []Event // events read but not yet taken
	bad    error   // the parser's error, once the events before it are taken
	eof    bool    // the program has exited and its output is all read
}

// startGame runs the program and reads its first frame.
func startGame(cfg gameConfig) (*game, ScreenBoard, error) {
	g, err := launch(cfg)
	if err != nil {
		return nil, ScreenBoard{}, err
	}
	e, err := g.next()
	if err == nil && e.Kind != FrameDrawn {
		err = &failure{unreadable, fmt.Sprintf("the game started with %s, not a board", e.Kind)}
	}
	if err != nil {
		g.close()
		return nil, ScreenBoard{}, err
	}
	return g, e.Frame, nil
}

// launch runs the program under a new pseudo-terminal.
func launch(cfg gameConfig) (*game, error) {
	ptmx, tty, err := openTerminal()
	if err != nil {
		return nil, &failure{cannotStart, fmt.Sprintf("no pseudo-terminal: %v", err)}
	}
	if err := prepareTerminal(ptmx, tty); err != nil {
		ptmx.Close()
		tty.Close()
		return nil, &failure{cannotStart, err.Error()}
	}
	cmd := exec.Command(cfg.binary, cfg.args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	// The shims are the game's fds 3 and on; the loader opens them by
	// those names.
	var preload []string
	for _, f := range []*os.File{cfg.nosleep, cfg.clock} {
		if f != nil {
			preload = append(preload, fmt.Sprintf("/proc/self/fd/%d", 3+len(cmd.ExtraFiles)))
			cmd.ExtraFiles = append(cmd.ExtraFiles, f)
		}
	}
	if preload != nil {
		cmd.Env = append(cmd.Env, "LD_PRELOAD="+strings.Join(preload, " "))
	}
	if cfg.clock != nil {
		cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", clockVar, cfg.second))
	}
	// A session of its own with the terminal as its controlling terminal,
	// as a login shell would start it: when the adapter dies, the kernel
	// hangs the terminal up and the game gets SIGHUP.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		ptmx.Close()
		tty.Close()
		return nil, &failure{cannotStart, fmt.Sprintf("cannot run %s: %v", cfg.binary, err)}
	}
	g := &game{cfg: cfg, cmd: cmd, ptmx: ptmx, tty: tty, chunks: make(chan []byte, 64), quit: make(chan struct{}), waited: make(chan struct{})}
	go g.read()
	go func() {
		cmd.Wait()
		// Waited for before the output can end: whoever sees the output
		// end sees the program waited for too.
		close(g.waited)
		// All the program wrote is in the terminal now: the deadline
		// tells read to take what is left and stop.
		ptmx.SetReadDeadline(time.Now())
	}()
	return g, nil
}

// openTerminal opens a pseudo-terminal. creack/pty hands over the
// controlling side in blocking mode, where a read can be given no
// deadline; a non-blocking copy of it is one the runtime polls.
func openTerminal() (ptmx, tty *os.File, err error) {
	blocking, tty, err := pty.Open()
	if err != nil {
		return nil, nil, err
	}
	fd, err := unix.FcntlInt(blocking.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	blocking.Close()
	if err == nil {
		if err = unix.SetNonblock(fd, true); err != nil {
			unix.Close(fd)
		}
	}
	if err != nil {
		tty.Close()
		return nil, nil, err
	}
	return os.NewFile(uintptr(fd), "/dev/ptmx"), tty, nil
}

// prepareTerminal sizes the terminal and turns off its echo and line
// editing before the game starts. The game turns both off itself
// (setBufferedInput), but only after it has drawn its first board: keys
// pressed in between would be echoed onto the screen.
func prepareTerminal(ptmx, tty *os.File) error {
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 80}); err != nil {
		return fmt.Errorf("cannot size the terminal: %v", err)
	}
	fd := int(tty.Fd())
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return fmt.Errorf("cannot read the terminal's settings: %v", err)
	}
	t.Lflag &^= unix.ECHO | unix.ICANON
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, t); err != nil {
		return fmt.Errorf("cannot set the terminal: %v", err)
	}
	return nil
}

// read copies the program's output to g.chunks until the program has
// exited and its output is all read, or close is called.
//
// The adapter holds the program's side of the terminal open as well, so
// the program's exit is not the terminal's end. Were it, a read would
// fail with EIO once the program had closed its side; under load Linux
// can answer so while the program's last output is still on its way, and
// the game's GAME OVER was lost so (TestTerminalKeepsLastOutput). Instead
// the waiter sets a deadline once the program has exited; read then takes
// what the terminal still holds and stops when it is empty.
func (g *game) read() {
	defer close(g.chunks)
	rc, err := g.ptmx.SyscallConn()
	if err != nil {
		return
	}
	buf := make([]byte, 1<<15)
	exited := false
	for {
		var n int
		var rerr error
		err := rc.Read(func(fd uintptr) bool {
			n, rerr = unix.Read(int(fd), buf)
			// Wait for more output only while the program runs.
			return rerr != unix.EAGAIN || exited
		})
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded) && !exited:
			exited = true
			g.ptmx.SetReadDeadline(time.Time{})
			continue
		case err == nil && rerr == unix.EINTR:
			continue
		case err != nil || rerr != nil || n <= 0:
			return
		}
		select {
		case g.chunks <- append([]byte(nil), buf[:n]...):
		case <-g.quit:
			return
		}
	}
}

// press writes keys to the game's terminal.
func (g *game) press(keys string) error {
	if g.eof {
		return &failure{gameExited, "the game has exited"}
	}
	if _, err := io.WriteString(g.ptmx, keys); err != nil {
		return &failure{gameExited, fmt.Sprintf("cannot press %q: %v", keys, err)}
	}
	return nil
}

// next returns the next event of the screen, waiting at most the timeout
// for it.
func (g *game) next() (Event, error) {
	var timer *time.Timer
	for len(g.queue) == 0 {
		if g.bad != nil {
			return Event{}, &failure{unreadable, g.bad.Error()}
		}
		if g.eof {
			return Event{}, &failure{gameExited, fmt.Sprintf("the game exited (%s) after screen byte %d", g.status(), g.parser.Offset())}
		}
		if timer == nil {
			timer = time.NewTimer(g.cfg.timeout)
			defer timer.Stop()
		}
		select {
		case data, ok := <-g.chunks:
			if !ok {
				g.eof = true
				continue
			}
			if g.cfg.trace != nil {
				g.cfg.trace.Write(data)
			}
			events, err := g.parser.Feed(data)
			g.queue, g.bad = append(g.queue, events...), err
		case <-timer.C:
			return Event{}, &failure{noAnswer, fmt.Sprintf("no screen within %s (after screen byte %d)", g.cfg.timeout, g.parser.Offset())}
		}
	}
	e := g.queue[0]
	g.queue = g.queue[1:]
	return e, nil
}

// status describes how the program ended: called once its output is all
// read, which is after it has been waited for. The wait is bounded all
// the same (by the screen's timeout), should the output ever end another
// way.
func (g *game) status() string {
	select {
	case <-g.waited:
		return g.cmd.ProcessState.String()
	case <-time.After(g.cfg.timeout):
		return "still running"
	}
}

// ends reads the program's last output, which must be its exit sequence
// and nothing else, and waits for it to exit.
func (g *game) ends() error {
	for {
		e, err := g.next()
		var f *failure
		switch {
		case errors.As(err, &f) && f.word == gameExited:
			return nil
		case err != nil:
			return err
		case e.Kind != Exiting:
			return &failure{unreadable, fmt.Sprintf("the game showed %s where it exits (screen byte %d)", e.Kind, e.End)}
		}
	}
}

// close ends the program, if it still runs, and frees the terminal. The
// program leads a process group of its own (its session's): the whole
// group is killed, anything it started too.
func (g *game) close() {
	select {
	case <-g.waited:
	default:
		syscall.Kill(-g.cmd.Process.Pid, syscall.SIGKILL)
		<-g.waited
	}
	close(g.quit)
	g.ptmx.Close()
	g.tty.Close()
}
