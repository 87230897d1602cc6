package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/server"
)

// verdictExtras are what verify and show --html add to the verdict of a
// replay that decodes, each nil when not asked for: the check of its
// think times against the signed server's key (--times-key-file), and
// for a valid game (a suspicious one too; an invalid game is no game to
// judge) the comparison with reference evaluators and players that
// tileproof analyze gives (--analyze). A report adds them with add (SetExtras), before each
// page is written. The verdict on the game is left as it
// is: times that are not sealed are not the times the server measured,
// which says nothing of whether the game is legal.
type verdictExtras struct {
	checkTimes func(r *replay.Replay) *replay.TimesCheck
	analyse    func(name string, r *replay.Replay) json.RawMessage
	// unwritten are the games whose analysis JSON cannot hold
	// (analysisOf), each "NAME: why", and bands the games of each band,
	// gathered from the workers.
	mu        sync.Mutex
	unwritten []string
	bands     map[string]int
}

// newExtras returns the extras of --times-key-file keyFile (none for "")
// and --analyze; an analysis with a key checks the think times it uses.
func newExtras(ctx context.Context, v *replay.Verifier, keyFile string, analyse bool) (*verdictExtras, error) {
	key, err := timesKeyFile(keyFile)
	if err != nil {
		return nil, err
	}
	x := &verdictExtras{}
	if key != nil {
		x.checkTimes = func(r *replay.Replay) *replay.TimesCheck {
			tc := &replay.TimesCheck{Count: len(r.Times), Sealed: true}
			if err := server.CheckTimes(key, r); err != nil {
				tc.Sealed, tc.Reason = false, err.Error()
			}
			return tc
		}
	}
	if analyse {
		if _, err := analyze.BuiltinReference(); err != nil {
			return nil, err
		}
		opts := analyze.Options{Clairvoyance: true, CheckTimes: timesCheck(key)}
		x.analyse = func(name string, r *replay.Replay) json.RawMessage {
			rep, err := analyze.Analyze(ctx, v, name, r, opts)
			return x.analysisOf(name, rep, err)
		}
	}
	return x, nil
}

// analysisOf returns the analysis a verdict carries of the game called
// name, whose analysis gave rep and err: the report as JSON, or for a
// game not analysed (not 4x4, a profile file) band "insufficient" and the
// reason. A report JSON cannot hold (a figure NaN or infinite) is not
// dropped: the verdict carries the reason, and the game is kept for
// reportUnwritten.
func (x *verdictExtras) analysisOf(name string, rep *analyze.GameReport, err error) json.RawMessage {
	band := analyze.Insufficient
	if err == nil {
		band = rep.Band
	}
	x.mu.Lock()
	if x.bands == nil {
		x.bands = map[string]int{}
	}
	x.bands[band]++
	x.mu.Unlock()
	if err == nil {
		b, jerr := json.Marshal(rep)
		if jerr == nil {
			return b
		}
		err = fmt.Errorf("the analysis cannot be written as JSON: %w", jerr)
		x.mu.Lock()
		x.unwritten = append(x.unwritten, safetext.Terminal(name)+": "+safetext.Terminal(err.Error()))
		x.mu.Unlock()
	}
	b, _ := json.Marshal(struct {
		Band   string `json:"band"`
		Reason string `json:"reason"`
	}{analyze.Insufficient, err.Error()})
	return b
}

// reportUnwritten writes to w, for command, each game whose analysis
// could not be written, once the workers are done, and reports whether
// there was one: the run then failed.
func (x *verdictExtras) reportUnwritten(w io.Writer, command string) bool {
	for _, g := range x.unwritten {
		fmt.Fprintf(w, "tileproof: %s: %s\n", command, g)
	}
	return len(x.unwritten) > 0
}

// timesCheck is server.CheckTimes with key, as analyze.Options takes it;
// nil without a key.
func timesCheck(key []byte) func(r *replay.Replay) error {
	if key == nil {
		return nil
	}
	return func(r *replay.Replay) error { return server.CheckTimes(key, r) }
}

// add adds the extras to vd, the verdict of r.
func (x *verdictExtras) add(vd *replay.Verdict, r *replay.Replay) {
	if x.checkTimes != nil && !vd.Reason.Unreadable() {
		vd.ThinkTimes = x.checkTimes(r)
	}
	if x.analyse != nil && vd.LegalGame() {
		vd.Analysis = x.analyse(vd.Name, r)
	}
}

// verifyFile is v.VerifyFile with the extras added: the replay decoded
// once, verified, then given its extras, as the report's Verify does.
func (x *verdictExtras) verifyFile(v *replay.Verifier) func(string, []byte) replay.Verdict {
	if x.checkTimes == nil && x.analyse == nil {
		return v.VerifyFile
	}
	return func(name string, data []byte) replay.Verdict {
		r, err := replay.Decode(name, data)
		if err != nil {
			return v.VerifyFile(name, data) // the malformed verdict, worded as without the extras
		}
		vd := v.Verify(r)
		vd.Name = name
		x.add(&vd, r)
		return vd
	}
}

// printTimesCheck writes a verdict's check of its think times for a
// person, under the verdict's line.
func printTimesCheck(w io.Writer, tc *replay.TimesCheck) {
	switch tc.State() {
	case replay.TimesSealed:
		fmt.Fprintf(w, "       think times: %d, sealed by the server whose key was given\n", tc.Count)
	case replay.TimesNone:
		fmt.Fprintf(w, "       think times: none to check: %s\n", safetext.TerminalLines(tc.Reason))
	case replay.TimesNotSealed:
		fmt.Fprintf(w, "       think times: %d, NOT sealed by the server whose key was given: %s (the verdict on the game stands)\n", tc.Count, safetext.TerminalLines(tc.Reason))
	}
}
