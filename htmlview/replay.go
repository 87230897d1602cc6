package htmlview

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// TracedReplay is a replay to show: the decoded replay, its verdict and its
// frames, as [replay.Verifier.Trace] returns them. A command that writes
// pages uses a [Viewer] instead, which never holds the frames.
type TracedReplay struct {
	Replay  *replay.Replay
	Verdict replay.Verdict
	Frames  []replay.Frame
}

// Options shape a replay's page.
type Options struct {
	// Back, when not empty, is the URL of a page to link back to (the
	// batch report), with BackText its words.
	Back, BackText string
}

// Replay writes the viewer page of one replay to w: the board at each
// step with a slider and keyboard stepping, the score over the moves, and
// for an invalid replay its first divergence, highlighted. The game must
// have at least one frame (a replay that could not be replayed has none).
func Replay(w io.Writer, g TracedReplay, opt Options) error {
	p := NewViewer(g.Replay)
	for _, f := range g.Frames {
		p.Add(f)
	}
	return p.Write(w, g.Verdict, opt)
}

// Viewer builds a replay's viewer page from its frames as the verifier
// hands them out ([replay.Verifier.Walk] with [Viewer.Add]), holding one
// frame and the page's compressed records (steps.go), never a frame a
// step: its memory and the page are a small multiple of the replay's
// size, whatever its shape.
type Viewer struct {
	r     *replay.Replay
	steps stepStream
	chart chartLine
	marks milestones
	heat  heat
	// budget is the most compressed bytes the steps may take; past it the
	// page stops at the last step recorded (cut says where).
	budget int
	cut    int
}

// NewViewer returns a viewer page of r to fill with Add.
func NewViewer(r *replay.Replay) *Viewer {
	p := &Viewer{r: r, cut: -1}
	if r != nil {
		p.budget = 64<<10 + 24*len(r.Actions) // 24 a step and 64 KB (docs/security.md)
	}
	return p
}

// Add records the next frame of the game (the first is its start).
func (p *Viewer) Add(f replay.Frame) {
	if p.cut >= 0 {
		return
	}
	if p.steps.n > 0 && p.steps.buf.Len() > p.budget {
		p.cut = p.steps.n
		return
	}
	p.steps.add(f)
	p.chart.add(f.Score)
	p.marks.add(f)
	p.heat.add(f)
}

// Frames returns the number of frames recorded.
func (p *Viewer) Frames() int { return p.steps.n }

// WriteFile creates the file name and writes the page into it, as Write
// does.
func (p *Viewer) WriteFile(name string, v replay.Verdict, opt Options) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	return writeClose(f, func(w io.Writer) error { return p.Write(w, v, opt) })
}

