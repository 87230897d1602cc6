package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"

	"github.com/tileproof/tileproof/engine"
)

// The parts of a PGS (PlayCraft Gameplay Schema) 2048 document that carry
// rules and test cases (the PGS 2048 skeleton, docs/sources.md).
type pgsDoc struct {
	Version  string `json:"version"`
	Entities struct {
		Board struct {
			Rows int `json:"rows"`
			Cols int `json:"cols"`
		} `json:"board"`
	} `json:"entities"`
	Rules struct {
		SlideDirection struct {
			NoMoveIfBoardUnchanged bool `json:"noMoveIfBoardUnchanged"`
		} `json:"slide_direction"`
		SpawnNewTile struct {
			Values  []uint64  `json:"values"`
			Weights []float64 `json:"weights"`
		} `json:"spawn_new_tile"`
	} `json:"rules"`
	WinCondition struct {
		Type        string `json:"type"`
		Value       uint64 `json:"value"`
		Description string `json:"description"`
	} `json:"winCondition"`
	TestCases []pgsCase `json:"testCases"`
}

type pgsCase struct {
	ID           string `json:"id"`
	Description  string `json:"description"`
	InitialState struct {
		Board [][]*uint64 `json:"board"`
		Score uint64      `json:"score"`
	} `json:"initialState"`
	Actions []struct {
		Type      string `json:"type"`
		Direction string `json:"direction"`
	} `json:"actions"`
	ExpectedState map[string]json.RawMessage `json:"expectedState"`
}

// ImportPGS reads a PGS 2048 document: its rules as a profile named name,
// and its testCases as a case file (YAML) whose cases apply to that
// profile, keeping their ids. source names the document in the cases.
func ImportPGS(data []byte, name, source string) (*engine.Profile, []byte, error) {
	var doc pgsDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("not a PGS document: %w", err)
	}
	p, err := pgsProfile(doc, name, source)
	if err != nil {
		return nil, nil, err
	}
	var cases []*Case
	for _, tc := range doc.TestCases {
		c, err := pgsCaseOf(tc)
		if err != nil {
			return nil, nil, fmt.Errorf("test case %q: %w", tc.ID, err)
		}
		cases = append(cases, c)
	}
	out := fmt.Appendf(nil, "# Imported by tileproof cases import-pgs from %s.\n", source)
	out = append(out, encodeCases(source+", testCases", []string{name}, cases)...)
	if _, err := parseCases("pgs/imported.yaml", out); err != nil {
		return nil, nil, fmt.Errorf("the imported cases do not read back: %w", err)
	}
	return p, out, nil
}

func pgsProfile(doc pgsDoc, name, source string) (*engine.Profile, error) {
	s := doc.Rules.SpawnNewTile
	if len(s.Values) == 0 || len(s.Values) != len(s.Weights) {
		return nil, fmt.Errorf("rules.spawn_new_tile: %d values and %d weights", len(s.Values), len(s.Weights))
	}
	weights, err := integerWeights(s.Weights)
	if err != nil {
		return nil, err
	}
	p := &engine.Profile{
		Name: name, Version: 1, Title: "imported from a PGS document", Source: source,
		Description: fmt.Sprintf("Imported from PGS version %s: board, spawn values and weights, win value; a move that changes the board is required (noMoveIfBoardUnchanged %v).", doc.Version, doc.Rules.SlideDirection.NoMoveIfBoardUnchanged),
		Rows:        doc.Entities.Board.Rows, Cols: doc.Entities.Board.Cols, StartTiles: 2,
		Win:       engine.Win{Tile: doc.WinCondition.Value, When: engine.Reach, Then: engine.Stop},
		OpenEnded: true, // "可设置为继续游戏模式": the document allows continue mode
		Illegal:   engine.Ignore,
		// PGS checks the win, then the loss (algorithm steps 6 and 7).
		FinishOrder: []engine.Result{engine.TargetReached, engine.NoMoves, engine.MoveLimitReached},
	}
	for i, v := range s.Values {
		p.Spawn = append(p.Spawn, engine.SpawnWeight{Value: v, Weight: weights[i]})
	}
	if doc.WinCondition.Type != "tile_value_reached" {
		return nil, fmt.Errorf("winCondition.type %q: tileproof imports tile_value_reached", doc.WinCondition.Type)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("the document's rules make no valid profile: %w", err)
	}
	return p, nil
}

