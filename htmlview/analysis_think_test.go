package htmlview

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/testkit/apiplay"
	"github.com/tileproof/tileproof/protocol"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/server"
)

// thinkKey is the key of the signed server the tests' timed games are
// played through.
const thinkKey = "0123456789abcdef0123456789abcdef"

// playTimed plays a tile-merge game of at most n moves from seed through
// a server signed with thinkKey on a real socket, the client waiting
// before each move 1 ms and 1 ms a filled cell (a pace that follows the
// board), and returns the replay with the server's times and seal.
func playTimed(t testing.TB, seed string, n int) *replay.Replay {
	t.Helper()
	p, _ := engine.BuiltinProfile("tile-merge")
	s, err := server.New([]*engine.Profile{p}, []byte(thinkKey))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	return apiplay.Play(t, ts.URL, "tile-merge", seed, n, func(i int, r protocol.Response) protocol.ActionBody {
		filled := 0
		for _, row := range r.Observation.Board {
			for _, v := range row {
				if v != 0 {
					filled++
				}
			}
		}
		time.Sleep(time.Duration(1+filled) * time.Millisecond)
		return cornerMove(r.LegalActions)
	})
}

// cornerMove is the first legal of down, left, right and up: a player
// that keeps its tiles in a corner, so that a game lasts and comes to
// boards where one move is left.
func cornerMove(legal []protocol.ActionBody) protocol.ActionBody {
	for _, d := range []string{"down", "left", "right", "up"} {
		for _, a := range legal {
			if a.Direction == d {
				return a
			}
		}
	}
	return legal[0]
}

// timedPage analyses r as verify --analyze does (the clairvoyance test;
// with check, the check of the times against a server's key) and returns
// its viewer page and the report.
func timedPage(t testing.TB, r *replay.Replay, check func(*replay.Replay) error) (string, *analyze.GameReport) {
	t.Helper()
	g := decodeGame(t, "timed.json", r.EncodeJSON())
	rep, err := analyze.Analyze(context.Background(), replay.NewVerifier(), "timed.json", g.Replay, analyze.Options{Clairvoyance: true, CheckTimes: check})
	if err != nil {
		t.Fatal(err)
	}
	if g.Verdict.Analysis, err = json.Marshal(rep); err != nil {
		t.Fatal(err)
	}
	return page(t, g), rep
}

// withTimes returns r with its times replaced by times(i) for the i-th
// action, its seal kept: times the server did not measure.
func withTimes(r *replay.Replay, times func(i int) uint32) *replay.Replay {
	c := *r
	c.Times = make([]uint32, len(r.Times))
	for i := range c.Times {
		c.Times[i] = times(i)
	}
	return &c
}

// thinkPart is the part "Think times" of the section, as the template
// writes it: from its heading to the end of its last paragraph.
var thinkPart = regexp.MustCompile(`(?s)\n<h3 id="think-title">.*?<p class="sub" id="think-reading">.*?</p>`)

// thinkText is the text of the element with id in page (to the first
// end tag of its own kind: the part nests none in its like), each run of
// white space one space.
func thinkText(t *testing.T, page, id string) string {
	t.Helper()
	m := regexp.MustCompile(`<(\w+)[^>]* id="` + regexp.QuoteMeta(id) + `"[^>]*>`).FindStringSubmatchIndex(page)
	if m == nil {
		t.Fatalf("no element #%s", id)
	}
	rest := page[m[1]:]
	end := strings.Index(rest, "</"+page[m[2]:m[3]]+">")
	if end < 0 {
		t.Fatalf("element #%s is not closed", id)
	}
	return strings.Join(strings.Fields(textOf(rest[:end])), " ")
}

// ms writes a time as the part does: whole milliseconds, digits grouped.
func ms(x float64) string { return grouped(uint64(x + 0.5)) }

// count writes a count of moves.
func count(n int) string {
	if n == 1 {
		return "1 move"
	}
	return strconv.Itoa(n) + " moves"
}

