// Package replay reads, writes and verifies tileproof replays: recorded
// games, as a seed plus the moves played (or a start board plus each move
// with the tile that appeared), with a claim of what they achieved. The
// format is documented in docs/replay-format.md.
package replay

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/strictyaml"
)

// Replay is one recorded game. Exactly one of Seed and Start is set: a
// seeded replay draws its spawns from tp1; a spawn-recorded one gives each
// spawn in its log.
type Replay struct {
	Profile string // a profile name
	Rules   int    // the profile's rules version the replay pins; 0 when absent
	RNG     string // the spawn generator the replay pins ("tp1"); "" when absent
	Setup   *Setup // the run's choice of target and finish, where the profile offers one

	Seed  *string       // the seed text, for a seeded replay
	Start *engine.Board // the start board, for a spawn-recorded replay

	// Actions is the move log; for a spawn-recorded replay, Spawns[i] is
	// the tile that appeared after action i (zero for undo, End run, keep
	// playing).
	Actions []engine.Action
	Spawns  []engine.Spawn

	Claim          Claim
	SeedCommitment string // "sha256:HEX", published before play; "" when absent
	Source         string // where the replay comes from, for people
}

// Setup is a run's choice where the profile offers one (online-2048's
// target and finish, PGS continue mode).
type Setup struct {
	Target    uint64 `json:"target,omitempty" yaml:"target"`
	OpenEnded bool   `json:"openEnded,omitempty" yaml:"openEnded"`
}

// Claim is what a replay says its game achieved. Score, MaxTile and Moves
// are required; the others are checked when present.
type Claim struct {
	Score   uint64
	MaxTile uint64
	Moves   int
	Board   *engine.Board
	Won     *bool
	Over    *bool
	Result  *engine.Result
}

// file is the YAML and JSON form of a replay.
type file struct {
	Profile        string        `yaml:"profile" json:"profile"`
	Rules          int           `yaml:"rules" json:"rules"`
	RNG            string        `yaml:"rng" json:"rng"`
	Setup          *Setup        `yaml:"setup" json:"setup"`
	Seed           *seedText     `yaml:"seed" json:"seed"`
	Start          *engine.Board `yaml:"start" json:"start"`
	Moves          *string       `yaml:"moves" json:"moves"`
	Claim          *claimFile    `yaml:"claim" json:"claim"`
	SeedCommitment string        `yaml:"seedCommitment" json:"seedCommitment"`
	Source         string        `yaml:"source" json:"source"`
}

type claimFile struct {
	Score   *uint64       `yaml:"score" json:"score"`
	MaxTile *uint64       `yaml:"maxTile" json:"maxTile"`
	Moves   *int          `yaml:"moves" json:"moves"`
	Board   *engine.Board `yaml:"board" json:"board"`
	Won     *bool         `yaml:"won" json:"won"`
	Over    *bool         `yaml:"over" json:"over"`
	Result  *string       `yaml:"result" json:"result"`
}

// seedText is a seed: a string, or in JSON also an integer, which stands
// for its decimal text (YAML reads a number into a string by itself).
type seedText string

func (s *seedText) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && (data[0] == '-' || '0' <= data[0] && data[0] <= '9') {
		var n json.Number
		if err := json.Unmarshal(data, &n); err != nil {
			return err
		}
		if _, err := n.Int64(); err != nil {
			return fmt.Errorf("seed %s is not an integer; write the seed as a string", n)
		}
		*s = seedText(n)
		return nil
	}
	return json.Unmarshal(data, (*string)(s))
}

