package conformance

import "fmt"

// Verdict is a run's verdict as tileproof conform gives it: its exit
// status and the line that says why. The command, its text and the HTML
// page all take it from [Judge], so none can say otherwise.
type Verdict struct {
	// Failed is the run's failure: exit status 1.
	Failed bool
	// Baseline names the baseline report the run was compared with
	// (--baseline), "" when none was; then Regressions and Fixes are
	// the comparison's, and only a regression fails the run.
	Baseline           string
	Regressions, Fixes []Change
	// Unexpected are the failures not expected (--expect), XPass the
	// expected failures that passed, Skipped the skipped results.
	Unexpected, XPass []Result
	Skipped           int
	// Strict is --strict: a skip or an unexpected pass fails the run
	// too (without a baseline).
	Strict bool
}

// Judge returns the verdict on r: against base (named baseline) when
// base is not nil, else on its unexpected failures (and with strict,
// its skips and unexpected passes).
func Judge(r *Report, base *Report, baseline string, strict bool) Verdict {
	v := Verdict{Strict: strict}
	v.Unexpected, v.XPass = r.Failures()
	_, total := r.Summaries()
	v.Skipped = total.Skipped
	if base != nil {
		v.Baseline = baseline
		v.Regressions, v.Fixes = r.Compare(base)
		v.Failed = len(v.Regressions) > 0
		return v
	}
	v.Failed = len(v.Unexpected) > 0 || strict && (v.Skipped > 0 || len(v.XPass) > 0)
	return v
}

// Line is the verdict in one line: "against FILE: 2 regressions, 0
// fixes" under a baseline (the line the command prints), else "31
// unexpected failures", or "no unexpected failure".
func (v Verdict) Line() string {
	switch {
	case v.Baseline != "":
		return fmt.Sprintf("against %s: %d regressions, %d fixes", v.Baseline, len(v.Regressions), len(v.Fixes))
	case len(v.Unexpected) > 0:
		return count(len(v.Unexpected), "unexpected failure", "unexpected failures")
	case v.Failed:
		return fmt.Sprintf("--strict: %d skipped, %s", v.Skipped, count(len(v.XPass), "unexpected pass", "unexpected passes"))
	}
	return "no unexpected failure"
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
