// tp1, tileproof's seeded spawn generator (docs/tp1.md): the seed's
// normalisation, its key, the SplitMix64 draws and the spawn a draw pair
// picks. Plain JavaScript for node 18+ and browsers: SHA-256 comes from
// WebCrypto, the 64-bit arithmetic from BigInt.

/** The most characters (code points) a seed may have once trimmed. */
export const MAX_SEED_LENGTH = 96;

/** The spawn weights of every built-in profile: a 2 nine times in ten, else a 4. */
export const DEFAULT_WEIGHTS = Object.freeze({ 2: 9, 4: 1 });

// Unicode White_Space, exactly (the characters Go's strings.TrimSpace
// trims). Not String.prototype.trim, which also trims U+FEFF and keeps
// U+0085, nor Python's str.strip, which also strips U+001C..U+001F.
const WS = '\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const TRIM = new RegExp(`^[${WS}]+|[${WS}]+$`, 'g');
const LONE_SURROGATE = /[\ud800-\udfff]/u; // with the u flag, a pair is one code point and does not match

const MASK = (1n << 64n) - 1n;
const GAMMA = 0x9e3779b97f4a7c15n;
const MAX_TILE = 2 ** 52;
const MAX_WEIGHT = 2 ** 32;

/** A seed that tp1 does not accept: not text, empty once trimmed, too long, or not valid Unicode. */
export class SeedError extends Error {
  /**
   * @param {unknown} seed the seed as given
   * @param {string} reason what is wrong with it
   */
  constructor(seed, reason) {
    super(`seed ${JSON.stringify(String(seed))}: ${reason}`);
    this.name = 'SeedError';
    this.seed = seed;
  }
}

/**
 * Returns the seed text tp1 hashes: the seed with leading and trailing
 * Unicode White_Space removed. An integer seed stands for its decimal text.
 * @param {string|number|bigint} seed
 * @returns {string} 1 to 96 code points
 * @throws {SeedError} for a seed tp1 refuses
 */
export function normalizeSeed(seed) {
  let s = seed;
  if (typeof s === 'bigint' || Number.isSafeInteger(s)) s = String(s);
  if (typeof s !== 'string') throw new SeedError(seed, 'a seed is a string or a whole number');
  if (LONE_SURROGATE.test(s)) throw new SeedError(seed, 'not valid Unicode (a lone surrogate), so not valid UTF-8');
  const t = s.replace(TRIM, '');
  let n = 0;
  for (const _ of t) n++; // code points, not UTF-16 units
  if (n === 0) throw new SeedError(seed, `empty once white space is trimmed; a seed has 1 to ${MAX_SEED_LENGTH} characters`);
  if (n > MAX_SEED_LENGTH) throw new SeedError(seed, `${n} characters once trimmed; a seed has 1 to ${MAX_SEED_LENGTH}`);
  return t;
}

async function sha256(text) {
  let subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) subtle = (await import('node:crypto')).webcrypto.subtle; // node 18 has no global crypto
  return new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/**
 * Returns a seed's tp1 key: the first 8 bytes of the SHA-256 of its
 * normalised UTF-8 text, big-endian.
 * @param {string|number|bigint} seed
 * @returns {Promise<bigint>} an unsigned 64-bit integer
 * @throws {SeedError} (the promise rejects) for a seed tp1 refuses
 */
export async function seedKey(seed) {
  const sum = await sha256(normalizeSeed(seed));
  return new DataView(sum.buffer).getBigUint64(0, false);
}

/**
 * Returns the commitment a server publishes before a game: "sha256:" and the
 * lower-case hex SHA-256 of the normalised seed (a replay's seedCommitment).
 * @param {string|number|bigint} seed
 * @returns {Promise<string>}
 */
