// A client of the Tile Merge API that `tileproof serve` answers
// (docs/api.md): a game started with init and played action by action, the
// state carried by the client, and recorded as a replay
// (docs/replay-format.md). From a signed server, the replay carries each
// action's think time as the server measured it (thinkMs) and the server's
// last timesSeal, which the operator checks with the server's key
// (tileproof verify or analyze --times-key-file).

import { normalizeSeed, seedCommitment, isTile } from './tp1.js';
import { Recorder, MAX_THINK_TIME } from './recorder.js';
import { DIRECTIONS } from './rules.js';

const GAME_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const TIMES_SEAL = /^hmac-sha256:[0-9a-f]{64}$/;
const COMMITMENT = /^sha256:[0-9a-f]{64}$/;
const RESULTS = ['playing', 'target-reached', 'no-moves', 'move-limit', 'run-finished'];
const ACTIONS = ['move', 'undo', 'end-run', 'keep-playing', 'observe'];
const REPLAY_FORMS = ['seeded', 'spawn-recorded'];
const REFUSAL = /^[a-z][a-z0-9-]{0,39}$/;
// The most of a server's text an error quotes.
const QUOTED = 200;

/**
 * Text from a server, made fit for an error message: at most 200
 * characters, control and format characters (which could rewrite a
 * terminal or reorder a line) as \u escapes.
 * @param {unknown} text
 * @returns {string}
 */
function quoteServer(text) {
  let s = String(text);
  const cut = s.length > QUOTED;
  s = s.slice(0, QUOTED).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (c) => `\\u${c.codePointAt(0).toString(16).padStart(4, '0')}`);
  return cut ? `${s}...` : s;
}

/** An answer of the server that is an HTTP error (4xx, 5xx), or that is not the API's shape. */
export class ServerError extends Error {
  /**
   * @param {string} message what went wrong, the server's words quoted safely
   * @param {number} status the HTTP status (0 for an answer that is not the API's shape)
   */
  constructor(message, status) {
    super(message);
    this.name = 'ServerError';
    this.status = status;
  }
}

const isCount = (v) => Number.isSafeInteger(v) && v >= 0;
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Checks an answer of init or action (ok: true) and returns it; a
 * ServerError names what is wrong.
 * @param {unknown} a
 * @param {boolean} signed whether the server signs its states (so measures think times)
 */
function checkAnswer(a, signed) {
  const bad = (what) => new ServerError(`the server's answer is not the API's: ${what}`, 0);
  if (!isObject(a) || a.ok !== true) throw bad('not {"ok": true, ...}');
  if (!isObject(a.state)) throw bad('no state');
  const o = a.observation;
  if (!isObject(o)) throw bad('no observation');
  const b = o.board;
  if (!Array.isArray(b) || b.length < 2 || b.length > 8 || !b.every((row) => Array.isArray(row) && row.length === b[0].length && row.length >= 2 && row.length <= 8 && row.every((v) => v === 0 || v === null || isTile(v)))) {
    throw bad('the observation\'s board is not 2 to 8 rows of 2 to 8 tiles');
  }
  for (const k of ['score', 'moves', 'maxTile']) if (!isCount(o[k])) throw bad(`observation.${k} is not a count`);
  for (const k of ['won', 'over']) if (typeof o[k] !== 'boolean') throw bad(`observation.${k} is not true or false`);
  if (!RESULTS.includes(o.result)) throw bad('observation.result is not a result');
  if (typeof a.gameOver !== 'boolean') throw bad('gameOver is not true or false');
  if (!Array.isArray(a.legalActions) || !a.legalActions.every(isObject)) throw bad('legalActions is not a list of actions');
  if (a.changed !== undefined && typeof a.changed !== 'boolean') throw bad('changed is not true or false');
  if (a.thinkMs !== undefined && !(Number.isInteger(a.thinkMs) && a.thinkMs >= 0 && a.thinkMs <= MAX_THINK_TIME)) throw bad('thinkMs is not whole milliseconds from 0 to 2^32-1');
  if (a.timesSeal !== undefined && (typeof a.timesSeal !== 'string' || !TIMES_SEAL.test(a.timesSeal))) throw bad('timesSeal is not "hmac-sha256:" and 64 hex digits');
  if (signed && a.timesSeal === undefined) throw bad('a signed server\'s answer without timesSeal');
  if (!signed && (a.timesSeal !== undefined || a.thinkMs !== undefined)) throw bad('an unsigned server\'s answer with think times');
  if (a.seedCommitment !== undefined && (typeof a.seedCommitment !== 'string' || !COMMITMENT.test(a.seedCommitment))) throw bad('seedCommitment is not "sha256:" and 64 hex digits');
  if (a.seed !== undefined && typeof a.seed !== 'string') throw bad('seed is not text');
  return a;
}

