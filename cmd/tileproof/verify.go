package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/replay"
)

// maxReplaySize bounds one replay file or line: 100,000 moves take about
// 100 KB, a spawn-recorded log about 700 KB.
const maxReplaySize = 64 << 20

// verifyFlags are the flags of tileproof verify.
type verifyFlags struct {
	json         bool
	strict       bool
	report       string
	reportPages  int
	reportTop    int
	workers      int
	profileFiles []string
}

func (c *cli) verifyCommand() *cobra.Command {
	var f verifyFlags
	cmd := &cobra.Command{
		Use:   "verify [flags] FILE|DIR|-...",
		Short: "verify replays: files, directories, or JSON Lines on stdin (-)",
		Long: `Verify recorded games (replays) against the rules: each is replayed from its seed or its
recorded spawns and its claimed figures checked. A verdict a replay (ok, FAIL with the first
divergence, the replay says / the rules give, or error for an unreadable one), then a summary.

A FILE is read as given. A DIR is searched for replay files (.yaml, .yml, .json, and .jsonl,
whose every line is a replay; manifest.yaml files are not replays): regular files only, links
and other special files inside a directory are skipped with a note. - reads JSON Lines from
stdin. The format: docs/replay-format.md.

Exit status 1 when a replay is invalid (or, with --strict, a spawn-recorded one has
implausible spawns), 2 when one cannot be read.`,
	}
	c.flags(cmd, func(fl *pflag.FlagSet) {
		fl.BoolVar(&f.json, "json", false, "print one JSON verdict a line (the summary goes to stderr)")
		fl.BoolVar(&f.strict, "strict", false, "fail (exit 1) a valid replay whose spawns the plausibility tests warn about, as a leaderboard may want")
		fl.StringVar(&f.report, "report", "", "also write an HTML summary to `FILE` (report.html, say), with a viewer page per replay in report_files beside it (docs/viewer-html.md)")
		intFlag(fl, &f.reportPages, "report-pages", 1000, "with --report, at most `N` viewer pages of the replays that need your eyes (suspicious, invalid, the top scores), and as many of the other valid ones")
		intFlag(fl, &f.reportTop, "report-top", 10, "with --report, the `N` top scores listed (and paged) among the replays that need your eyes")
		intFlag(fl, &f.workers, "workers", 0, "`N` replays verified in parallel (0: one a CPU)")
		fl.StringArrayVar(&f.profileFiles, "profile", nil, "a profile YAML `FILE` (repeatable); a replay uses it when its profile: names the file's name:")
	})
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.verify(cmd, &f, args) })
	return cmd
}

