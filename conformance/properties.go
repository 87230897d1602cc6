package conformance

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// distributionSample is the number of spawns the distribution check draws.
const distributionSample = 2000

// startSample is the number of games the start check starts.
const startSample = 200

// exhaustiveMaxExp is the largest tile exponent of the exhaustive line
// check: every line of 4 cells of tiles up to 2^exhaustiveMaxExp (and
// empty), 6^4 = 1296 lines, in every direction.
const exhaustiveMaxExp = 5

type property struct {
	name    string
	needs   []string
	tests   int  // the statistical tests it makes
	anySize bool // it plays on the profile's board, not on 4x4 boards of its own
	// check runs the property, given what the implementation declares;
	// alpha is the level of each of its statistical tests.
	check func(impl Impl, h Hello, p *engine.Profile, res *CaseResult, alpha float64)
	// description says what the property checks, source the rule it
	// follows, cited as a case cites its source (docs/sources.md): a
	// failing property's result carries both, as a case's does.
	description, source string
}

const (
	sharedRules = "tileproof, docs/profiles.md, Rules (all profiles), "
	spawnRule   = sharedRules + `"After a legal move one tile spawns, in a cell the slide left empty, of a value drawn by the profile's spawn weights"`
	mergeRule   = sharedRules + `"a move slides every line toward its edge, compresses the gaps, merges each pair of equal neighbours once"`
)

var properties = []property{
	{"start", nil, 2, true, startBoards,
		"a new game: the profile's start tiles, of values it spawns, on uniform cells; score 0, no move, its board's flags and legal moves; nothing of a game won before; starts that do not repeat",
		spawnRule},
	{"same-seed-same-game", []string{protocol.SeedTP1}, 0, false, sameSeedSameGame,
		"a seed played twice gives the same game, and it is tp1's game, move by move",
		`tileproof, docs/tp1.md, Test vectors; Online 2048, Seeded tile choices`},
	{"no-spawn-after-noop", []string{protocol.LoadState}, 0, false, noSpawnAfterNoop,
		"a move that changes nothing spawns nothing and is not counted; where the profile refuses it, the board is as loaded",
		sharedRules + `"A move that changes nothing spawns nothing"`},
	{"spawn-distribution", []string{protocol.LoadState}, 2, false, spawnDistribution,
		"spawns on a board with 15 empty cells: values by the profile's weights, cells uniform",
		spawnRule},
	{"metamorphic", []string{protocol.LoadState}, 0, false, metamorphic,
		"on random boards: a move mirrors the opposite move on the mirrored board; the tiles add up to those before and the spawn; the points are the tiles the merges made",
		mergeRule + `; ` + sharedRules + `"Each merge scores the new tile"`},
	{"exhaustive-lines", []string{protocol.LoadState}, 0, false, exhaustiveLines,
		"every line of 4 cells of tiles up to 32, moved in every direction, slides as the rules slide it",
		mergeRule},
	{oneMergeName, []string{protocol.LoadState}, 0, true, oneMergeFullBoards,
		"full boards with no merge, or one merge at each position (edges included), in every size declared: over, the result and the legal moves",
		sharedRules + `"The game is over when the board is full and no two neighbours across a row or a column are equal"`},
}

// propertyInfo returns what property check NAME (a result's case is
// properties/NAME) checks and its source, as a failing case's result
// carries them; nil for a name that is no property.
func propertyInfo(name string) *CaseInfo {
	for _, p := range properties {
		if p.name == name {
			return &CaseInfo{Description: p.description, Source: p.source}
		}
	}
	return nil
}

