package conformance

import (
	"fmt"
	"slices"

	"github.com/tileproof/tileproof/engine"
)

// winUnreachable returns why no game under profile p reaches the start
// st by its win, or "" when its win and board agree as in a game. A
// case marks the states no game of any profile reaches (Case.Unreachable);
// these depend on the profile, so the runner finds them under each one
// (a variant's too):
//
//   - won with no tile of the win tile or more on the board: tiles only
//     grow (a hallabois break clears tiles below 16 alone), and an undo
//     takes back won with its board;
//   - under a win by merge whose spawns are all below the win tile, a
//     tile of the win tile or more without won: the first such tile a
//     game makes is a merge that makes the win tile, which wins, and
//     nothing clears won. There the merge rule and the reach rule part,
//     and only there;
//   - the same under a win by reach whose spawns are all below the win
//     tile: the move that first puts such a tile on the board wins, and
//     won goes only with its board (an undo). Protocol rule 7 reads such
//     a load through the rules (won); an implementation that takes the
//     state as given differs only there, which no source speaks of;
//   - keepPlaying without won, where the win asks: a player keeps
//     playing only after winning;
//   - where the win ends the run (win.then stop, and no setup chosen to
//     play past it), keepPlaying with won: there is no keep playing to
//     choose. The engine ends such a state, as protocol rule 7 says;
//   - where the win ends the run and its spawns are all below the win
//     tile, a tile above the win tile (won: without won, the cases above
//     hold): the move that first puts a tile of the win tile or more on
//     the board makes at most the win tile (a merge of two tiles below
//     it), and it wins and ends the run. Not under a profile that lists
//     winThen as unstated (rosetta): a game that plays on after the win
//     reaches such a tile.
func winUnreachable(st Start, p *engine.Profile) string {
	if st.Board == nil || p.Win.Tile == 0 {
		return ""
	}
	win := p.Win.Tile
	if st.Setup != nil && st.Setup.Target != 0 {
		win = st.Setup.Target
	}
	stops := p.Win.Then == engine.Stop && (st.Setup == nil || !st.Setup.OpenEnded)
	largest := st.Board.MaxTile()
	below := !slices.ContainsFunc(p.Spawn, func(w engine.SpawnWeight) bool { return w.Value >= win })
	switch {
	case st.Won && largest < win:
		return fmt.Sprintf("no game under %s has won without a tile of %d or more on the board: tiles only grow, and an undo takes back won with its board", p.Name, win)
	case !st.Won && largest >= win && p.Win.When == engine.Merge && below:
		return fmt.Sprintf("no game under %s holds a tile of %d or more without having won: its spawns are smaller, so the first such tile is a merge that makes %d, which wins, and nothing clears won (the merge rule and the reach rule part only on such a state)", p.Name, win, win)
	case !st.Won && largest >= win && below:
		return fmt.Sprintf("no game under %s holds a tile of %d or more without having won: its spawns are smaller, so such a tile is first on the board after a move, which wins, and won goes only with its board (whether a load reads won from the board or takes it as given differs only on such a state)", p.Name, win)
	case st.KeepPlaying && !st.Won && p.Win.Then == engine.Ask:
		return fmt.Sprintf("no game under %s keeps playing without having won: play is kept on only when the win stops it", p.Name)
	case st.KeepPlaying && stops:
		return fmt.Sprintf("no game under %s keeps playing after its win: the win ends the run, with no keep playing to choose", p.Name)
	case largest > win && stops && below && !slices.Contains(p.Unstated, "winThen"):
		return fmt.Sprintf("no game under %s holds a tile above %d: its win ends the run, and its spawns are smaller, so the move that first makes a tile of %d or more makes %d at most (two tiles below it merged), which wins", p.Name, win, win, win)
	}
	return ""
}