func (c *cli) verify(cmd *cobra.Command, f *verifyFlags, args []string) int {
	if len(args) == 0 {
		return c.usageFail(cmd)
	}
	switch {
	case f.workers < 0:
		return c.fail(exitBadUsage, "verify: --workers %d: give 1 or more, or 0 for one a CPU", f.workers)
	case f.workers == 0:
		f.workers = runtime.GOMAXPROCS(0)
	}
	v, err := newVerifier(f.profileFiles)
	if err != nil {
		return c.fail(exitBadUsage, "verify: %v", err)
	}
	verifyOne := v.VerifyFile
	var report *htmlReport
	if f.report != "" {
		if f.reportPages < 0 {
			return c.fail(exitBadUsage, "verify: --report-pages %d: give 0 or more", f.reportPages)
		}
		if err = checkReportNotInput(f.report, args); err != nil {
			return c.fail(exitBadUsage, "verify: --report: %v", err)
		}
		if f.reportTop < 0 {
			return c.fail(exitBadUsage, "verify: --report-top %d: give 0 or more", f.reportTop)
		}
		if report, err = newHTMLReport(f.report, v, f.reportPages); err != nil {
			return c.fail(exitBadUsage, "verify: --report: %v", err)
		}
		report.top = f.reportTop
		verifyOne = report.verify
	}
	sum := newSummary()
	progress := c.startProgress(sum)
	inputs := make(chan replay.Input, 256) // the batch takes what has arrived, up to a chunk at once
	var listErr error
	go func() {
		defer close(inputs)
		listErr = c.listInputs(args, inputs, func(path, why string) {
			sum.skipped.Add(1)
			progress.clearWhile(func() {
				fmt.Fprintf(c.stderr, "tileproof: verify: skipped %s: %s\n", safetext.Terminal(path), why)
			})
		})
	}()
	// The verdicts are written through a buffer that goes out whenever the
	// batch waits for more (a write a verdict cost a short replay's
	// verification again), so a stream still gets each verdict as soon as
	// it is ready.
	out := bufio.NewWriterSize(c.stdout, 64<<10)
	var line []byte
	replay.VerifyBatch(inputs, f.workers, verifyOne, func(vd replay.Verdict) {
		if f.strict {
			vd = vd.Strict() // every view says what the exit status says
		}
		sum.add(vd)
		if report != nil {
			report.add(vd)
		}
		if f.json {
			line = appendVerdictLine(line[:0], vd)
			out.Write(line)
		} else {
			printVerdict(out, vd)
		}
	}, func() { progress.clearWhile(func() { out.Flush() }) })
	progress.stop()
	if listErr != nil {
		if report != nil {
			report.abandon()
		}
		return c.fail(exitBadUsage, "verify: %v", listErr)
	}
	summaryOut := c.stdout
	if f.json {
		summaryOut = c.stderr
	}
	sum.print(summaryOut)
	if report != nil {
		pages, unpaged, stale, err := report.finish("tileproof verify " + strings.Join(args, " "))
		if err != nil {
			return c.fail(exitBadUsage, "verify: --report: %v", err)
		}
		fmt.Fprintf(c.stderr, "wrote %s, with %s in %s\n", f.report, plural(pages, "replay page"), report.dir)
		if stale > 0 {
			fmt.Fprintf(c.stderr, "removed %s of an earlier report from %s\n", plural(stale, "page"), report.dir)
		}
		if unpaged > 0 {
			fmt.Fprintf(c.stderr, "%s no page: --report-pages %d caps the pages of the replays that need your eyes, and of the others\n", pluralHave(unpaged, "replay"), f.reportPages)
		}
	}
	return sum.exitCode()
}

// appendVerdictLine appends vd's JSON line to b as encoding/json writes
// it, with <, >, & and the line separators U+2028 and U+2029 escaped (so
// that a line is safe inside an HTML page's script), but without its
// reflection and second scan of the text when there is nothing to
// escape.
func appendVerdictLine(b []byte, vd replay.Verdict) []byte {
	start := len(b)
	b = vd.AppendJSON(b)
	if text := b[start:]; bytes.IndexByte(text, '<') >= 0 || bytes.IndexByte(text, '>') >= 0 ||
		bytes.IndexByte(text, '&') >= 0 || bytes.IndexByte(text, 0xE2) >= 0 || bytes.IndexByte(text, 0xC2) >= 0 || bytes.IndexByte(text, 0xEF) >= 0 {
		var escaped bytes.Buffer
		json.HTMLEscape(&escaped, text)
		b = append(b[:start], escapeTerminalRunes(escaped.Bytes())...)
	}
	return append(b, '\n')
}

