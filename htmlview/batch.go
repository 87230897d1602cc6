package htmlview

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tileproof/tileproof/replay"
)

// BatchReport is a batch's report (verify --report FILE): the summary
// page FILE, and a viewer page for each replay that can be replayed in the
// directory FILE_files beside it (FILE without its extension, then
// _files), written as the batch goes: Verify verifies each (it
// is the batch's verify function), Add takes each verdict in the batch's
// order, and Finish writes the summary page. Replays read from stdin get pages too; they have
// no file to link to. A batch of many replays gets at most maxPages pages
// of the replays that need the operator's eyes and maxPages of the other
// valid ones, so that a large audit does not write a file per game; the
// rest are listed without a page. Which replays get a page is decided in
// the batch's order, so it does not depend on the order in which the
// workers finish.
type BatchReport struct {
	v       *replay.Verifier
	file    *os.File
	created bool   // FILE was not there before this report: Abandon removes it
	name    string // FILE as given
	dir     string // the pages' directory
	dirURL  string // the pages' directory, relative to FILE
	baseAbs string // FILE's directory, absolute, for the links to replay files

	maxPages int
	top      int // the top scores that need the operator's eyes

	mu        sync.Mutex
	valid     int                   // the valid replays added that need no one's eyes whatever the scores
	unpaged   int                   // replays that could have had a page, over the cap
	needs     []*held               // suspicious, atypical and invalid replays, for their pages
	tops      []*held               // the top scores among the replays added, for their pages (an atypical one's holds nothing)
	pending   map[string][]*held    // replays Verify held, until Add decides
	maybe     []*held               // valid replays whose page Finish decides, on the top scores
	heldBytes int                   // the bytes held
	claims    map[string][]claimOf  // the claims of each name verified, in turn, until Add takes them (a replay named twice has two)
	writes    map[string]*pageWrite // the pages this report set out to write, by file name in dir (one written at once may not be kept)
	pages     map[string]string     // a replay's name to its page's URL, relative to FILE
	files     map[string]bool       // the pages' file names kept, in dir
	err       error                 // the first page kept that could not be written
	entries   []Entry
	skipped   int            // the files inside the batch's directories not read
	skips     []SkippedFile  // the first maxListed of them
	temps     atomic.Int64   // the temporary files made so far, for their names
	writing   sync.WaitGroup // the pages Add has being written
	slots     chan struct{}  // one a page being written, up to GOMAXPROCS

	root *os.Root // dir, opened: every page is written and removed through it (batch_safety.go)

	extras func(vd *replay.Verdict, r *replay.Replay) // set by SetExtras
}

// SetExtras makes the report add to the verdict of each replay that
// decodes, with f, what the batch asks for beside it, before its page is
// written: the check of its think times against the signed server's key
// (verify --times-key-file), which the game's page and the summary's
// counts show, and the analysis (verify --analyze),
// which its page shows and the summary lists by band (analysis.go reads
// it). Call it before the first Verify.
func (h *BatchReport) SetExtras(f func(vd *replay.Verdict, r *replay.Replay)) { h.extras = f }

// CreateBatchReport creates the report FILE name and its pages'
// directory, so that a path that cannot be written fails before any
// replay is verified. inputs are the batch's inputs as named on its
// command line ("-" for stdin): a report that would destroy one before it
// is read is refused. maxPages caps the pages of the replays that need the
// operator's eyes (suspicious, invalid, the top scores), and as many of
// the other valid ones; top is how many top scores are listed and paged
// among the first.
func CreateBatchReport(name string, inputs []string, v *replay.Verifier, maxPages, top int) (*BatchReport, error) {
	if err := checkReportNotInput(name, inputs); err != nil {
		return nil, err
	}
	dir := strings.TrimSuffix(name, filepath.Ext(name)) + "_files"
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	f, root, created, err := createReport(name, dir) // batch_safety.go: no link followed
	if err != nil {
		return nil, err
	}
	return &BatchReport{v: v, file: f, root: root, created: created, name: name, dir: dir, dirURL: uriComponent(filepath.Base(dir)),
		baseAbs: filepath.Dir(abs), maxPages: maxPages, top: top, claims: map[string][]claimOf{}, pending: map[string][]*held{},
		writes: map[string]*pageWrite{}, pages: map[string]string{}, files: map[string]bool{},
		slots: make(chan struct{}, runtime.GOMAXPROCS(0))}, nil
}

