package main

import (
	"errors"
	"fmt"
	"strings"
)

// The rules of the five built-in profiles, written plainly from
// docs/profiles.md and engine/profiles/*.yaml. Every mutant is a switch on
// the mutant name at the point of its bug: search for "MUTANT".

const (
	maxTile = int64(1) << 52   // the largest tile
	maxSafe = int64(1)<<53 - 1 // the largest score
)

type weight struct{ value, weight int64 }

type profile struct {
	name       string
	startTiles int
	spawn      []weight // ascending by value
	winTile    int64    // 0: none
	winWhen    string   // reach or merge
	winThen    string   // continue, stop or ask
	illegal    string   // ignore or reject
	moveLimit  int64    // 0: none
	undo       bool
	endRun     bool
	// noMovesFirst: when a move both reaches the target and leaves no
	// moves, the result is no-moves (classic, as the original game).
	noMovesFirst bool
	// emptyOver: an empty board, which no move changes, is over (rosetta,
	// "loses if no valid moves are possible"); the others end a run only
	// on a full board with no merge (gameOver in engine/profiles/*.yaml).
	emptyOver bool
}

var std = []weight{{2, 9}, {4, 1}}

// The built-in profiles, as engine/profiles/*.yaml give them. All are 4x4;
// a loaded board of another size plays by the same rules on that size.
var profiles = map[string]*profile{
	"classic":     {name: "classic", startTiles: 2, spawn: std, winTile: 2048, winWhen: "merge", winThen: "ask", illegal: "ignore", noMovesFirst: true},
	"tile-merge":  {name: "tile-merge", startTiles: 2, spawn: std, winTile: 2048, winWhen: "reach", winThen: "continue", illegal: "reject"},
	"pgs":         {name: "pgs", startTiles: 2, spawn: std, winTile: 2048, winWhen: "reach", winThen: "stop", illegal: "ignore"},
	"online-2048": {name: "online-2048", startTiles: 2, spawn: std, winTile: 2048, winWhen: "reach", winThen: "stop", illegal: "ignore", moveLimit: 100000, undo: true, endRun: true},
	"rosetta":     {name: "rosetta", startTiles: 2, spawn: std, winTile: 2048, winWhen: "merge", winThen: "stop", illegal: "reject", emptyOver: true},
}

var profileOrder = []string{"classic", "tile-merge", "pgs", "online-2048", "rosetta"}

// Results, as docs/replay-format.md names them.
const (
	playing       = "playing"
	targetReached = "target-reached"
	noMoves       = "no-moves"
	moveLimit     = "move-limit"
	runFinished   = "run-finished"
)

type dir int

const (
	up dir = iota
	down
	left
	right
)

var dirNames = [4]string{"up", "down", "left", "right"}

func (d dir) String() string { return dirNames[d] }

// board is rows x cols tiles in row-major order, 0 for an empty cell.
type board struct {
	rows, cols int
	cells      []int64
}

func (b board) clone() board {
	b.cells = append([]int64(nil), b.cells...)
	return b
}

func (b board) equal(o board) bool {
	if b.rows != o.rows || b.cols != o.cols {
		return false
	}
	for i := range b.cells {
		if b.cells[i] != o.cells[i] {
			return false
		}
	}
	return true
}

func (b board) values() [][]int64 {
	out := make([][]int64, b.rows)
	for r := range out {
		out[r] = append([]int64(nil), b.cells[r*b.cols:(r+1)*b.cols]...)
	}
	return out
}

func (b board) maxTile() int64 {
	var m int64
	for _, v := range b.cells {
		m = max(m, v)
	}
	return m
}

func (b board) empties() int {
	n := 0
	for _, v := range b.cells {
		if v == 0 {
			n++
		}
	}
	return n
}

// index returns the board index of cell i of line k when moving toward d;
// cell 0 is at the destination edge.
func (b board) index(d dir, k, i int) int {
	switch d {
	case left:
		return k*b.cols + i
	case right:
		return k*b.cols + b.cols - 1 - i
	case up:
		return i*b.cols + k
	default: // down
		return (b.rows-1-i)*b.cols + k
	}
}

// lines returns the number of lines and their length when moving toward d.
func (b board) lines(d dir) (n, length int) {
	if d == left || d == right {
		return b.rows, b.cols
	}
	return b.cols, b.rows
}