// two writes a figure the analysis may leave out as the part does.
func two(x *float64) string {
	if x == nil {
		return ""
	}
	return strconv.FormatFloat(*x, 'f', 2, 64)
}

// TestThinkSection: the viewer page of a game played through a signed
// server, analysed as verify --analyze analyses it, has in its section
// "Moves compared with reference evaluators and players" the part "Think times" with the analysis's
// own figures (median and quartiles, spread, the three rank correlations
// with what they measure and what above 0 says, the easy and critical
// moves' ratios), whether the times are sealed by the server whose key
// was given (sealed, NOT sealed, not checked without a key) and the
// sentence that they change no band. The part is all the times add: the
// page of the same replay without times is the page without the part,
// byte for byte, and says nothing of think times.
func TestThinkSection(t *testing.T) {
	t.Parallel()
	r := playTimed(t, "section", 120)
	if len(r.Times) < 100 {
		t.Fatalf("the game has %d moves, the test wants 100 or more", len(r.Times))
	}
	bare := *r
	bare.Times, bare.TimesSeal = nil, ""
	untimed, plain := timedPage(t, &bare, nil)
	if plain.ThinkTime != nil || strings.Contains(untimed, "think") || strings.Contains(untimed, "Think") {
		t.Fatalf("the page of a replay without times speaks of them")
	}
	other := strings.Repeat("x", 32)
	seals := map[string]string{
		thinkSealed:    "sealed by the server whose key was given: the times it measured for this game.",
		thinkNotSealed: "NOT sealed by the server whose key was given: not the times it measured for this game (the figures below are of times someone else wrote).",
		thinkUnchecked: "not checked: no key of the signed server was given, so the times are the replay\u2019s word.",
	}
	for _, c := range []struct {
		seal  string
		check func(*replay.Replay) error
	}{
		{thinkSealed, func(r *replay.Replay) error { return server.CheckTimes([]byte(thinkKey), r) }},
		{thinkNotSealed, func(r *replay.Replay) error { return server.CheckTimes([]byte(other), r) }},
		{thinkUnchecked, nil},
	} {
		t.Run(c.seal, func(t *testing.T) {
			p, rep := timedPage(t, r, c.check)
			tt := rep.ThinkTime
			if tt == nil || tt.Moves != rep.Analysed || tt.Moves == 0 {
				t.Fatalf("the analysis's think times: %+v for %d analysed moves", tt, rep.Analysed)
			}
			if rep.Band != plain.Band || rep.Score != plain.Score {
				t.Errorf("the times changed the band: %s %.2f, without %s %.2f", rep.Band, rep.Score, plain.Band, plain.Score)
			}
			if got := thinkText(t, p, "think-title"); got != "Think times" {
				t.Errorf("title %q", got)
			}
			if got := thinkText(t, p, "think-seal"); got != seals[c.seal] {
				t.Errorf("seal:\n%q\nwant\n%q", got, seals[c.seal])
			}
			if !strings.Contains(p, `<p id="think-seal" data-sealed="`+c.seal+`">`) {
				t.Errorf("no data-sealed=%q", c.seal)
			}
			if got := thinkText(t, p, "think-no-band"); got != "These figures change no band, no score and no reason of the statement: no timed games by known people were at hand to calibrate them." {
				t.Errorf("no band: %q", got)
			}
			if n := strings.Count(p, analyze.NotAFinding); n != 1 {
				t.Errorf("the sentence that it is not a finding appears %d times", n)
			}
			want := map[string]string{
				"think-moves":  fmt.Sprintf("%d of the moves analysed", tt.Moves),
				"think-median": fmt.Sprintf("%s ms, quartiles %s to %s ms", ms(tt.MedianMs), ms(tt.P25Ms), ms(tt.P75Ms)),
				"think-spread": strconv.FormatFloat(tt.Spread, 'f', 2, 64) + ": the quartiles\u2019 range over the median (0 when the times are all alike, or when the median is 0)",
			}
			for id, c := range map[string]struct {
				x         *float64
				of, where string
			}{
				"think-crowded":  {tt.CrowdedCorr, "the board\u2019s filled cells before the move", "on crowded boards"},
				"think-critical": {tt.CriticalCorr, "the legal moves not near the best by the primary evaluator", "where more moves would cost"},
				"think-gap":      {tt.GapCorr, "the primary evaluator\u2019s lead of the best move over the next", "where a slip costs more"},
			} {
				if c.x == nil {
					t.Fatalf("%s: no correlation; the game's times should vary", id)
				}
				want[id] = two(c.x) + ", the rank correlation of the time with " + c.of + ": above 0 when the player takes longer " + c.where
			}
			if tt.Easy == 0 || tt.Critical == 0 || tt.EasyRatio == nil || tt.CriticalRatio == nil {
				t.Fatalf("the game gives %d easy and %d critical moves, ratios %v %v", tt.Easy, tt.Critical, tt.EasyRatio, tt.CriticalRatio)
			}
			want["think-easy"] = fmt.Sprintf("%s, forced or trivial: their median time %s times the game\u2019s (below 1 when the player moves faster on them)", count(tt.Easy), two(tt.EasyRatio))
			want["think-hard"] = fmt.Sprintf("%s, the quarter of the non-trivial ones whose best move leads the next by most: their median time %s times the game\u2019s (above 1 when the player takes longer on them)", count(tt.Critical), two(tt.CriticalRatio))
			for id, w := range want {
				if got := thinkText(t, p, id); got != w {
					t.Errorf("%s:\n%q\nwant\n%q", id, got, w)
				}
			}
			if rest := thinkPart.ReplaceAllString(p, ""); rest != untimed {
				t.Errorf("the times change the page beyond the part (%d bytes with it cut, %d without times)", len(rest), len(untimed))
			}
		})
	}
}

