// The exec-protocol harness (docs/protocol.md): an implementation's author
// writes the hooks of an adapter object, and the harness speaks the
// protocol for it over JSON Lines: hello, request ids, the checks of every
// request, feature gating, forced spawns, the state and the error
// responses. Everything the protocol says is in this file, most of it in
// the tables below.

import { isTile, normalizeSeed } from './tp1.js';
import { DIRECTIONS, slide, maxTile } from './rules.js';

/** The protocol version the harness speaks. */
export const PROTOCOL_VERSION = 1;

/**
 * The error words of a response with ok: false (docs/protocol.md, Error
 * words). The first seven are the rules' refusals, which a hook throws as
 * a {@link Refusal}; the others are the protocol's, which the harness
 * answers itself.
 */
export const ERRORS = Object.freeze({
  illegalMove: 'illegal-move', // a move that changes nothing, in a profile that rejects it
  finished: 'finished', // a move or action after the end of the run
  unsupported: 'unsupported', // undo or End run in a profile without it, a setup the profile does not offer
  noUndo: 'no-undo', // nothing to undo
  notStopped: 'not-stopped', // keep playing when play is not stopped at the win
  badSpawn: 'bad-spawn', // a forced spawn the slide does not allow
  overflow: 'overflow', // a tile above 2^52 or a score above 2^53-1
  badRequest: 'bad-request', // not what the protocol allows, or outside hello's declaration (a profile, size, seed, setup, spawn)
  noHello: 'no-hello', // a request before hello
  noGame: 'no-game', // a request that needs a game, before new or load
  unsupportedOp: 'unsupported-op', // an op this implementation does not know, or whose feature it did not declare
  implError: 'impl-error', // the implementation failed (a hook threw something other than a Refusal)
});

// Each op: the hook it calls, the feature it needs (an op without its
// feature is unknown to the implementation) and whether it needs a game.
const OPS = {
  hello: {},
  new: { hook: 'newGame' },
  load: { hook: 'load', feature: 'load-state' },
  move: { hook: 'move', game: true },
  legal: { hook: 'legal', game: true },
  undo: { hook: 'undo', feature: 'undo', game: true },
  'end-run': { hook: 'endRun', feature: 'end-run', game: true },
  'keep-playing': { hook: 'keepPlaying', feature: 'keep-playing', game: true },
};

const MAX_LINE = 1 << 20; // bytes in a request line, its newline aside
const MAX_TILE = 2 ** 52; // the largest tile a game may hold (docs/protocol.md, rule 12)
const SPAWN_VALUES = Object.freeze([2, 4]); // what every built-in profile spawns (docs/profiles.md)
const utf8Length = (s) => new TextEncoder().encode(s).length;

/** A refusal by the rules: the hook throws it, the harness answers ok: false with its word. */
export class Refusal extends Error {
  /**
   * @param {string} word one of {@link ERRORS}' words, e.g. "illegal-move"
   * @param {string} message free text for the person reading the report
   */
  constructor(word, message) {
    super(message);
    this.name = 'Refusal';
    this.word = word;
  }
}

const fail = (word, message) => {
  throw new Refusal(word, message);
};

function checkBoard(board, rows, cols) {
  if (!Array.isArray(board) || board.length < 2 || board.length > 8) fail(ERRORS.badRequest, 'board: 2 to 8 rows of cells');
  const width = Array.isArray(board[0]) ? board[0].length : 0;
  const out = board.map((row, r) => {
    if (!Array.isArray(row) || row.length !== width || width < 2 || width > 8) {
      fail(ERRORS.badRequest, `board row ${r + 1} is not 2 to 8 cells, as long as row 1`);
    }
    return row.map((v, c) => {
      if (v === null || v === 0) return 0;
      if (!isTile(v)) fail(ERRORS.badRequest, `board row ${r + 1}, column ${c + 1}: ${JSON.stringify(v)} is not a tile (a power of two, 2 to 2^52) or 0`);
      return v;
    });
  });
  if ((rows !== undefined && rows !== out.length) || (cols !== undefined && cols !== width)) {
    fail(ERRORS.badRequest, `rows ${rows} and cols ${cols} do not match the ${out.length}x${width} board`);
  }
  return out;
}

const count = (v, what, max = Number.MAX_SAFE_INTEGER) => {
  if (v === undefined) return 0;
  if (!Number.isSafeInteger(v) || v < 0 || v > max) fail(ERRORS.badRequest, `${what} ${JSON.stringify(v)} is not a whole number from 0 to ${max}`);
  return v;
};

const flag = (v, what) => {
  if (v === undefined) return false;
  if (typeof v !== 'boolean') fail(ERRORS.badRequest, `${what} is true or false`);
  return v;
};

