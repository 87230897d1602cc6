package main

import (
	"fmt"
	"io"

	"github.com/tileproof/tileproof/analyze"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/server"
)

// withTimesCheck is v.VerifyFile with, for each replay that decodes, the
// check of its think times (timesChecker's) as the verdict's ThinkTimes:
// decoded once, verified, then checked, as the report's Verify does. The
// verdict on the game is left as it is: times that are not sealed are
// not the times the server measured, which says nothing of whether the
// game is legal.
func withTimesCheck(v *replay.Verifier, key []byte) func(string, []byte) replay.Verdict {
	check := timesChecker(key)
	return func(name string, data []byte) replay.Verdict {
		r, err := replay.Decode(name, data)
		if err != nil {
			return v.VerifyFile(name, data) // the malformed verdict, worded as without the check
		}
		vd := v.Verify(r)
		vd.Name = name
		if !vd.Reason.Unreadable() {
			vd.ThinkTimes = check(r)
		}
		return vd
	}
}

// timesChecker returns the check of a replay's think times against key,
// the signed server's (server.CheckTimes, as analyze --times-key-file
// checks them), as verify --times-key-file gives it in a verdict (and
// its report and show --html on their pages).
func timesChecker(key []byte) func(r *replay.Replay) *replay.TimesCheck {
	return func(r *replay.Replay) *replay.TimesCheck {
		tc := &replay.TimesCheck{Count: len(r.Times), Sealed: true}
		if err := server.CheckTimes(key, r); err != nil {
			tc.Sealed, tc.Reason = false, err.Error()
		}
		return tc
	}
}

// analysisOptions are the options of the analysis verify --analyze and
// show --analyze give: the clairvoyance test, and with a key
// (--times-key-file) the check of the think times the analysis uses.
func analysisOptions(key []byte) analyze.Options {
	opts := analyze.Options{Clairvoyance: true}
	if key != nil {
		opts.CheckTimes = func(r *replay.Replay) error { return server.CheckTimes(key, r) }
	}
	return opts
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

// timesWord is a check of think times in a word or two: sealed, NOT
// sealed, or none (no times to check).
func timesWord(tc *replay.TimesCheck) string {
	if tc.State() == replay.TimesNotSealed {
		return "NOT sealed"
	}
	return string(tc.State())
}

// timesTally counts the verdicts' checks of their think times by
// outcome, for the summary of verify --times-key-file.
type timesTally map[replay.TimesState]int

// write writes the tally as a line of the summary.
func (t timesTally) write(w io.Writer) {
	fmt.Fprintf(w, "think times: %s sealed by the key given, %d with times NOT sealed by it, %d without times\n",
		plural(t[replay.TimesSealed], "replay"), t[replay.TimesNotSealed], t[replay.TimesNone])
}
