package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tileproof/tileproof/replay"
)

// maxReplaySize bounds one replay file or line: 100,000 moves take about
// 100 KB, a spawn-recorded log about 700 KB.
const maxReplaySize = 64 << 20

func (c *cli) verify(args []string) int {
	fs := c.flags("verify")
	asJSON := fs.Bool("json", false, "print one JSON verdict a line (the summary goes to stderr)")
	reportFile := fs.String("report", "", "also write an HTML summary to this file, with a viewer page per replay in FILE_files beside it (docs/viewer-html.md)")
	reportPages := fs.Int("report-pages", 1000, "with --report, at most this many viewer pages of valid replays, and as many of invalid ones")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "replays verified in parallel")
	var profileFiles multiFlag
	fs.Var(&profileFiles, "profile", "a profile YAML file that replays may name (repeatable)")
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitBadUsage
	}
	if os.Getenv("GOGC") == "" {
		// A batch allocates a few KB a replay and keeps almost nothing,
		// so with the default setting the collector runs every few
		// milliseconds and, on two cores, eats most of what the second
		// worker adds. Collecting less often costs a few MB.
		debug.SetGCPercent(400)
	}
	v, err := newVerifier(profileFiles)
	if err != nil {
		return c.fail(exitBadUsage, "verify: %v", err)
	}
	verifyOne := v.VerifyFile
	var report *htmlReport
	if *reportFile != "" {
		if *reportPages < 0 {
			return c.fail(exitBadUsage, "verify: --report-pages %d: give 0 or more", *reportPages)
		}
		if report, err = newHTMLReport(*reportFile, v, *reportPages); err != nil {
			return c.fail(exitBadUsage, "verify: --report: %v", err)
		}
		verifyOne = report.verify
	}
	inputs := make(chan replay.Input)
	var listErr error
	go func() {
		defer close(inputs)
		listErr = c.listInputs(fs.Args(), inputs)
	}()
	sum := newSummary()
	progress := c.startProgress(sum)
	replay.VerifyBatch(inputs, *workers, verifyOne, func(vd replay.Verdict) {
		sum.add(vd)
		if report != nil {
			report.add(vd)
		}
		progress.clearWhile(func() {
			if *asJSON {
				b, _ := json.Marshal(vd)
				fmt.Fprintf(c.stdout, "%s\n", b)
			} else {
				printVerdict(c.stdout, vd)
			}
		})
	})
	progress.stop()
	if listErr != nil {
		if report != nil {
			report.abandon()
		}
		return c.fail(exitBadUsage, "verify: %v", listErr)
	}
	out := c.stdout
	if *asJSON {
		out = c.stderr
	}
	sum.print(out)
	if report != nil {
		pages, unpaged, stale, err := report.finish("tileproof verify " + strings.Join(fs.Args(), " "))
		if err != nil {
			return c.fail(exitBadUsage, "verify: --report: %v", err)
		}
		fmt.Fprintf(c.stderr, "wrote %s, with %d replay pages in %s\n", *reportFile, pages, report.dir)
		if stale > 0 {
			fmt.Fprintf(c.stderr, "removed %d pages of an earlier report from %s\n", stale, report.dir)
		}
		if unpaged > 0 {
			fmt.Fprintf(c.stderr, "%d replays have no page: --report-pages %d caps the pages of valid and of invalid replays\n", unpaged, *reportPages)
		}
	}
	return sum.exitCode()
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// listInputs sends every replay named by args, in order: files, the replay
// files under directories (sorted; manifest.yaml files are not replays),
// the lines of .jsonl files, and with "-" the lines of stdin.
func (c *cli) listInputs(args []string, out chan<- replay.Input) error {
	for _, arg := range args {
		if arg == "-" {
			sendLines("stdin", c.stdin, out, maxReplaySize)
			continue
		}
		info, err := os.Stat(arg)
		if err != nil {
			return err
		}
		if !info.IsDir() {
			sendFile(arg, out)
			continue
		}
		var files []string
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && isReplayFile(path) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return fmt.Errorf("%s: no replay files (.yaml, .yml, .json, .jsonl)", arg)
		}
		sort.Strings(files)
		for _, f := range files {
			sendFile(f, out)
		}
	}
	return nil
}

func isReplayFile(path string) bool {
	base := filepath.Base(path)
	if base == "manifest.yaml" || strings.HasPrefix(base, ".") {
		return false
	}
	switch filepath.Ext(base) {
	case ".yaml", ".yml", ".json", ".jsonl":
		return true
	}
	return false
}

func sendFile(path string, out chan<- replay.Input) {
	if strings.HasSuffix(path, ".jsonl") {
		f, err := os.Open(path)
		if err != nil {
			out <- replay.Input{Name: path, Err: err}
			return
		}
		defer f.Close()
		sendLines(path, f, out, maxReplaySize)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		out <- replay.Input{Name: path, Err: err}
		return
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxReplaySize+1))
	if err == nil && len(data) > maxReplaySize {
		err = fmt.Errorf("larger than %d MiB", maxReplaySize>>20)
	}
	out <- replay.Input{Name: path, Data: data, Err: err}
}