// spawnValuesOf reads an adapter's spawnValues: a function from a profile's
// name to the values it spawns.
function spawnValuesOf(v) {
  const list = (xs, what) => {
    if (!Array.isArray(xs) || xs.length === 0 || !xs.every(isTile)) throw new TypeError(`spawnValues${what} ${JSON.stringify(xs)} is not a list of tiles`);
    return Object.freeze([...xs]);
  };
  if (v === undefined) return () => SPAWN_VALUES;
  if (Array.isArray(v)) {
    const all = list(v, '');
    return () => all;
  }
  if (v === null || typeof v !== 'object') throw new TypeError('spawnValues is a list of tiles, or an object from profile names to lists');
  const by = new Map(Object.entries(v).map(([name, xs]) => [name, list(xs, `.${name}`)]));
  return (name) => by.get(name) || SPAWN_VALUES;
}

/**
 * Returns a protocol session over an adapter: a function from one request
 * line to its response line (without newlines), which never throws.
 *
 * The adapter holds the implementation's hooks; each may return a promise.
 * A hook refuses with `throw new Refusal(word, message)`. The harness
 * calls `state()` after each op that answers a state.
 *
 * - `name`, `version`, `profiles`, `features`: what hello declares (the
 *   features of docs/case-format.md: load-state, force-spawn, seed-tp1,
 *   undo, end-run, keep-playing, setup, size:RxC). A profile is a built-in
 *   profile's name, or `{file, name}` for a profile file of the
 *   implementation's own variant: hello declares the file's path, and
 *   requests name the profile by the file's `name:`
 * - `newGame({profile, seed, setup})`: start a game; seed only with seed-tp1
 * - `load({profile, setup, rows, cols, board, score, moves, won, keepPlaying})`: with load-state
 * - `move(direction, spawn)` returns `{changed, gained, spawn}`: spawn, the
 *   tile to place after the slide, is null unless the runner forces one
 *   (force-spawn); the result's spawn is the tile that appeared
 * - `spawnValues`: optional, the values the profiles spawn, for the check
 *   of a forced spawn below: a list for every profile, or an object from
 *   profile names (as requests name them) to lists; [2, 4], what every
 *   built-in profile spawns, for a profile it does not name
 * - `legal()` returns the directions that change the board
 * - `undo()`, `endRun()`, `keepPlaying()`: optional; an adapter without
 *   one answers unsupported
 * - `state()` returns `{board, score, moves, won, over, result}`
 *
 * A forced spawn is checked here, once for every adapter (docs/protocol.md,
 * rule 11): before calling `move`, the harness asks `state()` for the
 * board and slides it with the kit's {@link slide}. When the run plays
 * (`over` false) and the slide changes the board without overflow, a
 * spawn on a cell the slide left full, or of a value the game's profile
 * does not spawn, or off the board, is answered `bad-spawn` and `move` is
 * not called (a spawn the protocol never sends, a row or column not from
 * 0 to 7 or a value not a tile, is bad-request). Everything else reaches `move` as it came (an off-board
 * spawn there as none, since it is never placed): a move that changes nothing (rule 2: not placed, not checked;
 * the hook answers illegal-move or changed: false as its profile says), a
 * move after the end (rule 3) and a move that overflows (rule 12: the
 * hook's overflow comes before bad-spawn, as in the engine). So `move`
 * never sees a forced spawn the slide does not allow, and need not check
 * one.
 *
 * @param {object} adapter the hooks and declarations above
 * @returns {(line: string) => Promise<string|null>} null for a blank line, which gets no answer
 */