// integerWeights turns fractional weights (0.9, 0.1) into the smallest
// integers in the same ratio (9, 1).
func integerWeights(ws []float64) ([]uint64, error) {
	rats := make([]*big.Rat, len(ws))
	for i, w := range ws {
		if w <= 0 || math.IsInf(w, 0) || math.IsNaN(w) {
			return nil, fmt.Errorf("spawn weight %v is not positive", w)
		}
		r, ok := new(big.Rat).SetString(fmt.Sprint(w)) // the shortest decimal that round-trips: 0.1, not 0.1000000000000000055
		if !ok {
			return nil, fmt.Errorf("spawn weight %v", w)
		}
		rats[i] = r
	}
	lcm := big.NewInt(1)
	for _, r := range rats {
		d := r.Denom()
		g := new(big.Int).GCD(nil, nil, lcm, d)
		lcm.Mul(lcm, new(big.Int).Quo(d, g))
	}
	ints := make([]*big.Int, len(rats))
	gcd := new(big.Int)
	for i, r := range rats {
		ints[i] = new(big.Int).Quo(new(big.Int).Mul(r.Num(), lcm), r.Denom())
		gcd.GCD(nil, nil, gcd, ints[i])
	}
	out := make([]uint64, len(ints))
	for i, v := range ints {
		v.Quo(v, gcd)
		if !v.IsUint64() || v.Uint64() > 1<<32 {
			return nil, fmt.Errorf("the spawn weights %v need integers above 2^32", ws)
		}
		out[i] = v.Uint64()
	}
	return out, nil
}

// pgsCaseOf turns a PGS test case into a case: its initial state, its
// actions, and its expected state as the last step's expectations.
func pgsCaseOf(tc pgsCase) (*Case, error) {
	start, err := pgsBoard(tc.InitialState.Board)
	if err != nil {
		return nil, fmt.Errorf("initialState.board: %w", err)
	}
	c := &Case{ID: tc.ID, Description: tc.Description, Start: Start{Board: &start, Score: tc.InitialState.Score}}
	for _, a := range tc.Actions {
		if a.Type != "slide" && a.Type != "move" {
			return nil, fmt.Errorf("action type %q", a.Type)
		}
		d, err := engine.ParseDirection(a.Direction)
		if err != nil {
			return nil, err
		}
		c.Steps = append(c.Steps, CaseStep{Move: &d})
	}
	if len(c.Steps) == 0 {
		return nil, fmt.Errorf("no actions")
	}
	// The expected state follows the last action.
	e := &c.Steps[len(c.Steps)-1].Expect
	fields := map[string]any{"scoreGained": &e.Gained, "newTileSpawned": &e.Spawned, "gameOver": &e.Over, "win": &e.Won}
	for _, key := range slices.Sorted(maps.Keys(tc.ExpectedState)) {
		raw := tc.ExpectedState[key]
		var err error
		var r, col int
		switch {
		case fields[key] != nil:
			err = json.Unmarshal(raw, fields[key])
		case key == "board":
			var rows [][]*uint64
			if err = json.Unmarshal(raw, &rows); err == nil {
				var b engine.Board
				if b, err = pgsBoard(rows); err == nil {
					e.Board = &b
				}
			}
		case key == "boardUnchanged":
			var unchanged bool
			if err = json.Unmarshal(raw, &unchanged); err == nil {
				changed := !unchanged
				e.Changed = &changed
			}
		case pgsKey(key, "board_row%d_col%d", &r, &col):
			e.Cell = &CellExpect{Row: r, Col: col}
			err = json.Unmarshal(raw, &e.Cell.Value)
		case pgsKey(key, "board_row%d", &r):
			e.Row = &RowExpect{Index: r}
			err = json.Unmarshal(raw, &e.Row.Cells)
		default:
			return nil, fmt.Errorf("expectedState key %q is not one tileproof knows", key)
		}
		if err != nil {
			return nil, fmt.Errorf("expectedState.%s: %w", key, err)
		}
	}
	return c, nil
}

// pgsKey reports whether key is exactly the form format with its numbers.
func pgsKey(key, format string, nums ...*int) bool {
	args := make([]any, len(nums))
	for i, n := range nums {
		args[i] = n
	}
	if n, _ := fmt.Sscanf(key, format, args...); n != len(nums) {
		return false
	}
	for i, n := range nums {
		args[i] = *n
	}
	return fmt.Sprintf(format, args...) == key
}

// pgsBoard reads a PGS board: rows of numbers, null for an empty cell.
func pgsBoard(rows [][]*uint64) (engine.Board, error) {
	values := make([][]uint64, len(rows))
	for r, row := range rows {
		values[r] = make([]uint64, len(row))
		for c, v := range row {
			if v != nil {
				values[r][c] = *v
			}
		}
	}
	return engine.BoardFromValues(values)
}