// sendLines sends each non-blank line of r as a replay named NAME:LINE.
func sendLines(name string, r io.Reader, out chan<- replay.Input, limit int) {
	br := bufio.NewReaderSize(r, 1<<16)
	for line := 1; ; line++ {
		data, tooLong, err := readLine(br, limit)
		switch {
		case tooLong:
			out <- replay.Input{Name: fmt.Sprintf("%s:%d", name, line), Err: fmt.Errorf("line longer than %d bytes", limit)}
		case len(bytes.TrimSpace(data)) > 0:
			out <- replay.Input{Name: fmt.Sprintf("%s:%d", name, line), Data: bytes.TrimRight(data, "\r\n")}
		}
		if err != nil {
			if err != io.EOF {
				out <- replay.Input{Name: fmt.Sprintf("%s:%d", name, line), Err: err}
			}
			return
		}
	}
}

// readLine reads one line, its end included, keeping at most limit bytes
// in memory: a longer line is read to its end and dropped (tooLong).
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		frag, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(frag) > limit {
				tooLong, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		if err != bufio.ErrBufferFull {
			return line, tooLong, err
		}
	}
}

func printVerdict(w io.Writer, vd replay.Verdict) {
	e := vd.Explain()
	switch {
	case vd.Valid:
		fmt.Fprintf(w, "ok     %s: %s\n", vd.Name, e.Headline)
		for _, warn := range vd.Warnings {
			fmt.Fprintf(w, "       warning: %s\n", warn)
		}
	case vd.Reason.Unreadable():
		msg := vd.Error
		if !strings.HasPrefix(msg, vd.Name) {
			msg = vd.Name + ": " + msg
		}
		fmt.Fprintf(w, "error  %s\n", strings.ReplaceAll(msg, "\n", "\n       "))
	default:
		d := vd.Divergence
		fmt.Fprintf(w, "FAIL   %s: %s\n", vd.Name, e.Headline)
		fmt.Fprintf(w, "       the replay says: %s\n", e.Says)
		fmt.Fprintf(w, "       the rules give:  %s\n", e.Gives)
		for _, a := range e.Also {
			fmt.Fprintf(w, "       also %s\n", a)
		}
		if diff := d.Diff(); diff != "" {
			fmt.Fprintf(w, "       board (-claimed +real):\n%s\n", indentLines(strings.TrimRight(diff, "\n"), "         "))
		} else if d.Board != nil {
			fmt.Fprintf(w, "       board:\n%s\n", indentLines(d.Board.String(), "         "))
		}
	}
}

func indentLines(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// summary counts verdicts as they stream out.
type summary struct {
	valid, unreadable int
	moves             atomic.Int64
	count             atomic.Int64 // read by the progress line while the batch runs
	invalid           map[replay.Reason]int
	best              *replay.Verdict
}

func newSummary() *summary { return &summary{invalid: map[replay.Reason]int{}} }

func (s *summary) add(vd replay.Verdict) {
	s.count.Add(1)
	s.moves.Add(int64(vd.Moves))
	switch {
	case vd.Valid:
		s.valid++
		if s.best == nil || vd.Score > s.best.Score {
			s.best = &vd
		}
	case vd.Reason.Unreadable():
		s.unreadable++
	default:
		s.invalid[vd.Reason]++
	}
}

func (s *summary) print(w io.Writer) {
	n := 0
	var reasons []string
	for r, k := range s.invalid {
		n += k
		reasons = append(reasons, fmt.Sprintf("%s %d", r, k))
	}
	sort.Strings(reasons)
	fmt.Fprintf(w, "%d replays: %d valid, %d invalid", s.count.Load(), s.valid, n)
	if n > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(reasons, ", "))
	}
	fmt.Fprintf(w, ", %d unreadable", s.unreadable)
	if s.best != nil {
		fmt.Fprintf(w, "; best verified score %d (%s)", s.best.Score, s.best.Name)
	}
	fmt.Fprintln(w)
}

func (s *summary) exitCode() int {
	switch {
	case s.unreadable > 0:
		return exitBadUsage
	case int64(s.valid) < s.count.Load():
		return exitFailed
	}
	return exitOK
}

// newVerifier returns a verifier that knows the built-in profiles and
// those of the given YAML files.
func newVerifier(profileFiles []string) (*replay.Verifier, error) {
	v := replay.NewVerifier()
	for _, f := range profileFiles {
		p, err := loadProfile(f)
		if err == nil {
			err = v.AddProfile(p)
		}
		if err != nil {
			return nil, err
		}
	}
	return v, nil
}

// progress draws a progress line on stderr while a long batch runs, when
// stderr is a terminal. The verdicts are written with the line cleared
// (clearWhile), so that on a terminal showing both they never share a
// line; the next tick draws it again.
type progress struct {
	done  chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	tty   *os.File // nil when stderr is not a terminal
	drawn bool     // the line is on the screen
}

func (c *cli) startProgress(s *summary) *progress {
	p := &progress{done: make(chan struct{})}
	f, ok := c.stderr.(*os.File)
	if !ok {
		return p
	}
	if info, err := f.Stat(); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return p
	}
	p.tty = f
	start := time.Now()
	p.wg.Go(func() {
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-p.done:
				p.clearWhile(func() {})
				return
			case <-tick.C:
				if el := time.Since(start); el > time.Second {
					p.mu.Lock()
					fmt.Fprintf(f, "\r\033[Kverified %d replays, %d moves (%.0f moves/s)", s.count.Load(), s.moves.Load(), float64(s.moves.Load())/el.Seconds())
					p.drawn = true
					p.mu.Unlock()
				}
			}
		}
	})
	return p
}

// clearWhile runs write with the progress line off the screen.
func (p *progress) clearWhile(write func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.tty, "\r\033[K")
		p.drawn = false
	}
	write()
}

func (p *progress) stop() {
	close(p.done)
	p.wg.Wait()
}
