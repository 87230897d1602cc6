// The exec-protocol harness: each rule of docs/protocol.md on a session,
// then the example adapter over real pipes.

import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Readable, PassThrough } from 'node:stream';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createSession, serve, Refusal, ERRORS } from '../src/harness.js';

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
  assert.deepEqual(r.slice(7).map((x) => x.error), ['bad-request', 'bad-request', 'bad-request']);
  assert.deepEqual(a.calls.filter((c) => c[0] === 'move').map((c) => c[2]), [{ row: 0, col: 1, value: 4 }, null, null, null, null]);
  const [, , forced] = await session(adapter({ features: [] }), hello, { id: 2, op: 'new', profile: 'classic' },
    { id: 3, op: 'move', direction: 'left', spawn: { row: 0, col: 1, value: 4 } });
  assert.equal(forced.error, 'bad-request', 'a spawn without force-spawn');
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

test('the example adapter over real pipes: tp1 from a seed, a forced spawn, a refusal', async () => {
  const script = fileURLToPath(new URL('../examples/adapter.mjs', import.meta.url));
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const requests = [
    hello,
    { id: 2, op: 'new', profile: 'tile-merge', seed: '7' },
    { id: 3, op: 'move', direction: 'up', spawn: { row: 0, col: 3, value: 2 } },
    { id: 4, op: 'move', direction: 'up' },
    { id: 5, op: 'legal' },
  ];
  child.stdin.end(requests.map((r) => JSON.stringify(r) + '\n').join(''));
  let out = '';
  child.stdout.on('data', (c) => { out += c; });
  const [code] = await once(child, 'close');
  assert.equal(code, 0);
  const r = out.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(r.map((x) => x.id), [1, 2, 3, 4, 5]);
  assert.deepEqual(r[1].state.board, [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 4, 0]], 'docs/tp1.md: the opening board of seed 7');
  assert.deepEqual(r[2].state.board, [[2, 0, 4, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
  assert.deepEqual([r[3].ok, r[3].error], [false, 'illegal-move']);
  assert.deepEqual(r[4].legal, ['down', 'left', 'right']);
});