/**
 * A game played through the Tile Merge API of a server such as `tileproof serve` (docs/api.md), and
 * recorded: `await ServerGame.start(url, {game, seed})`, then `move(direction)`, `undo()`,
 * `endRun()`, `keepPlaying()`, `observe()`, and `replay()` / `toJSONLine()`. From a signed server the
 * replay carries each logged action's `thinkMs` as `times`, and the last `timesSeal`.
 */
export class ServerGame {
  /**
   * Starts a game on the server (GET api/games/GAME/init).
   * @param {string|URL} url the server's address, e.g. "http://127.0.0.1:8048" (the API's paths are under it)
   * @param {object} [options]
   * @param {string} [options.game] the game, a profile name the server serves ("tile-merge")
   * @param {string|number} [options.seed] the tp1 seed; without one a signed server draws one and
   *   reveals it when the game ends for good (an unsigned server needs one)
   * @param {string} [options.source] the replay's source, free text for people
   * @param {typeof fetch} [options.fetch] the fetch to use (the global one by default)
   * @returns {Promise<ServerGame>}
   */
  static async start(url, { game = 'tile-merge', seed, source, fetch: fetchFn = globalThis.fetch } = {}) {
    if (typeof game !== 'string' || !GAME_NAME.test(game)) throw new TypeError(`game ${JSON.stringify(game)} is not a game's name`);
    if (typeof fetchFn !== 'function') throw new TypeError('no fetch: give options.fetch');
    if (source !== undefined && typeof source !== 'string') throw new TypeError('source is text');
    const base = new URL(url);
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    const g = new ServerGame(base, game, fetchFn, source);
    let path = `api/games/${game}/init`;
    if (seed !== undefined) {
      g.seed = normalizeSeed(seed);
      path += `?seed=${encodeURIComponent(g.seed)}`;
    }
    const a = await g._request('GET', path);
    if (!isObject(a) || !isObject(a.spec)) throw new ServerError('the server\'s answer to init is not the API\'s: no spec', 0);
    const { spec } = a;
    if (typeof spec.signed !== 'boolean' || !(Number.isInteger(spec.rules) && spec.rules >= 1)) throw new ServerError('the server\'s answer to init is not the API\'s: spec.signed or spec.rules', 0);
    if (spec.replay !== undefined && !REPLAY_FORMS.includes(spec.replay)) throw new ServerError('the server\'s answer to init is not the API\'s: spec.replay is not seeded or spawn-recorded', 0);
    g.spec = spec;
    g.signed = spec.signed;
    await g._take(checkAnswer(a, g.signed));
    // A game whose profile spawns by another generator than the server
    // deals by is recorded spawn by spawn, from its opening board.
    if (spec.replay === 'spawn-recorded') g._start = a.observation.board;
    return g;
  }

  /** Use {@link ServerGame.start}. */
  constructor(base, game, fetchFn, source) {
    this._base = base;
    this._fetch = fetchFn;
    this._source = source;
    /** @type {string} the game's name on the server, the replay's profile */
    this.game = game;
    /** @type {object} the game's spec as init gave it */
    this.spec = undefined;
    /** @type {boolean} whether the server signs its states (and measures think times) */
    this.signed = false;
    /** @type {string|undefined} the seed: the one given, or the server's once it reveals it */
    this.seed = undefined;
    /** @type {string|undefined} the server's commitment to the seed it drew */
    this.seedCommitment = undefined;
    /** @type {string|undefined} the server's MAC of the think times so far */
    this.timesSeal = undefined;
    /** @type {object} the last answer that handed out a state */
    this.answer = undefined;
    this._start = undefined; // the opening board, when the spec's replay is spawn-recorded
    this._actions = []; // the log: ['move', direction, spawn] | ['undo'] | ['end-run'] | ['keep-playing']
    this._times = [];
    this._busy = false;
  }

