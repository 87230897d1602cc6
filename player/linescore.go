package player

// HeuristicRowTable returns the expectimax player's evaluation of every
// 4-cell line whose tiles are below 2^16, indexed by the four exponents 4
// bits a cell (0 for an empty cell), the first cell in the low bits. A
// board's evaluation is the sum over its rows and columns. The slice is
// shared: callers must not change it. Package analyze scores boards with
// it, so its reference evaluators use the very heuristic the player
// plays with.
func HeuristicRowTable() []float64 { return getDefaultEvaluator().table(4) }

// HeuristicEmptyBonus is the heuristic's bonus for one empty cell: the
// unit in which package analyze states a move's loss.
func HeuristicEmptyBonus() float64 { return defaultWeights.empty }

// HeuristicLossPerLine is the value of a lost game per line of the board,
// below the evaluation of the position the search starts from (see the
// expectimax player's Choose).
func HeuristicLossPerLine() float64 { return defaultWeights.loss }