// TestThinkAbsentFigures: times that do not vary (written, not
// measured: NOT sealed) leave the correlations out, and the part says so
// with a dash; times all 0 leave the ratios out too (the game's median is
// 0), and a report without easy or critical moves says there are none.
func TestThinkAbsentFigures(t *testing.T) {
	t.Parallel()
	r := playTimed(t, "absent", 40)
	check := func(r *replay.Replay) error { return server.CheckTimes([]byte(thinkKey), r) }
	for _, c := range []struct {
		name  string
		times uint32
		ratio string
	}{
		{"150 ms", 150, "1.00"},
		{"0 ms", 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, rep := timedPage(t, withTimes(r, func(int) uint32 { return c.times }), check)
			tt := rep.ThinkTime
			if tt == nil || *tt.Sealed || tt.CrowdedCorr != nil || tt.CriticalCorr != nil || tt.GapCorr != nil || tt.Spread != 0 || tt.Critical == 0 {
				t.Fatalf("the analysis of constant times: %+v", tt)
			}
			if got := byID(t, p, "think-seal"); !strings.HasPrefix(got, "NOT sealed") {
				t.Errorf("seal %q", got)
			}
			if got, want := thinkText(t, p, "think-median"), fmt.Sprintf("%d ms, quartiles %d to %d ms", c.times, c.times, c.times); got != want {
				t.Errorf("median %q, want %q", got, want)
			}
			if got := thinkText(t, p, "think-spread"); !strings.HasPrefix(got, "0.00: ") {
				t.Errorf("spread %q", got)
			}
			for id, of := range map[string]string{"think-crowded": "the board\u2019s filled cells before the move", "think-critical": "the legal moves not near the best by the primary evaluator",
				"think-gap": "the primary evaluator\u2019s lead of the best move over the next"} {
				if got, want := thinkText(t, p, id), "\u2013, no rank correlation of the time with "+of+": the one or the other does not vary"; got != want {
					t.Errorf("%s:\n%q\nwant\n%q", id, got, want)
				}
			}
			hard, what := thinkText(t, p, "think-hard"), count(tt.Critical)+", the quarter of the non-trivial ones whose best move leads the next by most: "
			if c.ratio != "" {
				if want := what + "their median time " + c.ratio + " times the game\u2019s (above 1 when the player takes longer on them)"; hard != want {
					t.Errorf("critical:\n%q\nwant\n%q", hard, want)
				}
			} else if want := what + "no ratio, the game\u2019s median is 0 ms"; hard != want {
				t.Errorf("critical:\n%q\nwant\n%q", hard, want)
			}
		})
	}
	t.Run("none", func(t *testing.T) {
		g := decodeGame(t, "timed.json", r.EncodeJSON())
		rep, err := analyze.Analyze(context.Background(), replay.NewVerifier(), "timed.json", g.Replay, analyze.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rep.ThinkTime.Easy, rep.ThinkTime.EasyRatio, rep.ThinkTime.Critical, rep.ThinkTime.CriticalRatio = 0, nil, 0, nil
		g.Verdict.Analysis, _ = json.Marshal(rep)
		p := page(t, g)
		for id, want := range map[string]string{"think-easy": "no such moves (forced or trivial)",
			"think-hard": "no such moves (the quarter of the non-trivial ones whose best move leads the next by most)"} {
			if got := thinkText(t, p, id); got != want {
				t.Errorf("%s: %q, want %q", id, got, want)
			}
		}
	})
}

