//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/termview"
)

// The tests here run tileproof on a pseudo-terminal, send it keys and read
// the screen it draws through a small terminal emulator (vt below).

// ptyRun is tileproof running on a pseudo-terminal.
type ptyRun struct {
	t        *testing.T
	cmd      *exec.Cmd
	ptm, tty *os.File
	out      chan []byte
	raw      bytes.Buffer // everything it wrote
	screen   *vt
	exited   chan error
}

const screenRows, screenCols = 40, 100

// startPTY runs tileproof with args in dir on a new pseudo-terminal, with
// the environment's colour settings replaced by env.
func startPTY(t *testing.T, dir string, env []string, args ...string) *ptyRun {
	t.Helper()
	return startPTYInput(t, dir, env, nil, args...)
}

// startPTYInput is startPTY with standard input from in instead of the
// terminal, when in is not nil.
func startPTYInput(t *testing.T, dir string, env []string, in io.Reader, args ...string) *ptyRun {
	t.Helper()
	bin, err := exec.LookPath("tileproof") // the test binary, set up by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(ptm, &pty.Winsize{Rows: screenRows, Cols: screenCols}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "NO_COLOR", "COLORTERM", "TERM":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty

	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if in != nil {
		// The controlling terminal is then the child's standard output.
		cmd.Stdin, cmd.SysProcAttr.Ctty = in, 1
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &ptyRun{t: t, cmd: cmd, ptm: ptm, tty: tty, out: make(chan []byte, 64), screen: newVT(), exited: make(chan error, 1)}
	go func() {
		for {
			buf := make([]byte, 4096)
			n, err := ptm.Read(buf)
			if n > 0 {
				r.out <- buf[:n]
			}
			if err != nil {
				close(r.out)
				return
			}
		}
	}()
	go func() { r.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		ptm.Close()
		tty.Close()
	})
	return r
}

// send types keys.
func (r *ptyRun) send(keys string) {
	r.t.Helper()
	if _, err := r.ptm.WriteString(keys); err != nil {
		r.t.Fatal(err)
	}
}

// termHang bounds a wait for the program on the terminal to draw or to
// exit: it only ends a test whose program never does, so it is long (a
// loaded machine can delay a process's start and its screens by seconds).
const termHang = time.Minute

// waitFor reads the output until the screen satisfies ok, or fails the
// test after a deadline.
func (r *ptyRun) waitFor(what string, ok func(*vt) bool) {
	r.t.Helper()
	deadline := time.After(termHang)
	for !ok(r.screen) {
		select {
		case b, open := <-r.out:
			if !open {
				r.t.Fatalf("the output ended waiting for %s; the screen:\n%s", what, r.screen)
			}
			r.raw.Write(b)
			r.screen.write(b)
		case <-deadline:
			r.t.Fatalf("timed out waiting for %s; the screen:\n%s", what, r.screen)
		}
	}
}

// waitLine waits for a screen line matching the regular expression.
func (r *ptyRun) waitLine(re string) []string {
	r.t.Helper()
	rx := regexp.MustCompile(re)
	var m []string
	r.waitFor(fmt.Sprintf("a line matching %q", re), func(s *vt) bool {
		for _, l := range s.lines() {
			if m = rx.FindStringSubmatch(l); m != nil {
				return true
			}
		}
		return false
	})
	return m
}

// wait waits for tileproof to exit, reading what it writes, and returns its
// exit code.
func (r *ptyRun) wait() int {
	r.t.Helper()
	select {
	case err := <-r.exited:
		// Read what is left (the reader stops at EOF or EIO once the tty
		// side is closed by us).
		r.tty.Close()
		for b := range r.out {
			r.raw.Write(b)
			r.screen.write(b)
		}
		if err == nil {
			return 0
		}
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		r.t.Fatal(err)
	case <-time.After(termHang):
		r.t.Fatalf("tileproof did not exit; the screen:\n%s", r.screen)
	}
	return -1
}

// checkRestored checks that the terminal is back in cooked mode with echo,
// and the screen and cursor are back.
func (r *ptyRun) checkRestored() {
	r.t.Helper()
	tios, err := unix.IoctlGetTermios(int(r.ptm.Fd()), unix.TCGETS)
	if err != nil {
		r.t.Fatal(err)
	}
	if tios.Lflag&unix.ICANON == 0 || tios.Lflag&unix.ECHO == 0 || tios.Lflag&unix.ISIG == 0 {
		r.t.Errorf("the terminal is left in raw mode: lflag %#x", tios.Lflag)
	}
	if !bytes.Contains(r.raw.Bytes(), []byte(termview.LeaveScreen)) {
		r.t.Errorf("the full screen view was not left")
	}
}

