package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tileproof/tileproof/conformance/internal/lineproto"
)

// A game: its state, the ops on it, and the ends of a game.

// state is what a move changes, and what undo restores.
type state struct {
	board     board
	score     int64
	moves     int64
	rng       splitmix
	won, keep bool // keep: the player chose to keep playing after the win
	result    string
}

// game is one run.
type game struct {
	p      *profile
	mutant string
	state
	history []state // for undo, the latest last
}

// refusal is a request the rules refuse: an error word of docs/protocol.md.
type refusal struct {
	word, msg string
}

// answer is the refusal's answer to the request of id.
func (r *refusal) answer(id int64) []byte { return lineproto.Refuse(id, r.word, "%s", r.msg) }

func refuse(word, format string, args ...any) *refusal {
	return &refusal{word, fmt.Sprintf(format, args...)}
}

// winTile is the profile's win tile.
func (g *game) winTile() int64 {
	if g.mutant == "win-at-1024" { // MUTANT: off by one doubling
		return g.p.winTile / 2
	}
	return g.p.winTile
}

// newGame starts a run: the profile's start tiles spawned on the empty
// board by tp1 from key.
func newGame(p *profile, m string, rows, cols int, key uint64) *game {
	g := &game{p: p, mutant: m, state: state{board: board{rows: rows, cols: cols, cells: make([]int64, rows*cols)}, rng: splitmix{key}, result: playing}}
	for range p.startTiles {
		g.spawn(&g.board)
	}
	g.evaluate()
	return g
}

// loadGame starts a run from a given state; its later spawns come from tp1
// seeded with key.
func loadGame(p *profile, m string, b board, score, moves int64, won, keep bool, key uint64) *game {
	g := &game{p: p, mutant: m, state: state{board: b, score: score, moves: moves, rng: splitmix{key}, won: won, keep: keep, result: playing}}
	g.evaluate()
	return g
}

// evaluate brings a new or loaded state's flags up to date.
func (g *game) evaluate() {
	g.checkWin(nil)
	g.finish()
}

// checkWin sets won once the board holds the win tile (reach) or a merge
// of made, this move's, made it (merge).
func (g *game) checkWin(made []int64) {
	if w := g.winTile(); !g.won && w != 0 {
		if g.p.winWhen == "reach" {
			g.won = slices.Max(g.board.cells) >= w
		} else {
			g.won = slices.Contains(made, w)
		}
	}
}

// finish checks the finishing conditions in order: the target, no moves
// left, the move limit; classic, as the original game, checks no moves
// first (its noMovesFirst).
func (g *game) finish() {
	// A state loaded won and kept playing plays on only where the win
	// asks: where it ends the run there is no keep playing to choose.
	stops := g.won && (g.p.winThen == "stop" || g.p.winThen == "ask" && !g.keep)
	if g.mutant == "win-does-not-stop" { // MUTANT: the win never stops the run
		stops = false
	}
	noMovesLeft := g.blocked()
	limitReached := g.p.moveLimit > 0 && g.moves >= g.p.moveLimit
	if g.mutant == "move-limit-off-by-one" { // MUTANT: one move too many
		limitReached = g.p.moveLimit > 0 && g.moves > g.p.moveLimit
	}
	noMovesFirst := g.p.noMovesFirst
	if g.mutant == "finish-order-swapped" { // MUTANT: the order of target and no moves swapped
		noMovesFirst = !noMovesFirst
	}
	if noMovesFirst && noMovesLeft {
		g.result = noMoves
		return
	}
	switch {
	case stops:
		g.result = targetReached
	case noMovesLeft:
		g.result = noMoves
	case limitReached:
		g.result = moveLimit
	}
}

// spawn draws a tile from tp1 and places it on b: value first (weights in
// ascending tile order), then the empty cell (row-major).
func (g *game) spawn(b *board) lineproto.PlacedTile {
	var total int64
	for _, w := range g.p.spawn {
		total += w.weight
	}
	var value int64
	draw := g.rng.next()
	r := int64(draw % uint64(total))
	if g.mutant == "spawn-fifty-fifty" { // MUTANT: every spawn value equally likely
		value = g.p.spawn[draw%uint64(len(g.p.spawn))].value
	} else {
		for _, w := range g.p.spawn {
			if r < w.weight {
				value = w.value
				break
			}
			r -= w.weight
		}
	}
	if g.mutant == "always-spawn-2" { // MUTANT: never a 4
		value = 2
	}
	var empty []int // the empty cells, row-major
	for i, v := range b.cells {
		if v == 0 {
			empty = append(empty, i)
		}
	}
	draw = g.rng.next()
	var cell int
	switch g.mutant {
	case "spawn-on-occupied": // MUTANT: picks among all cells, empty or not
		cell = int(draw % uint64(len(b.cells)))
	case "spawn-first-empty-cell": // MUTANT: the draw is ignored
		cell = empty[0]
	default:
		cell = empty[draw%uint64(len(empty))]
	}
	b.cells[cell] = value
	return lineproto.PlacedTile{Row: cell / b.cols, Col: cell % b.cols, Value: value}
}

// legalMoves lists the directions a move is accepted toward and changes
// the board.
func (g *game) legalMoves() []string {
	out := []string{}
	if g.result != playing && g.mutant != "legal-actions-include-noop" { // MUTANT (when not): lists every direction
		return out
	}
	for d := up; d <= right; d++ {
		if g.changes(d) || g.mutant == "legal-actions-include-noop" {
			out = append(out, d.String())
		}
	}
	return out
}