export function createSession(adapter) {
  const declared = (adapter.profiles || []).map((p) => {
    if (typeof p === 'string') return { hello: p, name: p };
    if (p && typeof p.file === 'string' && typeof p.name === 'string') return { hello: p.file, name: p.name };
    throw new TypeError(`profile ${JSON.stringify(p)} is neither a name nor {file, name}`);
  });
  const profiles = declared.map((p) => p.hello);
  const names = declared.map((p) => p.name);
  const features = [...(adapter.features || [])];
  const has = (f) => features.includes(f);
  const spawnValues = spawnValuesOf(adapter.spawnValues);
  let helloDone = false;
  let size = null; // [rows, cols] of the game, once there is one
  let profile = null; // the profile of the game, by the name requests use

  async function state() {
    const s = await adapter.state();
    const out = { board: s.board, score: s.score, moves: s.moves, won: !!s.won, over: !!s.over };
    if (s.result !== undefined) out.result = s.result;
    size = [s.board.length, s.board[0].length];
    return out;
  }

  function profileOf(req) {
    if (!names.includes(req.profile)) fail(ERRORS.badRequest, `profile ${JSON.stringify(req.profile)} is not one this implementation declared (${names.join(', ')})`);
    if (req.setup === undefined) return;
    if (!has('setup')) fail(ERRORS.badRequest, 'a setup was given, but this implementation did not declare setup');
    if (req.setup === null || typeof req.setup !== 'object') fail(ERRORS.badRequest, 'setup is {target, openEnded}');
  }

  // Rule 11 (docs/protocol.md) for a forced spawn on a cell of the board,
  // where the rules check it: a move that changes nothing, one after the
  // end and one that overflows are the hook's to answer, spawn and all.
  const onBoard = ({ row, col, value }) => row >= 0 && col >= 0 && row < size[0] && col < size[1] && isTile(value);

  // checkSpawn answers bad-spawn for a forced spawn the move would place
  // where rule 11 forbids; it returns whether the move places it at all.
  async function checkSpawn(direction, spawn) {
    const s = await adapter.state();
    if (s.over) return false;
    const { board, changed, gained } = slide(s.board, direction);
    if (!changed || maxTile(board) > MAX_TILE || (s.score || 0) + gained > Number.MAX_SAFE_INTEGER) return false;
    if (!onBoard(spawn)) {
      fail(ERRORS.badSpawn, `spawn ${JSON.stringify(spawn)} is not a tile on a cell of the ${size[0]}x${size[1]} board`);
    }
    if (board[spawn.row][spawn.col] !== 0) {
      fail(ERRORS.badSpawn, `the spawn's cell (row ${spawn.row}, col ${spawn.col}) is not empty after moving ${direction}`);
    }
    const values = spawnValues(profile);
    if (!values.includes(spawn.value)) fail(ERRORS.badSpawn, `profile ${profile} spawns ${values.join(' and ')}, not ${spawn.value}`);
    return true;
  }

  const handlers = {
    hello() {
      if (helloDone) fail(ERRORS.badRequest, 'hello comes once, first');
      helloDone = true;
      return { protocol: PROTOCOL_VERSION, name: adapter.name, version: adapter.version ?? '', profiles, features };
    },
    async new(req) {
      profileOf(req);
      if (req.seed !== undefined && !has('seed-tp1')) fail(ERRORS.badRequest, 'a seed was given, but this implementation did not declare seed-tp1');
      if (req.seed !== undefined) {
        if (typeof req.seed !== 'string') fail(ERRORS.badRequest, 'seed is a string');
        try {
          normalizeSeed(req.seed);
        } catch (e) {
          fail(ERRORS.badRequest, e.message);
        }
      }
      await adapter.newGame({ profile: req.profile, seed: req.seed, setup: req.setup });
      profile = req.profile;
      return { state: await state() };
    },
    async load(req) {
      profileOf(req);
      const board = checkBoard(req.board, req.rows, req.cols);
      const [rows, cols] = [board.length, board[0].length];
      if (!(rows === 4 && cols === 4) && !has(`size:${rows}x${cols}`)) fail(ERRORS.badRequest, `this implementation did not declare size:${rows}x${cols}`);
      await adapter.load({
        profile: req.profile, setup: req.setup, rows, cols, board,
        score: count(req.score, 'score'), moves: count(req.moves, 'moves'),
        won: flag(req.won, 'won'), keepPlaying: flag(req.keepPlaying, 'keepPlaying'),
      });
      profile = req.profile;
      return { state: await state() };
    },
    async move(req) {
      if (!DIRECTIONS.includes(req.direction)) fail(ERRORS.badRequest, `direction ${JSON.stringify(req.direction)} is not up, down, left or right`);
      let spawn = null;
      if (req.spawn !== undefined && req.spawn !== null) {
        if (!has('force-spawn')) fail(ERRORS.badRequest, 'a spawn was given, but this implementation did not declare force-spawn');
        const { row, col, value } = req.spawn;
        if (!Number.isSafeInteger(row) || !Number.isSafeInteger(col) || row < 0 || row > 7 || col < 0 || col > 7 || !isTile(value)) {
          fail(ERRORS.badRequest, `spawn ${JSON.stringify(req.spawn)} is not {row, col, value} of a row and a column from 0 to 7 and a tile`);
        }
        spawn = { row, col, value };
        // A spawn the move cannot place (the move changes nothing, the run
        // is over, the merge overflows) reaches the hook as none when it
        // is not on the board: it is never placed.
        if (!(await checkSpawn(req.direction, spawn)) && !onBoard(spawn)) spawn = null;
      }
      const r = await adapter.move(req.direction, spawn);
      const changed = !!r.changed;
      return { changed, gained: r.gained || 0, spawn: changed && r.spawn ? r.spawn : null, state: await state() };
    },
    async legal() {
      const legal = await adapter.legal();
      if (!Array.isArray(legal) || !legal.every((d) => DIRECTIONS.includes(d))) throw new Error(`legal() returned ${JSON.stringify(legal)}, not a list of directions`);
      return { legal };
    },
  };
  for (const op of ['undo', 'end-run', 'keep-playing']) {
    handlers[op] = async () => {
      await adapter[OPS[op].hook]();
      return { state: await state() };
    };
  }

  async function answer(req) {
    const op = Object.hasOwn(OPS, req.op) ? OPS[req.op] : undefined;
    if (!op || (op.feature && !has(op.feature))) fail(ERRORS.unsupportedOp, `this implementation does not know the op ${JSON.stringify(req.op)}`);
    if (!helloDone && req.op !== 'hello') fail(ERRORS.noHello, `the first request must be hello, not ${req.op}`);
    if (op.hook && typeof adapter[op.hook] !== 'function') fail(ERRORS.unsupportedOp, `this implementation has no ${req.op}`);
    if (op.game && size === null) fail(ERRORS.noGame, `${req.op} before any new or load`);
    return handlers[req.op](req);
  }

  return async function handle(line) {
    if (line.trim() === '') return null;
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      return JSON.stringify({ id: null, ok: false, error: ERRORS.badRequest, message: `the request is not JSON: ${e.message}` });
    }
    if (req === null || typeof req !== 'object' || Array.isArray(req)) {
      return JSON.stringify({ id: null, ok: false, error: ERRORS.badRequest, message: 'the request is not a JSON object' });
    }
    const twice = repeatedKey(line);
    if (twice !== null) {
      return JSON.stringify({ id: null, ok: false, error: ERRORS.badRequest, message: `the request has the key ${JSON.stringify(twice)} twice` });
    }
    // The answer to a line without an id from 1 to 2^53-1 has id null.
    const id = Number.isSafeInteger(req.id) && req.id >= 1 ? req.id : null;
    try {
      if (id === null) fail(ERRORS.badRequest, `the request's id ${JSON.stringify(req.id)} is not an integer from 1 to 2^53-1`);
      return JSON.stringify({ id, ok: true, ...(await answer(req)) });
    } catch (e) {
      const refusal = e instanceof Refusal;
      return JSON.stringify({
        id, ok: false,
        error: refusal ? e.word : ERRORS.implError,
        message: refusal ? e.message : String((e && e.stack) || e),
      });
    }
  };
}

