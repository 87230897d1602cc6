package driver

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/protocol"
)

// A process is one run of an implementation's command: its pipes, the
// lines it writes on stdout, and its end. Every process it starts is
// ended with it (killTree): the command runs in a session of its own,
// with a tag in its environment that its descendants inherit.

// tagVariable is the environment variable that marks an implementation's
// processes: its value is a random tag, new for each start.
const tagVariable = "TILEPROOF_EXEC_RUN"

// errLineTooLong is a line longer than protocol.MaxLine.
var errLineTooLong error = lineTooLong{}

type lineTooLong struct{}

func (lineTooLong) Error() string {
	return fmt.Sprintf("a line longer than %d bytes", protocol.MaxLine)
}

// exitGrace is how long a process whose stdout closed is given to exit,
// before the driver reports it closed stdout while still running.
const exitGrace = 200 * time.Millisecond

type process struct {
	cmd   *exec.Cmd
	tag   string
	stdin *os.File
	out   *os.File      // the read end of stdout, read with deadlines
	lines *bufio.Reader // of out
	done  chan struct{} // closed when the process has exited
	quit  chan struct{} // closed by stop
	once  sync.Once
	// unwatch stops the watch on the run's context that stops the
	// process when the run ends; it reports whether it stopped it first.
	unwatch func() bool
	// said keeps the end of what the process wrote to stderr, for the
	// report of a crash; saidDone is closed when stderr has ended.
	said     stderrTail
	saidDone chan struct{}

	mu       sync.Mutex // orders the end of the process and the deadlines of reads
	exitedAt time.Time  // when the process exited; zero while it runs
}

// startProcess runs command through sh -c (as [execPrefix] gives it),
// its stderr going to stderr.
func startProcess(command string, stderr io.Writer) (*process, error) {
	var raw [8]byte
	rand.Read(raw[:])
	p := &process{tag: hex.EncodeToString(raw[:]), done: make(chan struct{}), quit: make(chan struct{}), saidDone: make(chan struct{}), unwatch: func() bool { return true }}
	p.cmd = exec.Command("sh", "-c", execPrefix(command))
	p.cmd.Env = append(os.Environ(), tagVariable+"="+p.tag)
	ownSession(p.cmd)
	// The pipes are the driver's own, not os/exec's: Wait then returns
	// when the process exits, whoever else holds them open.
	var pipes [6]*os.File
	var err error
	for i := 0; i < 6 && err == nil; i += 2 {
		pipes[i], pipes[i+1], err = os.Pipe()
	}
	closeAll := func(fs ...*os.File) {
		for _, f := range fs {
			if f != nil {
				f.Close()
			}
		}
	}
	if err != nil {
		closeAll(pipes[:]...)
		return nil, err
	}
	inR, inW, outR, outW, errR, errW := pipes[0], pipes[1], pipes[2], pipes[3], pipes[4], pipes[5]
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, errW
	err = p.cmd.Start()
	closeAll(inR, outW, errW)
	if err != nil {
		closeAll(inW, outR, errR)
		return nil, err
	}
	p.stdin, p.out, p.lines = inW, outR, bufio.NewReaderSize(outR, 64<<10)
	go func() {
		io.Copy(io.MultiWriter(stderr, &p.said), errR)
		errR.Close()
		close(p.saidDone)
	}()
	go func() {
		p.cmd.Wait()
		p.mu.Lock()
		p.exitedAt = time.Now()
		close(p.done)
		// A process it started may hold stdout open: a read under way
		// gives up soon.
		p.out.SetReadDeadline(p.exitedAt.Add(exitGrace))
		p.mu.Unlock()
	}()
	return p, nil
}

// readLine reads the next line of stdout, waiting until deadline, or
// exitGrace after the process exited: a timeout is
// os.ErrDeadlineExceeded.
func (p *process) readLine(deadline time.Time) ([]byte, error) {
	if buf, _ := p.lines.Peek(p.lines.Buffered()); bytes.IndexByte(buf, '\n') < 0 {
		p.mu.Lock()
		if !p.exitedAt.IsZero() {
			deadline = p.exitedAt.Add(exitGrace)
		}
		p.out.SetReadDeadline(deadline) // a read is to come
		p.mu.Unlock()
	}
	return readLine(p.lines, protocol.MaxLine)
}

