package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/tileproof/tileproof/engine"
)

// The parts of a PGS (PlayCraft Gameplay Schema) 2048 document that carry
// rules and test cases (seed 001).
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
	var sb strings.Builder
	fmt.Fprintf(&sb, "# Imported by tileproof cases import-pgs from %s.\n", source)
	fmt.Fprintf(&sb, "source: %s\nprofiles: [%s]\ncases:\n", yamlString(source+", testCases"), name)
	for _, tc := range doc.TestCases {
		if err := writePGSCase(&sb, tc); err != nil {
			return nil, nil, fmt.Errorf("test case %q: %w", tc.ID, err)
		}
	}
	if _, err := ParseCases("pgs/imported.yaml", []byte(sb.String())); err != nil {
		return nil, nil, fmt.Errorf("the imported cases do not read back: %w", err)
	}
	return p, []byte(sb.String()), nil
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

func writePGSCase(sb *strings.Builder, tc pgsCase) error {
	fmt.Fprintf(sb, "  - id: %s\n", tc.ID)
	if tc.Description != "" {
		fmt.Fprintf(sb, "    description: %s\n", yamlString(tc.Description))
	}
	fmt.Fprintf(sb, "    start:\n      board: %s\n", pgsBoard(tc.InitialState.Board))
	if tc.InitialState.Score != 0 {
		fmt.Fprintf(sb, "      score: %d\n", tc.InitialState.Score)
	}
	fmt.Fprintf(sb, "    steps:\n")
	for i, a := range tc.Actions {
		if a.Type != "slide" && a.Type != "move" {
			return fmt.Errorf("action type %q", a.Type)
		}
		fmt.Fprintf(sb, "      - move: %s\n", a.Direction)
		if i < len(tc.Actions)-1 {
			continue
		}
		// The expected state follows the last action.
		var lines []string
		for _, key := range slices.Sorted(maps.Keys(tc.ExpectedState)) {
			raw := string(tc.ExpectedState[key])
			switch {
			case key == "board":
				var b [][]*uint64
				if err := json.Unmarshal(tc.ExpectedState[key], &b); err != nil {
					return fmt.Errorf("expectedState.board: %w", err)
				}
				lines = append(lines, "board: "+pgsBoard(b))
			case key == "scoreGained":
				lines = append(lines, "gained: "+raw)
			case key == "newTileSpawned":
				lines = append(lines, "spawned: "+raw)
			case key == "boardUnchanged":
				lines = append(lines, "changed: "+map[string]string{"true": "false", "false": "true"}[raw])
			case key == "gameOver":
				lines = append(lines, "over: "+raw)
			case key == "win":
				lines = append(lines, "won: "+raw)
			case strings.HasPrefix(key, "board_row"):
				var r, c int
				if n, _ := fmt.Sscanf(key, "board_row%d_col%d", &r, &c); n == 2 {
					lines = append(lines, fmt.Sprintf("cell: {row: %d, col: %d, value: %s}", r, c, raw))
				} else if n, _ := fmt.Sscanf(key, "board_row%d", &r); n == 1 {
					lines = append(lines, fmt.Sprintf("row: {index: %d, cells: %s}", r, raw))
				} else {
					return fmt.Errorf("expectedState key %q", key)
				}
			default:
				return fmt.Errorf("expectedState key %q is not one tileproof knows", key)
			}
		}
		fmt.Fprintf(sb, "        expect:\n")
		for _, l := range lines {
			fmt.Fprintf(sb, "          %s\n", l)
		}
	}
	return nil
}

func pgsBoard(b [][]*uint64) string {
	rows := make([]string, len(b))
	for r, row := range b {
		cells := make([]string, len(row))
		for c, v := range row {
			cells[c] = "null"
			if v != nil {
				cells[c] = fmt.Sprint(*v)
			}
		}
		rows[r] = "[" + strings.Join(cells, ", ") + "]"
	}
	return "[" + strings.Join(rows, ", ") + "]"
}

func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