// cell is one character on the screen and its background.
type cell struct {
	r  rune
	bg string // the SGR background parameters in force: "48;2;R;G;B", "48;5;N" or ""
}

// vt is just enough of a terminal for tileproof's screens: printable
// text, CR, LF, cursor home and position, erase in line and display, SGR
// backgrounds; the alternate screen switches clear the screen.
type vt struct {
	cells    [screenRows][screenCols]cell
	row, col int
	bg       string
	pending  []byte // an incomplete escape sequence or UTF-8 character
}

func newVT() *vt {
	v := &vt{}
	v.clear(0, 0)
	return v
}

// clear blanks the screen from row, col on.
func (v *vt) clear(row, col int) {
	for r := row; r < screenRows; r++ {
		for c := range screenCols {
			if r > row || c >= col {
				v.cells[r][c] = cell{r: ' '}
			}
		}
	}
}

var (
	csiRE = regexp.MustCompile(`^\x1b\[([0-9;?]*)([A-Za-z])`)
	// csiStart is the beginning of a sequence that a read split: its
	// end comes with the next one.
	csiStart = regexp.MustCompile(`^\x1b(\[[0-9;?]*)?$`)
)

func (v *vt) write(b []byte) {
	p := append(v.pending, b...)
	v.pending = nil
	for len(p) > 0 {
		switch c := p[0]; {
		case c == 0x1b:
			m := csiRE.FindSubmatch(p)
			if m == nil {
				if csiStart.Match(p) {
					v.pending = append([]byte(nil), p...)
					return
				}
				p = p[1:] // not a sequence this emulator knows
				continue
			}
			v.csi(string(m[1]), m[2][0])
			p = p[len(m[0]):]
		case c == '\r':
			v.col = 0
			p = p[1:]
		case c == '\n':
			v.row = min(v.row+1, screenRows-1)
			p = p[1:]
		case c < 0x20:
			p = p[1:]
		default:
			if !utf8.FullRune(p) {
				v.pending = append([]byte(nil), p...)
				return
			}
			r, n := utf8.DecodeRune(p)
			if v.col < screenCols {
				v.cells[v.row][v.col] = cell{r, v.bg}
				v.col++
			}
			p = p[n:]
		}
	}
}

func (v *vt) csi(params string, final byte) {
	switch final {
	case 'H':
		v.row, v.col = 0, 0
		if f := strings.Split(params, ";"); len(f) == 2 {
			r, _ := strconv.Atoi(f[0])
			c, _ := strconv.Atoi(f[1])
			v.row, v.col = max(r-1, 0), max(c-1, 0)
		}
	case 'J':
		if params == "2" {
			v.clear(0, 0)
		} else {
			v.clear(v.row, v.col)
		}
	case 'K':
		for c := v.col; c < screenCols; c++ {
			v.cells[v.row][c] = cell{r: ' '}
		}
	case 'h', 'l':
		if params == "?1049" {
			v.clear(0, 0)
			v.row, v.col = 0, 0
		}
	case 'm':
		// Only backgrounds matter here: 0 resets, 48;... sets.
		for _, sgr := range regexp.MustCompile(`(?:^|;)(0|48;2;\d+;\d+;\d+|48;5;\d+)(?:;|$)`).FindAllStringSubmatch(params, -1) {
			if sgr[1] == "0" {
				v.bg = ""
			} else {
				v.bg = sgr[1]
			}
		}
		if params == "" {
			v.bg = ""
		}
	}
}

func (v *vt) lines() []string {
	out := make([]string, screenRows)
	for r := range screenRows {
		var sb strings.Builder
		for _, c := range v.cells[r] {
			sb.WriteRune(c.r)
		}
		out[r] = strings.TrimRight(sb.String(), " ")
	}
	return out
}

func (v *vt) String() string {
	return strings.TrimRight(strings.Join(v.lines(), "\n"), "\n")
}

