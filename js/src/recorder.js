// The recorder: a game's start and each move, written as a tileproof
// replay (docs/replay-format.md) in its seeded form (the spawns are tp1's
// from the seed) or its spawn-recorded form (each spawn written after its
// move).

import { normalizeSeed, isTile } from './tp1.js';
import { LETTERS } from './rules.js';

// shown writes a value a message quotes: a string quoted, so that "4" is
// not taken for the number 4; anything else as String writes it (NaN,
// undefined, 1e+21).
function shown(v) {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

const RESULTS = ['playing', 'target-reached', 'no-moves', 'move-limit', 'run-finished'];
const PROFILE_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const COMMITMENT = /^sha256:[0-9a-fA-F]{64}$/;
const TIMES_SEAL = /^hmac-sha256:[0-9a-f]{64}$/;
/** The largest think time a replay records, in milliseconds: 2^32-1. */
export const MAX_THINK_TIME = 2 ** 32 - 1;

/**
 * Checks a board and returns it as rows of numbers, 0 for empty.
 * @param {unknown} board
 * @param {string} what names the board in errors
 * @returns {number[][]}
 */
function checkBoard(board, what) {
  if (!Array.isArray(board) || board.length < 2 || board.length > 8) throw new RangeError(`${what}: a board is 2 to 8 rows of cells`);
  const cols = Array.isArray(board[0]) ? board[0].length : 0;
  return board.map((row, r) => {
    if (!Array.isArray(row) || row.length !== cols || cols < 2 || cols > 8) throw new RangeError(`${what}: row ${r + 1} is not 2 to 8 cells, as long as row 1`);
    return row.map((v, c) => {
      if (v === null || v === 0) return 0;
      if (!isTile(v)) throw new RangeError(`${what}: row ${r + 1}, column ${c + 1}: ${JSON.stringify(v)} is not a tile (a power of two, 2 to 2^52) or 0`);
      return v;
    });
  });
}

/** Records one game and writes it as a replay. The caller records only moves that changed the board. */
export class Recorder {
  /**
   * @param {object} game
   * @param {string} game.profile the profile whose rules the game follows, e.g. "classic"
   * @param {string|number} [game.seed] a seeded game: the tp1 seed (exactly one of seed and start)
   * @param {Array<Array<number|null>>} [game.start] a spawn-recorded game: its opening board
   * @param {number} [game.rules] the profile's rules version, to pin it
   * @param {{target?: number, openEnded?: boolean}} [game.setup] the run's choice of target and finish
   * @param {string} [game.seedCommitment] "sha256:HEX", as the server published it before the game
   * @param {string} [game.source] free text for people: who recorded the game, how
   */
  constructor({ profile, seed, start, rules, setup, seedCommitment, source } = {}) {
    if (typeof profile !== 'string' || !PROFILE_NAME.test(profile)) throw new TypeError(`profile ${JSON.stringify(profile)} is not a profile name`);
    if ((seed === undefined) === (start === undefined)) throw new TypeError('a recorder needs exactly one of seed (tp1 spawns) and start (recorded spawns)');
    if (rules !== undefined && !(Number.isInteger(rules) && rules >= 1)) throw new TypeError(`rules ${shown(rules)} is not a version (1, 2, ...)`);
    if (seedCommitment !== undefined && (start !== undefined || !COMMITMENT.test(seedCommitment))) {
      throw new TypeError('seedCommitment is "sha256:" and 64 hex digits, for a seeded game');
    }
    if (source !== undefined && typeof source !== 'string') throw new TypeError('source is text');
    this.profile = profile;
    this.rules = rules;
    this.setup = setup === undefined ? undefined : checkSetup(setup);
    this.seed = seed === undefined ? undefined : normalizeSeed(seed);
    this.start = start === undefined ? undefined : checkBoard(start, 'the start board');
    this.seedCommitment = seedCommitment;
    this.source = source;
    this._log = [];
    this._moves = 0;
    this._times = undefined;
    this._timesSeal = undefined;
  }

  /** @returns {number} the counted moves so far (an undo takes one back) */
  get moves() {
    return this._moves;
  }

  /** @returns {string} the move log as the replay writes it */
  get log() {
    return this._log.join(this.start ? ' ' : '');
  }

  /**
   * Records a move that changed the board.
   * @param {'up'|'down'|'left'|'right'|'U'|'D'|'L'|'R'} direction
   * @param {{row: number, col: number, value: number}} [spawn] the tile that appeared after it: required for a
   *   spawn-recorded game; a seeded game's are tp1's, so one given is not written
   */
  move(direction, spawn) {
    const letter = Object.hasOwn(LETTERS, direction) ? LETTERS[direction] : Object.values(LETTERS).includes(direction) ? direction : undefined;
    if (!letter) throw new RangeError(`direction ${JSON.stringify(direction)} is not up, down, left or right`);
    if (this.start) {
      const rows = this.start.length;
      const cols = this.start[0].length;
      const { row, col, value } = spawn || {};
      if (!Number.isInteger(row) || !Number.isInteger(col) || row < 0 || row >= rows || col < 0 || col >= cols || !isTile(value)) {
        throw new RangeError(`move ${this._log.length + 1}: the spawn ${JSON.stringify(spawn)} is not a tile on a cell of the ${rows}x${cols} board`);
      }
      this._log.push(`${letter}${row * cols + col}:${value}`);
    } else {
      this._log.push(letter);
    }
    this._moves++;
  }

  /** Records an undo of the last counted move (profiles with undo). */
  undo() {
    if (this._moves === 0) throw new RangeError('undo: no counted move to take back');
    this._log.push('Z');
    this._moves--;
  }

  /** Records End run (profiles that offer it). */
  endRun() {
    this._log.push('E');
  }

  /** Records the choice to keep playing after the win (classic). */
  keepPlaying() {
    this._log.push('K');
  }

  /**
   * Sets the think times of the game's actions, as the signed server that dealt the game measured them
   * (docs/replay-format.md, "Think times"): one a log entry so far, in the log's order, and the server's
   * last timesSeal. The replay carries them as `times` and `timesSeal`. {@link ServerGame} sets them.
   * @param {number[]} times whole milliseconds, 0 to 2^32-1, one an action of the log
   * @param {string} timesSeal "hmac-sha256:" and 64 lower-case hex digits
   */
  setTimes(times, timesSeal) {
    if (!Array.isArray(times) || times.length !== this._log.length) {
      throw new RangeError(`times: one a logged action, ${this._log.length} (given ${Array.isArray(times) ? times.length : 'no list'})`);
    }
    times.forEach((t, i) => {
      if (!Number.isInteger(t) || t < 0 || t > MAX_THINK_TIME) throw new RangeError(`time ${i + 1}: ${shown(t)} is not whole milliseconds from 0 to 2^32-1`);
    });
    if (typeof timesSeal !== 'string' || !TIMES_SEAL.test(timesSeal)) throw new TypeError('timesSeal is "hmac-sha256:" and 64 lower-case hex digits');
    this._times = [...times];
    this._timesSeal = timesSeal;
  }

  /**
   * Returns the replay, as an object in the order of the canonical form.
   * @param {object} claim what the game achieved, as the game itself says
   * @param {number} claim.score the final score
   * @param {Array<Array<number|null>>} [claim.board] the final board (recommended: it lets the claim be checked before replaying)
   * @param {number} [claim.maxTile] the largest tile; taken from the board when not given
   * @param {number} [claim.moves] the counted moves; the recorder's count when not given
   * @param {boolean} [claim.won] whether the profile's win rule was met
   * @param {boolean} [claim.over] whether the run has finished
   * @param {string} [claim.result] playing, target-reached, no-moves, move-limit or run-finished
   * @returns {object} a replay that JSON.stringify writes as docs/replay.schema.json describes
   */
  replay(claim) {
    const { score, board, maxTile, moves = this._moves, won, over, result } = claim || {};
    if (!Number.isSafeInteger(score) || score < 0) throw new RangeError(`claim: score ${shown(score)} is not a whole number from 0 to 2^53-1`);
    if (!Number.isSafeInteger(moves) || moves < 0) throw new RangeError(`claim: moves ${shown(moves)} is not a count`);
    const c = { score, maxTile: 0, moves };
    if (board !== undefined) {
      c.board = checkBoard(board, 'the claimed board');
      c.maxTile = Math.max(...c.board.flat());
    }
    if (maxTile !== undefined) {
      if (!(maxTile === 0 || isTile(maxTile))) throw new RangeError(`claim: maxTile ${shown(maxTile)} is not a tile`);
      c.maxTile = maxTile;
    } else if (board === undefined) {
      throw new TypeError('claim: give the final board or maxTile');
    }
    for (const [k, v] of [['won', won], ['over', over]]) {
      if (v === undefined) continue;
      if (typeof v !== 'boolean') throw new TypeError(`claim: ${k} is true or false`);
      c[k] = v;
    }
    if (result !== undefined) {
      if (!RESULTS.includes(result)) throw new RangeError(`claim: result ${JSON.stringify(result)} is not one of ${RESULTS.join(', ')}`);
      c.result = result;
    }
    const r = { profile: this.profile };
    if (this.rules !== undefined) r.rules = this.rules;
    if (this.seed !== undefined) r.rng = 'tp1';
    if (this.setup !== undefined) r.setup = { ...this.setup };
    if (this.seed !== undefined) r.seed = this.seed;
    if (this.seedCommitment !== undefined) r.seedCommitment = this.seedCommitment.toLowerCase();
    if (this.start !== undefined) r.start = this.start.map((row) => [...row]);
    r.moves = this.log;
    if (this._times !== undefined) {
      if (this._times.length !== this._log.length) throw new RangeError(`times: ${this._times.length} for the log's ${this._log.length} actions (set them again after the last action)`);
      r.times = this._times.join(' ');
      r.timesSeal = this._timesSeal;
    }
    r.claim = c;
    if (this.source !== undefined) r.source = this.source;
    return r;
  }

  /**
   * Returns the replay as one JSON line (with its newline), for a JSON Lines batch or a POST body.
   * @param {object} claim as for {@link Recorder#replay}
   * @returns {string}
   */
  toJSONLine(claim) {
    return JSON.stringify(this.replay(claim)) + '\n';
  }
}

function checkSetup(setup) {
  const out = {};
  if (setup === null || typeof setup !== 'object') throw new TypeError('setup is {target, openEnded}');
  for (const k of Object.keys(setup)) if (k !== 'target' && k !== 'openEnded') throw new TypeError(`setup: unknown field ${k}`);
  if (setup.target !== undefined) {
    if (!isTile(setup.target)) throw new RangeError(`setup: target ${shown(setup.target)} is not a tile`);
    out.target = setup.target;
  }
  if (setup.openEnded !== undefined) {
    if (typeof setup.openEnded !== 'boolean') throw new TypeError('setup: openEnded is true or false');
    out.openEnded = setup.openEnded;
  }
  return out;
}
