package htmlview

import (
	"errors"
	"fmt"
	"html/template"
	"io"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// Game is a replay to show: the decoded replay, its verdict and its
// frames, as [replay.Verifier.Trace] returns them.
type Game struct {
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
func Replay(w io.Writer, g Game, opt Options) error {
	if len(g.Frames) == 0 || g.Replay == nil {
		return errors.New("htmlview: a replay without frames cannot be shown")
	}
	d := viewData(g)
	v := g.Verdict
	page := struct {
		Title   string
		V       replay.Verdict
		Data    data
		Chart   template.HTML
		Steps   int
		Options Options
	}{Title: v.Name, V: v, Data: d, Chart: scoreChart(d.Score, d.steps()), Steps: d.steps() - 1, Options: opt}
	if page.Title == "" {
		page.Title = "replay"
	}
	return pages().ExecuteTemplate(w, "replay.html", page)
}

// data is what the viewer's script reads: the frames, a field a slice
// (or a string of one character a frame), index i for frame i.
type data struct {
	Rows int `json:"rows"`
	Cols int `json:"cols"`
	// Board is each frame's board, a character a cell, row-major, the
	// tile's exponent in expDigits ("0" empty, "1" a 2, "b" a 2048).
	Board  []string `json:"board"`
	Score  []uint64 `json:"score"`
	Moves  []int    `json:"moves"`
	Gained []uint64 `json:"gained"`
	// Act is the action that led to each frame, its move-log letter
	// ("-" for frame 0).
	Act string `json:"act"`
	// Spawn is the tile that appeared in each frame: [cell, value], cell
	// row-major; [0, 0] when none did.
	Spawn [][2]uint64 `json:"spawn"`
	// Won and Result are a character a frame: "1" once won; the result's
	// index in Results.
	Won     string   `json:"won"`
	Result  string   `json:"result"`
	Results []string `json:"results"`
	Div     *divSpot `json:"div,omitempty"`
	Profile string   `json:"profile"`
	Claimed *claimed `json:"claimed,omitempty"`
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
	n := len(d.Board)
	if d.Div != nil && d.Div.Board != "" {
		n++
	}
	return n
}

// resultNames returns the results' words, by their numbers
// (engine.Result).
func resultNames() []string {
	var names []string
	for r := engine.Playing; r <= engine.RunFinished; r++ {
		names = append(names, r.String())
	}
	return names
}

func viewData(g Game) data {
	first := g.Frames[0].Board
	d := data{Rows: first.Rows(), Cols: first.Cols(), Results: resultNames(), Profile: g.Verdict.Profile}
	act := make([]byte, len(g.Frames))
	won := make([]byte, len(g.Frames))
	res := make([]byte, len(g.Frames))
	for i, f := range g.Frames {
		d.Board = append(d.Board, boardCode(f.Board))
		d.Score = append(d.Score, f.Score)
		d.Moves = append(d.Moves, f.Moves)
		d.Gained = append(d.Gained, f.Gained)
		act[i] = '-'
		if i > 0 {
			act[i] = f.Action.Letter()
		}
		var sp [2]uint64
		if f.Spawn != nil {
			sp = [2]uint64{uint64(f.Spawn.Row*d.Cols + f.Spawn.Col), f.Spawn.Value}
		}
		d.Spawn = append(d.Spawn, sp)
		won[i] = '0'
		if f.Won {
			won[i] = '1'
		}
		res[i] = expDigits[f.Result]
	}
	d.Act, d.Won, d.Result = string(act), string(won), string(res)
	d.Div, d.Claimed = divergence(g)
	return d
}

// divergence says where the viewer shows an invalid replay's first
// divergence and which cells it highlights; nil for a valid replay.
func divergence(g Game) (*divSpot, *claimed) {
	v := g.Verdict
	if v.Valid || v.Reason == "" {
		return nil, nil
	}
	last := g.Frames[len(g.Frames)-1]
	s := &divSpot{Step: len(g.Frames) - 1, Reason: string(v.Reason), Note: v.Reason.Describe(), Cells: []int{}}
	dv := v.Divergence
	if dv != nil {
		e := v.Explain()
		s.Action, s.Expected, s.Found = dv.Action, e.Says, e.Gives
	}
	r := g.Replay
	cols := last.Board.Cols()
	// refuse makes the extra step of an action the rules refuse: the
	// board it was refused on, the action drawn over it.
	refuse := func(why string) {
		if s.Action < 1 || s.Action > len(r.Actions) {
			return
		}
		s.Step, s.Board, s.Letter, s.Refused = len(g.Frames), boardCode(last.Board), string(r.Actions[s.Action-1].Letter()), why
	}
	switch v.Reason {
	case replay.BadSpawn:
		// The frames stop before the action; the extra step is that
		// action's slide (the divergence's board) with the recorded
		// tile's cell marked.
		if dv == nil || dv.Board == nil || dv.Spawn == nil {
			break
		}
		i, a, sp, slid := dv.Action-1, dv.Act, *dv.Spawn, *dv.Board
		s.Step = len(g.Frames)
		s.Board, s.Letter = boardCode(slid), string(a.Letter())
		if sp.Row >= 0 && sp.Row < slid.Rows() && sp.Col >= 0 && sp.Col < cols {
			cell := uint64(sp.Row*cols + sp.Col)
			s.Spawn = &[2]uint64{cell, sp.Value}
			s.Cells = append(s.Cells, int(cell))
		}
		s.Note = fmt.Sprintf("action %d (%s) records a %d at row %d, column %d (marked) on the board after its slide",
			i+1, a, sp.Value, sp.Row, sp.Col)
	case replay.IllegalMove:
		refuse("changes nothing")
		s.Note = fmt.Sprintf("action %d (%s) changes nothing on this board: an illegal move", s.Action, actionAt(r, s.Action))
	case replay.AfterEnd:
		refuse("after the end")
		s.Note = fmt.Sprintf("the run has ended on this board; the log goes on with action %d (%s)", s.Action, actionAt(r, s.Action))
	case replay.BadAction:
		refuse("not allowed")
		s.Note = fmt.Sprintf("action %d (%s) is not allowed here", s.Action, actionAt(r, s.Action))
	}
	// A claimed final board that is not the real one: mark the cells
	// that differ, on the game's end.
	var cl *claimed
	if cb := r.Claim.Board; cb != nil && len(g.Frames)-1 == len(r.Actions) && v.Reason != replay.BadSpawn &&
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

func actionAt(r *replay.Replay, action int) string {
	if action < 1 || action > len(r.Actions) {
		return "none"
	}
	return r.Actions[action-1].String()
}