export async function seedCommitment(seed) {
  const sum = await sha256(normalizeSeed(seed));
  return 'sha256:' + Array.from(sum, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The tp1 generator: SplitMix64 from a seed's key. Its state is a plain value, so an undo can restore it. */
export class TP1 {
  /** @param {bigint} [state] the 64-bit state; a key from {@link seedKey} starts a game */
  constructor(state = 0n) {
    this.state = state;
  }

  /** @returns {bigint} the state, an unsigned 64-bit integer */
  get state() {
    return this._state;
  }

  /** @param {bigint} s a state another generator's `state` gave */
  set state(s) {
    if (typeof s !== 'bigint' || s < 0n || s > MASK) throw new RangeError('a tp1 state is a bigint from 0 to 2^64-1');
    this._state = s;
  }

  /** @returns {bigint} the next draw, an unsigned 64-bit integer */
  next() {
    this._state = (this._state + GAMMA) & MASK;
    let z = this._state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  }

  /** @returns {TP1} a generator at the same point of the stream */
  clone() {
    return new TP1(this._state);
  }
}

/**
 * Returns the tp1 generator of a seed, ready for the game's first spawn.
 * @param {string|number|bigint} seed
 * @returns {Promise<TP1>}
 */
export async function createTP1(seed) {
  return new TP1(await seedKey(seed));
}

/**
 * Checks spawn weights and returns them in ascending tile value.
 * @param {Record<string|number, number>|Map<number, number>|Array<[number, number]>} weights
 * @returns {Array<[number, bigint]>}
 */
function sortedWeights(weights) {
  const entries = weights instanceof Map || Array.isArray(weights) ? [...weights] : Object.entries(weights);
  if (entries.length === 0) throw new RangeError('no spawn weights');
  const out = entries.map(([v, w]) => {
    const value = Number(v);
    if (!isTile(value)) throw new RangeError(`spawn weights: ${v} is not a tile (a power of two, 2 to 2^52)`);
    if (!Number.isInteger(w) || w < 1 || w > MAX_WEIGHT) throw new RangeError(`spawn weights: the weight of ${v} is ${w}, not a whole number from 1 to 2^32`);
    return [value, BigInt(w)];
  });
  out.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < out.length; i++) {
    if (out[i][0] === out[i - 1][0]) throw new RangeError(`spawn weights: ${out[i][0]} twice`);
  }
  if (out.reduce((sum, [, w]) => sum + w, 0n) > BigInt(MAX_WEIGHT)) throw new RangeError('spawn weights: they add up to more than 2^32');
  return out;
}

/**
 * Reports whether v is a tile value: a power of two from 2 to 2^52.
 * @param {unknown} v
 * @returns {boolean}
 */
export function isTile(v) {
  return Number.isInteger(v) && v >= 2 && v <= MAX_TILE && (BigInt(v) & (BigInt(v) - 1n)) === 0n;
}

/**
 * Draws a spawn for a board after its slide: the tile from the first draw
 * (mod the sum of the weights, walked in ascending tile value), then the
 * empty cell from the second (mod the number of empty cells, row-major).
 * A full board draws nothing and gets null.
 * @param {Array<Array<number|null>>} board rows of numbers, 0 or null for an empty cell
 * @param {Record<string|number, number>|Map<number, number>|Array<[number, number]>} weights tile: integer weight, e.g. {2: 9, 4: 1}
 * @param {TP1} rng the game's generator; two draws advance it
 * @returns {{row: number, col: number, value: number} | null}
 */
export function chooseSpawn(board, weights, rng) {
  const ws = sortedWeights(weights);
  const empty = [];
  board.forEach((cells, row) => cells.forEach((v, col) => { if (!v) empty.push([row, col]); }));
  if (empty.length === 0) return null;
  const total = ws.reduce((sum, [, w]) => sum + w, 0n);
  let r = rng.next() % total;
  let i = 0;
  while (r >= ws[i][1]) r -= ws[i++][1];
  const [row, col] = empty[Number(rng.next() % BigInt(empty.length))];
  return { row, col, value: ws[i][0] };
}

/**
 * Returns a game's opening board: startTiles spawns, one after the other,
 * on an empty board.
 * @param {TP1} rng the generator of the game's seed, not yet drawn from
 * @param {{rows?: number, cols?: number, startTiles?: number, weights?: object}} [options] 4x4, 2 tiles, {2: 9, 4: 1} unless given
 * @returns {number[][]} rows of numbers, 0 for empty
 */
export function startBoard(rng, { rows = 4, cols = 4, startTiles = 2, weights = DEFAULT_WEIGHTS } = {}) {
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 2 || rows > 8 || cols < 2 || cols > 8) {
    throw new RangeError(`a board is 2 to 8 cells a side, not ${rows}x${cols}`);
  }
  if (!Number.isInteger(startTiles) || startTiles < 1 || startTiles > rows * cols) {
    throw new RangeError(`startTiles is 1 to ${rows * cols}, not ${startTiles}`);
  }
  const board = Array.from({ length: rows }, () => new Array(cols).fill(0));
  for (let i = 0; i < startTiles; i++) {
    const s = chooseSpawn(board, weights, rng);
    board[s.row][s.col] = s.value;
  }
  return board;
}
