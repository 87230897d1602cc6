package htmlview

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/internal/safetext"
)

// The analysis (docs/analyze.md) on the pages: a viewer page whose
// verdict carries one (replay.Verdict.Analysis, the report tileproof
// analyze --json prints, or for a game the evaluators cannot analyse its
// band and the reason) gets the section "Moves compared with reference evaluators and players",
// and the batch report a column of the bands.

// analysis is a verdict's analysis as it travels in the verdict: the
// report of analyze.Analyze, or, for a game not analysed, its band
// (insufficient) and Reason.
type analysis struct {
	analyze.GameReport
	Reason string `json:"reason"`
}

// bandOrder is the bands by their number in the report's rows, from the
// least to the most atypical: a sort on the column, highest first, puts
// the strongly atypical first.
var bandOrder = []string{analyze.Insufficient, analyze.Consistent, analyze.Review, analyze.Strong}

// bandRank is a band's place in bandOrder, -1 for none.
func bandRank(band string) int { return slices.Index(bandOrder, band) }

// flagged reports whether band is atypical (review or strong): a game the
// batch report lists among those that need the operator's eyes.
func flagged(band string) bool { return band == analyze.Review || band == analyze.Strong }

// cellsOf reads what the batch report keeps of a verdict's analysis,
// in one reading: its band ("" when there is none or it names no band of
// the four) and its median think time in milliseconds (nil when it has
// none).
func cellsOf(raw json.RawMessage) (band string, thinkMs *float64) {
	var a struct {
		Band      string `json:"band"`
		ThinkTime *struct {
			MedianMs *float64 `json:"median_ms"`
		} `json:"think_time"`
	}
	if json.Unmarshal(raw, &a) != nil {
		return "", nil
	}
	if bandRank(a.Band) >= 0 {
		band = a.Band
	}
	if a.ThinkTime != nil {
		thinkMs = a.ThinkTime.MedianMs
	}
	return band, thinkMs
}

// evidence is what the section shows: the analysis, and its words for
// people.
type evidence struct {
	analysis
	BandText string
	// Statement is the analysis's statement without its last sentence,
	// NotAFinding, which the section always shows on its own.
	Statement   string
	NotAFinding string
	// Why is why the band is insufficient (the reference too thin, the
	// game too short) or why the game was not analysed.
	Why string
	// Figures is false for a game the evaluators could not analyse: the
	// section has then the band, Why and NotAFinding only.
	Figures bool
	// Think is the part of the game's think times (analysis_think.go);
	// nil for a replay without them.
	Think *thinkView
}

// evidenceOf reads a verdict's analysis for the section; nil when there
// is none. An analysis that cannot be read is shown as not analysed, with
// the reason.
func evidenceOf(raw json.RawMessage) *evidence {
	if len(raw) == 0 {
		return nil
	}
	var a analysis
	if err := json.Unmarshal(raw, &a); err != nil {
		a = analysis{Reason: "the analysis cannot be read: " + err.Error()}
	}
	if bandRank(a.Band) < 0 {
		a.Band = analyze.Insufficient
	}
	// The statement names the game by its file's name, and the reference
	// by its own; a reason may quote either: shown as the page shows a
	// name (\u202e), so that a right-to-left override in a name cannot
	// turn the rest of the statement around.
	a.Reason, a.Reference, a.Stopped = safetext.Terminal(a.Reason), safetext.Terminal(a.Reference), safetext.Terminal(a.Stopped)
	for i, r := range a.Reasons {
		a.Reasons[i] = safetext.Terminal(r)
	}
	e := &evidence{analysis: a, BandText: analyze.BandText(a.Band), NotAFinding: analyze.NotAFinding, Why: a.Reason}
	if a.Reason != "" || len(a.Evaluators) == 0 && a.Analysed == 0 {
		e.Why = analyze.NotAnalysed(e.Why)
		return e
	}
	e.Figures = true
	e.Think = thinkViewOf(a.ThinkTime)
	e.Statement = safetext.Terminal(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(a.Statement), analyze.NotAFinding)))
	if a.Band == analyze.Insufficient && len(a.Reasons) > 0 {
		e.Why = a.Reasons[0] // place() gives the insufficiency first
	}
	return e
}

// placed writes an evaluator's figure x of the statistic key with
// format, or a dash where the reference does not place that statistic.
func placed(s analyze.EvalStats, key, format string, x float64) string {
	if !slices.Contains(s.Placed, key) {
		return "\u2013"
	}
	return fmt.Sprintf(format, x)
}

// percent writes a share as a percentage.
func percent(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// bandCount is one band's count in the batch, for the filter of the
// report's column of bands.
type bandCount struct {
	Band, Text string
	Count      int
}

// bandCounts counts the entries' bands, most atypical first; nil when no
// entry has one.
func bandCounts(entries []Entry) []bandCount {
	n := map[string]int{}
	for _, e := range entries {
		n[e.Band]++
	}
	var out []bandCount
	for _, b := range slices.Backward(bandOrder) {
		if n[b] > 0 {
			out = append(out, bandCount{b, analyze.BandText(b), n[b]})
		}
	}
	return out
}
