package player

// Heuristic returns the expectimax player's evaluation, which package
// analyze's reference evaluators use so as to play with the very
// heuristic the player plays with: rows, its evaluation of every 4-cell
// line whose tiles are below 2^16, indexed by the four exponents 4 bits a
// cell (0 for an empty cell), the first cell in the low bits (a board's
// evaluation is the sum over its rows and columns; the slice is shared:
// callers must not change it); emptyBonus, its bonus for one empty cell
// (analyze's unit of a move's loss); lossPerLine, the value of a lost
// game per line of the board, below the evaluation of the position the
// search starts from (see the expectimax player's Choose).
func Heuristic() (rows []float64, emptyBonus, lossPerLine float64) {
	return getDefaultEvaluator().table(4), defaultWeights.empty, defaultWeights.loss
}