// Decode reads a replay from YAML or JSON. file names it in errors, which
// are [strictyaml.ErrorList] entries with the line at fault.
func Decode(name string, data []byte) (*Replay, error) {
	f, err := decodeFile(name, data)
	if err != nil {
		return nil, err
	}
	// The lines of the fields are found only for an error: it takes a
	// second parse.
	fail := func(path, format string, args ...any) error {
		return strictyaml.ErrorList{strictyaml.At(name, strictyaml.Lines(data), path, fmt.Sprintf(format, args...))}
	}
	r := &Replay{Profile: f.Profile, Rules: f.Rules, RNG: f.RNG, Setup: f.Setup,
		SeedCommitment: f.SeedCommitment, Source: f.Source}
	if f.Seed != nil {
		seed := string(*f.Seed)
		r.Seed = &seed
	}
	switch {
	case f.Profile == "":
		return nil, fail("", "missing the field profile")
	case f.Moves == nil:
		return nil, fail("", "missing the field moves")
	case f.Claim == nil:
		return nil, fail("", "missing the field claim")
	case f.Seed == nil && f.Start == nil:
		return nil, fail("", "missing the field seed (or start, for a replay that records its spawns)")
	case f.Seed != nil && f.Start != nil:
		return nil, fail("start", "a replay has a seed or a start board, not both")
	case f.Rules < 0:
		return nil, fail("rules", "rules version %d is negative", f.Rules)
	case f.SeedCommitment != "" && f.Seed == nil:
		return nil, fail("seedCommitment", "a seed commitment needs a seed")
	}
	r.Start = f.Start
	if r.Start == nil {
		r.Actions, err = engine.ParseActions(*f.Moves)
	} else {
		r.Actions, r.Spawns, err = ParseSpawnLog(*f.Moves, r.Start.Cols())
	}
	if err != nil {
		return nil, fail("moves", "moves: %v", err)
	}
	c := f.Claim
	switch {
	case c.Score == nil:
		return nil, fail("claim", "the claim has no score")
	case c.MaxTile == nil:
		return nil, fail("claim", "the claim has no maxTile")
	case c.Moves == nil:
		return nil, fail("claim", "the claim has no moves (the number of counted moves)")
	case *c.Moves < 0:
		return nil, fail("claim.moves", "claim.moves %d is negative", *c.Moves)
	}
	r.Claim = Claim{Score: *c.Score, MaxTile: *c.MaxTile, Moves: *c.Moves, Won: c.Won, Over: c.Over}
	r.Claim.Board = c.Board
	if c.Result != nil {
		var res engine.Result
		if err := res.UnmarshalText([]byte(*c.Result)); err != nil {
			return nil, fail("claim.result", "claim.result: %v", err)
		}
		r.Claim.Result = &res
	}
	return r, nil
}

// ParseSpawnLog reads the move log of a spawn-recorded replay: each move
// letter followed by the tile that appeared, as CELL:VALUE with CELL the
// row-major index on a board of cols columns ("L14:2" is a left move after
// which a 2 appeared in cell 14); Z, E and K stand alone. White space is
// ignored.
func ParseSpawnLog(log string, cols int) ([]engine.Action, []engine.Spawn, error) {
	var actions []engine.Action
	var spawns []engine.Spawn
	i := 0
	skip := func() {
		for i < len(log) && strings.IndexByte(" \t\r\n", log[i]) >= 0 {
			i++
		}
	}
	number := func() (uint64, bool) {
		j := i
		for i < len(log) && '0' <= log[i] && log[i] <= '9' {
			i++
		}
		v, err := strconv.ParseUint(log[j:i], 10, 64)
		return v, err == nil
	}
	for skip(); i < len(log); skip() {
		at := i
		a, ok := engine.ActionOf(log[i])
		if !ok {
			return nil, nil, &engine.ActionError{Offset: at, Char: rune(log[i])}
		}
		i++
		var s engine.Spawn
		if _, isMove := a.Direction(); isMove {
			cell, ok := number()
			if ok && i < len(log) && log[i] == ':' {
				i++
				var value uint64
				value, ok = number()
				s.Value = value
			} else {
				ok = false
			}
			if !ok || cell >= 64 {
				return nil, nil, fmt.Errorf("character %d: move %q needs its spawn as CELL:VALUE, like %c14:2", at+1, log[at], log[at])
			}
			s.Row, s.Col = int(cell)/cols, int(cell)%cols
		}
		actions = append(actions, a)
		spawns = append(spawns, s)
	}
	return actions, spawns, nil
}

// FormatSpawnLog writes a spawn-recorded move log, the inverse of
// [ParseSpawnLog], tokens separated by spaces.
func FormatSpawnLog(actions []engine.Action, spawns []engine.Spawn, cols int) string {
	var sb strings.Builder
	for i, a := range actions {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteByte(a.Letter())
		if _, isMove := a.Direction(); isMove {
			fmt.Fprintf(&sb, "%d:%d", spawns[i].Row*cols+spawns[i].Col, spawns[i].Value)
		}
	}
	return sb.String()
}

