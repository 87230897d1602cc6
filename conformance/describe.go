package conformance

import (
	"fmt"
	"strings"
	"time"
)

// RunInfo says how a run was made: when, by which command, and where its
// cases' files are. The command fills it in ([Run] leaves it empty); every
// field is left out of the JSON report when empty, so a report without
// it (an older baseline) reads the same.
type RunInfo struct {
	// Date is when the run started.
	Date time.Time `json:"date,omitzero"`
	// Command is the command line that made the report, an argument an
	// element (the flags as given, the environment not included).
	Command []string `json:"command,omitempty"`
	// Rerun is the start of a command line that runs the same
	// implementation on the same pack (--impl, --cases, --timeout as
	// given): with --run and --profile added, it re-runs one case.
	Rerun []string `json:"rerun,omitempty"`
	// CasesDir is the folder the results' files are in, as a path from
	// where the command ran: "cases" for the pack built into tileproof
	// (the cases/ folder of its repository), else the --cases folder.
	CasesDir string `json:"casesDir,omitempty"`
}

// CaseInfo is what a failing result carries of its case, for a reader
// to fix the failure from: what the case checks and where that rule is
// stated, how it starts and every step up to the failing one, and the
// case itself as YAML.
type CaseInfo struct {
	Description string `json:"description,omitempty"`
	Source      string `json:"source,omitempty"`
	// From is how the case starts: "seed S" or the board loaded, as a
	// text grid.
	From string `json:"from,omitempty"`
	// Steps are the case's steps from the first to the failing one
	// (CaseResult.Step).
	Steps []StepInfo `json:"steps,omitempty"`
	// YAML is the case in the case file format (docs/case-format.md).
	YAML string `json:"yaml,omitempty"`
}

// StepInfo is one step of a case: its action (up, down, left, right,
// undo, end-run, keep-playing, or check when the step only checks) and
// the spawn it forces, if any ("2 at row 1, column 3", rows and columns
// from 0 as in the case format).
type StepInfo struct {
	Action string `json:"action"`
	Spawn  string `json:"spawn,omitempty"`
}

// Describe fills in the case info of each failing result of r (a
// passing or skipped one carries none) from pack, the pack the run ran;
// a property check's result gets the property's description and source
// (PropertyInfo). A result of neither (an observed game) is left as it
// is.
func (r *Report) Describe(pack *Pack) {
	for i := range r.Results {
		res := &r.Results[i]
		if !res.Status.Failed() {
			continue
		}
		switch c := pack.Case(res.Case); {
		case c != nil:
			res.Info = caseInfo(c, res.Step)
		case res.Area == PropertiesArea:
			res.Info = propertyInfo(strings.TrimPrefix(res.Case, PropertiesArea+"/"))
		}
	}
}

// caseInfo returns case c's info, its steps to step (all, when step is
// 0 or past the last).
func caseInfo(c *Case, step int) *CaseInfo {
	info := &CaseInfo{Description: c.Description, Source: c.Source}
	switch {
	case c.Start.Seed != nil:
		info.From = "seed " + *c.Start.Seed
	case c.Start.Board != nil:
		info.From = c.Start.Board.String()
	}
	n := len(c.Steps)
	if step > 0 && step < n {
		n = step
	}
	for _, st := range c.Steps[:n] {
		s := StepInfo{Action: strings.TrimPrefix(stepName(st), "move ")}
		if sp := st.Spawn; sp != nil {
			s.Spawn = fmt.Sprintf("%d at row %d, column %d", sp.Value, sp.Row, sp.Col)
		}
		info.Steps = append(info.Steps, s)
	}
	info.YAML = string(c.YAML())
	return info
}
