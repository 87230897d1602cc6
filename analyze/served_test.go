package analyze

import (
	"time"

	"github.com/tileproof/tileproof/protocol"
)

// slowOnCrowded picks the first legal move of down, right, left, up from
// the answer r, after a wait of 1 ms plus 4 ms for each filled cell of
// r's board: a player that thinks longer on crowded boards.
func slowOnCrowded(_ int, r protocol.Response) protocol.ActionBody {
	filled := 0
	for _, row := range r.Observation.Board {
		for _, v := range row {
			if v != 0 {
				filled++
			}
		}
	}
	a := r.LegalActions[0]
choose:
	for _, pref := range []string{"down", "right", "left", "up"} {
		for _, l := range r.LegalActions {
			if l.Direction == pref {
				a = l
				break choose
			}
		}
	}
	time.Sleep(time.Duration(1+4*filled) * time.Millisecond)
	return a
}