// writeClose writes to f with write, through a buffer, and closes f.
func writeClose(f io.WriteCloser, write func(io.Writer) error) error {
	b := bufio.NewWriterSize(f, 64<<10)
	err := write(b)
	if err == nil {
		err = b.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Write writes the page of the game recorded, with its verdict v.
func (p *Viewer) Write(w io.Writer, v replay.Verdict, opt Options) error {
	if p.steps.n == 0 || p.r == nil {
		return errors.New("htmlview: a replay without frames cannot be shown")
	}
	z := p.steps.finish()
	d := p.viewData(v)
	page := struct {
		Title   string
		V       replay.Verdict
		Data    data
		Chart   chartView
		Steps   int
		Z       string
		Heat    *heatMap
		Options Options
		Head    headline
		// Evidence is the section of the verdict's analysis, when it
		// carries one (analysis.go).
		Evidence *evidence
		Analysed bool // the page carries the analysis's style
		// Times is the line of the check of the game's think times, when
		// the verdict carries one (times.go).
		Times *timesView
	}{Title: v.Name, V: v, Data: d, Chart: p.chart.view(d.steps()), Steps: d.steps() - 1, Head: p.headline(v),
		Z: base64.RawURLEncoding.EncodeToString(z), Options: opt, Evidence: evidenceOf(v.Analysis), Times: timesViewOf(v)}
	page.Analysed = page.Evidence != nil
	if kindOf(v) == kindSuspicious {
		page.Heat = p.heat.grid()
	}
	if page.Title == "" {
		page.Title = "replay"
	}
	return pages().ExecuteTemplate(w, "replay.html", page)
}

// headline is the page's headline: the game's figures, digits grouped.
type headline struct{ Score, MaxTile, Moves string }

// headline returns the figures of the game the page shows: the verdict's
// (to the end when valid, to the divergence otherwise), else those of the
// last step recorded.
func (p *Viewer) headline(v replay.Verdict) headline {
	if v.Replayed {
		return headline{grouped(v.Score), grouped(v.MaxTile), grouped(uint64(v.Moves))}
	}
	f := p.steps.prev
	return headline{grouped(f.Score), grouped(f.Board.MaxTile()), grouped(uint64(f.Moves))}
}

// data is what the viewer's script reads beside the steps' records: the
// start, and what it shows once.
type data struct {
	Rows int `json:"rows"`
	Cols int `json:"cols"`
	// Start is the start board, a character a cell, row-major, the
	// tile's exponent in expDigits ("0" empty, "1" a 2, "b" a 2048).
	Start string `json:"start"`
	// Score, Moves and State are the start's figures (State as a
	// record's state byte).
	Score uint64 `json:"score"`
	Moves int    `json:"moves"`
	State int    `json:"state"`
	// Frames is the number of frames the records make, the start
	// included; Cut, when not 0, the frames the page left out past its
	// size budget.
	Frames  int      `json:"frames"`
	Cut     int      `json:"cut,omitempty"`
	Results []string `json:"results"`
	Div     *divSpot `json:"div,omitempty"`
	Profile string   `json:"profile"`
	Claimed *claimed `json:"claimed,omitempty"`
	Marks   []mark   `json:"marks"`
}

// divSpot is where and how the viewer shows an invalid replay's first
// divergence.
type divSpot struct {
	// Step is the viewer step that shows it: the last frame, or, when
	// Board is set, one step past the frames.
	Step     int    `json:"step"`
	Reason   string `json:"reason"`
	Action   int    `json:"action"` // the 1-based action of the log; 0 for none
	Expected string `json:"expected"`
	Found    string `json:"found"`
	Note     string `json:"note"` // one sentence for people
	// Claim says the moves keep the rules to the end and the claim alone
	// is false (replay.Verdict.ClaimAloneFalse): the moment is the
	// claim's, not where the game leaves the rules.
	Claim bool `json:"claim,omitempty"`
	// Cells are the highlighted cells, row-major.
	Cells []int `json:"cells"`
	// Board is the board of the extra step: after the action's slide for
	// a bad spawn, where the tile would go (Spawn the recorded tile); the
	// board the action was refused on for an illegal move, an action after
	// the end or one not allowed (Refused says how, in a few words, drawn
	// over the board with the action). Letter is the action.
	Board   string     `json:"board,omitempty"`
	Letter  string     `json:"letter,omitempty"`
	Spawn   *[2]uint64 `json:"spawn,omitempty"`
	Refused string     `json:"refused,omitempty"`
}

// claimed is a claimed final board that differs from the real one, shown
// beside it at the last step.
type claimed struct {
	Board string `json:"board"`
}

func (d data) steps() int {
	n := d.Frames
	if d.Div != nil && d.Div.Board != "" {
		n++
	}
	return n
}

func (p *Viewer) viewData(v replay.Verdict) data {
	f0 := p.steps.first
	d := data{Rows: f0.Board.Rows(), Cols: f0.Board.Cols(), Start: boardCode(f0.Board), Score: f0.Score, Moves: f0.Moves,
		State: int(stateByte(f0)), Frames: p.steps.n, Profile: v.Profile}
	for r := engine.Playing; r <= engine.RunFinished; r++ { // the results' words, by their numbers
		d.Results = append(d.Results, r.String())
	}
	if p.cut >= 0 {
		d.Cut = p.cut
		return d // the divergence lies past the steps shown
	}
	d.Div, d.Claimed = divergence(p.r, v, p.steps.prev, p.steps.n)
	d.Marks = p.marks.list(d.steps() - 1)
	return d
}

// divergence says where the viewer shows an invalid replay's first
// divergence and which cells it highlights; nil for a valid replay.
func divergence(r *replay.Replay, v replay.Verdict, last replay.Frame, frames int) (*divSpot, *claimed) {
	if v.Valid || v.Reason == "" {
		return nil, nil
	}
	s := &divSpot{Step: frames - 1, Reason: string(v.Reason), Note: v.Reason.Describe(), Cells: []int{}, Claim: v.ClaimAloneFalse()}
	dv := v.Divergence
	if dv != nil {
		e := v.Explain()
		s.Action, s.Expected, s.Found = dv.Action, e.Says, e.Gives
	}
	cols := last.Board.Cols()
	// An action the rules refuse has an extra step: the board it was
	// refused on, the action drawn over it with how it was refused.
	refused := map[replay.Reason][2]string{
		replay.IllegalMove: {"changes nothing", "action %d (%s) changes nothing on this board: an illegal move"},
		replay.AfterEnd:    {"after the end", "the run has ended on this board; the log goes on with action %d (%s)"},
		replay.BadAction:   {"not allowed", "action %d (%s) is not allowed here"},
	}
	if why, ok := refused[v.Reason]; ok {
		act := "none"
		if s.Action >= 1 && s.Action <= len(r.Actions) {
			a := r.Actions[s.Action-1]
			act = a.String()
			s.Step, s.Board, s.Letter, s.Refused = frames, boardCode(last.Board), string(a.Letter()), why[0]
		}
		s.Note = fmt.Sprintf(why[1], s.Action, act)
	}
	if v.Reason == replay.BadSpawn {
		// The frames stop before the action; the extra step is that
		// action's slide (the divergence's board) with the recorded
		// tile's cell marked.
		if dv != nil && dv.Board != nil && dv.Spawn != nil {
			i, a, sp, slid := dv.Action-1, dv.Act, *dv.Spawn, *dv.Board
			s.Step = frames
			s.Board, s.Letter = boardCode(slid), string(a.Letter())
			if sp.Row >= 0 && sp.Row < slid.Rows() && sp.Col >= 0 && sp.Col < cols {
				cell := uint64(sp.Row*cols + sp.Col)
				s.Spawn = &[2]uint64{cell, sp.Value}
				s.Cells = append(s.Cells, int(cell))
			}
			s.Note = fmt.Sprintf("action %d (%s) records a %d at row %d, column %d (marked) on the board after its slide",
				i+1, a, sp.Value, sp.Row, sp.Col)
		}
	}
	// A claimed final board that is not the real one: mark the cells
	// that differ, on the game's end.
	var cl *claimed
	if cb := r.Claim.Board; cb != nil && frames-1 == len(r.Actions) && v.Reason != replay.BadSpawn &&
		cb.Rows() == last.Board.Rows() && cb.Cols() == cols && *cb != last.Board {
		cl = &claimed{Board: boardCode(*cb)}
		for row := range cb.Rows() {
			for c := range cols {
				if cb.At(row, c) != last.Board.At(row, c) {
					s.Cells = append(s.Cells, row*cols+c)
				}
			}
		}
	}
	return s, cl
}