// Dir returns the pages' directory: FILE without its extension, then
// _files.
func (h *BatchReport) Dir() string { return h.dir }

// Verify verifies one replay as replay.Verifier.VerifyFile does. A
// replay that needs the operator's eyes (suspicious, atypical or invalid)
// is held, its bytes kept, for Finish to write its page in the order of
// need; so is another valid one that may be among the top scores or the
// first maxPages of the others, for Add to decide in the batch's order.
func (h *BatchReport) Verify(name string, data []byte) replay.Verdict {
	r, err := replay.Decode(name, data)
	if err != nil {
		return replay.Verdict{Name: name, Reason: replay.Malformed, Error: err.Error()}
	}
	vd := h.v.Verify(r)
	vd.Name = name
	if h.extras != nil {
		h.extras(&vd, r)
	}
	c := claimOf{score: r.Claim.Score}
	if vd.Reason == replay.ImpossibleClaim {
		c.played = playedOf(h.v, r)
	}
	h.mu.Lock()
	h.claims[name] = append(h.claims[name], c)
	h.mu.Unlock()
	if !vd.Reason.Replayable() {
		return vd
	}
	if rank, need := needRank(vd); need {
		x := h.keep(vd, data, r, rank)
		h.mu.Lock()
		h.needs = append(h.needs, x)
		h.mu.Unlock()
		return vd
	}
	h.mu.Lock()
	mayTop := h.top > 0 && (len(h.tops) < h.top || vd.Score > lowest(h.tops).score)
	// Fewer than maxPages+top valid ones before it: it may be among the
	// first maxPages of those that are not top scores.
	mayPage := h.valid < h.maxPages+h.top
	h.mu.Unlock()
	if mayTop || mayPage {
		x := h.keep(vd, data, r, heldTop)
		h.mu.Lock()
		h.pending[name] = append(h.pending[name], x)
		h.mu.Unlock()
	}
	return vd
}

// writeHeld decodes a held replay again and writes its page, unless it
// was written at once.
func (h *BatchReport) writeHeld(x *held) {
	if x.atOnce {
		return
	}
	r, err := replay.Decode(x.name, x.data)
	if err != nil {
		return // decoded once already: cannot happen
	}
	h.writePage(x.name, r, replay.Verdict{Analysis: x.analysis, ThinkTimes: x.times})
}

