package conformance

import (
	"strings"
	"testing"
)

// TestFailFast: with Options.FailFast a run ends at its first unexpected
// failure: the report keeps every check, the one failure, and the checks
// after it not run with why; an expected failure does not end it; a run
// with no failure is the run without the option.
func TestFailFast(t *testing.T) {
	pack := loadRepoPack(t)
	run := func(impl Impl, opts Options) *Report {
		t.Helper()
		opts.Profiles, opts.Properties = []string{"classic"}, true
		rep, err := Run(t.Context(), pack, impl, opts)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	odd := oddMove{&Builtin{}} // every move fails
	all := run(odd, Options{})
	if failed, _ := all.Failures(); len(failed) < 2 {
		t.Fatalf("without fail fast, %d failures: the test needs more", len(failed))
	}

	// check runs with FailFast and returns the key of the failure that
	// ended the run.
	check := func(opts Options) string {
		t.Helper()
		opts.FailFast = true
		rep := run(odd, opts)
		if len(rep.Results) != len(all.Results) {
			t.Fatalf("%d results, %d without fail fast", len(rep.Results), len(all.Results))
		}
		failed, _ := rep.Failures()
		if len(failed) != 1 {
			t.Fatalf("%d unexpected failures, want 1", len(failed))
		}
		first := failed[0].Key()
		ended := false
		for i, r := range rep.Results {
			switch {
			case r.Key() == first:
				ended = true
			case !ended && (r.Key() != all.Results[i].Key() || r.Status != all.Results[i].Status || r.Reason != all.Results[i].Reason):
				t.Errorf("%s before the failure: %s, without fail fast %s %s", r.Key(), r.Status, all.Results[i].Key(), all.Results[i].Status)
			case ended && r.Status != NotRun:
				t.Errorf("%s after the failure: %s, want not run", r.Key(), r.Status)
			case ended && r.Reason != "not run: the run ended at its first failure, "+first+" (fail fast)":
				t.Errorf("%s: not run saying %q", r.Key(), r.Reason)
			}
		}
		return first
	}
	first := check(Options{})
	// The first failure expected: the run goes on to the next.
	next := check(Options{Expectations: map[string]string{first: "known"}})
	if next == first || !strings.Contains(next, "@classic") {
		t.Errorf("with %s expected, the run ended at %s", first, next)
	}

	// A conforming implementation: every check runs.
	b := &Builtin{}
	if got, want := run(b, Options{FailFast: true}).Results, run(b, Options{}).Results; len(got) != len(want) {
		t.Fatalf("%d results with fail fast, %d without", len(got), len(want))
	} else {
		for i := range got {
			if got[i].Status != want[i].Status || got[i].Key() != want[i].Key() {
				t.Errorf("%s: %s with fail fast, %s without", got[i].Key(), got[i].Status, want[i].Status)
			}
		}
	}
}
