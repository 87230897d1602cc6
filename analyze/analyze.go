// Package analyze compares a verified game's moves with reference
// evaluators and reference players: it compares each move played with
// the moves reference evaluators prefer
// (irwin's per-move features: the rank of the move played, how many moves
// were near the best, the loss in expected value), sums them up per game
// (agreement on non-trivial moves, the distribution of losses, errors on
// crowded boards against open ones, and for seeded games a clairvoyance
// test), and states where the game stands against a reference set of games
// by known players (Regan's approach: a z-score against a model fitted to
// the reference). Its band is a statement for a person to review, never a
// finding of cheating. docs/analyze.md explains the figures, the
// thresholds and how they were measured.
package analyze

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/replay"
)

// Options choose what an analysis computes.
type Options struct {
	// Deep adds expectimax-3 to the default evaluators (expectimax-1,
	// expectimax-2, corner-1): some ten times slower.
	Deep bool
	// Clairvoyance runs the clairvoyance test on a seeded game.
	Clairvoyance bool
	// MaxMoves stops the analysis after that many counted moves; 0 for
	// DefaultMaxMoves.
	MaxMoves int
	// Reference is the reference set the game is placed against; nil for
	// the built-in one (BuiltinReference).
	Reference *Reference
	// KeepMoves keeps the per-move records in the report.
	KeepMoves bool
	// CheckTimes, when set, checks a replay's think times against the
	// seal of the signed server that dealt the games (say, a closure of
	// server.CheckTimes with the server's key): a report's think times
	// then say whether they are sealed (ThinkTime.Sealed, true where it
	// returns nil).
	CheckTimes func(*replay.Replay) error
}

func (o Options) evaluators() []evaluator {
	ev := []evaluator{newExpectimax(2), newExpectimax(1), corner{}}
	if o.Deep {
		ev = append(ev, newExpectimax(3))
	}
	return ev
}

// ErrNotAnalysable is returned for a game the analysis does not cover: not
// a valid replay, or not on a 4x4 board.
var ErrNotAnalysable = errors.New("not analysable")

// NotAnalysed says that a game was not analysed, and why: reason, the
// error its verdict carries, as it is when it says so already (an
// ErrNotAnalysable), after "not analysed: " otherwise.
func NotAnalysed(reason string) string {
	if strings.HasPrefix(reason, ErrNotAnalysable.Error()) {
		return reason
	}
	return strings.TrimSuffix("not analysed: "+reason, ": ")
}

