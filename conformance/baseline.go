package conformance

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSON writes the report as one JSON document, which --baseline reads
// back.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(r)
}

// ReadReport reads a report written by WriteJSON.
func ReadReport(rd io.Reader) (*Report, error) {
	var r Report
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("not a conformance report: %w", err)
	}
	return &r, nil
}

// Change is a case whose outcome differs from a baseline report.
type Change struct {
	Key    string `json:"key"`
	Before Status `json:"before"`
	After  Status `json:"after"`
	Reason string `json:"reason,omitempty"`
}

// Compare lists the regressions (passing in base, failing now) and the
// fixes (failing in base, passing now) of r against base.
func (r *Report) Compare(base *Report) (regressions, fixes []Change) {
	before := map[string]Status{}
	for _, res := range base.Results {
		before[res.Key()] = res.Status
	}
	for _, res := range r.Results {
		b, ok := before[res.Key()]
		switch {
		case !ok:
			if res.Status.Failed() {
				regressions = append(regressions, Change{res.Key(), "new", res.Status, res.Reason})
			}
		case !b.Failed() && res.Status.Failed():
			regressions = append(regressions, Change{res.Key(), b, res.Status, res.Reason})
		case b.Failed() && res.Status == Pass:
			fixes = append(fixes, Change{res.Key(), b, res.Status, ""})
		}
	}
	return regressions, fixes
}
