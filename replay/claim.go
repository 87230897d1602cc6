package replay

import (
	"errors"
	"fmt"

	"github.com/tileproof/tileproof/engine"
)

// checkClaim checks a claim for internal consistency without replaying, in
// time that does not grow with the number of moves. A board's potential
// (engine's Board.Potential) rises by exactly the points each merge earns,
// so at any point of a game score = potential(board) - the potentials of
// all the tiles spawned, whatever the moves were. Without a final board
// only the shape of the figures can be checked. With one, every counted
// move spawned exactly one tile, so the game spawned StartTiles+moves tiles
// whose sum is the board's sum: with two spawn values that fixes how many
// of each, and with them the score.
//
// In a profile with a break, the breaks (which the claim does not count)
// take their price off the score and tiles off the board, so the score is
// a multiple of 4 less some number of prices, and the board's sum is at
// most what the spawns add up to; the score is not checked against the
// board.
func checkClaim(p *engine.Profile, c Claim) error {
	if c.MaxTile != 0 && (c.MaxTile&(c.MaxTile-1) != 0 || c.MaxTile == 1) {
		return fmt.Errorf("the claimed max tile %d is not a tile", c.MaxTile)
	}
	br := p.Break
	if br.Limit > 0 {
		if !breaksFit(c.Score, br) {
			return fmt.Errorf("the claimed score %d is no multiple of 4 less up to %d breaks of %d points (every merge makes a tile of 4 or more)", c.Score, br.Limit, br.Price)
		}
	} else if c.Score%4 != 0 {
		return fmt.Errorf("the claimed score %d is not a multiple of 4 (every merge makes a tile of 4 or more)", c.Score)
	}
	b := c.Board
	if b == nil {
		return nil
	}
	if b.Rows() != p.Rows || b.Cols() != p.Cols {
		return fmt.Errorf("the claimed board is %dx%d; profile %s plays on %dx%d", b.Rows(), b.Cols(), p.Name, p.Rows, p.Cols)
	}
	if b.MaxTile() != c.MaxTile {
		return fmt.Errorf("the claimed max tile is %d but the claimed board's largest tile is %d", c.MaxTile, b.MaxTile())
	}
	phi := b.Potential()
	spawned := uint64(p.StartTiles) + uint64(c.Moves)
	sum := b.Sum()
	lo, hi := p.Spawn[0].Value, p.Spawn[len(p.Spawn)-1].Value
	if br.Limit > 0 {
		if sum > hi*spawned {
			return fmt.Errorf("%d spawned tiles (%d start tiles and one a move) of %s add up to less than the claimed board's %d (breaks only take tiles away)", spawned, p.StartTiles, p.SpawnValues(), sum)
		}
		return nil
	}
	if sum < lo*spawned || sum > hi*spawned {
		return fmt.Errorf("%d spawned tiles (%d start tiles and one a move) of %s cannot add up to the claimed board's %d", spawned, p.StartTiles, p.SpawnValues(), sum)
	}
	switch len(p.Spawn) {
	case 1:
		if want := phi - engine.TilePotential(lo)*spawned; c.Score != want {
			return fmt.Errorf("a board like the claimed one after %d moves has score %d, not %d", c.Moves, want, c.Score)
		}
	case 2:
		// n_lo + n_hi = spawned, lo*n_lo + hi*n_hi = sum.
		if (sum-lo*spawned)%(hi-lo) != 0 {
			return fmt.Errorf("%d spawned tiles of %s cannot add up to the claimed board's %d", spawned, p.SpawnValues(), sum)
		}
		nHi := (sum - lo*spawned) / (hi - lo)
		want := phi - engine.TilePotential(lo)*(spawned-nHi) - engine.TilePotential(hi)*nHi
		if c.Score != want {
			// Say which tiles the claimed score would need: a board with a
			// tile missing (or added) shows there first.
			tiles := fmt.Sprintf("%d of the spawned tiles were %ds", nHi, hi)
			if nHi == 1 {
				tiles = fmt.Sprintf("1 of the spawned tiles was a %d", hi)
			}
			msg := fmt.Sprintf("the claimed board after %d moves means %s, and then the score is %d, not %d", c.Moves, tiles, want, c.Score)
			if dp := engine.TilePotential(hi) - engine.TilePotential(lo); dp > 0 && phi >= c.Score && (phi-c.Score-engine.TilePotential(lo)*spawned)%dp == 0 {
				if n := (phi - c.Score - engine.TilePotential(lo)*spawned) / dp; n <= spawned {
					msg += fmt.Sprintf("; with score %d the spawns held %d %ds and the board's tiles would add up to %d, not %d (a tile missing or added?)", c.Score, n, hi, lo*spawned+(hi-lo)*n, sum)
				}
			}
			return errors.New(msg)
		}
	}
	return nil
}

// breaksFit reports whether score is a multiple of 4 less k prices of
// break rule br, for some k from 0 to its limit: what merges and breaks
// can make. Residues modulo 4 repeat every 4 breaks, so k up to 3 is
// enough.
func breaksFit(score uint64, br engine.BreakRule) bool {
	for k := range uint64(min(br.Limit, 3)) + 1 {
		if (score+k*(br.Price%4))%4 == 0 {
			return true
		}
	}
	return false
}

// checkStart returns "" when b is a start board of profile p: exactly its
// start tiles, each a value it spawns; otherwise what is wrong.
func checkStart(p *engine.Profile, b engine.Board) string {
	if b.Rows() != p.Rows || b.Cols() != p.Cols {
		return fmt.Sprintf("a %dx%d board; profile %s plays on %dx%d", b.Rows(), b.Cols(), p.Name, p.Rows, p.Cols)
	}
	tiles := 0
	for r := range b.Rows() {
		for c := range b.Cols() {
			if v := b.At(r, c); v != 0 {
				tiles++
				if !p.SpawnValue(v) {
					return fmt.Sprintf("a %d in row %d, column %d, which profile %s never spawns", v, r, c, p.Name)
				}
			}
		}
	}
	if tiles != p.StartTiles {
		return fmt.Sprintf("%d tiles", tiles)
	}
	return ""
}
