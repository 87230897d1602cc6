package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/tileproof/tileproof/htmlview"
)

// showHTML writes s as one self-contained HTML page to the file out.
func (c *cli) showHTML(s *shown, out string) int {
	var page bytes.Buffer
	if err := htmlview.Replay(&page, htmlview.Game{Replay: s.replay, Verdict: s.verdict, Frames: s.frames}, htmlview.Options{}); err != nil {
		return c.fail(exitBadUsage, "show: %s: %v", s.name, err)
	}
	if err := os.WriteFile(out, page.Bytes(), 0o644); err != nil {
		return c.fail(exitBadUsage, "show: -o: %v", err)
	}
	verdict := "valid"
	if !s.verdict.Valid {
		verdict = "invalid: " + string(s.verdict.Reason)
	}
	fmt.Fprintf(c.stdout, "wrote %s: %s, steps 0 to %d, %s\n", out, s.name, len(s.frames)-1, verdict)
	return exitOK
}
