package main

import (
	"context"
	"encoding/json"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/replay"
)

// withAnalysis returns verifyOne with, for each valid game (a suspicious
// one too), the evidence of computer play that tileproof analyze gives
// (analysisOf: the built-in reference, the clairvoyance test for a
// seeded game) as the verdict's Analysis. A game the evaluators cannot analyse (not 4x4,
// a profile file) gets an analysis that says why, band "insufficient".
func withAnalysis(analysisOf func(name string, r *replay.Replay) json.RawMessage, verifyOne func(name string, data []byte) replay.Verdict) func(string, []byte) replay.Verdict {
	return func(name string, data []byte) replay.Verdict {
		vd := verifyOne(name, data)
		if !analysed(vd) {
			return vd
		}
		r, err := replay.Decode(name, data)
		if err != nil {
			vd.Analysis = notAnalysed(err)
			return vd
		}
		vd.Analysis = analysisOf(name, r)
		return vd
	}
}

// analysed reports whether verify --analyze analyses a game of verdict
// vd: a valid one, a suspicious one too; an invalid game is no game to
// judge.
func analysed(vd replay.Verdict) bool {
	return vd.Valid || vd.Reason == replay.Implausible
}

// analyzer returns the analysis verify --analyze gives a decoded game
// (called name) with opts (analysisOptions'), as a verdict's Analysis: the
// report of tileproof analyze --json, or notAnalysed's.
func analyzer(ctx context.Context, v *replay.Verifier, opts analyze.Options) func(name string, r *replay.Replay) json.RawMessage {
	return func(name string, r *replay.Replay) json.RawMessage {
		rep, err := analyze.Analyze(ctx, v, name, r, opts)
		if err != nil {
			return notAnalysed(err)
		}
		b, _ := json.Marshal(rep)
		return b
	}
}

// notAnalysed is the analysis of a game the evaluators cannot analyse:
// band "insufficient" and the reason, in words.
func notAnalysed(err error) json.RawMessage {
	b, _ := json.Marshal(struct {
		Band   string `json:"band"`
		Reason string `json:"reason"`
	}{analyze.Insufficient, err.Error()})
	return b
}