// writePage verifies r again, its frames into its page (Viewer,
// never a frame a step held), and writes the page, with what the batch
// added to the game's verdict (from: its analysis, the check of its think
// times) when it has it. The page is kept only once keepPage says so.
func (h *BatchReport) writePage(name string, r *replay.Replay, from replay.Verdict) {
	pv := NewViewer(r)
	vd := h.v.Walk(r, pv.Add)
	vd.Name, vd.Analysis, vd.ThinkTimes = name, from.Analysis, from.ThinkTimes
	if pv.Frames() == 0 {
		return
	}
	page := pageFile(name)
	// Whether an earlier report's page is there is known before this
	// report first writes the page: the first to claim it stats it, under
	// the lock, so that the same page written twice at once (a replay
	// named twice) does not take the other write's file for an earlier
	// report's.
	h.mu.Lock()
	pw := h.writes[page]
	if pw == nil {
		_, serr := h.root.Stat(page)
		pw = &pageWrite{earlier: serr == nil}
		h.writes[page] = pw
	}
	h.mu.Unlock()
	err := h.writeFileAtomic(page, func(w io.Writer) error {
		return pv.Write(w, vd, Options{Back: "../" + url.PathEscape(filepath.Base(h.name)), BackText: "the batch report"})
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	if err != nil {
		// A page written at once may not be kept: keepPage fails the
		// report when it is.
		pw.err = err
		return
	}
	pw.done = true
}

// claimOf is what the report keeps of a replay verified until Add takes
// its verdict: its claimed score, and for an impossible claim what its
// moves make (playedOf).
type claimOf struct {
	score  uint64
	played *Played
}

// Played is what the moves of a replay whose claim no game reaches
// (impossible-claim, judged before replaying) make when they are replayed
// all the same, for the report alone: the verdict stays as it is. It
// tells an inflated claim on a game of the rules from moves that break
// them too.
type Played struct {
	Score   uint64
	MaxTile uint64
	Moves   int
	// Broken is the action at which the moves leave the rules, 0 when
	// they keep them to the end of the log.
	Broken int
}

// playedOf replays r's moves whatever its claim and returns what they
// make, nil when they cannot be replayed (a bad start board).
func playedOf(v *replay.Verifier, r *replay.Replay) *Played {
	var last replay.Frame
	frames := 0
	v.Walk(r, func(f replay.Frame) { last, frames = f, frames+1 })
	if frames == 0 {
		return nil
	}
	p := &Played{Score: last.Score, MaxTile: last.Board.MaxTile(), Moves: last.Moves}
	if last.Step < len(r.Actions) {
		p.Broken = last.Step + 1
	}
	return p
}

// pageWrite is what became of a page this report set out to write.
type pageWrite struct {
	earlier bool  // an earlier report's page was there before this report first wrote it
	done    bool  // written
	err     error // the write failed, when not done
}

// Add records a verdict, in the batch's order, and starts writing the
// page of a replay whose place in the batch gives it one.
func (h *BatchReport) Add(vd replay.Verdict) {
	h.mu.Lock()
	// The summary lists the analysis's band and median think time; its
	// page holds the rest, which the entries, one a replay of the batch,
	// do not keep.
	e := Entry{Verdict: vd, Source: h.source(vd.Name)}
	e.Band, e.ThinkMs = cellsOf(vd.Analysis)
	e.Verdict.Analysis = nil
	if q := h.claims[vd.Name]; len(q) > 0 {
		c := q[0].score
		e.Claimed, e.Played = &c, q[0].played
		if len(q) == 1 {
			delete(h.claims, vd.Name)
		} else {
			h.claims[vd.Name] = q[1:]
		}
	}
	var due *held
	if kindOf(vd) == kindValid {
		due = h.addValid(vd.Name, vd.Score, len(h.entries), flagged(e.Band))
	}
	h.entries = append(h.entries, e)
	h.mu.Unlock()
	if due != nil { // written beside the batch, as many at once as it has CPUs
		h.slots <- struct{}{}
		h.writing.Go(func() {
			defer func() { <-h.slots }()
			h.writeHeld(due)
			h.mu.Lock()
			h.release(due)
			h.mu.Unlock()
		})
	}
}

// Skip records a file inside one of the batch's directories that the
// batch did not read (as verify names it on standard error: a link, a
// named pipe, a hidden file, a case pack), and why: the summary counts
// them and names the first maxListed, in the order given. It may be
// called while the batch runs.
func (h *BatchReport) Skip(name, why string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.skipped++
	if len(h.skips) < maxListed {
		h.skips = append(h.skips, SkippedFile{Name: name, Why: why})
	}
}

// Abandon gives up the summary page of a batch that could not be listed
// (the pages written stay): an earlier report's summary is left as it
// was, a file this report created is removed.
func (h *BatchReport) Abandon() {
	h.writing.Wait()
	h.root.Close()
	h.file.Close()
	if h.created {
		os.Remove(h.name)
	}
}

// Finish writes the summary page, then removes the pages in the
// directory that it does not link to (an earlier report's, and those
// written at once past maxHeld that the cap leaves out), so that the
// directory holds this report's pages only. pages is the number of viewer
// pages written, unpaged the number of replays left without one by the
// cap, stale the number of earlier pages removed.
func (h *BatchReport) Finish(title string) (pages, unpaged, stale int, err error) {
	defer h.file.Close()
	h.writing.Wait()
	h.keepOrdinary()
	h.writeNeeded()
	if h.err != nil {
		return 0, 0, 0, h.err
	}
	for i := range h.entries {
		h.entries[i].Page = h.pages[h.entries[i].Verdict.Name]
	}
	// An earlier report's summary is written over only now.
	if err := h.file.Truncate(0); err != nil {
		return 0, 0, 0, err
	}
	if err := ReportWith(h.file, title, h.entries, ReportOptions{Top: h.top, Skipped: h.skipped, SkippedFiles: h.skips}); err != nil {
		return 0, 0, 0, fmt.Errorf("%s: %v", h.name, err)
	}
	if err := h.file.Close(); err != nil {
		return 0, 0, 0, err
	}
	stale, err = h.removeStale()
	return len(h.pages), h.unpaged, stale, err
}

// isPageName reports whether name is one pageFile gives: safe
// characters, a dash, 8 lowercase hex digits and .html.
func isPageName(name string) bool {
	base, ok := strings.CutSuffix(name, ".html")
	n := len(base) - 9 // the dash and the hash
	return ok && n >= 1 && base[n] == '-' && strings.Trim(base[n+1:], "0123456789abcdef") == "" && safeName(base[:n]) == base[:n]
}

// removeStale removes the files of the pages' directory named as pages
// are (isPageName) that this report does not link to, counting an
// earlier report's: those it did not write, and those it wrote over (a
// page written at once past maxHeld, then left out by the cap). Other
// files are left.
func (h *BatchReport) removeStale() (int, error) {
	defer h.root.Close()
	d, err := h.root.Open(".")
	if err != nil {
		return 0, err
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !isPageName(name) || h.files[name] {
			continue
		}
		if err := h.root.Remove(name); err != nil {
			return n, err
		}
		if pw := h.writes[name]; pw == nil || !pw.done || pw.earlier {
			n++
		}
	}
	return n, nil
}

// jsonlFile returns the file of a JSON Lines replay's name, FILE.jsonl:LINE.
func jsonlFile(name string) (string, bool) {
	i := strings.LastIndexByte(name, ':')
	if i < 0 || i == len(name)-1 || strings.ContainsRune(name[:i], '\n') || !strings.HasSuffix(name[:i], ".jsonl") ||
		strings.Trim(name[i+1:], "0123456789") != "" {
		return "", false
	}
	return name[:i], true
}

// source returns the URL, relative to the report, of the file a replay
// came from: the file, or the .jsonl file of a line; "" for stdin.
func (h *BatchReport) source(name string) string {
	file := name
	if f, ok := jsonlFile(name); ok {
		file = f
	}
	if info, err := os.Stat(file); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(h.baseAbs, abs)
	if err != nil {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	}
	return pathURL(filepath.ToSlash(rel))
}

// safeChar reports whether b may stand in a page's name as it is.
func safeChar(b byte) bool {
	return 'A' <= b && b <= 'Z' || 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '.' || b == '_' || b == '-'
}

// safeName returns name with each run of other characters than safeChar's
// replaced by one underscore: name itself when it has none.
func safeName(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for i := 0; i < len(name); i++ {
		switch {
		case safeChar(name[i]):
			b.WriteByte(name[i])
		case i == 0 || safeChar(name[i-1]):
			b.WriteByte('_')
		}
	}
	return b.String()
}

// pageFile names a replay's page: its base name made safe, and a hash of
// the whole name so that two replays never share a page.
func pageFile(name string) string {
	sum := sha256.Sum256([]byte(name))
	base := safeName(filepath.Base(name))
	if len(base) > 60 {
		base = base[:60]
	}
	return base + "-" + hex.EncodeToString(sum[:4]) + ".html"
}

// writeFileAtomic writes the page name with write to a temporary file
// beside it and renames it, so that a page written twice (a replay named
// twice) is never torn. It is the one place the report writes a page's
// file: through the pages' directory opened as an os.Root, so that a
// directory swapped for a link while the batch runs is not written
// through.
func (h *BatchReport) writeFileAtomic(name string, write func(io.Writer) error) error {
	tmp := fmt.Sprintf(".page-%d-%d", os.Getpid(), h.temps.Add(1))
	f, err := h.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, 0o600)
	if err != nil {
		return err
	}
	err = writeClose(f, write)
	if err == nil {
		err = h.root.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = h.root.Rename(tmp, name)
	}
	if err != nil {
		h.root.Remove(tmp)
	}
	return err
}
