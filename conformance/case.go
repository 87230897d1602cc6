package conformance

import (
	"slices"

	"github.com/tileproof/tileproof/engine"
)

// Case is one conformance case: a starting state and steps, each with what
// must follow. Its YAML form is docs/case-format.md's, read ([LoadPack])
// and written (exploration's found cases) from these same fields.
type Case struct {
	Area        string   `yaml:"-"` // the folder under the pack: core, pgs, rosetta, ...
	ID          string   `yaml:"id"`
	Description string   `yaml:"description,omitempty"`
	Source      string   `yaml:"source,omitempty"`        // where it comes from (the file's, when the case names none)
	Profiles    []string `yaml:"profiles,omitempty,flow"` // the profiles it applies to; "all" for every one
	// Needs are the features the case file names the case as needing
	// (its YAML key needs); Features adds the file's and those its
	// content implies.
	Needs []string `yaml:"needs,omitempty,flow"`
	// Unreachable says why no game reaches the case's state (an empty
	// board, a tile no board of its size can make), "" for a state a
	// game reaches. Its results are reported apart: a failure on it does
	// not fail a run unless asked (docs/case-format.md).
	Unreachable string `yaml:"unreachable,omitempty"`
	// Features are every feature the case needs to run: its Needs, the
	// file's needs, and those its content implies (a loaded start:
	// load-state). Reading the case sets them.
	Features []string   `yaml:"-"`
	Start    Start      `yaml:"start"`
	Steps    []CaseStep `yaml:"steps"`
	File     string     `yaml:"-"` // the file it was read from, for messages
	Line     int        `yaml:"-"`
}

// Name returns the case's full name, AREA/ID.
func (c *Case) Name() string { return c.Area + "/" + c.ID }

// YAML returns the case as a case file of its own (docs/case-format.md),
// as a failing result's CaseInfo carries it.
func (c *Case) YAML() []byte { return encodeCases("", nil, []*Case{c}) }

// appliesTo reports whether the case applies to a profile.
func (c *Case) appliesTo(profile string) bool {
	return slices.Contains(c.Profiles, "all") || slices.Contains(c.Profiles, profile)
}

// Start is a case's starting state: a given board (with score, moves and
// flags), or a tp1 seed.
type Start struct {
	Seed        *string       `yaml:"seed,omitempty"`
	Board       *engine.Board `yaml:"board,omitempty"`
	Score       uint64        `yaml:"score,omitempty"`
	Moves       int64         `yaml:"moves,omitempty"` // int64, so a 32-bit build reads a pack's 2^53-1
	Won         bool          `yaml:"won,omitempty"`
	KeepPlaying bool          `yaml:"keepPlaying,omitempty"`
	// Setup is the run's choice where the profile offers one: online-2048's
	// target and finish, PGS continue mode (feature setup).
	Setup *engine.Setup `yaml:"setup,omitempty,flow"`
}

// CaseStep is one action of a case and what must follow it.
type CaseStep struct {
	Move   *engine.Direction `yaml:"move,omitempty"`       // a move, or
	Action string            `yaml:"action,omitempty"`     // undo, end-run or keep-playing; neither: a check only
	Spawn  *engine.Spawn     `yaml:"spawn,omitempty,flow"` // the spawn to force after the move
	Expect Expect            `yaml:"expect"`
	Line   int               `yaml:"-"`
}

// Expect is what must hold after a step; nil fields are not checked.
type Expect struct {
	Error   string              `yaml:"error,omitempty"`    // illegal-move, finished, unsupported, no-undo or not-stopped
	Board   *engine.Board       `yaml:"board,omitempty"`    // after the slide, before the spawn
	Row     *RowExpect          `yaml:"row,omitempty,flow"` // one row after the slide
	Cell    *CellExpect         `yaml:"cell,omitempty,flow"`
	Gained  *uint64             `yaml:"gained,omitempty"`
	Changed *bool               `yaml:"changed,omitempty"`
	Spawned *bool               `yaml:"spawned,omitempty"`
	After   *engine.Board       `yaml:"after,omitempty"` // after the step, spawn included
	Score   *uint64             `yaml:"score,omitempty"`
	Moves   *int64              `yaml:"moves,omitempty"`
	MaxTile *uint64             `yaml:"maxTile,omitempty"`
	Won     *bool               `yaml:"won,omitempty"`
	Over    *bool               `yaml:"over,omitempty"`
	Result  *engine.Result      `yaml:"result,omitempty"`
	Legal   *[]engine.Direction `yaml:"legal,omitempty,flow"`
}

// RowExpect is one row after the slide; nil cells are empty.
type RowExpect struct {
	Index int       `yaml:"index"`
	Cells []*uint64 `yaml:"cells,flow"`
}

// CellExpect is one cell after the slide.
type CellExpect struct {
	Row   int    `yaml:"row"`
	Col   int    `yaml:"col"`
	Value uint64 `yaml:"value"`
}
