package replay

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/tileproof/tileproof/internal/safetext"
)

// Summary counts the verdicts of a batch as they stream out, in the four
// classes of verdict: valid, suspicious (valid with spawn warnings, or
// failed for them: [Implausible]), invalid by reason, and unreadable.
// Add is called from one goroutine; Count, NotValid, Moves and Skip may
// be called from others while the batch runs.
type Summary struct {
	valid, unreadable int // valid: without warnings
	warned            int // valid replays with plausibility warnings: suspicious
	implausible       int // replays failed for their warnings
	moves             atomic.Int64
	count             atomic.Int64
	notValid          atomic.Int64 // the verdicts not valid: invalid, failed for warnings, unreadable
	skipped           atomic.Int64 // entries inside directories not read: not regular files, case packs
	invalid           map[Reason]int
	games             map[uint64]struct{} // the legal games counted, by the first 64 bits of their gameSha256
	repeats           int                 // legal games whose gameSha256 a game counted earlier had
	gamesFull         bool                // a game was not kept: games holds maxSummaryGames
	best              *Verdict            // the best valid score, suspicious or not
	clean             *Verdict            // the best valid score without warnings (best itself when it has none)
}

// maxSummaryGames bounds the games a Summary keeps to find repeats (some
// 40 MB of map at most): a batch is a stream of any length, and the
// line's other counts take no memory a replay. A repeat of a game past
// the bound goes uncounted, and the line says where the count stopped.
const maxSummaryGames = 1 << 20

// Add counts vd.
func (s *Summary) Add(vd Verdict) {
	s.count.Add(1)
	s.moves.Add(int64(vd.Moves))
	if !vd.Valid {
		s.notValid.Add(1)
	}
	if vd.LegalGame() && len(vd.GameSHA256) >= 16 {
		if h, err := strconv.ParseUint(vd.GameSHA256[:16], 16, 64); err == nil {
			if s.games == nil {
				s.games = map[uint64]struct{}{}
			}
			if _, ok := s.games[h]; ok {
				s.repeats++
			} else if len(s.games) < maxSummaryGames {
				s.games[h] = struct{}{}
			} else {
				s.gamesFull = true
			}
		}
	}
	switch {
	case vd.Reason == Implausible:
		s.implausible++
	case vd.Valid:
		if len(vd.Warnings) > 0 {
			s.warned++
		} else {
			s.valid++
		}
		// A copy only for a new best: vd itself stays on the stack.
		var c *Verdict
		if s.best == nil || vd.Score > s.best.Score {
			c = new(vd)
			s.best = c
		}
		if len(vd.Warnings) == 0 && (s.clean == nil || vd.Score > s.clean.Score) {
			if c == nil {
				c = new(vd)
			}
			s.clean = c
		}
	case vd.Reason.Unreadable():
		s.unreadable++
	default:
		if s.invalid == nil {
			s.invalid = map[Reason]int{}
		}
		s.invalid[vd.Reason]++
	}
}

// Skip counts a file the batch did not read (not a regular file).
func (s *Summary) Skip() { s.skipped.Add(1) }

// Count returns the number of verdicts counted.
func (s *Summary) Count() int64 { return s.count.Load() }

// NotValid returns the number of verdicts counted that are not valid
// (invalid, failed for their warnings, or unreadable).
func (s *Summary) NotValid() int64 { return s.notValid.Load() }

// Moves returns the moves of the verdicts counted.
func (s *Summary) Moves() int64 { return s.moves.Load() }

// Unreadable reports whether a replay could not be read.
func (s *Summary) Unreadable() bool { return s.unreadable > 0 }

// AllValid reports whether every replay counted is valid (suspicious ones
// included, unless failed for their warnings).
func (s *Summary) AllValid() bool { return int64(s.valid+s.warned) == s.count.Load() }

// Write writes the summary line: "12 replays: 10 valid, 2 invalid
// (claim-score 1, illegal-move 1), 0 unreadable; best verified score ...",
// with "N suspicious" after the valid when N valid replays have spawn
// warnings (or were failed for them), the files skipped, and how many
// legal games (valid, or failed by --strict alone) repeat the game as
// played (gameSha256) of one counted before them: a game submitted twice,
// under two names or with other bytes. When the
// best verified score is a suspicious replay's, the line says so and
// gives the best of the replays without warnings too: a leaderboard
// reading the line would otherwise crown a game whose spawns the tests
// doubt (the batch report's top scores leave such games out).
func (s *Summary) Write(w io.Writer) {
	n := 0
	var reasons []string
	for r, k := range s.invalid {
		n += k
		reasons = append(reasons, fmt.Sprintf("%s %d", r, k))
	}
	sort.Strings(reasons)
	fmt.Fprintf(w, "%d replay", s.count.Load())
	if s.count.Load() != 1 {
		fmt.Fprint(w, "s")
	}
	fmt.Fprintf(w, ": %d valid", s.valid)
	if s.warned > 0 {
		fmt.Fprintf(w, ", %d suspicious (spawn warnings)", s.warned)
	}
	if s.implausible > 0 {
		fmt.Fprintf(w, ", %d suspicious (implausible, failed by --strict)", s.implausible)
	}
	fmt.Fprintf(w, ", %d invalid", n)
	if n > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(reasons, ", "))
	}
	fmt.Fprintf(w, ", %d unreadable", s.unreadable)
	if k := s.skipped.Load(); k > 0 {
		fmt.Fprintf(w, ", %d skipped (each named on stderr)", k)
	}
	if s.repeats > 0 {
		verb := "repeat"
		if s.repeats == 1 {
			verb = "repeats"
		}
		fmt.Fprintf(w, "; %d %s a game earlier in the batch (the same gameSha256)", s.repeats, verb)
	}
	if s.gamesFull {
		fmt.Fprintf(w, "; repeats looked for among the first %d games only", maxSummaryGames)
	}
	if s.best != nil {
		fmt.Fprintf(w, "; best verified score %d (%s)", s.best.Score, safetext.Name(s.best.Name))
		if len(s.best.Warnings) > 0 {
			fmt.Fprint(w, ", suspicious")
			if s.clean != nil {
				fmt.Fprintf(w, "; best without warnings %d (%s)", s.clean.Score, safetext.Name(s.clean.Name))
			}
		}
	}
	fmt.Fprintln(w)
}
