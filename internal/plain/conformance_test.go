package plain_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/plain"
)

// winTile is the tile-merge profile's win tile: reaching it wins, and play
// goes on.
const winTile = 2048

// plainImpl is package plain under the conformance suite as the tile-merge
// profile: plain holds the rules (the slide, the legal moves, tp1's key,
// generator and spawn), and this adapter only adds what plain leaves to
// its caller, as any adapter does: the win by reach, the refusal of a move
// that changes nothing or comes after the end, and the result. It is the
// implementation scripts/mutation.sh mutates, the suite being the test
// that must kill each mutant (docs/results.md).
type plainImpl struct {
	game *plain.Oracle
	won  bool
}

func (p *plainImpl) Hello() (conformance.Hello, error) {
	return conformance.Hello{
		Name: "internal/plain", Version: "1", Protocol: 1,
		Profiles: []string{"tile-merge"},
		Features: []string{"load-state", "force-spawn", "seed-tp1"},
	}, nil
}

func (p *plainImpl) New(profile, seed string, setup *engine.Setup) (conformance.ImplState, error) {
	g, err := plain.NewOracle(seed, 4, 4, 2, plain.DefaultWeights())
	if err != nil {
		return conformance.ImplState{}, &conformance.RuleError{Code: "bad-request", Message: err.Error()}
	}
	p.game, p.won = g, false
	return p.state(), nil
}

func (p *plainImpl) Load(profile string, st conformance.LoadState) (conformance.ImplState, error) {
	if st.Setup != nil || st.Board.Rows() != 4 || st.Board.Cols() != 4 {
		return conformance.ImplState{}, &conformance.RuleError{Code: "unsupported", Message: "tile-merge is 4x4 and has no setup"}
	}
	// A loaded game's generator goes on from the game before it (the
	// first from a fixed seed): only the distribution of spawns that are
	// not forced is checked after a load, over many loads.
	g, err := plain.NewOracle("loaded", 4, 4, 0, plain.DefaultWeights())
	if err != nil {
		return conformance.ImplState{}, err
	}
	if p.game != nil {
		g.RNG = p.game.RNG
	}
	g.Board = plain.Cells(st.Board.Values())
	g.Score, g.Moves = st.Score, st.Moves
	p.game = g
	p.won = st.Won || g.Board.Max() >= winTile
	return p.state(), nil
}

func (p *plainImpl) Move(d engine.Direction, spawn *engine.Spawn) (conformance.MoveResult, error) {
	if p.game == nil {
		return conformance.MoveResult{}, &conformance.DriverError{Status: conformance.ProtocolError, Msg: "move before new or load"}
	}
	if p.over() {
		return conformance.MoveResult{}, &conformance.RuleError{Code: "finished", Message: "no move changes the board"}
	}
	letter := strings.ToUpper(d.String())[0]
	next, gained, changed := plain.Move(p.game.Board, letter)
	if !changed {
		return conformance.MoveResult{}, &conformance.RuleError{Code: "illegal-move", Message: fmt.Sprintf("%s changes nothing; legal: %s", d, plain.LegalMoves(p.game.Board))}
	}
	if next.Max() > engine.MaxTile || p.game.Score+gained > 1<<53-1 {
		return conformance.MoveResult{}, &conformance.RuleError{Code: "overflow", Message: "a tile above 2^52 or a score above 2^53-1"}
	}
	g := p.game
	var sp engine.Spawn
	if spawn == nil {
		// plain's own move: the slide, the points, the count and tp1's
		// spawn, found as the one cell Play filled beyond the slide.
		g.Play(letter)
		for r := range next {
			for c := range next[r] {
				if next[r][c] != g.Board[r][c] {
					sp = engine.Spawn{Row: r, Col: c, Value: g.Board[r][c]}
				}
			}
		}
	} else {
		if spawn.Value != 2 && spawn.Value != 4 || next[spawn.Row][spawn.Col] != 0 {
			return conformance.MoveResult{}, &conformance.RuleError{Code: "bad-spawn", Message: "the forced spawn is not a 2 or a 4 on a cell the slide left empty"}
		}
		next[spawn.Row][spawn.Col] = spawn.Value
		g.Board, g.Score, g.Moves = next, g.Score+gained, g.Moves+1
		sp = *spawn
	}
	p.won = p.won || g.Board.Max() >= winTile
	return conformance.MoveResult{Changed: true, Gained: gained, Spawn: &sp, State: p.state()}, nil
}

func (p *plainImpl) Legal() ([]engine.Direction, error) {
	if p.game == nil {
		return nil, &conformance.DriverError{Status: conformance.ProtocolError, Msg: "legal before new or load"}
	}
	var out []engine.Direction
	for _, l := range plain.LegalMoves(p.game.Board) {
		d, err := engine.ParseDirection(string(l))
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

func (p *plainImpl) Close() error { return nil }

// over is tile-merge's game-over rule, which the adapter adds to plain's
// Over (no move changes the board): the board must also be full, so that
// an empty board is not over ("The game ends only when the board is full
// and no move can change it").
func (p *plainImpl) over() bool {
	for _, row := range p.game.Board {
		for _, v := range row {
			if v == 0 {
				return false
			}
		}
	}
	return p.game.Over()
}

func (p *plainImpl) state() conformance.ImplState {
	b, err := engine.BoardFromValues(p.game.Board)
	if err != nil {
		panic(err) // plain made a tile the engine cannot hold: a mutant
	}
	st := conformance.ImplState{Board: b, Score: p.game.Score, Moves: p.game.Moves, Won: p.won, Over: p.over(), Result: "playing"}
	if st.Over {
		st.Result = "no-moves" // the win does not end a tile-merge game
	}
	return st
}

// TestConformance runs the whole suite, property checks included, against
// package plain under the tile-merge profile.
func TestConformance(t *testing.T) {
	conformance.TestImpl(t, &plainImpl{}, conformance.Options{Properties: true, Profiles: []string{"tile-merge"}})
}
