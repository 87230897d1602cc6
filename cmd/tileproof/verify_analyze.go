package main

import (
	"context"
	"encoding/json"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/replay"
)

// withAnalysis returns verifyOne with, for each valid game (a suspicious
// one too), the evidence of computer play that tileproof analyze gives
// (the built-in reference, the clairvoyance test for a seeded game) as
// the verdict's Analysis. A game the evaluators cannot analyse (not 4x4,
// a profile file) gets an analysis that says why, band "insufficient".
func withAnalysis(ctx context.Context, v *replay.Verifier, verifyOne func(name string, data []byte) replay.Verdict) func(string, []byte) replay.Verdict {
	return func(name string, data []byte) replay.Verdict {
		vd := verifyOne(name, data)
		if !vd.Valid && vd.Reason != replay.Implausible {
			return vd
		}
		var report any
		r, err := replay.Decode(name, data)
		if err == nil {
			var rep *analyze.Report
			if rep, err = analyze.Analyze(ctx, v, name, r, analyze.Options{Clairvoyance: true}); err == nil {
				report = rep
			}
		}
		if err != nil {
			report = struct {
				Band   string `json:"band"`
				Reason string `json:"reason"`
			}{analyze.Insufficient, err.Error()}
		}
		vd.Analysis, _ = json.Marshal(report)
		return vd
	}
}