/**
 * Returns a key that an object of the JSON text has twice, at any depth
 * (keys compared as JSON.parse reads them), or null when none does. The
 * text must be JSON (JSON.parse read it): JSON.parse itself keeps the
 * last of two values, where the protocol's line has each key once.
 *
 * @param {string} text
 * @returns {string|null}
 */
export function repeatedKey(text) {
  const stack = []; // a Set of the keys of each open object, null for an array
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (expectKey) {
        const key = JSON.parse(text.slice(i, j + 1));
        const keys = stack[stack.length - 1];
        if (keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      i = j;
    } else if (ch === '{') {
      stack.push(new Set());
      expectKey = true;
    } else if (ch === '[') {
      stack.push(null);
      expectKey = false;
    } else if (ch === '}' || ch === ']') {
      stack.pop();
      expectKey = false;
    } else if (ch === ',') {
      expectKey = stack[stack.length - 1] instanceof Set;
    }
  }
  return null;
}

/**
 * Serves an adapter over the exec protocol: reads request lines from
 * input, answers each in order on output, and resolves at the end of the
 * input. A request line longer than 1 MiB is answered bad-request and
 * skipped.
 * @param {object} adapter the hooks of {@link createSession}
 * @param {{input?: AsyncIterable<string|Uint8Array>, output?: {write(s: string): boolean, once?: Function}}} [streams] process.stdin and process.stdout unless given
 * @returns {Promise<void>}
 */
export async function serve(adapter, { input = process.stdin, output = process.stdout } = {}) {
  const handle = createSession(adapter);
  const decoder = new TextDecoder();
  let buffer = '';
  let skipping = false; // inside an over-long line
  const write = async (s) => {
    if (!output.write(s + '\n') && output.once) await new Promise((resolve) => output.once('drain', resolve));
  };
  const tooLong = () => write(JSON.stringify({ id: null, ok: false, error: ERRORS.badRequest, message: `a request line is at most ${MAX_LINE} bytes` }));
  for await (const chunk of input) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (skipping) {
        skipping = false;
        continue;
      }
      if (line.length > MAX_LINE / 3 && utf8Length(line) > MAX_LINE) {
        await tooLong();
        continue;
      }
      const out = await handle(line);
      if (out !== null) await write(out);
    }
    if (buffer.length > MAX_LINE / 3 && utf8Length(buffer) > MAX_LINE) { // a line of UTF-16 length n is at most 3n bytes
      if (!skipping) await tooLong();
      skipping = true;
      buffer = '';
    }
  }
  buffer += decoder.decode();
  if (!skipping && buffer.trim() !== '') {
    const out = await handle(buffer);
    if (out !== null) await write(out);
  }
}
