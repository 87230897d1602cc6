// The exec-protocol harness: each rule of docs/protocol.md on a session,
// then the example adapter over real pipes.

import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Readable, PassThrough } from 'node:stream';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createSession, serve, Refusal, ERRORS } from '../src/harness.js';
import { slide } from '../src/rules.js';

// A game of a 2x2 board whose hooks note what the harness passed them.
function adapter(extra = {}) {
  const calls = [];
  const st = { board: [[2, 0], [0, 2]], score: 0, moves: 0, won: false, over: false, result: 'playing' };
  return {
    calls,
    name: 'test', version: '1', profiles: ['classic'],
    features: ['load-state', 'force-spawn', 'size:2x2'],
    newGame(req) { calls.push(['new', req]); },
    load(req) { calls.push(['load', req]); st.board = req.board; },
    move(direction, spawn) {
      calls.push(['move', direction, spawn]);
      if (direction === 'up') throw new Refusal(ERRORS.illegalMove, 'nothing moves');
      if (direction === 'down') throw new Error('a bug in the hook');
      return { changed: direction === 'left', gained: 4, spawn: spawn || { row: 1, col: 1, value: 2 } };
    },
    legal() { return ['left']; },
    state() { return st; },
    ...extra,
  };
}

async function session(a, ...lines) {
  const handle = createSession(a);
  const out = [];
  for (const l of lines) out.push(JSON.parse(await handle(typeof l === 'string' ? l : JSON.stringify(l))));
  return out;
}

const hello = { id: 1, op: 'hello', protocol: 1 };

test('hello declares the adapter; every response echoes its id and has ok', async () => {
  const [h, n] = await session(adapter(), hello, { id: 2, op: 'new', profile: 'classic' });
  assert.deepEqual(h, { id: 1, ok: true, protocol: 1, name: 'test', version: '1', profiles: ['classic'], features: ['load-state', 'force-spawn', 'size:2x2'] });
  assert.deepEqual(Object.keys(n), ['id', 'ok', 'state']);
  assert.deepEqual(n.state, { board: [[2, 0], [0, 2]], score: 0, moves: 0, won: false, over: false, result: 'playing' });
});

test('requests before hello, a second hello, unknown ops and ids that are not integers', async () => {
  const r = await session(adapter(), { id: 5, op: 'new', profile: 'classic' }, hello, hello, { id: 7, op: 'fly' },
    { id: 'x', op: 'legal' }, { op: 'legal' }, 'not json', '[1]', { id: 8, op: 'legal' });
  assert.deepEqual(r.map((x) => [x.id, x.ok, x.error]), [
    [5, false, 'no-hello'], [1, true, undefined], [1, false, 'bad-request'], [7, false, 'unsupported-op'],
    [null, false, 'bad-request'], [null, false, 'bad-request'], [null, false, 'bad-request'], [null, false, 'bad-request'],
    [8, false, 'no-game'],
  ]);
  for (const x of r.filter((x) => !x.ok)) assert.equal(typeof x.message, 'string');
});

test('a key twice, at any depth, and ids below 1: no request, the id null', async () => {
  const r = await session(adapter(), hello, '{"id":2,"op":"new","profile":"classic","profile":"classic"}',
    '{"id":3,"op":"move","direction":"left","spawn":{"row":0,"col":0,"row":1,"value":2}}',
    '{"id":4,"op":"new","profile":"classic","\\u0070rofile":"classic"}', { id: 0, op: 'legal' }, { id: -5, op: 'legal' },
    '{"id":6,"op":"new","profile":"classic","setup":{},"x":[{"a":1},{"a":2}]}');
  assert.deepEqual(r.slice(1).map((x) => [x.id, x.error]), [
    [null, 'bad-request'], [null, 'bad-request'], [null, 'bad-request'], [null, 'bad-request'], [null, 'bad-request'],
    [6, 'bad-request'], // a key in two objects is no key twice: this one fails on its setup
  ]);
  assert.match(r[1].message, /"profile" twice/);
  assert.match(r[3].message, /"profile" twice/);
});