// runProperties runs the checks no single case shows, under one profile;
// each is a result named properties/NAME. Most play 4x4 boards of their
// own: under a profile of another size each of those is skipped, saying
// so.
// Once ctx is done, each check not begun is not run.
func runProperties(ctx context.Context, impl Impl, h Hello, p *engine.Profile, run *regexp.Regexp, alpha float64) []CaseResult {
	var out []CaseResult
	for _, prop := range properties {
		res := CaseResult{Case: "properties/" + prop.name, Area: PropertiesArea, Profile: p.Name}
		if run != nil && !run.MatchString(res.Case) {
			continue
		}
		switch reason := missingReason(h, p.Name, prop.needs); {
		case ctx.Err() != nil:
			res = notRun(res, ctx)
		case !prop.anySize && (p.Rows != 4 || p.Cols != 4):
			// The suite's limit, not the implementation's: no
			// implementation of the profile is checked so.
			res.Status, res.NotApplicable = Skip, true
			res.Reason = fmt.Sprintf("not applicable: the property check plays on 4x4 boards; profile %s plays on %dx%d", p.Name, p.Rows, p.Cols)
		case reason != "":
			res.Status, res.Reason = Skip, reason
		default:
			prop.check(impl, h, p, &res, alpha)
			if res.Status == "" {
				res.Status = Pass
			}
			if res.Status.Failed() && res.Start != nil {
				// A board the check loaded that no game of p reaches (two
				// 128s and no win, under a variant that wins at 128): its
				// failure is reported apart, as a case's is.
				res.Unreachable = winUnreachable(Start{Board: res.Start}, p)
			}
		}
		out = append(out, res)
	}
	return out
}

// played is one game of a property check played: the move's result, and
// the board after its slide (the board loaded, when it was refused).
type played struct {
	mr      MoveResult
	slid    engine.Board
	refused bool
}

// playAll plays games of one move each, loaded boards bs and moves ds, all
// at once through a [Pipeliner] or one after another, and checks each
// move's spawn as every move is checked. ok is false when a call failed or
// a spawn was wrong, recorded in res.
func playAll(impl Impl, p *engine.Profile, bs []engine.Board, ds []engine.Direction, res *CaseResult) (out []played, ok bool) {
	var results []OneMoveResult
	if pl, can := impl.(Pipeliner); can {
		games := make([]OneMove, len(bs))
		for i := range bs {
			games[i] = OneMove{LoadState{Board: bs[i]}, ds[i]}
		}
		results = pl.PlayAll(p.Name, games)
	} else {
		for i := range bs {
			r := OneMoveResult{}
			if _, r.Err = impl.(Loader).Load(p.Name, LoadState{Board: bs[i]}); r.Err == nil {
				r.Move, r.Err = impl.Move(ds[i], nil)
			}
			results = append(results, r)
			if r.Err != nil && !isRefusal(r.Err) {
				break // the call failed: the check stops here
			}
		}
	}
	for i, r := range results {
		if r.Err != nil {
			if !isRefusal(r.Err) {
				res.callFailed(r.Err, 0, "move "+ds[i].String())
				return out, false
			}
			out = append(out, played{slid: bs[i], refused: true})
			continue
		}
		c := &checker{what: "move " + ds[i].String(), before: bs[i]}
		if c.spawn(p, ds[i], nil, &r.Move); !c.record(res, 0) {
			return out, false
		}
		out = append(out, played{mr: r.Move, slid: r.Move.slid()})
	}
	return out, true
}

func isRefusal(err error) bool {
	var refusal *RuleError
	return errors.As(err, &refusal)
}

// metamorphic checks what needs no expected answer, on random boards: a
// move left is the mirror of a move right on the mirrored board (and up of
// down); the tile sum after a move is the sum before plus the spawned
// tile; the points gained are the tiles the merges made (the potential
// difference of docs/replay-format.md).
func metamorphic(impl Impl, h Hello, p *engine.Profile, res *CaseResult, alpha float64) {
	rng := rand.New(rand.NewPCG(2048, 4096))
	pairs := [][2]engine.Direction{{engine.Left, engine.Right}, {engine.Up, engine.Down}}
	// Each board is played four times: a move and the mirrored move on
	// the mirrored board, for both pairs of directions.
	var boards, bs []engine.Board
	var ds []engine.Direction
	for range 150 {
		var b engine.Board
		for !b.Legal(engine.Left) || !b.Legal(engine.Right) || !b.Legal(engine.Up) || !b.Legal(engine.Down) {
			b, _ = engine.NewBoard(4, 4)
			for i := range 16 {
				if rng.IntN(2) == 0 {
					b.Set(i/4, i%4, 2<<rng.IntN(4))
				}
			}
		}
		boards = append(boards, b)
		for _, pair := range pairs {
			bs, ds = append(bs, b, mirrorBoard(b, pair[0] == engine.Left)), append(ds, pair[0], pair[1])
		}
	}
	out, ok := playAll(impl, p, bs, ds, res)
	if !ok {
		return
	}
	scored := !scoreUnstated(p)
	for k, b := range boards {
		for j, pair := range pairs {
			i := 4*k + 2*j
			a, m := out[i], out[i+1]
			mirror := bs[i+1]
			if want := mirrorBoard(a.slid, pair[0] == engine.Left); want != m.slid || scored && a.mr.Gained != m.mr.Gained {
				res.failBoards(BoardDiverged, 0, &mirror, want, m.slid, "moving %s on the board loaded is not the mirror of moving %s on its mirror image%s", pair[1], pair[0], gains(m.mr.Gained, a.mr.Gained, "on the mirror image"))
				return
			}
			if a.refused || a.mr.Spawn == nil {
				res.failOn(IllegalHandled, &b, implBoard(a), "moving %s on the board loaded changes the board, but the implementation refused it or spawned nothing", pair[0])
				return
			}
			if sum := a.mr.State.Board.Sum(); sum != b.Sum()+a.mr.Spawn.Value {
				res.failOn(BoardDiverged, &b, &a.mr.State.Board, "after moving %s on the board loaded the tiles add up to %d, not %d + the spawned %d", pair[0], sum, b.Sum(), a.mr.Spawn.Value)
				return
			}
			if want := a.slid.Potential() - b.Potential(); scored && a.mr.Gained != want {
				res.failOn(ScoreDiverged, &b, &a.mr.State.Board, "moving %s on the board loaded gained %d points; the tiles the merges made add up to %d", pair[0], a.mr.Gained, want)
				return
			}
		}
	}
}

