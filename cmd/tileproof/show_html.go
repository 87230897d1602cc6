package main

import (
	"encoding/json"
	"fmt"

	"github.com/tileproof/tileproof/htmlview"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/replay"
)

// showHTML is show --html: it verifies r, writing its frames into the
// page as the verifier hands them out (htmlview.Viewer), so that no frame
// a step is ever held, and writes the page to the file out, with the
// extras x of --analyze and --times-key-file.
func (c *cli) showHTML(v *replay.Verifier, name string, r *replay.Replay, f *showFlags, x *verdictExtras) int {
	page := htmlview.NewViewer(r)
	vd := v.Walk(r, page.Add)
	vd.Name = name
	frames := page.Frames()
	if _, code := c.showStep(f, vd, frames); code != exitOK {
		return code
	}
	x.add(&vd, r)
	band, times := "", ""
	switch state := vd.ThinkTimes.State(); state {
	case replay.TimesNotSealed:
		times = ", think times: NOT sealed"
	case replay.TimesSealed, replay.TimesNone:
		times = ", think times: " + string(state)
	}
	if vd.Analysis != nil {
		var a struct{ Band string }
		json.Unmarshal(vd.Analysis, &a)
		band = ", analysis: " + a.Band
	}
	if err := page.WriteFile(f.output, vd, htmlview.Options{}); err != nil {
		return c.fail(exitBadUsage, "show: -o: %v", err)
	}
	verdict := "valid"
	if !vd.Valid {
		verdict = "invalid: " + string(vd.Reason)
	}
	fmt.Fprintf(c.stdout, "wrote %s: %s, steps 0 to %d, %s%s%s\n", safetext.Name(f.output), safetext.Name(name), frames-1, verdict, times, band)
	if x.reportUnwritten(c.stderr, "show") { // an analysis JSON cannot hold, as verify --analyze
		return exitBadUsage
	}
	if !vd.Valid {
		return exitFailed
	}
	return exitOK
}