  /** @returns {object} the observation: board, score, moves, maxTile, won, over, result */
  get observation() {
    return this.answer.observation;
  }

  /** @returns {object[]} the actions the rules take now */
  get legalActions() {
    return this.answer.legalActions;
  }

  /** @returns {boolean} whether the game is over (gameOver) */
  get over() {
    return this.answer.gameOver;
  }

  /** @returns {number[]} each logged action's think time so far, in ms (none from an unsigned server) */
  get times() {
    return [...this._times];
  }

  /** @param {'up'|'down'|'left'|'right'} direction */
  move(direction) {
    if (!DIRECTIONS.includes(direction)) return Promise.reject(new RangeError(`direction ${JSON.stringify(direction)} is not up, down, left or right`));
    return this.act({ type: 'move', direction });
  }

  /** Undo (online-2048). */
  undo() {
    return this.act({ type: 'undo' });
  }

  /** End run (online-2048). */
  endRun() {
    return this.act({ type: 'end-run' });
  }

  /** Keep playing after the win (classic). */
  keepPlaying() {
    return this.act({ type: 'keep-playing' });
  }

  /** Asks the state as the rules read it; changes nothing, records nothing. */
  observe() {
    return this.act({ type: 'observe' });
  }

  /**
   * Plays an action (POST api/games/GAME/action with the state) and returns the server's answer. An
   * action the rules refuse (ok: false, its error a word such as "illegal-move", its reason the
   * server's text: show it as text) is returned as it is: the state stays the one to play and
   * nothing is recorded. An HTTP error (a state played already, 409;
   * a server restarted, 410) or an answer not of the API's shape throws a {@link ServerError}. One
   * action at a time: a state is good for one action.
   * @param {{type: string, direction?: string}} action
   * @returns {Promise<object>}
   */
  async act(action) {
    if (!isObject(action) || !ACTIONS.includes(action.type)) throw new TypeError(`action ${quoteServer(JSON.stringify(action))} is not one of ${ACTIONS.join(', ')}`);
    if (action.type === 'move' && !DIRECTIONS.includes(action.direction)) throw new RangeError(`direction ${quoteServer(JSON.stringify(action.direction))} is not up, down, left or right`);
    if (this._busy) throw new Error('an action is already on its way: wait for its answer (a state is good for one action)');
    this._busy = true;
    try {
      const body = JSON.stringify({ state: this.answer.state, action });
      const a = await this._request('POST', `api/games/${this.game}/action`, body);
      if (isObject(a) && a.ok === false) {
        // Refused: nothing spent. The error is one of the API's words;
        // the reason is the server's text, for the caller to show as text.
        if (typeof a.error !== 'string' || !REFUSAL.test(a.error)) throw new ServerError('the server\'s refusal is not the API\'s: its error is not a word such as illegal-move', 0);
        if (a.reason !== undefined && typeof a.reason !== 'string') throw new ServerError('the server\'s refusal is not the API\'s: its reason is not text', 0);
        return a;
      }
      checkAnswer(a, this.signed);
      const logged = action.type !== 'observe' && !(action.type === 'move' && a.changed === false);
      if (this.signed && logged !== (a.thinkMs !== undefined)) {
        throw new ServerError(`the server's answer to ${action.type} ${logged ? 'has no' : 'has a'} thinkMs`, 0);
      }
      if (logged && action.type === 'move' && this._start !== undefined) {
        if (!isObject(a.spawn)) throw new ServerError('the server\'s answer to a move that changed the board has no spawn, which a spawn-recorded replay needs', 0);
        // The spawn the replay records is the tile the answer's board
        // shows: else the replay is refused, or made not at all.
        const { row, col, value } = a.spawn;
        const b = a.observation.board;
        if (!Number.isInteger(row) || !Number.isInteger(col) || !isTile(value) || b[row]?.[col] !== value) {
          throw new ServerError(`the server's answer to a move has a spawn, ${quoteServer(JSON.stringify(a.spawn))}, that is not a tile of its board`, 0);
        }
      }
      if (logged) {
        this._actions.push(action.type === 'move' ? ['move', action.direction, a.spawn] : [action.type]);
        if (a.thinkMs !== undefined) this._times.push(a.thinkMs);
      }
      await this._take(a);
      return a;
    } finally {
      this._busy = false;
    }
  }