// TestWholeMs: a time is rounded to whole milliseconds, and one no server
// measures (not a number, below 0, past 2^32-1) is refused, on the page
// (a dash) and in the report's rows (no cell).
func TestWholeMs(t *testing.T) {
	for _, tc := range []struct {
		ms   float64
		want uint64
		ok   bool
	}{
		{0, 0, true}, {12.4, 12, true}, {12.5, 13, true}, {math.MaxUint32, math.MaxUint32, true},
		{math.NaN(), 0, false}, {-1, 0, false}, {math.MaxUint32 + 1, 0, false}, {math.Inf(1), 0, false},
	} {
		n, ok := wholeMs(tc.ms)
		if n != tc.want || ok != tc.ok {
			t.Errorf("wholeMs(%v) = %d, %v; want %d, %v", tc.ms, n, ok, tc.want, tc.ok)
		}
		if cell := thinkCell(&tc.ms); (cell != nil) != tc.ok || tc.ok && cell != tc.want {
			t.Errorf("thinkCell(%v) = %v", tc.ms, cell)
		}
		if page := millis(tc.ms); (page == "\u2013") == tc.ok {
			t.Errorf("millis(%v) = %q", tc.ms, page)
		}
	}
}

// TestThinkFewMoves: a game of fewer timed moves than
// analyze.MinCorrelationMoves has no correlations, and the part says why
// (too few timed moves, how many and how many it needs), not that the
// times do not vary; the other figures stay.
func TestThinkFewMoves(t *testing.T) {
	t.Parallel()
	r := playTimed(t, "few", analyze.MinCorrelationMoves-1)
	p, rep := timedPage(t, r, nil)
	tt := rep.ThinkTime
	if tt == nil || tt.Moves >= analyze.MinCorrelationMoves || tt.Moves < 10 || tt.CrowdedCorr != nil || tt.CriticalCorr != nil || tt.GapCorr != nil {
		t.Fatalf("the analysis of a short timed game: %+v", tt)
	}
	for id, of := range map[string]string{"think-crowded": "the board\u2019s filled cells before the move", "think-critical": "the legal moves not near the best by the primary evaluator",
		"think-gap": "the primary evaluator\u2019s lead of the best move over the next"} {
		want := fmt.Sprintf("\u2013, too few timed moves: no rank correlation of the time with %s on %d moves, fewer than the %d it needs", of, tt.Moves, analyze.MinCorrelationMoves)
		if got := thinkText(t, p, id); got != want {
			t.Errorf("%s:\n%q\nwant\n%q", id, got, want)
		}
	}
	if got := thinkText(t, p, "think-median"); !strings.HasSuffix(got, " ms") {
		t.Errorf("median %q", got)
	}
}