var errOverflow = errors.New("a merge would make a tile above 2^52 (or a score above 2^53-1)")

// slideResult is a slide of the whole board, before any spawn.
type slideResult struct {
	board   board
	gained  int64
	made    []int64 // the tiles merges made
	changed bool
}

// slide moves every line toward d. A merge past the largest tile is an
// error, but the result still says whether the board would change.
func (g *game) slide(d dir) (out slideResult, err error) {
	b := g.board
	out.board = b.clone()
	n, length := b.lines(d)
	line := make([]int64, length)
	for k := range n {
		for i := range length {
			line[i] = b.cells[b.index(d, k, i)]
		}
		merged, made := g.slideLine(line)
		for i, v := range merged {
			out.board.cells[b.index(d, k, i)] = v
		}
		for _, v := range made {
			if v > maxTile {
				err = errOverflow
			}
			out.made = append(out.made, v)
			out.gained += g.points(v)
		}
	}
	out.changed = !out.board.equal(b)
	return out, err
}

// points is what a merge that makes tile v scores.
func (g *game) points(v int64) int64 {
	switch g.mutant {
	case "score-both-tiles": // MUTANT: counts the new tile twice
		return 2 * v
	case "score-old-value": // MUTANT: scores one of the old tiles
		return v / 2
	}
	return v
}

// slideLine slides one line toward index 0: compress the gaps, merge each
// pair of equal neighbours once (the pair nearest index 0 first), pad with
// empties. It returns the new line and the tiles the merges made.
func (g *game) slideLine(line []int64) (out []int64, made []int64) {
	switch g.mutant {
	case "greedy-double-merge": // MUTANT: keeps merging until nothing merges: [2 2 2 2] -> [8]
		out = line
		for {
			var more []int64
			out, more = mergeLine(out, false)
			if len(more) == 0 {
				return out, made
			}
			made = append(made, more...)
		}
	case "merge-chain": // MUTANT: a merged tile merges again with the next equal one: [2 2 4] -> [8]
		return mergeLine(line, true)
	case "merge-priority-reversed": // MUTANT: the pair farthest from the edge merges first: [2 2 2] -> [2 4]
		tiles := compress(line)
		for i := len(tiles) - 1; i > 0; i-- {
			if tiles[i] == tiles[i-1] {
				tiles[i-1] *= 2
				made = append(made, tiles[i-1])
				tiles[i] = 0
				i--
			}
		}
		return pad(compress(tiles), len(line)), made
	case "no-compress-before-merge": // MUTANT: merges neighbours before closing the gaps: [2 . 2 .] -> [2 2 . .]
		tiles := append([]int64(nil), line...)
		for i := 0; i+1 < len(tiles); i++ {
			if tiles[i] != 0 && tiles[i] == tiles[i+1] {
				tiles[i] *= 2
				made = append(made, tiles[i])
				tiles[i+1] = 0
				i++
			}
		}
		return pad(compress(tiles), len(line)), made
	}
	return mergeLine(line, false)
}

// mergeLine is the merge rule: each tile is placed after the last, or
// merges into it when equal and (unless chain) the last was not made by a
// merge in this move.
func mergeLine(line []int64, chain bool) (out []int64, made []int64) {
	var merged []bool
	for _, v := range line {
		if v == 0 {
			continue
		}
		n := len(out)
		if n > 0 && out[n-1] == v && (chain || !merged[n-1]) {
			out[n-1] *= 2
			merged[n-1] = true
			made = append(made, out[n-1])
			continue
		}
		out = append(out, v)
		merged = append(merged, false)
	}
	return pad(out, len(line)), made
}

func compress(line []int64) []int64 {
	var out []int64
	for _, v := range line {
		if v != 0 {
			out = append(out, v)
		}
	}
	return out
}

func pad(line []int64, n int) []int64 {
	out := make([]int64, n)
	copy(out, line)
	return out
}