// move plays one move, with the spawn given or drawn; the answer's state
// is the adapter's to fill in.
func (g *game) move(d dir, given *lineproto.PlacedTile) (lineproto.MoveReply, *refusal) {
	if g.result != playing {
		if g.p.illegal == "ignore" {
			return lineproto.MoveReply{}, nil
		}
		return lineproto.MoveReply{}, refuse("finished", "moving %s: the run is over (%s); no move is accepted", d, g.result)
	}
	s, err := g.slide(d)
	if err != nil {
		return lineproto.MoveReply{}, refuse("overflow", "moving %s: %v", d, err)
	}
	if !s.changed {
		return g.noop(d)
	}
	if s.gained > maxSafe-g.score {
		return lineproto.MoveReply{}, refuse("overflow", "moving %s: the score would pass 2^53-1", d)
	}
	if g.moves >= maxSafe {
		return lineproto.MoveReply{}, refuse("overflow", "moving %s: the move count would pass 2^53-1", d)
	}
	b := s.board
	if given != nil {
		if r := g.checkSpawn(*given, b); r != nil {
			return lineproto.MoveReply{}, r
		}
	}
	if g.p.undo {
		keep := 1
		if g.mutant == "undo-twice" { // MUTANT: remembers two moves
			keep = 2
		}
		g.history = append(g.history, g.state) // kept as is: a move puts a new board in place
		if len(g.history) > keep {
			g.history = g.history[1:]
		}
	}
	var sp lineproto.PlacedTile
	if given != nil {
		sp = *given
		b.cells[sp.Row*b.cols+sp.Col] = sp.Value
	} else {
		sp = g.spawn(&b)
	}
	g.board = b
	g.score += s.gained
	g.moves++
	g.checkWin(s.made)
	g.finish()
	return lineproto.MoveReply{Changed: true, Gained: s.gained, Spawn: &sp}, nil
}

// noop answers a move that changes nothing while the run is playing:
// ignored or refused, as the profile says.
func (g *game) noop(d dir) (lineproto.MoveReply, *refusal) {
	if g.mutant == "rng-advances-on-noop" { // MUTANT: draws a spawn before looking whether the board changed
		g.rng.next()
		g.rng.next()
	}
	if g.p.illegal == "reject" && g.mutant != "illegal-move-not-rejected" { // MUTANT (when not): accepted silently
		legal := strings.Join(g.legalMoves(), ", ")
		if legal == "" {
			legal = "none"
		}
		return lineproto.MoveReply{}, refuse("illegal-move", "moving %s does not change the board, so it is not a legal move; legal moves: %s", d, legal)
	}
	var step lineproto.MoveReply
	if g.mutant == "illegal-move-counted" { // MUTANT: counts a move that changed nothing
		g.moves++
	}
	if g.mutant == "spawn-after-noop" && g.board.empties() > 0 { // MUTANT: spawns although nothing moved
		sp := g.spawn(&g.board)
		step.Spawn = &sp
	}
	return step, nil
}

// checkSpawn checks a forced spawn against the board after the slide.
func (g *game) checkSpawn(s lineproto.PlacedTile, b board) *refusal {
	switch {
	case s.Row < 0 || s.Row >= b.rows || s.Col < 0 || s.Col >= b.cols:
		return refuse("bad-spawn", "cell (%d, %d) is outside the %dx%d board", s.Row, s.Col, b.rows, b.cols)
	case b.cells[s.Row*b.cols+s.Col] != 0:
		return refuse("bad-spawn", "cell (%d, %d) is not empty after the slide", s.Row, s.Col)
	case !slices.ContainsFunc(g.p.spawn, func(w weight) bool { return w.value == s.Value }):
		return refuse("bad-spawn", "profile %s does not spawn %d", g.p.name, s.Value)
	}
	return nil
}

// undo takes back the last counted move, the generator included.
func (g *game) undo() *refusal {
	switch {
	case !g.p.undo:
		return refuse("unsupported", "profile %s has no undo", g.p.name)
	case g.result != playing:
		return refuse("finished", "the run is over (%s); undo works only during play", g.result)
	case len(g.history) == 0:
		return refuse("no-undo", "nothing to undo (undo takes back one counted move, once)")
	}
	last := g.history[len(g.history)-1]
	g.history = g.history[:len(g.history)-1]
	rng := g.rng
	g.state = last
	if g.mutant == "undo-does-not-restore-spawn" { // MUTANT: the generator is not taken back
		g.rng = rng
	}
	return nil
}

// endRun ends the run by the player's choice.
func (g *game) endRun() *refusal {
	switch {
	case !g.p.endRun:
		return refuse("unsupported", "profile %s has no End run", g.p.name)
	case g.result != playing:
		return refuse("finished", "the run is already over (%s)", g.result)
	}
	g.result = runFinished
	if g.mutant == "end-run-wrong-result" { // MUTANT: reports the wrong reason
		g.result = noMoves
	}
	g.history = nil
	return nil
}

// keepPlaying resumes a run stopped at the win tile, in a profile whose
// win asks.
func (g *game) keepPlaying() *refusal {
	if g.p.winThen != "ask" {
		return refuse("not-stopped", "profile %s does not stop to ask after the win", g.p.name)
	}
	if g.result != targetReached {
		return refuse("not-stopped", "the run is not stopped at the win tile (it is %s)", g.result)
	}
	g.keep, g.result = true, playing
	if g.mutant == "keep-playing-clears-won" { // MUTANT: plays on by forgetting the win
		g.keep, g.won = false, false
	}
	g.finish()
	return nil
}