// colourBoard reads a board drawn in colour at screen row top, indented by
// 4: each tile's number and the background of its place, which must be the
// tile's colour in 24-bit.
func (v *vt) colourBoard(t *testing.T, top, rows, cols int) engine.Board {
	t.Helper()
	b, err := engine.NewBoard(rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	const place = 6 // 4 digits and a space each side
	for r := range rows {
		line := top + 1 + 4*r + 1 // the gap line, then the row's middle line
		for c := range cols {
			x := 4 + 1 + c*(place+1)
			var text strings.Builder
			bgs := map[string]bool{}
			for i := range place {
				text.WriteRune(v.cells[line][x+i].r)
				bgs[v.cells[line][x+i].bg] = true
			}
			val := uint64(0)
			if s := strings.TrimSpace(text.String()); s != "" {
				if val, err = strconv.ParseUint(s, 10, 64); err != nil {
					t.Fatalf("row %d, column %d: %q is not a tile; the screen:\n%s", r, c, s, v)
				}
			}
			bg, _ := termview.TileColors(val)
			want := fmt.Sprintf("48;2;%d;%d;%d", bg.R, bg.G, bg.B)
			if len(bgs) != 1 || !bgs[want] {
				t.Errorf("row %d, column %d (tile %d): backgrounds %v, want %s", r, c, val, bgs, want)
			}
			if err := b.Set(r, c, val); err != nil {
				t.Fatal(err)
			}
		}
	}
	return b
}

// plainBoard reads a board drawn as plain text at screen row top.
func (v *vt) plainBoard(t *testing.T, top, rows int) engine.Board {
	t.Helper()
	b, err := engine.ParseBoard(strings.Join(v.lines()[top:top+rows], "\n"))
	if err != nil {
		t.Fatalf("the board on the screen: %v; the screen:\n%s", err, v)
	}
	return b
}

// keyNames are the keys the tests send, with the actions they stand for
// in play.
var keyNames = map[string]engine.Action{
	"\x1b[A": engine.MoveUp, "\x1b[B": engine.MoveDown, "\x1b[C": engine.MoveRight, "\x1b[D": engine.MoveLeft,
	"\x1bOA": engine.MoveUp, "\x1bOD": engine.MoveLeft,
	"w": engine.MoveUp, "a": engine.MoveLeft, "s": engine.MoveDown, "d": engine.MoveRight,
	"u": engine.Undo, "z": engine.Undo, "e": engine.EndRun,
}

// playKeysOnPTY sends keys to a game and, after each, waits for the screen
// the engine says it must show and checks its board; it returns the
// actions that count.
func playKeysOnPTY(t *testing.T, r *ptyRun, g *engine.Game, colour bool, keys ...string) []engine.Action {
	t.Helper()
	var log []engine.Action
	for _, k := range keys {
		a := keyNames[k]
		r.send(k)
		step, err := g.Do(a)
		switch {
		case err != nil:
			r.waitLine(regexp.QuoteMeta(err.Error()))
			continue
		case !step.Changed && a <= engine.MoveRight:
			r.waitLine(fmt.Sprintf("^moving %s changes nothing$", a))
			continue
		}
		log = append(log, a)
		switch {
		case g.Result() == engine.TargetReached && g.Rules().Profile().Win.Then == engine.Ask:
			r.waitLine(`^You made \d+! k: keep playing`)
		case g.Over():
			r.waitLine(`^The run is over`)
		default:
			r.waitLine(fmt.Sprintf(`^score %d.*   moves %d   max tile %d$`, g.Score(), g.Moves(), g.MaxTile()))
		}
		var got engine.Board
		if colour {
			got = r.screen.colourBoard(t, 2, 4, 4)
		} else {
			got = r.screen.plainBoard(t, 2, 4)
		}
		if got != g.Board() {
			t.Fatalf("after %q (%s): the screen shows\n%v\nthe engine has\n%v", k, a, got, g.Board())
		}
	}
	return log
}

// checkReplay checks that file holds the game: it verifies, with the move
// log and the claim of the engine's game.
func checkReplay(t *testing.T, file string, g *engine.Game, log []engine.Action) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	v := replay.NewVerifier().VerifyFile(file, data)
	if !v.Valid {
		t.Fatalf("the replay does not verify: %s %s\n%s", v.Reason, v.Error, data)
	}
	r, err := replay.Decode(file, data)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := engine.FormatActions(r.Actions), engine.FormatActions(log); got != want {
		t.Errorf("move log %q, want %q", got, want)
	}
	c := r.Claim
	if c.Score != g.Score() || c.Moves != g.Moves() || c.MaxTile != g.MaxTile() || c.Board == nil || *c.Board != g.Board() {
		t.Errorf("claim score %d, %d moves, tile %d; the game has %d, %d, %d\n%s", c.Score, c.Moves, c.MaxTile, g.Score(), g.Moves(), g.MaxTile(), data)
	}
}