test('new: the declared profiles only; a seed only with seed-tp1; a setup only with setup', async () => {
  const a = adapter();
  const r = await session(a, hello, { id: 2, op: 'new', profile: 'pgs' }, { id: 3, op: 'new', profile: 'classic', seed: '7' },
    { id: 4, op: 'new', profile: 'classic', setup: { target: 512 } }, { id: 5, op: 'new', profile: 'classic' });
  assert.deepEqual(r.map((x) => x.error), [undefined, 'bad-request', 'bad-request', 'bad-request', undefined], 'an undeclared profile, seed, setup');
  assert.deepEqual(a.calls, [['new', { profile: 'classic', seed: undefined, setup: undefined }]]);
  const b = adapter({ features: ['seed-tp1'] });
  const [, , empty, long] = await session(b, hello, { id: 2, op: 'new', profile: 'classic', seed: '7' },
    { id: 3, op: 'new', profile: 'classic', seed: '\u3000' }, { id: 4, op: 'new', profile: 'classic', seed: 'x'.repeat(97) });
  assert.deepEqual(b.calls, [['new', { profile: 'classic', seed: '7', setup: undefined }]]);
  assert.deepEqual([empty.error, long.error], ['bad-request', 'bad-request'], 'seeds tp1 refuses');
  assert.match(empty.message, /empty once white space is trimmed/);
});

test('a profile file: hello declares its path, requests name it by its name', async () => {
  const a = adapter({ profiles: ['classic', { file: 'variants/mine.yaml', name: 'mine' }] });
  const [h, byName, byPath] = await session(a, hello, { id: 2, op: 'new', profile: 'mine' }, { id: 3, op: 'new', profile: 'variants/mine.yaml' });
  assert.deepEqual(h.profiles, ['classic', 'variants/mine.yaml']);
  assert.equal(byName.ok, true);
  assert.equal(byPath.error, 'bad-request', 'requests carry the name, not the path');
  assert.deepEqual(a.calls, [['new', { profile: 'mine', seed: undefined, setup: undefined }]]);
  assert.throws(() => createSession(adapter({ profiles: [{ file: 'x.yaml' }] })), TypeError);
});

test('load: the board checked, null cells as 0, sizes as declared', async () => {
  const a = adapter();
  const ok = { id: 2, op: 'load', profile: 'classic', rows: 2, cols: 2, board: [[2, null], [0, 4]], score: 8, moves: 3, won: false, keepPlaying: false };
  const r = await session(a, hello, ok,
    { ...ok, id: 3, board: [[2, 3], [0, 0]] }, { ...ok, id: 4, board: [[2, 0], [0]] }, { ...ok, id: 5, rows: 3 },
    { ...ok, id: 6, score: -1 }, { ...ok, id: 7, moves: 1.5 }, { ...ok, id: 8, won: 'no' },
    { ...ok, id: 9, rows: 3, cols: 3, board: [[0, 0, 0], [0, 0, 0], [0, 0, 2]] },
    { ...ok, id: 10, rows: 4, cols: 4, board: [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]] });
  assert.deepEqual(r.map((x) => x.error), [undefined, undefined, 'bad-request', 'bad-request', 'bad-request', 'bad-request', 'bad-request', 'bad-request', 'bad-request', undefined], 'an undeclared size is outside the declaration');
  assert.deepEqual(a.calls[0], ['load', { profile: 'classic', setup: undefined, rows: 2, cols: 2, board: [[2, 0], [0, 4]], score: 8, moves: 3, won: false, keepPlaying: false }]);
  const [, noLoad] = await session(adapter({ features: [] }), hello, ok);
  assert.equal(noLoad.error, 'unsupported-op', 'load without load-state');
});

test('move: the direction and the forced spawn checked; refusals and failures answered', async () => {
  const a = adapter();
  const r = await session(a, hello, { id: 2, op: 'new', profile: 'classic' },
    { id: 3, op: 'move', direction: 'left', spawn: { row: 0, col: 1, value: 4 } },
    { id: 4, op: 'move', direction: 'left' },
    { id: 5, op: 'move', direction: 'right' },
    { id: 6, op: 'move', direction: 'up' },
    { id: 7, op: 'move', direction: 'down' },
    { id: 8, op: 'move', direction: 'north' },
    { id: 9, op: 'move', direction: 'left', spawn: { row: 2, col: 0, value: 2 } },
    { id: 10, op: 'move', direction: 'left', spawn: { row: 0, col: 0, value: 6 } });
  assert.deepEqual(r[2], { id: 3, ok: true, changed: true, gained: 4, spawn: { row: 0, col: 1, value: 4 }, state: r[1].state });
  assert.deepEqual(r[3].spawn, { row: 1, col: 1, value: 2 });
  assert.equal(r[4].changed, false);
  assert.equal(r[4].spawn, null, 'no spawn after a move that changed nothing');
  assert.deepEqual([r[5].error, r[5].message], ['illegal-move', 'nothing moves']);
  assert.equal(r[6].error, 'impl-error');
  assert.match(r[6].message, /a bug in the hook/);
  // north: bad-request; a spawn off the board with a move that places
  // it: bad-spawn (rule 11); one of a 6, not a tile: bad-request
  assert.deepEqual(r.slice(7).map((x) => x.error), ['bad-request', 'bad-spawn', 'bad-request']);
  assert.deepEqual(a.calls.filter((c) => c[0] === 'move').map((c) => c[2]), [{ row: 0, col: 1, value: 4 }, null, null, null, null]);
  const [, , forced] = await session(adapter({ features: [] }), hello, { id: 2, op: 'new', profile: 'classic' },
    { id: 3, op: 'move', direction: 'left', spawn: { row: 0, col: 1, value: 4 } });
  assert.equal(forced.error, 'bad-request', 'a spawn without force-spawn');
});

