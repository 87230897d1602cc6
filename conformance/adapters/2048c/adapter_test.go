package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tileproof/tileproof/conformance/internal/lineproto"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// The adapter's tests run the real program (they skip without it, see
// needGame): in process through the request handler, and as a process
// (the test binary run again as the adapter, see TestMain) for the
// protocol over pipes and the end of the game with the adapter.

func TestMain(m *testing.M) {
	if os.Getenv("TILEPROOF_2048C_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// answer is a decoded response.
type answer struct {
	ID      int64               `json:"id"`
	OK      bool                `json:"ok"`
	Error   string              `json:"error"`
	Message string              `json:"message"`
	Changed bool                `json:"changed"`
	Gained  uint64              `json:"gained"`
	Spawn   *engine.Spawn       `json:"spawn"`
	State   *protocol.WireState `json:"state"`
	// hello
	Protocol int      `json:"protocol"`
	Name     string   `json:"name"`
	Version  string   `json:"version"`
	Profiles []string `json:"profiles"`
	Features []string `json:"features"`
}

// session is an in-process adapter.
type session struct {
	t  *testing.T
	a  *adapter
	id int64
}

func newSession(t *testing.T, cfg gameConfig) *session {
	t.Helper()
	s := &session{t: t, a: &adapter{cfg: cfg, declared: defaultProfile, version: "test"}}
	t.Cleanup(s.a.stop)
	if r := s.do(`{"op":"hello","protocol":1}`); !r.OK {
		t.Fatalf("hello: %+v", r)
	}
	return s
}

// do sends one request (its id added) and decodes the answer.
func (s *session) do(req string) answer {
	s.t.Helper()
	s.id++
	line := fmt.Sprintf(`{"id":%d,%s`, s.id, strings.TrimPrefix(req, "{"))
	out := s.a.handle([]byte(line))
	var r answer
	if err := json.Unmarshal(out, &r); err != nil {
		s.t.Fatalf("%s: answer %q is not JSON: %v", line, out, err)
	}
	if r.ID != s.id {
		s.t.Fatalf("%s: answer id %d", line, r.ID)
	}
	return r
}

// failed reports whether answer r is the implementation's failure of the
// adapter's kind word: impl-error, the word beginning its message.
func failed(r answer, word string) bool {
	return r.Error == implError && strings.HasPrefix(r.Message, word+": ")
}

func (s *session) ok(req string) answer {
	s.t.Helper()
	r := s.do(req)
	if !r.OK {
		s.t.Fatalf("%s: %s: %s", req, r.Error, r.Message)
	}
	return r
}

func stateBoard(t *testing.T, st *protocol.WireState) engine.Board {
	t.Helper()
	b, err := engine.BoardFromValues(st.Board)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestHelloAndRefusals(t *testing.T) {
	a := &adapter{declared: defaultProfile, version: "v"}
	first := a.handle([]byte(`{"id":1,"op":"new","profile":"2048c"}`))
	if !bytes.Contains(first, []byte(`"error":"no-hello"`)) {
		t.Errorf("new before hello: %s", first)
	}
	s := &session{t: t, a: a}
	h := s.ok(`{"op":"hello","protocol":1}`)
	if h.Protocol != 1 || h.Name != implName || len(h.Profiles) != 1 || h.Profiles[0] != defaultProfile ||
		len(h.Features) != 1 || h.Features[0] != "size:4x4" {
		t.Errorf("hello: %+v", h)
	}
	for _, tc := range []struct{ req, word, says string }{
		{`{"op":"hello","protocol":1}`, "bad-request", "once"},
		{`{"op":"move","direction":"up"}`, "no-game", "before any new"},
		// No game: no-game comes before what is wrong with the fields
		// (docs/protocol.md, "Error words"); TestMoveRefusals has them.
		{`{"op":"move","direction":"north"}`, "no-game", "before any new"},
		{`{"op":"move","direction":5}`, "no-game", "before any new"},
		{`{"op":"move","direction":"up","spawn":{"row":0,"col":0,"value":2}}`, "no-game", "before any new"},
		{`{"op":"new","profile":"classic"}`, "bad-request", "not the one"},
		{`{"op":"new","profile":"2048c","seed":"7"}`, "bad-request", "clock"},
		{`{"op":"new","profile":"2048c","setup":{"target":512}}`, "bad-request", "no setup"},
		{`{"op":"load","profile":"2048c","board":[[2,0],[0,0]]}`, "unsupported-op", "load a state"},
		{`{"op":"legal"}`, "unsupported-op", "legal moves"},
		{`{"op":"undo"}`, "unsupported-op", "undo"},
		{`{"op":"end-run"}`, "unsupported-op", "end a run"},
		{`{"op":"keep-playing"}`, "unsupported-op", "never stops"},
		{`{"op":"fly"}`, "unsupported-op", `"fly"`},
	} {
		r := s.do(tc.req)
		if r.OK || r.Error != tc.word || !strings.Contains(r.Message, tc.says) {
			t.Errorf("%s: %+v, want %s saying %q", tc.req, r, tc.word, tc.says)
		}
	}
	if out := a.handle([]byte(`{"id":9,"op":`)); !bytes.Contains(out, []byte(`"error":"bad-request"`)) {
		t.Errorf("a broken request: %s", out)
	}
}

// TestGamesFollowRules plays random games to their end in the real
// program and checks every answer against the engine under the profile
// 2048c: the board after the slide (the answer's board without its
// spawn), changed, gained, the spawn (on a cell the slide left empty, a
// 2 or a 4), score, moves, won, over and result; the moves include moves
// that change nothing and moves after the end.
func TestGamesFollowRules(t *testing.T) {
	s := newSession(t, testConfig(needShim(t)))
	r := rand.New(rand.NewPCG(2048, 1))
	dirs := []string{"up", "down", "left", "right"}
	unchanged, after, steps := 0, 0, 0
	for game := range 5 {
		st := s.ok(`{"op":"new","profile":"2048c"}`).State
		if st.Score != 0 || st.Moves != 0 || st.Over || st.Won || st.Result != "playing" || 16-stateBoard(t, st).Empty() != 2 {
			t.Fatalf("game %d starts with %+v", game, st)
		}
		for st.Result == "playing" || after < 2*(game+1) {
			if st.Over {
				after++
			}
			d := dirs[r.IntN(4)]
			dir, _ := engine.ParseDirection(d)
			before := stateBoard(t, st)
			slide, err := before.Slide(dir)
			if err != nil {
				t.Fatal(err)
			}
			m := s.ok(fmt.Sprintf(`{"op":"move","direction":%q}`, d))
			steps++
			got := stateBoard(t, m.State)
			switch {
			case st.Over || !slide.Changed:
				if m.Changed || m.Spawn != nil || m.Gained != 0 || got != before || m.State.Score != st.Score || m.State.Moves != st.Moves {
					t.Fatalf("game %d: %s from\n%v\nchanges nothing by the rules; the game: %+v %+v", game, d, before, m, m.State)
				}
				if !st.Over {
					unchanged++
				}
			default:
				if !m.Changed || m.Spawn == nil {
					t.Fatalf("game %d: %s changes the board; the game says changed %v, spawn %v", game, d, m.Changed, m.Spawn)
				}
				sp := m.Spawn
				if slide.Board.At(sp.Row, sp.Col) != 0 || sp.Value != 2 && sp.Value != 4 || got.At(sp.Row, sp.Col) != sp.Value {
					t.Fatalf("game %d: spawn %+v on\n%v", game, sp, slide.Board)
				}
				slid := got
				slid.Set(sp.Row, sp.Col, 0)
				if slid != slide.Board || m.Gained != slide.Gained || m.State.Score != st.Score+slide.Gained || m.State.Moves != st.Moves+1 {
					t.Fatalf("game %d: %s from\n%v\nthe rules give\n%v gained %d; the game\n%v gained %d score %d moves %d",
						game, d, before, slide.Board, slide.Gained, slid, m.Gained, m.State.Score, m.State.Moves)
				}
				if blocked := got.Blocked(); m.State.Over != blocked || m.State.Won || (m.State.Result == "no-moves") != blocked {
					t.Fatalf("game %d: blocked %v; the game says over %v, won %v, result %s", game, blocked, m.State.Over, m.State.Won, m.State.Result)
				}
			}
			st = m.State
		}
	}
	if unchanged == 0 {
		t.Errorf("no move that changes nothing in %d steps", steps)
	}
	t.Logf("%d steps, %d changing nothing, %d after the end", steps, unchanged, after)
}

// TestRestart starts games with the game's own restart key: the same
// program goes on, the new game's score is 0, its board has two tiles.
func TestRestart(t *testing.T) {
	s := newSession(t, testConfig(needShim(t)))
	s.a.restart = true
	s.ok(`{"op":"new","profile":"2048c"}`)
	pid := s.a.g.cmd.Process.Pid
	score := uint64(0)
	for _, d := range []string{"up", "left", "down", "right", "up", "left"} {
		score = s.ok(fmt.Sprintf(`{"op":"move","direction":%q}`, d)).State.Score
	}
	st := s.ok(`{"op":"new","profile":"2048c"}`).State
	if s.a.g.cmd.Process.Pid != pid {
		t.Errorf("-restart started a new program")
	}
	if st.Score != 0 || st.Moves != 0 || 16-stateBoard(t, st).Empty() != 2 {
		t.Errorf("after a restart (the old game's score %d): %+v", score, st)
	}
}

// TestStartFailures runs programs that are not the game, for real: each
// failure is an answer with its word, never a hang or a crash.
func TestStartFailures(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	// The silent program's case is its timeout's: it is short. The others
	// end on what the program does, which a loaded machine can delay past
	// 300 ms (sh not yet started, the case became "no screen within"):
	// their timeout only bounds a hang. None waits out the program's sleep.
	for _, tc := range []struct {
		name, script, word, says string
		timeout                  time.Duration
	}{
		{"silent", "sleep 30", noAnswer, "no screen within", 300 * time.Millisecond},
		{"other text", "echo hello; sleep 30", unreadable, "before the first frame", 15 * time.Second},
		{"exits at once", "exit 3", gameExited, "exit status 3", 15 * time.Second},
		// Its terminal closes 1.5 s before it exits: its output ends only
		// at the exit, which the screen's timeout bounds (so not 1 s,
		// which a loaded machine could outlast).
		{"exits after its terminal closed", "exec </dev/null >/dev/null 2>&1; sleep 1.5; exit 3", gameExited, "exit status 3", 15 * time.Second},
		{"not there", "", cannotStart, "cannot run", time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := gameConfig{binary: sh, args: []string{"-c", tc.script}, timeout: tc.timeout}
			if tc.script == "" {
				cfg = gameConfig{binary: filepath.Join(t.TempDir(), "no-such-game"), timeout: tc.timeout}
			}
			s := newSession(t, cfg)
			start := time.Now()
			r := s.do(`{"op":"new","profile":"2048c"}`)
			if r.OK || !failed(r, tc.word) || !strings.Contains(r.Message, tc.says) {
				t.Errorf("%+v, want %s saying %q", r, tc.word, tc.says)
			}
			if d := time.Since(start); d > tc.timeout+3*time.Second {
				t.Errorf("took %s with a timeout of %s", d, tc.timeout)
			}
			if r := s.do(`{"op":"move","direction":"up"}`); r.OK || !failed(r, gameExited) || !strings.Contains(r.Message, "given up") {
				t.Errorf("a move after the failure: %+v", r)
			}
		})
	}
}

// TestGameKilled kills the game under the adapter: the move that finds
// it gone is answered game-exited, and a new game starts again.
func TestGameKilled(t *testing.T) {
	s := newSession(t, testConfig(needShim(t)))
	s.ok(`{"op":"new","profile":"2048c"}`)
	s.a.g.cmd.Process.Signal(syscall.SIGTERM)
	<-s.a.g.waited
	r := s.do(`{"op":"move","direction":"up"}`)
	if r.OK || !failed(r, gameExited) {
		t.Errorf("a move in a killed game: %+v", r)
	}
	s.ok(`{"op":"new","profile":"2048c"}`)
	s.ok(`{"op":"move","direction":"up"}`)
}

// TestMoveRefusals: in a game, a move with a direction that is not one,
// a direction of another type or a forced spawn is bad-request, and the
// game goes on.
func TestMoveRefusals(t *testing.T) {
	s := newSession(t, testConfig(needShim(t)))
	s.ok(`{"op":"new","profile":"2048c"}`)
	for _, tc := range []struct{ req, says string }{
		{`{"op":"move","direction":"north"}`, "not up, down"},
		{`{"op":"move","direction":5}`, "not a JSON object of the protocol"},
		{`{"op":"move","direction":"up","spawn":{"row":0,"col":0,"value":2}}`, "force-spawn"},
	} {
		if r := s.do(tc.req); r.OK || r.Error != "bad-request" || !strings.Contains(r.Message, tc.says) {
			t.Errorf("%s: %+v, want bad-request saying %q", tc.req, r, tc.says)
		}
	}
	s.ok(`{"op":"move","direction":"up"}`)
}

// adapterProcess runs the adapter as a process, its protocol over pipes.
type adapterProcess struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startAdapter(t *testing.T, args ...string) *adapterProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TILEPROOF_2048C_MAIN=1")
	cmd.Stderr = os.Stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return &adapterProcess{cmd, in, bufio.NewReader(out)}
}

func (p *adapterProcess) call(t *testing.T, req string) answer {
	t.Helper()
	if _, err := io.WriteString(p.in, req+"\n"); err != nil {
		t.Fatal(err)
	}
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var r answer
	if err := json.Unmarshal(line, &r); err != nil || !r.OK {
		t.Fatalf("%s: %s (%v)", req, line, err)
	}
	return r
}

// gamePID returns the pid of the adapter's one child, the game. (Each
// thread lists the children it started.)
func gamePID(t *testing.T, adapter int) int {
	t.Helper()
	lists, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", adapter))
	var pids []string
	for _, l := range lists {
		data, err := os.ReadFile(l)
		if err != nil {
			t.Skipf("cannot list the adapter's children: %v", err)
		}
		pids = append(pids, strings.Fields(string(data))...)
	}
	if len(pids) != 1 {
		t.Fatalf("the adapter has children %v", pids)
	}
	pid, _ := strconv.Atoi(pids[0])
	return pid
}

// gone waits for a process to be gone (or a zombie) and reports whether it
// went within 15 s: a bound on a game that never goes, long because a
// loaded machine can delay the hang-up's SIGHUP and the game's exit.
func gone(pid int) bool {
	for range 1500 {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || bytes.Contains(stat, []byte(") Z ")) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// TestGameEndsWithAdapter checks that the game does not outlive the
// adapter: at the end of its input, and when the adapter is killed
// (SIGKILL: no clean-up runs; the kernel hangs the terminal up).
func TestGameEndsWithAdapter(t *testing.T) {
	needGame(t)
	for _, how := range []string{"end of input", "SIGKILL"} {
		t.Run(how, func(t *testing.T) {
			p := startAdapter(t)
			p.call(t, `{"id":1,"op":"hello","protocol":1}`)
			p.call(t, `{"id":2,"op":"new","profile":"2048c"}`)
			p.call(t, `{"id":3,"op":"move","direction":"left"}`)
			pid := gamePID(t, p.cmd.Process.Pid)
			if how == "SIGKILL" {
				p.cmd.Process.Kill()
			} else {
				p.in.Close()
			}
			if err := p.cmd.Wait(); how != "SIGKILL" && err != nil {
				t.Errorf("the adapter: %v", err)
			}
			if !gone(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("the game (pid %d) outlived the adapter", pid)
			}
		})
	}
}

// TestOverPipes plays a game through the adapter as a process, in fast
// mode, to its end, with the -trace file written.
func TestOverPipes(t *testing.T) {
	needShim(t)
	trace := filepath.Join(t.TempDir(), "trace.raw")
	p := startAdapter(t, "-fast", "-trace", trace)
	if h := p.call(t, `{"id":1,"op":"hello","protocol":1}`); h.Version == "" {
		t.Errorf("hello: %+v", h)
	}
	p.call(t, `{"id":2,"op":"new","profile":"2048c"}`)
	var st *protocol.WireState
	for i := 3; st == nil || !st.Over; i++ {
		st = p.call(t, fmt.Sprintf(`{"id":%d,"op":"move","direction":%q}`, i, []string{"up", "left", "down", "right"}[i%4])).State
		if i > 5000 {
			t.Fatal("no end in 5000 moves")
		}
	}
	p.in.Close()
	p.cmd.Wait()
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	events, err := parseAll(data, nil)
	if err != nil || events[len(events)-2].Kind != GameOver {
		t.Fatalf("the trace: %v, %d events", err, len(events))
	}
	if f := events[len(events)-3].Frame; f.Score != st.Score || fmt.Sprint(boardRows(f)) != fmt.Sprint(st.Board) {
		t.Errorf("the last frame of the trace, %+v, is not the last state, %+v", f, st)
	}
}

func boardRows(f ScreenBoard) [][]uint64 {
	rows := make([][]uint64, boardSize)
	for r := range rows {
		rows[r] = f.Board[r][:]
	}
	return rows
}

// TestProfileFile checks the profile file beside the adapter: it parses,
// its name is the one new accepts, and it is classic but for the win.
func TestProfileFile(t *testing.T) {
	data, err := os.ReadFile("2048c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.ParseProfile("2048c.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != profileName {
		t.Errorf("the profile is named %q; the adapter accepts %q", p.Name, profileName)
	}
	classic, err := engine.BuiltinProfile("classic")
	if err != nil {
		t.Fatal(err)
	}
	q := p.Clone()
	q.Name, q.Title, q.Source, q.Description, q.Win = classic.Name, classic.Title, classic.Source, classic.Description, classic.Win
	if fmt.Sprintf("%+v", q) != fmt.Sprintf("%+v", classic) {
		t.Errorf("2048c differs from classic beyond the win:\n%+v\n%+v", q, classic)
	}
	if p.Win.Tile != 0 {
		t.Errorf("2048c has the win tile %d; 2048.c has no win", p.Win.Tile)
	}
	if defaultProfile != p.Name {
		t.Errorf("hello declares %s; the profile file's name is %s", defaultProfile, p.Name)
	}
}

// TestBrokenScreens runs, as the game, a program that plays back the
// recording tiny.raw (a new game, a move that changes the board, one that
// does not) changed the way a broken game would draw, on the adapter's
// pseudo-terminal: each is an unreadable-screen answer that says what is
// wrong, never a made-up move.
func TestBrokenScreens(t *testing.T) {
	data := readRecording(t, "tiny")
	var homes []int // where each frame starts: the start, slide, spawn and two redraws
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte("\x1b[H"))
		if j < 0 {
			break
		}
		homes = append(homes, i+j)
		i += j + 1
	}
	if len(homes) != 5 {
		t.Fatalf("tiny.raw has %d frames; the test needs the 5 of start, slide, spawn, redraw, redraw", len(homes))
	}
	frame := func(b []byte, k int) (int, int) { // the bytes of frame k
		if k+1 < len(homes) {
			return homes[k], homes[k+1]
		}
		return homes[k], len(b)
	}
	// fill puts a 2 into the first empty cell of frame k; the frames after
	// it move a byte (the "·" is two), so later frames are changed first.
	fill := func(b []byte, k int) []byte {
		from, to := frame(data, k)
		seg := bytes.Replace(b[from:to], []byte(emptyCell), []byte(centred(2)), 1)
		return slices.Concat(b[:from], seg, b[to:])
	}
	cut := func(b []byte, k int) []byte {
		from, to := frame(data, k)
		return slices.Concat(b[:from], b[to:])
	}
	lastQuit := bytes.LastIndex(data, []byte("QUIT? (y/n)"))
	for _, tc := range []struct {
		name string
		out  []byte
		move int // the move that must fail: 1 or 2
		says string
	}{
		{"two tiles appear", fill(fill(data, 3), 2), 1, "both changed"},
		{"no slide frame", cut(data, 1), 1, "drew 1 boards"},
		{"the redraw differs", fill(data, 3), 1, "board drawn again"},
		{"game over without a move", slices.Concat(data[:lastQuit-8], []byte("         GAME OVER          \r\n\x1b[?25h\x1b[m")), 2, "GAME OVER after a move that drew nothing"},
		{"garbage", slices.Concat(data[:homes[2]+40], []byte("\x1b[5mBOO\r\n"), data[homes[2]+40:]), 1, "screen byte"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "screen.raw")
			if err := os.WriteFile(file, tc.out, 0o644); err != nil {
				t.Fatal(err)
			}
			// stty -onlcr: the recording has its "\r\n" already. Every
			// case ends on what the screen shows, never on the timeout,
			// which only bounds a start that a loaded machine delays (2 s
			// failed once at load 16).
			s := newSession(t, gameConfig{binary: "/bin/sh", args: []string{"-c", `stty -onlcr; cat "$0"; sleep 30`, file}, timeout: 15 * time.Second})
			s.ok(`{"op":"new","profile":"2048c"}`)
			for m := 1; m <= tc.move; m++ {
				r := s.do(`{"op":"move","direction":"up"}`)
				if m < tc.move {
					if !r.OK {
						t.Fatalf("move %d: %+v", m, r)
					}
					continue
				}
				if r.OK || !failed(r, unreadable) || !strings.Contains(r.Message, tc.says) {
					t.Fatalf("move %d: %+v, want %s saying %q", m, r, unreadable, tc.says)
				}
			}
		})
	}
}