// Analyze verifies replay r (called name in the statement) with v and
// analyses its moves. A replay that is not valid is not analysed (the
// error says why). With no opts.Reference it fails, before anything
// else, in a build the built-in reference does not fit
// ([BuiltinReference]).
func Analyze(ctx context.Context, v *replay.Verifier, name string, r *replay.Replay, opts Options) (*GameReport, error) {
	ref := opts.Reference
	if ref == nil {
		var err error
		if ref, err = BuiltinReference(); err != nil {
			return nil, err
		}
	}
	vd := v.Verify(r)
	if !vd.Valid {
		why := string(vd.Reason)
		if vd.Error != "" { // refused or malformed: what the verifier said
			why += ": " + vd.Error
		}
		return nil, fmt.Errorf("%w: the replay is not valid (%s)", ErrNotAnalysable, why)
	}
	// A decoded replay has a time an action (replay.Decode refuses
	// another count); one made in Go may not, and the verdict does not
	// read the times.
	if r.Times != nil && len(r.Times) != len(r.Actions) {
		return nil, fmt.Errorf("%w: times: %d think times for the log's %d actions: a time an action", ErrNotAnalysable, len(r.Times), len(r.Actions))
	}
	// The built-in profile the replay names, as it is and with its setup.
	builtin, err := engine.BuiltinProfile(r.Profile)
	p := builtin
	if err == nil && r.Setup != nil {
		p, err = builtin.WithSetup(*r.Setup)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotAnalysable, err)
	}
	if p.Rows != 4 || p.Cols != 4 {
		return nil, fmt.Errorf("%w: a %dx%d board (the evaluators play 4x4 boards)", ErrNotAnalysable, p.Rows, p.Cols)
	}
	limit := opts.MaxMoves
	if limit <= 0 {
		limit = DefaultMaxMoves
	}
	_, start, err := startOf(p, r)
	if err != nil {
		return nil, err
	}
	evals, spawns := opts.evaluators(), spawnTiles(p.Spawn)
	g := newGameMoves(len(evals))
	var timed []timedMove
	if r.Times != nil {
		timed = make([]timedMove, 0, min(len(r.Times), limit))
	}
	capped, undone, err := walk(ctx, start, r, limit, func(i int, game *engine.Game, d engine.Direction) bool {
		b, ok := toBitboard(game.Board())
		if !ok {
			g.stopped = "a tile of 65536"
			return false
		}
		m, ok := analyseMove(evals, spawns, b, d)
		if !ok {
			g.stopped = "a merge to 65536"
			return false
		}
		m.Action = i
		if r.Times != nil {
			ms := r.Times[i-1]
			m.ThinkMs = &ms
			timed = append(timed, timedMove{ms: float64(ms), filled: 16 - m.Empty, notNear: m.Legal - m.Evals[0].Near, gap: m.Gap, easy: m.Trivial})
		}
		g.add(m, opts.KeepMoves)
		return true
	})
	if err == nil && !capped && g.stopped == "" && (start.Score() != vd.Score || start.Moves() != vd.Moves) {
		err = fmt.Errorf("it ends with score %d in %d moves, the verifier's game with score %d in %d", start.Score(), start.Moves(), vd.Score, vd.Moves)
	}
	if err != nil && ctx.Err() == nil {
		// The verifier may know a profile given as a file under a
		// built-in's name (--profile FILE): the evaluators play the
		// built-in one, and the game is not that one's.
		return nil, fmt.Errorf("%w: the game does not replay under the built-in profile %s, the one the evaluators know (was it verified under a profile file of that name?): %v", ErrNotAnalysable, r.Profile, err)
	}
	if err != nil {
		return nil, err
	}
	// A game that replays under the built-in to the verifier's end may
	// still be another profile's: a spawn-recorded game under other
	// spawn weights replays alike, and the evaluators would weigh its
	// spawns as the built-in does.
	if vp, ok := v.Profile(r.Profile); ok {
		if d := ruleDifferences(vp, builtin); len(d) > 0 {
			return nil, fmt.Errorf("%w: the game's profile %s, as the verifier knows it (a profile file of that name), is not the built-in one, the only rules the evaluators know: its %s differ", ErrNotAnalysable, r.Profile, strings.Join(d, ", "))
		}
	}
	if capped && opts.MaxMoves <= 0 {
		g.stopped = fmt.Sprintf("move %d: the analysis covers the first %d moves (--max-moves sets another bound)", limit+1, limit)
	}
	rep := g.report(evals)
	rep.Name, rep.SHA256, rep.MaxTile, rep.GameMoves = name, vd.SHA256, vd.MaxTile, vd.Moves
	rep.AnalysedMaxTile = start.Board().MaxTile() // where the walk stopped: after the last move analysed
	rep.Undone = undone
	rep.ThinkTime = thinkTime(timed)
	if rep.ThinkTime != nil && opts.CheckTimes != nil {
		sealed := opts.CheckTimes(r) == nil
		rep.ThinkTime.Sealed = &sealed
	}
	if opts.Clairvoyance && r.Seed != nil {
		c, err := clairvoyance(ctx, r, p, limit)
		if err != nil {
			return nil, err
		}
		rep.Clairvoyance = c
	}
	ref.place(rep)
	return rep, nil
}

// ruleDifferences names the rules in which profile p differs from q, in
// the words of a profile file; none when they play alike (the name, the
// version, the prose and the parameters the source leaves unstated are
// not rules).
func ruleDifferences(p, q *engine.Profile) []string {
	var d []string
	for _, c := range []struct {
		differ bool
		what   string
	}{
		{p.Rows != q.Rows || p.Cols != q.Cols, "rows and cols"},
		{p.StartTiles != q.StartTiles, "startTiles"},
		{!slices.Equal(p.Spawn, q.Spawn), "spawn weights"},
		{p.Win != q.Win, "win"},
		{!slices.Equal(p.Targets, q.Targets), "targets"},
		{p.OpenEnded != q.OpenEnded, "openEnded"},
		{p.Illegal != q.Illegal, "illegalMove"},
		{p.MoveLimit != q.MoveLimit, "moveLimit"},
		{!slices.Equal(p.FinishOrder, q.FinishOrder), "finishOrder"},
		{p.GameOver != q.GameOver, "gameOver"},
		{p.Undo != q.Undo, "undo"},
		{p.EndRun != q.EndRun, "endRun"},
		{p.Break != q.Break, "break"},
		{p.Generator() != q.Generator(), "rng"},
	} {
		if c.differ {
			d = append(d, c.what)
		}
	}
	return d
}