// A game on the kit's move whose move hook checks no forced spawn: it
// places the tile wherever it is told, over a tile if need be, so only the
// harness stands between it and a spawn the slide does not allow.
function trusting(extra = {}) {
  const calls = [];
  let st = null;
  return {
    calls,
    name: 'trusting', version: '1', profiles: ['tile-merge', 'classic', { file: 'variants/eights.yaml', name: 'eights' }],
    features: ['load-state', 'force-spawn', 'size:2x2', 'size:2x4'],
    load(req) { st = { board: req.board, score: req.score, moves: req.moves, won: false, over: req.board.flat().includes(64) }; },
    move(direction, spawn) {
      calls.push([direction, spawn]);
      const s = slide(st.board, direction);
      if (!s.changed || st.over) return { changed: false, gained: 0, spawn: null };
      if (s.board.flat().includes(2 ** 53)) throw new Refusal(ERRORS.overflow, 'past 2^52');
      const t = spawn || { row: 0, col: 0, value: 2 };
      s.board[t.row][t.col] = t.value;
      st = { ...st, board: s.board, score: st.score + s.gained, moves: st.moves + 1 };
      return { changed: true, gained: s.gained, spawn: t };
    },
    legal() { return []; },
    state() { return st; },
    ...extra,
  };
}

const loadOf = (board, profile = 'tile-merge') => ({ id: 2, op: 'load', profile, rows: board.length, cols: board[0].length, board, score: 0, moves: 0 });
const moveOf = (direction, row, col, value) => ({ id: 3, op: 'move', direction, spawn: { row, col, value } });

// One forced move on a loaded board: the answer, the moves the hook saw.
async function forced(board, direction, spawn, { profile, ...extra } = {}) {
  const a = trusting(extra);
  const [, loaded, r] = await session(a, hello, loadOf(board, profile), moveOf(direction, ...spawn));
  assert.equal(loaded.ok, true, loaded.message);
  return [r, a.calls];
}

test('a forced spawn the slide does not allow is bad-spawn from the harness; the hook is not called', async () => {
  // refusals.yaml: 2 / 4 moved right fills (0, 3), the spawn's cell
  let [r, calls] = await forced([[2, 0, 0, 0], [4, 0, 0, 0]], 'right', [0, 3, 2]);
  assert.deepEqual([r.ok, r.error], [false, 'bad-spawn']);
  assert.match(r.message, /row 0, col 3\) is not empty after moving right/);
  assert.deepEqual(calls, [], 'the hook never saw the spawn');
  // empty before the slide, full after it: the slide's board is the one checked
  [r, calls] = await forced([[0, 2], [0, 0]], 'left', [0, 0, 2]);
  assert.deepEqual([r.error, calls], ['bad-spawn', []]);
  // full before the slide, empty after it: allowed
  [r, calls] = await forced([[0, 2], [0, 0]], 'left', [0, 1, 4]);
  assert.deepEqual([r.ok, r.state.board], [true, [[2, 4], [0, 0]]]);
  assert.deepEqual(calls, [['left', { row: 0, col: 1, value: 4 }]]);
  // a merge's cell: two 2s moved left leave (0, 1) empty, (0, 0) full
  [r] = await forced([[2, 2], [0, 0]], 'left', [0, 0, 2]);
  assert.equal(r.error, 'bad-spawn');
  [r] = await forced([[2, 2], [0, 0]], 'left', [0, 1, 2]);
  assert.deepEqual([r.ok, r.gained, r.state.board], [true, 4, [[4, 2], [0, 0]]]);
});

