package conformance

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tileproof/tileproof/cases"
)

// DefaultPack returns the case pack built into tileproof (the cases/
// folder of its repository).
func DefaultPack() (*Pack, error) { return LoadPack(cases.FS) }

// TestImpl runs the built-in pack, with the property checks, against an
// implementation and returns an error describing every failure, or nil
// when there is none: the way testing/fstest.TestFS checks a file system.
// A Go implementation calls it from its own tests, through an [Impl] of
// its own (or [Exec] for a program):
//
//	func TestConformance(t *testing.T) {
//		if err := conformance.TestImpl(myImpl{}, conformance.Options{}); err != nil {
//			t.Fatal(err)
//		}
//	}
//
// Skipped cases are not failures; with opts.Properties false the property
// checks are left out.
func TestImpl(impl Impl, opts Options) error {
	pack, err := DefaultPack()
	if err != nil {
		return err
	}
	rep, err := Run(pack, impl, opts)
	if err != nil {
		return err
	}
	failed, _ := rep.Failures()
	if len(failed) == 0 {
		return nil
	}
	var errs []error
	for _, res := range failed {
		msg := fmt.Sprintf("%s [%s]: %s at step %d: %s", res.Case, res.Profile, res.Status, res.Step, res.Reason)
		if res.Diff != "" {
			msg += "\n" + indent(strings.TrimRight(res.Diff, "\n"), "\t")
		}
		errs = append(errs, errors.New(msg))
	}
	return fmt.Errorf("%d of %d conformance checks failed:\n%w", len(failed), len(rep.Results), errors.Join(errs...))
}