// implBoard is the implementation's board after a property's move, nil
// when it refused the move.
func implBoard(g played) *engine.Board {
	if g.refused {
		return nil
	}
	return &g.mr.State.Board
}

// gains says the points two moves gained, when they differ: ", gaining
// 8 points, 4 by the rules"; "" when they agree (the difference is
// elsewhere).
func gains(got, want uint64, other string) string {
	if got == want {
		return ""
	}
	return fmt.Sprintf(", gaining %d points, %d %s", got, want, other)
}

func mirrorBoard(b engine.Board, horizontal bool) engine.Board {
	out, _ := engine.NewBoard(b.Rows(), b.Cols())
	for r := range b.Rows() {
		for c := range b.Cols() {
			if horizontal {
				out.Set(r, b.Cols()-1-c, b.At(r, c))
			} else {
				out.Set(b.Rows()-1-r, c, b.At(r, c))
			}
		}
	}
	return out
}

// exhaustiveLines compares, for every line of 4 cells of exponents 0 to
// exhaustiveMaxExp, the slide in every direction with the engine's.
func exhaustiveLines(impl Impl, h Hello, p *engine.Profile, res *CaseResult, alpha float64) {
	const n = exhaustiveMaxExp + 1
	var bs []engine.Board
	var ds []engine.Direction
	for code := range n * n * n * n {
		for _, d := range engine.Directions {
			b, _ := engine.NewBoard(4, 4)
			for i, c := 0, code; i < 4; i, c = i+1, c/n {
				if e := c % n; e > 0 {
					if d == engine.Left || d == engine.Right {
						b.Set(0, i, 1<<e)
					} else {
						b.Set(i, 0, 1<<e)
					}
				}
			}
			if b.Empty() < 16 {
				bs, ds = append(bs, b), append(ds, d)
			}
		}
	}
	out, ok := playAll(impl, p, bs, ds, res)
	if !ok {
		return
	}
	for i, g := range out {
		b, d := bs[i], ds[i]
		want, _ := b.Slide(d)
		switch {
		case want.Changed && g.refused:
			res.failOn(IllegalHandled, &b, nil, "moving %s on the board loaded changes the board, but the implementation refused it", d)
		case !want.Changed && !g.refused && g.mr.Changed:
			res.failOn(LegalityDiffer, &b, &g.mr.State.Board, "moving %s on the board loaded changes nothing, but the implementation reports a change", d)
		case want.Changed && g.slid != want.Board:
			res.failBoards(BoardDiverged, 0, &b, want.Board, g.slid, "moving %s on the board loaded slides another board than the rules'%s", d, gains(g.mr.Gained, want.Gained, "by the rules"))
		case want.Changed && g.mr.Gained != want.Gained && !scoreUnstated(p):
			res.failOn(ScoreDiverged, &b, &g.mr.State.Board, "moving %s on the board loaded gained %d points; the rules give %d", d, g.mr.Gained, want.Gained)
		default:
			continue
		}
		return
	}
}