func newGame(t *testing.T, profile, seed string) *engine.Game {
	t.Helper()
	p, err := engine.BuiltinProfile(profile)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(p, seed)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestPlayOnTerminal(t *testing.T) {
	dir := t.TempDir()
	r := startPTY(t, dir, []string{"TERM=xterm-256color", "COLORTERM=truecolor"}, "play", "--seed", "7", "--profile", "classic", "-o", "game.yaml")
	g := newGame(t, "classic", "7")
	r.waitLine(`^tileproof play   profile classic   seed "7"$`)
	r.waitLine(`^score 0   moves 0   max tile 4$`) // drawn after the board
	if got := r.screen.colourBoard(t, 2, 4, 4); got != g.Board() {
		t.Fatalf("the start: the screen shows\n%v\nthe engine has\n%v", got, g.Board())
	}
	log := playKeysOnPTY(t, r, g, true, "\x1b[D", "\x1b[B", "d", "w", "\x1bOD", "s", "a", "\x1b[C", "\x1b[A")
	if len(log) < 5 {
		t.Fatalf("only %d of the moves counted: a poor test", len(log))
	}
	r.send("u") // classic has no undo
	r.waitLine(`^profile classic has no undo$`)
	r.send("x")
	r.waitLine(`^x: not a key of the game$`)
	r.send("q")
	if code := r.wait(); code != 0 {
		t.Fatalf("exit code %d; output %q", code, r.raw.String())
	}
	r.checkRestored()
	if want := fmt.Sprintf("the replay is in game.yaml"); !strings.Contains(r.raw.String(), want) {
		t.Errorf("the output does not say %q:\n%q", want, r.raw.String())
	}
	checkReplay(t, filepath.Join(dir, "game.yaml"), g, log)
}

func TestPlayOnTerminalUndoEndRun(t *testing.T) {
	// online-2048 has undo and End run; plain text (NO_COLOR), and no
	// seed, so a random one and the default file name.
	dir := t.TempDir()
	r := startPTY(t, dir, []string{"TERM=xterm-256color", "NO_COLOR=1"}, "play", "--profile", "online-2048")
	m := r.waitLine(`^tileproof play   profile online-2048   seed "([0-9a-f]{16})"$`)
	g := newGame(t, "online-2048", m[1])
	r.waitLine(`^score 0   moves 0   max tile \d+$`) // drawn after the board
	if got := r.screen.plainBoard(t, 2, 4); got != g.Board() {
		t.Fatalf("the start: the screen shows\n%v\nthe engine has\n%v", got, g.Board())
	}
	log := playKeysOnPTY(t, r, g, false, "\x1b[D", "\x1b[A", "z", "\x1b[B", "\x1b[C", "u", "d", "e")
	if !g.Over() || log[len(log)-1] != engine.EndRun {
		t.Fatalf("the run did not end: %v", log)
	}
	r.send("a") // any key leaves a finished run
	if code := r.wait(); code != 0 {
		t.Fatalf("exit code %d; output %q", code, r.raw.String())
	}
	r.checkRestored()
	name := "tileproof-online-2048-" + m[1] + ".yaml"
	if !strings.Contains(r.raw.String(), "the replay is in "+name) {
		t.Errorf("the output does not name %s:\n%q", name, r.raw.String())
	}
	checkReplay(t, filepath.Join(dir, name), g, log)
}

func TestPlayOnTerminalSignal(t *testing.T) {
	// A signal ends the game as q does: the terminal restored, the game
	// saved. Ctrl-C, a key in raw mode, quits too.
	// The file's name needs quoting: the command play suggests is quoted
	// for the shell.
	const file, quoted = "g's game.yaml", `tileproof verify 'g'\''s game.yaml'`
	for _, how := range []string{"SIGTERM", "ctrl-c"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			r := startPTY(t, dir, []string{"NO_COLOR=1"}, "play", "--seed", "7", "-o", file)
			g := newGame(t, "tile-merge", "7")
			log := playKeysOnPTY(t, r, g, false, "\x1b[D")
			if how == "SIGTERM" {
				r.cmd.Process.Signal(syscall.SIGTERM)
			} else {
				r.send("\x03")
			}
			if code := r.wait(); code != 0 {
				t.Fatalf("exit code %d; output %q", code, r.raw.String())
			}
			r.checkRestored()
			checkReplay(t, filepath.Join(dir, file), g, log)
			if !strings.Contains(r.raw.String(), "check it with: "+quoted+"\r\n") {
				t.Errorf("the output does not say check it with %s:\n%q", quoted, r.raw.String())
			}
		})
	}
}