// blocked reports whether the game is over: no move changes the board. It
// is true for a full board without equal neighbours, and for an empty one
// in a profile whose rule counts it (emptyOver).
func (g *game) blocked(b board) bool {
	empty := b.empties()
	if empty == len(b.cells) {
		return g.p.emptyOver
	}
	if g.mutant == "game-over-when-full" { // MUTANT: a full board is over, pairs or not
		return empty == 0
	}
	if empty > 0 {
		return false
	}
	for r := range b.rows {
		for c := range b.cols {
			v := b.cells[r*b.cols+c]
			if c+1 < b.cols && b.cells[r*b.cols+c+1] == v {
				return false
			}
			if g.mutant == "game-over-ignores-vertical" { // MUTANT: only looks along the rows
				continue
			}
			if r+1 < b.rows && b.cells[(r+1)*b.cols+c] == v {
				return false
			}
		}
	}
	return true
}

// snapshot is what undo restores.
type snapshot struct {
	board     board
	score     int64
	moves     int64
	rng       splitmix
	won, keep bool
	result    string
}

// game is one run.
type game struct {
	p       *profile
	mutant  string
	board   board
	score   int64
	moves   int64
	rng     splitmix
	won     bool
	keep    bool // the player chose to keep playing after the win
	result  string
	history []snapshot // for undo, the latest last
}

// refusal is a request the rules refuse: an error word of docs/protocol.md.
type refusal struct {
	word, msg string
}

func (r *refusal) Error() string { return r.word + ": " + r.msg }

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

// winWhen is the profile's win rule, reach or merge.
func (g *game) winWhen() string {
	if g.mutant == "win-on-any-tile-ge-in-classic" && g.p.name == "classic" { // MUTANT: classic wins on reach
		return "reach"
	}
	return g.p.winWhen
}

func (g *game) snapshot() snapshot {
	return snapshot{board: g.board.clone(), score: g.score, moves: g.moves, rng: g.rng, won: g.won, keep: g.keep, result: g.result}
}

// newGame starts a run: the profile's start tiles spawned on the empty
// board by tp1 from key.
func newGame(p *profile, m string, rows, cols int, key uint64) *game {
	g := &game{p: p, mutant: m, rng: splitmix{key}, result: playing}
	g.board = board{rows: rows, cols: cols, cells: make([]int64, rows*cols)}
	for range p.startTiles {
		g.spawn(&g.board)
	}
	g.evaluate()
	return g
}

// loadGame starts a run from a given state; its later spawns come from tp1
// seeded with key.
func loadGame(p *profile, m string, b board, score, moves int64, won, keep bool, key uint64) *game {
	g := &game{p: p, mutant: m, board: b, score: score, moves: moves, won: won, keep: keep, rng: splitmix{key}, result: playing}
	g.evaluate()
	return g
}

// evaluate brings a new or loaded state's flags up to date.
func (g *game) evaluate() {
	if w := g.winTile(); w != 0 && g.winWhen() == "reach" && g.board.maxTile() >= w {
		g.won = true
	}
	g.finish()
}