// escapeTerminalRunes writes the C1 controls and Unicode's format
// characters (bidirectional overrides among them) of JSON text as \uXXXX
// escapes: the same strings to a JSON reader, but nothing a terminal
// showing the line could act on (JSON escapes the C0 controls already).
// They occur only inside strings, where the escape is valid.
func escapeTerminalRunes(text []byte) []byte {
	if !slices.ContainsFunc([]rune(string(text)), needsRuneEscape) {
		return text
	}
	out := make([]byte, 0, len(text)+16)
	for _, r := range string(text) {
		if needsRuneEscape(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
			continue
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}

func needsRuneEscape(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r != utf8.RuneError && unicode.Is(unicode.Cf, r)
}

// pluralHave returns "1 replay has", "2 replays have".
func pluralHave(n int, noun string) string {
	if n == 1 {
		return plural(n, noun) + " has"
	}
	return plural(n, noun) + " have"
}

// listInputs sends every replay named by args, in order: files, the replay
// files under directories (sorted; manifest.yaml files are not replays),
// the lines of .jsonl files, and with "-" the lines of stdin.
//
// A file named in args is read as given (a link followed, a pipe read: a
// shell's <(...) is one). Inside a directory only regular files are read:
// a link, a named pipe or a device there is passed to skip with what it
// is, and never opened, so that a directory of submissions cannot make
// verify read a file outside it or wait on a pipe.
func (c *cli) listInputs(args []string, out chan<- replay.Input, skip func(path, why string)) error {
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
		if err := sendDir(arg, out, skip); err != nil {
			return err
		}
	}
	return nil
}

// notRegular says what a file that is not a regular one is, and why it
// is not read.
func notRegular(m fs.FileMode) string {
	what := "not a regular file"
	switch {
	case m&fs.ModeSymlink != 0:
		what = "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeDevice != 0:
		what = "a device"
	}
	return what + "; inside a directory only regular files are read (name it on the command line to read it)"
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

// sendFile sends the replays of one file named on the command line, read
// as given: the file, or each line of a .jsonl file.
func sendFile(path string, out chan<- replay.Input) {
	f, err := os.Open(path)
	if err != nil {
		out <- replay.Input{Name: path, Err: err}
		return
	}
	defer f.Close()
	sendOpened(path, f, out)
}

// sendOpened sends the replays of the open file f, named path.
func sendOpened(path string, f *os.File, out chan<- replay.Input) {
	if strings.HasSuffix(path, ".jsonl") {
		sendLines(path, f, out, maxReplaySize)
		return
	}
	size := int64(maxReplaySize)
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		size = min(info.Size(), size)
	}
	release := verifyBudget.acquire(replayWeight(size)) // before the file is read
	data, err := io.ReadAll(io.LimitReader(f, maxReplaySize+1))
	if err == nil && len(data) > maxReplaySize {
		err = fmt.Errorf("larger than %d MiB", maxReplaySize>>20)
	}
	out <- replay.Input{Name: path, Data: data, Err: err, Release: release}
}

// sendLines sends each non-blank line of r as a replay named NAME:LINE.
func sendLines(name string, r io.Reader, out chan<- replay.Input, limit int) {
	lr := &lineReader{r: r, limit: limit}
	for line := 1; ; line++ {
		data, tooLong, err := lr.next()
		blank := len(bytes.TrimSpace(data)) == 0
		switch {
		case tooLong:
			out <- replay.Input{Name: lineName(name, line), Err: fmt.Errorf("line longer than %d bytes", limit)}
		case !blank && bytes.TrimLeft(data, " \t")[0] != '{':
			// A line of JSON Lines is JSON: a line in YAML is not read as
			// one, as a file in YAML would be.
			out <- replay.Input{Name: lineName(name, line), Err: errors.New("not a JSON object: a line of a JSON Lines batch is one replay in JSON")}
		case !blank:
			release := verifyBudget.acquire(replayWeight(int64(len(data))))
			out <- replay.Input{Name: lineName(name, line), Data: bytes.TrimRight(data, "\r\n"), Release: release}
		}
		if err != nil {
			if err != io.EOF {
				out <- replay.Input{Name: lineName(name, line), Err: err}
			}
			return
		}
	}
}

// lineName names line n of the stream name: NAME:N.
func lineName(name string, n int) string { return name + ":" + strconv.Itoa(n) }

// printVerdict writes a verdict for a person: ok, FAIL or error, then
// what replay.Verdict.Explain gives. A verdict that --strict made
// implausible is a FAIL with its warnings.
//
// The file's name, and every message that may quote a replay, are shown
// with safetext.Terminal: a submission named "\x1b[2K\rok ..." cannot
// repaint its FAIL as ok, set the window's title or write the clipboard.
func printVerdict(w io.Writer, vd replay.Verdict) {
	e := vd.Explain()
	name := safetext.Terminal(vd.Name)
	e.Headline, e.Says, e.Gives = safetext.TerminalLines(e.Headline), safetext.TerminalLines(e.Says), safetext.TerminalLines(e.Gives)
	switch {
	case vd.Valid, vd.Reason == replay.Implausible:
		label, suspicious := "ok    ", ""
		if !vd.Valid {
			label = "FAIL  "
		} else if n := len(vd.Warnings); n > 0 {
			suspicious = fmt.Sprintf("; suspicious: %d spawn warnings", n)
			if n == 1 {
				suspicious = "; suspicious: 1 spawn warning"
			}
		}
		fmt.Fprintf(w, "%s %s: %s%s\n", label, name, e.Headline, suspicious)
		if vd.GameSHA256 != vd.SHA256 {
			fmt.Fprintf(w, "       game as played (undone moves left out): gameSha256 %s\n", vd.GameSHA256)
		}
		for _, warn := range vd.Warnings {
			fmt.Fprintf(w, "       warning: %s\n", safetext.TerminalLines(warn))
		}
	case vd.Reason.Unreadable():
		msg := vd.Error
		if !strings.HasPrefix(msg, vd.Name) {
			msg = vd.Name + ": " + msg
		}
		fmt.Fprintf(w, "error  %s\n", strings.ReplaceAll(safetext.TerminalLines(msg), "\n", "\n       "))
	default:
		d := vd.Divergence
		fmt.Fprintf(w, "FAIL   %s: %s\n", name, e.Headline)
		fmt.Fprintf(w, "       the replay says: %s\n", e.Says)
		fmt.Fprintf(w, "       the rules give:  %s\n", e.Gives)
		for _, a := range e.Also {
			fmt.Fprintf(w, "       also %s\n", safetext.TerminalLines(a))
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
	valid, unreadable int // valid: without warnings
	warned            int // valid replays with plausibility warnings: suspicious
	implausible       int // replays --strict failed for their warnings
	moves             atomic.Int64
	count             atomic.Int64 // read by the progress line while the batch runs
	skipped           atomic.Int64 // files inside directories that are not regular files
	invalid           map[replay.Reason]int
	best              *replay.Verdict
}

func newSummary() *summary {
	return &summary{invalid: map[replay.Reason]int{}}
}

func (s *summary) add(vd replay.Verdict) {
	s.count.Add(1)
	s.moves.Add(int64(vd.Moves))
	switch {
	case vd.Reason == replay.Implausible:
		s.implausible++
	case vd.Valid:
		if len(vd.Warnings) > 0 {
			s.warned++
		} else {
			s.valid++
		}
		if s.best == nil || vd.Score > s.best.Score {
			best := vd // a copy only for a new best: vd itself stays on the stack
			s.best = &best
		}
	case vd.Reason.Unreadable():
		s.unreadable++
	default:
		s.invalid[vd.Reason]++
	}
}

// print writes the summary line: "12 replays: 10 valid, 2 invalid
// (claim-score 1, illegal-move 1), 0 unreadable; best verified score ...",
// with "N suspicious" after the valid when N valid replays have spawn
// warnings (or --strict failed them): the four classes of verdict.
func (s *summary) print(w io.Writer) {
	n := 0
	var reasons []string
	for r, k := range s.invalid {
		n += k
		reasons = append(reasons, fmt.Sprintf("%s %d", r, k))
	}
	sort.Strings(reasons)
	fmt.Fprintf(w, "%s: %d valid", plural(int(s.count.Load()), "replay"), s.valid)
	if s.warned > 0 {
		fmt.Fprintf(w, ", %d suspicious (spawn warnings)", s.warned)
	}
	if s.implausible > 0 {
		fmt.Fprintf(w, ", %d suspicious (implausible, failed by --strict)", s.implausible)
	}
	fmt.Fprintf(w, ", %d invalid", n)
	if n > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(reasons, ", "))
	}
	fmt.Fprintf(w, ", %d unreadable", s.unreadable)
	if k := s.skipped.Load(); k > 0 {
		fmt.Fprintf(w, ", %d skipped (not regular files)", k)
	}
	if s.best != nil {
		fmt.Fprintf(w, "; best verified score %d (%s)", s.best.Score, safetext.Terminal(s.best.Name))
	}
	fmt.Fprintln(w)
}

func (s *summary) exitCode() int {
	switch {
	case s.unreadable > 0:
		return exitBadUsage
	case int64(s.valid+s.warned) < s.count.Load():
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
					fmt.Fprintf(f, "\r\033[Kverified %s, %d moves (%.0f moves/s)", plural(int(s.count.Load()), "replay"), s.moves.Load(), float64(s.moves.Load())/el.Seconds())
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