// TestKeysBeforeTheFirstFrame presses a move and the redraw keys before
// the game has drawn anything, many times: the game turns off its
// terminal's echo only after its first board, so keys pressed before
// would be echoed onto the screen, unless the adapter turned echo off
// first. The screen must read as the first board, the move, the prompt
// and the redraw.
func TestKeysBeforeTheFirstFrame(t *testing.T) {
	shim := needShim(t)
	for i := range 20 {
		g, err := launch(testConfig(shim))
		if err != nil {
			t.Fatal(err)
		}
		up, _ := arrowKeys("up")
		if err := g.press(up + syncKeys); err != nil {
			t.Fatal(err)
		}
		var kinds []EventKind
		for len(kinds) < 2 || kinds[len(kinds)-2] != QuitPrompt {
			e, err := g.next()
			if err != nil {
				g.close()
				t.Fatalf("run %d, after %v: %v", i, kinds, err)
			}
			kinds = append(kinds, e.Kind)
		}
		g.close()
		if n := len(kinds); n != 3 && n != 5 || kinds[n-1] != FrameDrawn {
			t.Fatalf("run %d: %v", i, kinds)
		}
	}
}

// FuzzHandle answers any request line (the game a program that is not
// there, so that new fails at once): never a panic, always one JSON
// object with ok, and the request's id or, only with bad-request, null.
func FuzzHandle(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"op":"hello","protocol":1}`, `{"id":2,"op":"new","profile":"2048c"}`,
		`{"id":3,"op":"move","direction":"up"}`, `{"id":4,"op":"move","direction":"up","spawn":{"row":0}}`,
		`{"id":5,"op":"load","board":[[2]]}`, `{"id":6,"op":"new","profile":"2048c","seed":null,"setup":null}`, `[1,2]`, `{"id":"x"}`,
		`{"id":7,"op":"move","op":"move"}`, `{"id":0,"op":"hello"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		a := &adapter{cfg: gameConfig{binary: "/nonexistent/2048", timeout: time.Second}, declared: defaultProfile}
		defer a.stop()
		for _, l := range [][]byte{[]byte(`{"id":1,"op":"hello","protocol":1}`), line, line} {
			out := a.handle(l)
			var r struct {
				ID    *int64 `json:"id"`
				OK    *bool  `json:"ok"`
				Error string `json:"error"`
			}
			if err := json.Unmarshal(out, &r); err != nil || r.OK == nil {
				t.Fatalf("%q: answer %q: %v", l, out, err)
			}
			var req struct {
				ID *int64 `json:"id"`
			}
			if r.ID == nil && r.Error != "bad-request" || r.ID != nil && (json.Unmarshal(l, &req) != nil || req.ID == nil || *r.ID != *req.ID) {
				t.Fatalf("%q: answer %q has another id", l, out)
			}
		}
	})
}

// TestRunLines drives run, the whole program, with lines: blank lines are
// skipped, a line above the bound is answered and dropped, and the end of
// the input ends the program with status 0; bad flags are status 2.
func TestRunLines(t *testing.T) {
	in := `{"id":1,"op":"hello","protocol":1}` + "\n\n" + `{"id":2,"op":"x","pad":"` + strings.Repeat("a", 2*lineproto.MaxLine) + `"}` + "\n" + `{"id":3,"op":"legal"}`
	var out, errs bytes.Buffer
	if code := run([]string{"-binary", "/nonexistent/2048"}, strings.NewReader(in), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"ok":true`) ||
		!strings.Contains(lines[1], `"id":null,"ok":false,"error":"bad-request"`) || !strings.Contains(lines[1], "longer than") ||
		!strings.Contains(lines[2], `"id":3,"ok":false,"error":"unsupported-op"`) {
		t.Errorf("answers:\n%s", out.String())
	}
	for _, args := range [][]string{{"-scheme", "green"}, {"-timeout", "0s"}, {"extra"}, {"-nope"}} {
		if code := run(args, strings.NewReader(""), io.Discard, io.Discard); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
