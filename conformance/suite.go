package conformance

import (
	"testing"
)

// TestImpl runs the built-in pack, with the property checks when
// opts.Properties is set, against an implementation from a Go test, the
// way testscript runs scripts: each case under each profile is a subtest
// of its own, named AREA/ID@PROFILE (and the properties of a profile
// properties@PROFILE/NAME), so `go test -run` picks the cases to run. A
// failing case fails its subtest with the failure in words; a skipped one
// is skipped with the reason. A Go implementation calls it from its own
// tests, through an [Impl] of its own:
//
//	func TestConformance(t *testing.T) {
//		conformance.TestImpl(t, myImpl{}, conformance.Options{Properties: true})
//	}
//
// Expected failures (opts.Expectations) are logged, not failed; an
// expected failure that passes fails.
func TestImpl(t *testing.T, impl Impl, opts Options) {
	t.Helper()
	pack, err := DefaultPack()
	if err != nil {
		t.Fatal(err)
	}
	_, checks, err := plan(t.Context(), pack, impl, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			results := c.run()
			if len(results) == 1 && results[0].Key() == c.name {
				report(t, results[0], opts.Expectations)
				return
			}
			for _, res := range results {
				t.Run(res.Case[len("properties/"):], func(t *testing.T) { report(t, res, opts.Expectations) })
			}
		})
	}
}

// report passes, fails or skips the test of one result.
func report(t *testing.T, res CaseResult, expectations map[string]string) {
	t.Helper()
	res.expect(expectations)
	switch {
	case res.Status == Skip:
		t.Skip(res.Reason)
	case res.Status == NotRun:
		t.Error(res.Reason) // the test's context ended: not a pass
	case res.Status.Failed() && res.Unreachable != "":
		t.Logf("failure on a state no game reaches (%s): %s at step %d: %s", res.Unreachable, res.Status, res.Step, res.explain("\t"))
	case res.Status.Failed() && res.Expected != "":
		t.Logf("expected failure (%s): %s at step %d: %s", res.Expected, res.Status, res.Step, res.explain("\t"))
	case res.Status.Failed():
		t.Errorf("%s:%d: %s at step %d: %s", res.File, res.Line, res.Status, res.Step, res.explain("\t"))
	case res.Expected != "":
		t.Errorf("passes, but it is expected to fail: %s", res.Expected)
	}
}