  /**
   * Returns the game's replay, as {@link Recorder#replay} does: the claim is the server's last
   * observation. Seeded, or spawn-recorded (each move's spawn as the server answered it) when the
   * spec's replay says so: a profile whose seeded games spawn by another generator than the server's
   * tp1 (hallabois-4x4). A seeded one throws while the seed the server drew is still secret (it is
   * revealed when the game ends for good).
   * @returns {object}
   */
  replay() {
    return this._recorder().replay(this._claim());
  }

  /** @returns {string} the replay as one JSON line, with its newline */
  toJSONLine() {
    return this._recorder().toJSONLine(this._claim());
  }

  _claim() {
    const { score, board, moves, maxTile, won, over, result } = this.answer.observation;
    return { score, board, moves, maxTile, won, over, result };
  }

  _recorder() {
    let rec;
    if (this._start !== undefined) {
      rec = new Recorder({ profile: this.game, rules: this.spec.rules, start: this._start, source: this._source });
    } else if (this.seed === undefined) {
      throw new Error('the server reveals the seed it drew when the game ends for good: play to the end, or start with a seed of your own');
    } else {
      rec = new Recorder({ profile: this.game, rules: this.spec.rules, seed: this.seed, seedCommitment: this.seedCommitment, source: this._source });
    }
    for (const [type, direction, spawn] of this._actions) {
      if (type === 'move') rec.move(direction, spawn);
      else if (type === 'undo') rec.undo();
      else if (type === 'end-run') rec.endRun();
      else rec.keepPlaying();
    }
    if (this.signed) rec.setTimes(this._times, this.timesSeal);
    return rec;
  }

  // _take keeps an answer that hands out a state: the state, the times
  // seal, and the seed the server reveals (checked against its
  // commitment).
  async _take(a) {
    if (a.timesSeal !== undefined) this.timesSeal = a.timesSeal;
    if (a.seedCommitment !== undefined) {
      if (this.seedCommitment !== undefined && a.seedCommitment !== this.seedCommitment) throw new ServerError('the server changed its seed commitment during the game', 0);
      this.seedCommitment = a.seedCommitment;
    }
    if (a.seed !== undefined && this.seed === undefined) {
      const seed = normalizeSeed(a.seed);
      if (this.seedCommitment === undefined || (await seedCommitment(seed)) !== this.seedCommitment) {
        throw new ServerError('the seed the server revealed is not the one it committed to', 0);
      }
      this.seed = seed;
    }
    this.answer = a;
  }

  async _request(method, path, body) {
    const url = new URL(path, this._base);
    const init = { method, headers: { accept: 'application/json' } };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = body;
    }
    // Called as a plain function: a browser's fetch called as a method of
    // another object (this._fetch(...)) throws "Illegal invocation".
    const fetchFn = this._fetch;
    const res = await fetchFn(url, init);
    const text = await res.text();
    let a;
    try {
      a = JSON.parse(text);
    } catch {
      throw new ServerError(`${method} ${url.pathname}: HTTP ${res.status}, not JSON: ${quoteServer(text)}`, res.status || 0);
    }
    if (!res.ok) {
      const why = isObject(a) && typeof a.error === 'string' ? a.error : text;
      throw new ServerError(`${method} ${url.pathname}: HTTP ${res.status}: ${quoteServer(why)}`, res.status);
    }
    return a;
  }
}
