package conformance

import (
	"context"
	"fmt"
	"strings"
)

// lintSeeds are the spawn generators Lint runs the pack with.
var lintSeeds = []string{"lint-a", "lint-b", "lint-c", "lint-d", "lint-e", "lint-f"}

// Lint runs every case of a pack against the built-in engine, once with
// each of several spawn generators, and returns a line for each case that
// fails every time (the case or the engine is wrong) and each whose
// outcome changes with the generator (an expectation that depends on the
// random spawn: the case must force it), each whose source names no known
// source (docs/sources.md), and each that names a profile the engine does
// not have.
func Lint(pack *Pack) []string {
	var runs []*Report
	for _, seed := range lintSeeds {
		rep, err := Run(context.Background(), pack, &Builtin{Seed: seed}, Options{})
		if err != nil {
			return []string{"running the pack: " + err.Error()}
		}
		runs = append(runs, rep)
	}
	var problems []string
	for i, res := range runs[0].Results {
		var differs *CaseResult
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
			problems = append(problems, fmt.Sprintf("%s:%d: %s [%s]: %s at step %d: %s", res.File, res.Line, res.Case, res.Profile, res.Status, res.Step, res.explain("    ")))
		case res.Status == Skip && !(res.NotApplicable && strings.HasSuffix(res.Reason, pastIntNote)): // a 32-bit build's limit
			problems = append(problems, fmt.Sprintf("%s:%d: %s [%s]: skipped by the engine: %s", res.File, res.Line, res.Case, res.Profile, res.Reason))
		}
	}
	problems = append(problems, lintSources(pack)...)
	for _, c := range pack.Cases {
		for _, p := range c.Profiles {
			if p != "all" && !isBuiltin(p) {
				problems = append(problems, fmt.Sprintf("%s:%d: %s: no built-in profile %q", c.File, c.Line, c.Name(), p))
			}
		}
	}
	return problems
}

// lintSources returns a line for each source that checkSource refuses,
// once a file and source: at the first case that has it, with how many
// more of the file's cases have it too.
func lintSources(pack *Pack) []string {
	type key struct{ file, source string }
	count := map[key]int{}
	var first []*Case // the first case of each file and source refused
	for _, c := range pack.Cases {
		k := key{c.File, c.Source}
		if count[k] == 0 && checkSource(c.Source) != nil {
			first = append(first, c)
		}
		count[k]++
	}
	var problems []string
	for _, c := range first {
		more := ""
		if n := count[key{c.File, c.Source}] - 1; n > 0 {
			more = fmt.Sprintf(" (and %d more cases of the file)", n)
		}
		problems = append(problems, fmt.Sprintf("%s:%d: %s%s: %v", c.File, c.Line, c.Name(), more, checkSource(c.Source)))
	}
	return problems
}