test('a forced spawn of a value the profile does not spawn is bad-spawn; spawnValues names what a profile spawns', async () => {
  // refusals.yaml: an 8 is no built-in profile's spawn
  let [r, calls] = await forced([[2, 0], [0, 0]], 'right', [1, 1, 8]);
  assert.deepEqual([r.error, calls], ['bad-spawn', []]);
  assert.match(r.message, /profile tile-merge spawns 2 and 4, not 8/);
  for (const value of [2, 4]) {
    [r] = await forced([[2, 0], [0, 0]], 'right', [1, 1, value], { profile: 'classic' });
    assert.equal(r.ok, true, `classic spawns ${value}`);
  }
  // a list for every profile
  [r] = await forced([[2, 0], [0, 0]], 'right', [1, 1, 8], { spawnValues: [2, 8] });
  assert.equal(r.ok, true);
  [r] = await forced([[2, 0], [0, 0]], 'right', [1, 1, 4], { spawnValues: [2, 8] });
  assert.deepEqual([r.error, r.message], ['bad-spawn', 'profile tile-merge spawns 2 and 8, not 4']);
  // by profile name (the name requests use, not a file's path); other profiles 2 and 4
  const byName = { spawnValues: { eights: [8] } };
  [r] = await forced([[2, 0], [0, 0]], 'right', [1, 1, 8], { ...byName, profile: 'eights' });
  assert.equal(r.ok, true);
  [r] = await forced([[2, 0], [0, 0]], 'right', [1, 1, 2], { ...byName, profile: 'eights' });
  assert.equal(r.error, 'bad-spawn');
  [r] = await forced([[2, 0], [0, 0]], 'right', [1, 1, 8], byName);
  assert.equal(r.error, 'bad-spawn', 'tile-merge, not named, spawns 2 and 4');
  for (const spawnValues of [[], [3], 'two', null, { eights: [2, 6] }]) {
    assert.throws(() => createSession(trusting({ spawnValues })), TypeError, JSON.stringify(spawnValues));
  }
});

test('a forced spawn reaches the hook unchecked when the move changes nothing, after the end, and on overflow', async () => {
  // rule 2: a move that changes nothing; the spawn's cell full, its value never spawned
  let [r, calls] = await forced([[2, 0], [4, 0]], 'left', [0, 0, 8]);
  assert.deepEqual([r.ok, r.changed], [true, false]);
  assert.deepEqual(calls, [['left', { row: 0, col: 0, value: 8 }]]);
  const reject = trusting({ move(d, spawn) { reject.calls.push([d, spawn]); throw new Refusal(ERRORS.illegalMove, 'nothing moves'); } });
  const [, , illegal] = await session(reject, hello, loadOf([[2, 0], [4, 0]]), moveOf('left', 0, 0, 2));
  assert.equal(illegal.error, 'illegal-move', "a reject profile's answer, not bad-spawn");
  // rule 3: after the end (this game is over with a 64 on the board), though the slide would change it
  [r, calls] = await forced([[64, 0], [0, 0]], 'right', [0, 1, 8]);
  assert.deepEqual([r.ok, r.changed, calls.length], [true, false, 1]);
  // rule 12: overflow before bad-spawn, as in the engine
  [r, calls] = await forced([[2 ** 52, 2 ** 52], [0, 0]], 'left', [0, 0, 8]);
  assert.deepEqual([r.error, calls.length], ['overflow', 1]);
  // off the board with a move that places it: bad-spawn (rule 11)
  [r, calls] = await forced([[2, 0], [0, 0]], 'right', [2, 0, 2]);
  assert.deepEqual([r.error, calls], ['bad-spawn', []]);
  // not a tile, or a row past 7: no request of the protocol, bad-request
  [r, calls] = await forced([[2, 0], [0, 0]], 'right', [1, 0, 3]);
  assert.deepEqual([r.error, calls], ['bad-request', []]);
  [r, calls] = await forced([[2, 0], [0, 0]], 'right', [9, 0, 2]);
  assert.deepEqual([r.error, calls], ['bad-request', []]);
  // off the board with a move that places nothing: the hook gets no spawn
  [r, calls] = await forced([[2, 0], [4, 0]], 'left', [5, 5, 2]);
  assert.deepEqual([r.ok, r.changed, calls.length, calls[0][1]], [true, false, 1, null]);
  // not whole numbers: bad-request
  [r, calls] = await forced([[2, 0], [0, 0]], 'right', [0.5, 0, 2]);
  assert.deepEqual([r.error, calls], ['bad-request', []]);
});