// exited reports whether the process has exited.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// readLine reads a line of at most max bytes before its newline, which
// it strips; a longer line is errLineTooLong, and what was read of it is
// dropped. A last line without a newline is returned with io.EOF.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if err == nil {
			frag = frag[:len(frag)-1]
		}
		line = append(line, frag...)
		if len(line) > max {
			return nil, errLineTooLong
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// ended says how stdout ended: the process exited (how), or it closed
// stdout and still runs.
func (p *process) ended() string {
	select {
	case <-p.done:
		return "exited (" + p.cmd.ProcessState.String() + ")"
	case <-time.After(exitGrace):
		return "closed its stdout, still running,"
	}
}

// saidLast is the end of what the process wrote to stderr, once stderr
// has ended (or after exitGrace), as a clause of a crash's message; ""
// when it wrote nothing.
func (p *process) saidLast() string {
	select {
	case <-p.saidDone:
	case <-time.After(exitGrace):
	}
	if s := p.said.String(); s != "" {
		return "; the end of its stderr:\n" + s
	}
	return ""
}

// stderrTail keeps the last stderrTailSize bytes written to it, in at
// most twice that (and one write): where a crash's traceback, or a
// panic's, is.
type stderrTail struct {
	mu  sync.Mutex
	buf []byte
	cut bool // bytes before buf were dropped
}

// stderrTailSize bounds what a crash's message quotes of stderr.
const stderrTailSize = 2 << 10

func (t *stderrTail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - stderrTailSize; over > stderrTailSize {
		t.buf, t.cut = append(t.buf[:0], t.buf[over:]...), true
	}
	return len(b), nil
}

// String is the last stderrTailSize bytes, without the line break at
// their end; when bytes before them were dropped, from the first whole
// line kept, after "...". The reports show it as they show an
// implementation's other text.
func (t *stderrTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, cut := string(t.buf), t.cut
	if over := len(s) - stderrTailSize; over > 0 {
		s, cut = s[over:], true
	}
	if cut {
		if _, rest, ok := strings.Cut(s, "\n"); ok {
			s = rest
		}
		s = "...\n" + s
	}
	return strings.TrimRight(s, " \t\r\n")
}

// stop ends the process and every process it started, and waits for it.
func (p *process) stop() {
	p.once.Do(func() {
		close(p.quit)
		// First the kill, then the end of stdin: a process whose input ends
		// may exit first, and its children would lose the parent they are
		// found by.
		killTree(p.cmd.Process.Pid, p.tag)
		p.stdin.Close()
		select {
		case <-p.done:
		case <-time.After(5 * time.Second): // it could not be killed: leave it
		}
		p.out.Close()
	})
}

// cappedWriter passes at most limit bytes to w, each line prefixed and
// shown as safetext.TerminalLines shows it (an escape sequence, a
// carriage return, a bidirectional override as \x1b, \x0d, \u202e: the
// implementation's stderr reaches the runner's terminal, and must not
// repaint the report, set the window's title or write the clipboard), and
// then one line saying what it dropped; it is safe for concurrent use
// (two processes' stderr can overlap at a restart).
type cappedWriter struct {
	mu      sync.Mutex
	w       io.Writer
	prefix  string
	limit   int
	written int
	dropped int
	mid     bool   // within a line
	part    []byte // the start of a character cut by the end of a write, held for the next
}

func (c *cappedWriter) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(b)
	if room := c.limit - c.written; len(b) > room {
		c.dropped += len(b) - max(room, 0)
		b = b[:max(room, 0)]
	}
	c.written += len(b)
	if len(c.part) > 0 {
		b = append(c.part, b...)
		c.part = nil
	}
	// A character cut by the end of the write is shown whole with the
	// next one (at most 3 bytes held).
	i := len(b) - 1
	for i > 0 && i > len(b)-3 && !utf8.RuneStart(b[i]) {
		i--
	}
	if i >= 0 && !utf8.FullRune(b[i:]) {
		b, c.part = b[:i], append([]byte(nil), b[i:]...)
	}
	c.lines(b)
	return n, nil
}

// lines writes b, each line prefixed and shown safely.
func (c *cappedWriter) lines(b []byte) {
	for len(b) > 0 {
		if !c.mid {
			io.WriteString(c.w, c.prefix)
		}
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			io.WriteString(c.w, safetext.TerminalLines(string(b)))
			c.mid = true
			break
		}
		io.WriteString(c.w, safetext.TerminalLines(string(b[:i+1])))
		c.mid = false
		b = b[i+1:]
	}
}

// close writes what is held of a cut character and the note of what
// was dropped, if anything was.
func (c *cappedWriter) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.part) > 0 {
		c.lines(c.part)
		c.part = nil
	}
	if c.dropped > 0 {
		nl := ""
		if c.mid {
			nl = "\n"
		}
		fmt.Fprintf(c.w, "%s%s[%d more bytes of stderr dropped: at most %d are passed on]\n", nl, c.prefix, c.dropped, c.limit)
		c.dropped, c.mid = 0, false
	}
}

// execPrefix puts exec before command when it is one simple command (no
// operator, no assignment or reserved word first), so that the shell
// becomes the adapter instead of staying its parent: dash, Debian's sh,
// forks even the last command of sh -c, and its copy of the adapter's
// stdout would hide the adapter closing its own (seen as silence, not as
// the end of its answers). A compound command is run as it is.
func execPrefix(command string) string {
	if strings.ContainsAny(command, ";&|()<>`\n") {
		return command
	}
	words := strings.Fields(command)
	if len(words) == 0 || strings.Contains(words[0], "=") {
		return command
	}
	switch words[0] {
	case "!", "{", "if", "for", "while", "until", "case", "exec", "[[", "function", "time":
		return command
	}
	return "exec " + command
}