// TestPlayOnTerminalNoMove quits before any move counted: no replay is
// written, neither a new file nor over an existing -o file, which is left
// as it was; a refused move does not count.
func TestPlayOnTerminalNoMove(t *testing.T) {
	for _, existing := range []bool{false, true} {
		t.Run(fmt.Sprintf("existing=%v", existing), func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "g.yaml")
			const before = "an earlier game\n"
			args := []string{"play", "--seed", "12", "--profile", "classic"}
			if existing {
				if err := os.WriteFile(file, []byte(before), 0o666); err != nil {
					t.Fatal(err)
				}
				args = append(args, "-o", "g.yaml")
			}
			r := startPTY(t, dir, []string{"NO_COLOR=1"}, args...)
			r.waitLine(`^score 0   moves 0`)
			r.send("\x1b[B") // seed 12's board: down changes nothing (a refused move)
			r.waitLine(`^moving down changes nothing$`)
			r.send("q")
			if code := r.wait(); code != 0 {
				t.Fatalf("exit code %d; output %q", code, r.raw.String())
			}
			r.checkRestored()
			if !strings.Contains(r.raw.String(), "no move counted, so no replay is written") {
				t.Errorf("the output does not say that no replay is written:\n%q", r.raw.String())
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			switch data, err := os.ReadFile(file); {
			case existing && string(data) != before:
				t.Errorf("-o g.yaml was %q, is now %q (%v)", before, data, err)
			case !existing && len(entries) != 0:
				t.Errorf("files written: %v", entries)
			}
		})
	}
}

func TestShowOnTerminal(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "replays", "valid", "online-2048-undo-end-run.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := replay.Decode(file, data)
	if err != nil {
		t.Fatal(err)
	}
	_, frames := replay.NewVerifier().Trace(rp)
	last := len(frames) - 1
	if last < 5 {
		t.Fatalf("%d frames", len(frames))
	}
	for _, colour := range []bool{false, true} {
		t.Run(fmt.Sprintf("colour=%v", colour), func(t *testing.T) {
			env := []string{"NO_COLOR=1"}
			if colour {
				env = []string{"COLORTERM=truecolor"}
			}
			r := startPTY(t, root, env, "show", "--step", "2", file)
			step := 2
			check := func() {
				t.Helper()
				r.waitLine(fmt.Sprintf(`^step %d of %d   score %d`, step, last, frames[step].Score))
				var got engine.Board
				if colour {
					got = r.screen.colourBoard(t, 2, 4, 4)
				} else {
					got = r.screen.plainBoard(t, 2, 4)
				}
				if got != frames[step].Board {
					t.Fatalf("step %d: the screen shows\n%v\nthe frame is\n%v", step, got, frames[step].Board)
				}
			}
			check()
			for _, k := range []struct {
				key  string
				step int
			}{
				{"n", 3}, {"\x1b[C", 4}, {"p", 3}, {"\x1b[D", 2}, {"\x1b[B", 3}, {"\x1b[A", 2},
				{"G", last}, {"n", last}, {"g", 0}, {"p", 0}, {"\x1b[F", last}, {"\x1b[H", 0}, {" ", 1},
			} {
				r.send(k.key)
				step = k.step
				check()
			}
			r.send("\x1b[F")
			step = last
			check()
			r.waitLine(`^VALID$`)
			r.send("q")
			if code := r.wait(); code != 0 {
				t.Fatalf("exit code %d", code)
			}
			r.checkRestored()
		})
	}
}

