// The move of every tileproof profile (docs/profiles.md): each line slides
// toward the edge, the gaps close, each pair of equal neighbours merges
// once, the pair nearest the edge first, and each merge scores the new
// tile. Winning and finishing differ by profile and are the game's own.

/** The four directions, in the order {@link legalMoves} lists them. */
export const DIRECTIONS = Object.freeze(['up', 'down', 'left', 'right']);

/** The replay log's letter of each direction. */
export const LETTERS = Object.freeze({ up: 'U', down: 'D', left: 'L', right: 'R' });

/**
 * Slides a board: the move without its spawn.
 * @param {Array<Array<number|null>>} board rows of numbers, 0 or null for an empty cell (not changed)
 * @param {'up'|'down'|'left'|'right'} direction
 * @returns {{board: number[][], gained: number, changed: boolean}} the new board, the points the merges earned, whether any tile moved
 */
export function slide(board, direction) {
  if (!DIRECTIONS.includes(direction)) throw new RangeError(`direction ${JSON.stringify(direction)} is not up, down, left or right`);
  const rows = board.length;
  const cols = rows ? board[0].length : 0;
  const out = Array.from({ length: rows }, () => new Array(cols).fill(0));
  const vertical = direction === 'up' || direction === 'down';
  const toStart = direction === 'up' || direction === 'left'; // the edge is index 0 of the line
  const lines = vertical ? cols : rows;
  const length = vertical ? rows : cols;
  // cell k of line i, counted from the edge the tiles slide to
  const at = (i, k) => {
    const j = toStart ? k : length - 1 - k;
    return vertical ? [j, i] : [i, j];
  };
  let gained = 0;
  let changed = false;
  for (let i = 0; i < lines; i++) {
    const tiles = [];
    for (let k = 0; k < length; k++) {
      const [r, c] = at(i, k);
      if (board[r][c]) tiles.push(board[r][c]);
    }
    const merged = [];
    for (let k = 0; k < tiles.length; k++) {
      if (k + 1 < tiles.length && tiles[k] === tiles[k + 1]) {
        merged.push(tiles[k] * 2);
        gained += tiles[k] * 2;
        k++;
      } else {
        merged.push(tiles[k]);
      }
    }
    for (let k = 0; k < length; k++) {
      const [r, c] = at(i, k);
      out[r][c] = merged[k] || 0;
      if (out[r][c] !== (board[r][c] || 0)) changed = true;
    }
  }
  return { board: out, gained, changed };
}

/**
 * Returns the moves that change the board.
 * @param {Array<Array<number|null>>} board
 * @returns {string[]} some of up, down, left, right, in that order
 */
export function legalMoves(board) {
  return DIRECTIONS.filter((d) => slide(board, d).changed);
}

/**
 * Returns the largest tile on a board, 0 for an empty one.
 * @param {Array<Array<number|null>>} board
 * @returns {number}
 */
export function maxTile(board) {
  let m = 0;
  for (const row of board) for (const v of row) if (v > m) m = v;
  return m;
}