// EncodeYAML writes a replay in the YAML form, the moves wrapped in lines
// of width letters and the claim as complete as it is.
func (r *Replay) EncodeYAML(width int) []byte {
	var sb strings.Builder
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	if r.Source != "" {
		fmt.Fprintf(&sb, "source: %s\n", q(r.Source))
	}
	fmt.Fprintf(&sb, "profile: %s\n", r.Profile)
	if r.Rules != 0 {
		fmt.Fprintf(&sb, "rules: %d\n", r.Rules)
	}
	if r.RNG != "" {
		fmt.Fprintf(&sb, "rng: %s\n", r.RNG)
	}
	if r.Setup != nil {
		fmt.Fprintf(&sb, "setup: {target: %d, openEnded: %v}\n", r.Setup.Target, r.Setup.OpenEnded)
	}
	if r.Seed != nil {
		fmt.Fprintf(&sb, "seed: %s\n", q(*r.Seed))
	}
	if r.SeedCommitment != "" {
		fmt.Fprintf(&sb, "seedCommitment: %s\n", r.SeedCommitment)
	}
	if r.Start != nil {
		fmt.Fprintf(&sb, "start: |2\n%s\n", indent(r.Start.String(), "  ")) // |2: the first row may start with spaces
	}
	fmt.Fprintf(&sb, "moves: |\n%s\n", indent(wrap(r.MoveLog(), width), "  "))
	c := r.Claim
	fmt.Fprintf(&sb, "claim:\n  score: %d\n  maxTile: %d\n  moves: %d\n", c.Score, c.MaxTile, c.Moves)
	if c.Board != nil {
		fmt.Fprintf(&sb, "  board: |2\n%s\n", indent(c.Board.String(), "    "))
	}
	if c.Won != nil {
		fmt.Fprintf(&sb, "  won: %v\n", *c.Won)
	}
	if c.Over != nil {
		fmt.Fprintf(&sb, "  over: %v\n", *c.Over)
	}
	if c.Result != nil {
		res, _ := c.Result.MarshalText()
		fmt.Fprintf(&sb, "  result: %s\n", res)
	}
	return []byte(sb.String())
}

// EncodeJSON writes a replay as one line of JSON (for JSON Lines batches).
func (r *Replay) EncodeJSON() []byte {
	type claimJSON struct {
		Score   uint64         `json:"score"`
		MaxTile uint64         `json:"maxTile"`
		Moves   int            `json:"moves"`
		Board   [][]uint64     `json:"board,omitempty"`
		Won     *bool          `json:"won,omitempty"`
		Over    *bool          `json:"over,omitempty"`
		Result  *engine.Result `json:"result,omitempty"`
	}
	out := struct {
		Source         string     `json:"source,omitempty"`
		Profile        string     `json:"profile"`
		Rules          int        `json:"rules,omitempty"`
		RNG            string     `json:"rng,omitempty"`
		Setup          *Setup     `json:"setup,omitempty"`
		Seed           *string    `json:"seed,omitempty"`
		SeedCommitment string     `json:"seedCommitment,omitempty"`
		Start          [][]uint64 `json:"start,omitempty"`
		Moves          string     `json:"moves"`
		Claim          claimJSON  `json:"claim"`
	}{Source: r.Source, Profile: r.Profile, Rules: r.Rules, RNG: r.RNG, Setup: r.Setup, Seed: r.Seed,
		SeedCommitment: r.SeedCommitment, Moves: r.MoveLog(),
		Claim: claimJSON{Score: r.Claim.Score, MaxTile: r.Claim.MaxTile, Moves: r.Claim.Moves, Won: r.Claim.Won, Over: r.Claim.Over, Result: r.Claim.Result}}
	if r.Start != nil {
		out.Start = r.Start.Values()
	}
	if r.Claim.Board != nil {
		out.Claim.Board = r.Claim.Board.Values()
	}
	b, _ := json.Marshal(out)
	return b
}

// MoveLog returns the move log as it is written in the replay: letters
// for a seeded replay, tokens with spawns for a spawn-recorded one.
func (r *Replay) MoveLog() string {
	if r.Start != nil {
		return FormatSpawnLog(r.Actions, r.Spawns, r.Start.Cols())
	}
	return engine.FormatActions(r.Actions)
}

func wrap(s string, width int) string {
	if width <= 0 || len(s) <= width {
		return s
	}
	var sb strings.Builder
	for len(s) > width {
		cut := width
		if i := strings.LastIndexByte(s[:width+1], ' '); i > 0 {
			cut = i
		}
		sb.WriteString(strings.TrimSpace(s[:cut]))
		sb.WriteByte('\n')
		s = strings.TrimLeft(s[cut:], " ")
	}
	sb.WriteString(s)
	return sb.String()
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