// TestShowOnTerminalInvalid steps through an invalid replay: the verdict
// is on the screen at every step, and show exits 1 when the viewer quits.
func TestShowOnTerminalInvalid(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "replays", "tampered", "move-changed.yaml")
	r := startPTY(t, root, []string{"NO_COLOR=1"}, "show", file, "--step", "0")
	r.waitLine(`^step 0 of 703   score 0`)
	r.waitLine(`^INVALID: illegal-move at action 704 \(after 703 counted moves\)$`)
	r.send("G")
	r.waitLine(`^step 703 of 703   `)
	r.waitLine(`^the rules give:  moving left does not change the board`)
	r.send("q")
	if code := r.wait(); code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
	r.checkRestored()
}

func TestPlayOnTerminalKeepPlaying(t *testing.T) {
	// A classic game whose win tile is 16 stops to ask at the win: keys
	// other than k and q are refused, k plays on (K in the log).
	dir := t.TempDir()
	prof := "name: classic-16\nbase: classic\nwin: {tile: 16, when: merge, then: ask}\n"
	if err := os.WriteFile(filepath.Join(dir, "c16.yaml"), []byte(prof), 0o666); err != nil {
		t.Fatal(err)
	}
	p, err := engine.ParseProfile("c16.yaml", []byte(prof))
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(p, "7")
	if err != nil {
		t.Fatal(err)
	}
	r := startPTY(t, dir, []string{"NO_COLOR=1"}, "play", "--seed", "7", "--profile", "c16.yaml", "-o", "g.yaml")
	r.waitLine(`^score 0   moves 0`)
	keyOf := map[engine.Direction]string{engine.Up: "w", engine.Down: "s", engine.Left: "a", engine.Right: "d"}
	var log []engine.Action
	for g.Result() != engine.TargetReached {
		if g.Over() || g.Moves() > 200 {
			t.Fatalf("the game ended without the win: %v", g.Result())
		}
		// Left and down while they change the board, else the first legal.
		d := g.LegalMoves()[0]
		for _, pref := range []engine.Direction{engine.Left, engine.Down} {
			if g.Legal(pref) {
				d = pref
				break
			}
		}
		log = append(log, playKeysOnPTY(t, r, g, false, keyOf[d])...)
	}
	r.waitLine(`^You made 16! k: keep playing, q: quit and save$`)
	r.send("a")
	r.waitLine(`^the run stopped at the win: k to keep playing, q to quit$`)
	r.send("k")
	if err := g.KeepPlaying(); err != nil {
		t.Fatal(err)
	}
	log = append(log, engine.KeepPlaying)
	r.waitLine(`^won$`)
	d := g.LegalMoves()[0]
	log = append(log, playKeysOnPTY(t, r, g, false, keyOf[d])...)
	r.send("q")
	if code := r.wait(); code != 0 {
		t.Fatalf("exit code %d; output %q", code, r.raw.String())
	}
	r.checkRestored()
	data, err := os.ReadFile(filepath.Join(dir, "g.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	v := replay.NewVerifier()
	if err := v.AddProfile(p); err != nil {
		t.Fatal(err)
	}
	if vd := v.VerifyFile("g.yaml", data); !vd.Valid || !vd.Won {
		t.Fatalf("the replay: valid %v (%s %s), won %v\n%s", vd.Valid, vd.Reason, vd.Error, vd.Won, data)
	}
	rp, err := replay.Decode("g.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := engine.FormatActions(rp.Actions), engine.FormatActions(log); got != want || !strings.Contains(got, "K") {
		t.Errorf("move log %q, want %q with a K", got, want)
	}
}

// TestVerifyProgressOnTerminal checks the progress line of a batch: with
// stderr a terminal and the work past a second, verify draws what it has
// verified so far, and clears the line before the summary.
func TestVerifyProgressOnTerminal(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../replays/valid/rosetta-random.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rp, err := replay.Decode("rosetta-random.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	line := string(bytes.TrimSpace(rp.EncodeJSON()))
	// The replays come down a pipe, as from a file or another program.
	in, feed := io.Pipe()
	r := startPTYInput(t, t.TempDir(), []string{"TERM=xterm"}, in, "verify", "-")
	t.Cleanup(func() { feed.Close() })
	if _, err := io.WriteString(feed, line+"\n"); err != nil {
		t.Fatal(err)
	}
	r.waitLine(`^ok +stdin:1: score 1384, max tile 128, 147 moves`)
	// The batch goes on (stdin is open): after a second the progress line.
	m := r.waitLine(`^verified 1 replay, (\d+) moves \(\d+ moves/s\)$`)
	if m[1] != "147" {
		t.Errorf("the progress line counts %s moves, want 147", m[1])
	}
	// A replay whose claim is false: the progress line counts the
	// failures so far, for the one watching a long batch.
	rp.Claim.Score += 4
	if _, err := io.WriteString(feed, string(bytes.TrimSpace(rp.EncodeJSON()))+"\n"); err != nil {
		t.Fatal(err)
	}
	r.waitLine(`^FAIL +stdin:2: `)
	r.waitLine(`^verified 2 replays \(1 not valid\), \d+ moves \(\d+ moves/s\)$`)
	// A third replay, then the end of the input.
	if _, err := io.WriteString(feed, line+"\n"); err != nil {
		t.Fatal(err)
	}
	feed.Close()
	if code := r.wait(); code != 1 {
		t.Fatalf("exit code %d, want 1; output %q", code, r.raw.String())
	}
	screen := strings.Join(r.screen.lines(), "\n")
	if !strings.Contains(screen, "3 replays: 2 valid, 1 invalid (impossible-claim 1), 0 unreadable") {
		t.Errorf("no summary on the screen:\n%s", screen)
	}
	if strings.Contains(screen, "verified 1 replay") || strings.Contains(screen, "verified 2 replays") || strings.Contains(screen, "verified 3 replays") {
		t.Errorf("the progress line is left on the screen:\n%s", screen)
	}
	if !strings.Contains(r.raw.String(), "\r\x1b[K") {
		t.Errorf("the progress line is not cleared: %q", r.raw.String())
	}
}

// TestShowOnTerminalResize changes the window's size under show: a window
// too short for the view gets a message saying so, a narrow one the lines
// cut (never wrapped), and the view comes back when the window grows.
func TestShowOnTerminalResize(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "replays", "minimal.yaml")
	r := startPTY(t, root, []string{"NO_COLOR=1"}, "show", "--step", "3", file)
	r.waitLine(`^step 3 of 1670   score 4`)
	resize := func(rows, cols uint16) {
		t.Helper()
		// The kernel sends the window-size signal to the terminal's
		// foreground process, as a terminal emulator's resize does.
		if err := pty.Setsize(r.ptm, &pty.Winsize{Rows: rows, Cols: cols}); err != nil {
			t.Fatal(err)
		}
	}
	resize(6, screenCols)
	r.waitLine(`^the window has 6 rows; this view needs \d+$`)
	resize(screenRows, 20)
	r.waitLine(`^step 3 of 1670   sco$`) // cut at 20 columns
	resize(screenRows, screenCols)
	r.waitLine(`^step 3 of 1670   score 4`)
	r.send("n")
	r.waitLine(`^step 4 of 1670   score`)
	r.send("q")
	if code := r.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	r.checkRestored()
}

// TestShowOnTerminalLongGame: a game longer than the frames show holds
// (maxHeldFrames) is stepped through its first frames, the step asked
// for and its last, and the screen says which are held and how to see
// another; every step it shows is the game's (its board as Trace has it).
func TestShowOnTerminalLongGame(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "long.json")
	data := moveUndoReplay(2*maxHeldFrames + 40000)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	rp, err := replay.Decode(file, data)
	if err != nil {
		t.Fatal(err)
	}
	_, frames := replay.NewVerifier().Trace(rp)
	last, asked, held := len(frames)-1, maxHeldFrames+1000, maxHeldFrames-3
	if last <= asked {
		t.Fatalf("%d frames", len(frames))
	}
	r := startPTY(t, root, []string{"NO_COLOR=1"}, "show", "--step", strconv.Itoa(asked), file)
	r.waitLine(fmt.Sprintf(`^steps 0 to %d, %d and the last, %d, held here: tileproof show --step N shows any other$`, held, asked, last))
	for _, k := range []struct {
		key  string
		step int
	}{{"", asked}, {"n", last}, {"p", asked}, {"p", held}, {"p", held - 1}, {"n", held}, {"n", asked}, {"g", 0}, {"G", last}} {
		r.send(k.key)
		r.waitLine(fmt.Sprintf(`^step %d of %d   score %d`, k.step, last, frames[k.step].Score))
		if got := r.screen.plainBoard(t, 2, 4); got != frames[k.step].Board {
			t.Fatalf("step %d: the screen shows\n%v\nthe frame is\n%v", k.step, got, frames[k.step].Board)
		}
	}
	r.send("q")
	if code := r.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	r.checkRestored()
}