test('legal, and the optional undo, end-run and keep-playing', async () => {
  let kept = 0;
  const r = await session(adapter({ features: ['keep-playing'], keepPlaying() { if (kept++) throw new Refusal(ERRORS.notStopped, 'not stopped'); } }),
    hello, { id: 2, op: 'new', profile: 'classic' }, { id: 3, op: 'legal' }, { id: 4, op: 'undo' }, { id: 5, op: 'end-run' },
    { id: 6, op: 'keep-playing' }, { id: 7, op: 'keep-playing' });
  assert.deepEqual(r[2], { id: 3, ok: true, legal: ['left'] });
  assert.deepEqual(r.slice(3).map((x) => x.error), ['unsupported-op', 'unsupported-op', undefined, 'not-stopped'], 'undo and end-run undeclared');
  const [, , noHook] = await session(adapter({ features: ['undo'] }), hello, { id: 2, op: 'new', profile: 'classic' }, { id: 3, op: 'undo' });
  assert.equal(noHook.error, 'unsupported-op', 'undo declared without its hook');
  assert.ok(r[5].state);
  const [, , bad] = await session(adapter({ legal: () => ['sideways'] }), hello, { id: 2, op: 'new', profile: 'classic' }, { id: 3, op: 'legal' });
  assert.equal(bad.error, 'impl-error');
});

test('serve: lines in order, blank lines skipped, a line without its newline at the end, an over-long line', async () => {
  const output = new PassThrough();
  const chunks = [];
  output.on('data', (c) => chunks.push(c));
  const big = 'x'.repeat((1 << 20) + 10);
  const input = Readable.from([JSON.stringify(hello) + '\n\n{"id":2,', '"op":"legal"}\n', big, big + '\n', Buffer.from('{"id":3,"op":"new","profile":"classic"}')]);
  await serve(adapter(), { input, output });
  const lines = Buffer.concat(chunks).toString().trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.id, l.ok, l.error]), [[1, true, undefined], [2, false, 'no-game'], [null, false, 'bad-request'], [3, true, undefined]]);
});

// runExample runs the example adapter over real pipes with the requests
// on its input, checks that it exits 0 and returns its answers.
async function runExample(requests) {
  const script = fileURLToPath(new URL('../examples/adapter.mjs', import.meta.url));
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(requests.map((r) => JSON.stringify(r) + '\n').join(''));
  let out = '';
  child.stdout.on('data', (c) => { out += c; });
  const [code] = await once(child, 'close');
  assert.equal(code, 0);
  return out.trimEnd().split('\n').map((l) => JSON.parse(l));
}

test('the example adapter over real pipes: tp1 from a seed, a forced spawn, a refusal', async () => {
  const requests = [
    hello,
    { id: 2, op: 'new', profile: 'tile-merge', seed: '7' },
    { id: 3, op: 'move', direction: 'up', spawn: { row: 0, col: 3, value: 2 } },
    { id: 4, op: 'move', direction: 'up' },
    { id: 5, op: 'legal' },
  ];
  const r = await runExample(requests);
  assert.deepEqual(r.map((x) => x.id), [1, 2, 3, 4, 5]);
  assert.deepEqual(r[1].state.board, [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 4, 0]], 'docs/tp1.md: the opening board of seed 7');
  assert.deepEqual(r[2].state.board, [[2, 0, 4, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
  assert.deepEqual([r[3].ok, r[3].error], [false, 'illegal-move']);
  assert.deepEqual(r[4].legal, ['down', 'left', 'right']);
});

test("the example adapter over real pipes: refusals.yaml's bad spawns, which the harness refuses for it", async () => {
  const board = [[2, 0, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
  const load = { id: 2, op: 'load', profile: 'tile-merge', rows: 4, cols: 4, board, score: 0, moves: 0 };
  const requests = [
    hello, load,
    { id: 3, op: 'move', direction: 'right', spawn: { row: 0, col: 3, value: 2 } },
    { id: 4, op: 'move', direction: 'right', spawn: { row: 1, col: 1, value: 8 } },
    { id: 5, op: 'move', direction: 'right', spawn: { row: 1, col: 1, value: 4 } },
  ];
  const r = await runExample(requests);
  assert.deepEqual(r.slice(2, 4).map((x) => x.error), ['bad-spawn', 'bad-spawn']);
  assert.deepEqual(r[3].state, undefined);
  assert.deepEqual(r[4].state.board, [[0, 0, 0, 2], [0, 4, 0, 4], [0, 0, 0, 0], [0, 0, 0, 0]], 'the game as it was until the good spawn');
  assert.equal(r[4].state.moves, 1);
});