// finish checks the finishing conditions in order: the target, no moves
// left, the move limit; classic, as the original game, checks no moves
// first (its noMovesFirst).
func (g *game) finish() {
	stops := g.won && g.p.winThen != "continue" && !g.keep
	if g.mutant == "win-does-not-stop" { // MUTANT: the win never stops the run
		stops = false
	}
	noMovesLeft := g.blocked(g.board)
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
func (g *game) spawn(b *board) spawnJSON {
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
	draw = g.rng.next()
	c := int(draw % uint64(max(b.empties(), 1)))
	cell := -1
	switch g.mutant {
	case "spawn-on-occupied": // MUTANT: picks among all cells, empty or not
		cell = int(draw % uint64(len(b.cells)))
	case "spawn-first-empty-cell": // MUTANT: the draw is ignored
		c = 0
	}
	if cell < 0 {
		for i, v := range b.cells {
			if v == 0 {
				if c == 0 {
					cell = i
					break
				}
				c--
			}
		}
	}
	b.cells[cell] = value
	return spawnJSON{Row: cell / b.cols, Col: cell % b.cols, Value: value}
}

// legal reports whether moving toward d is accepted and changes the board.
func (g *game) legal(d dir) bool {
	if g.result != playing {
		return false
	}
	s, _ := g.slide(d)
	return s.changed // a move whose merge would overflow changes the board, and is refused when made
}

func (g *game) legalMoves() []string {
	out := []string{}
	for d := up; d <= right; d++ {
		if g.legal(d) || g.mutant == "legal-actions-include-noop" { // MUTANT: lists every direction
			out = append(out, d.String())
		}
	}
	return out
}

// moveStep is what a move did.
type moveStep struct {
	changed bool
	gained  int64
	spawn   *spawnJSON
}

// move plays one move, with the spawn given or drawn.
func (g *game) move(d dir, given *spawnJSON) (moveStep, error) {
	if g.result != playing {
		if g.p.illegal == "ignore" {
			return moveStep{}, nil
		}
		return moveStep{}, refuse("finished", "moving %s: the run is over (%s); no move is accepted", d, g.result)
	}
	s, err := g.slide(d)
	if err != nil {
		return moveStep{}, refuse("overflow", "moving %s: %v", d, err)
	}
	if !s.changed {
		return g.noop(d)
	}
	if s.gained > maxSafe-g.score {
		return moveStep{}, refuse("overflow", "moving %s: the score would pass 2^53-1", d)
	}
	if g.moves >= maxSafe {
		return moveStep{}, refuse("overflow", "moving %s: the move count would pass 2^53-1", d)
	}
	b := s.board
	if given != nil {
		if err := g.checkSpawn(*given, b); err != nil {
			return moveStep{}, err
		}
	}
	if g.p.undo {
		keep := 1
		if g.mutant == "undo-twice" { // MUTANT: remembers two moves
			keep = 2
		}
		g.history = append(g.history, g.snapshot())
		if len(g.history) > keep {
			g.history = g.history[1:]
		}
	}
	var sp spawnJSON
	if given != nil {
		sp = *given
		b.cells[sp.Row*b.cols+sp.Col] = sp.Value
	} else {
		sp = g.spawn(&b)
	}
	g.board = b
	g.score += s.gained
	g.moves++
	if w := g.winTile(); !g.won && w != 0 {
		if g.winWhen() == "reach" {
			g.won = b.maxTile() >= w
		} else {
			for _, v := range s.made {
				g.won = g.won || v == w
			}
		}
	}
	g.finish()
	return moveStep{changed: true, gained: s.gained, spawn: &sp}, nil
}

// noop answers a move that changes nothing while the run is playing:
// ignored or refused, as the profile says.
func (g *game) noop(d dir) (moveStep, error) {
	if g.mutant == "rng-advances-on-noop" { // MUTANT: draws a spawn before looking whether the board changed
		g.rng.next()
		g.rng.next()
	}
	if g.p.illegal == "reject" && g.mutant != "illegal-move-not-rejected" { // MUTANT (when not): accepted silently
		return moveStep{}, refuse("illegal-move", "moving %s does not change the board, so it is not a legal move; legal moves: %s", d, legalText(g.legalMoves()))
	}
	var step moveStep
	if g.mutant == "illegal-move-counted" { // MUTANT: counts a move that changed nothing
		g.moves++
	}
	if g.mutant == "spawn-after-noop" && g.board.empties() > 0 { // MUTANT: spawns although nothing moved
		sp := g.spawn(&g.board)
		step.spawn = &sp
	}
	return step, nil
}

func legalText(legal []string) string {
	if len(legal) == 0 {
		return "none"
	}
	return strings.Join(legal, ", ")
}

// checkSpawn checks a forced spawn against the board after the slide.
func (g *game) checkSpawn(s spawnJSON, b board) error {
	switch {
	case s.Row < 0 || s.Row >= b.rows || s.Col < 0 || s.Col >= b.cols:
		return refuse("bad-spawn", "cell (%d, %d) is outside the %dx%d board", s.Row, s.Col, b.rows, b.cols)
	case b.cells[s.Row*b.cols+s.Col] != 0:
		return refuse("bad-spawn", "cell (%d, %d) is not empty after the slide", s.Row, s.Col)
	}
	for _, w := range g.p.spawn {
		if w.value == s.Value {
			return nil
		}
	}
	return refuse("bad-spawn", "profile %s does not spawn %d", g.p.name, s.Value)
}

// undo takes back the last counted move, the generator included.
func (g *game) undo() error {
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
	g.board, g.score, g.moves, g.rng, g.won, g.keep, g.result = last.board, last.score, last.moves, last.rng, last.won, last.keep, last.result
	if g.mutant == "undo-does-not-restore-spawn" { // MUTANT: the generator is not taken back
		g.rng = rng
	}
	return nil
}

// endRun ends the run by the player's choice.
func (g *game) endRun() error {
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
func (g *game) keepPlaying() error {
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
