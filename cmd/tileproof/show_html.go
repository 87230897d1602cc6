package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tileproof/tileproof/htmlview"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/replay"
)

// showHTML is show --html: it verifies r, writing its frames into the
// page as the verifier hands them out (htmlview.Viewer), so that no frame
// a step is ever held, and writes the page to the file out; with
// --analyze, a valid game's page with its evidence of computer play; with
// timesKey (--times-key-file), the page says whether the replay's think
// times are sealed by the server of that key.
func (c *cli) showHTML(v *replay.Verifier, name string, r *replay.Replay, f *showFlags, timesKey []byte) int {
	page := htmlview.NewViewer(r)
	vd := v.Walk(r, page.Add)
	vd.Name = name
	frames := page.Frames()
	if _, code := c.showStep(f, vd, frames); code != exitOK {
		return code
	}
	band, times := "", ""
	if timesKey != nil && !vd.Reason.Unreadable() {
		vd.ThinkTimes = timesChecker(timesKey)(r)
		times = ", think times: " + timesWord(vd.ThinkTimes)
	}
	if f.analyze && analysed(vd) {
		vd.Analysis = analyzer(context.Background(), v, analysisOptions(timesKey))(name, r)
		var a struct{ Band string }
		json.Unmarshal(vd.Analysis, &a)
		band = ", evidence of computer play: " + a.Band
	}
	if err := page.WriteFile(f.output, vd, htmlview.Options{}); err != nil {
		return c.fail(exitBadUsage, "show: -o: %v", err)
	}
	verdict := "valid"
	if !vd.Valid {
		verdict = "invalid: " + string(vd.Reason)
	}
	fmt.Fprintf(c.stdout, "wrote %s: %s, steps 0 to %d, %s%s%s\n", safetext.Terminal(f.output), safetext.Terminal(name), frames-1, verdict, times, band)
	if !vd.Valid {
		return exitFailed
	}
	return exitOK
}
