package conformance

import (
	"fmt"

	"github.com/tileproof/tileproof/engine"
)

// lintSeeds are the spawn generators Lint runs the pack with.
var lintSeeds = []string{"lint-a", "lint-b", "lint-c", "lint-d", "lint-e", "lint-f"}

// Lint runs every case of a pack against the built-in engine, once with
// each of several spawn generators, and returns a line for each case that
// fails every time (the case or the engine is wrong) and each whose
// outcome changes with the generator (an expectation that depends on the
// random spawn: the case must force it).
func Lint(pack *Pack) []string {
	var runs []*Report
	for _, seed := range lintSeeds {
		rep, err := Run(pack, &Builtin{Seed: seed}, Options{})
		if err != nil {
			return []string{"running the pack: " + err.Error()}
		}
		runs = append(runs, rep)
	}
	var problems []string
	for i, res := range runs[0].Results {
		var differs *Result
		for _, rep := range runs[1:] {
			if rep.Results[i].Status != res.Status {
				differs = &rep.Results[i]
			}
		}
		switch {
		case differs != nil:
			bad := differs
			if res.Status.Failed() {
				bad = &res
			}
			problems = append(problems, fmt.Sprintf("%s:%d: %s [%s]: the outcome depends on the random spawn (with some spawns: %s: %s); force the spawn", res.File, res.Line, res.Case, res.Profile, bad.Status, bad.Reason))
		case res.Status.Failed():
			problems = append(problems, fmt.Sprintf("%s:%d: %s [%s]: %s at step %d: %s", res.File, res.Line, res.Case, res.Profile, res.Status, res.Step, res.Explain("    ")))
		case res.Status == Skip:
			problems = append(problems, fmt.Sprintf("%s:%d: %s [%s]: skipped by the engine: %s", res.File, res.Line, res.Case, res.Profile, res.Reason))
		}
	}
	for _, c := range pack.Cases {
		for _, p := range c.Profiles {
			if p != "all" && !isProfile(p) {
				problems = append(problems, fmt.Sprintf("%s:%d: %s: no built-in profile %q", c.File, c.Line, c.Name(), p))
			}
		}
	}
	return problems
}

func isProfile(name string) bool {
	_, err := engine.BuiltinProfile(name)
	return err == nil
}
