// ServerGame against a real `tileproof serve` process over a real socket:
// games played through the API, their replays (with the think times a
// signed server measured and its times seal) verified and analysed by the
// real tileproof with the server's key, and tampered ones refused. The
// command is TILEPROOF_BIN, or built here with go (as npm test's pretest
// builds the verifier).

import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import Ajv2020 from 'ajv/dist/2020.js';
import { ServerGame, ServerError } from '../src/server-game.js';
import { seedCommitment } from '../src/tp1.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tileproof-server-game-'));
const keyFile = join(tmp, 'key');
const otherKey = join(tmp, 'other');
const schema = JSON.parse(readFileSync(new URL('../../docs/replay.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv2020({ allErrors: true }).compile(schema);
let bin;
const servers = [];

// serve starts tileproof serve on a free port and returns its address.
async function serve(...args) {
  const p = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--profiles', 'tile-merge,online-2048,classic', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  servers.push(p);
  let err = '';
  return new Promise((resolve, reject) => {
    p.stderr.on('data', (b) => {
      err += b;
      const m = /on (http:\/\/127\.0\.0\.1:\d+) /.exec(err);
      if (m) resolve(m[1]);
    });
    p.on('exit', (code) => reject(new Error(`tileproof serve exited ${code}: ${err}`)));
  });
}

// tileproof runs the command on a replay file and returns its exit status and stdout.
function tileproof(args, replay) {
  const file = join(tmp, `r${Math.random().toString(16).slice(2)}.json`);
  writeFileSync(file, typeof replay === 'string' ? replay : JSON.stringify(replay));
  return new Promise((resolve) => {
    execFile(bin, [...args, file], (e, stdout, stderr) => resolve({ code: e ? e.code : 0, out: stdout, err: stderr }));
  });
}

async function verifyJSON(replay, key = keyFile) {
  const { code, out, err } = await tileproof(['verify', '--json', '--times-key-file', key], replay);
  assert.equal(out.trim().split('\n').length, 1, out + err);
  return { code, verdict: JSON.parse(out) };
}

async function analyzeJSON(replay, key = keyFile) {
  const { code, out, err } = await tileproof(['analyze', '--json', '--no-clairvoyance', '--times-key-file', key], replay);
  assert.equal(code, 0, err);
  return JSON.parse(out);
}

let signed;
let unsigned;
before(async () => {
  bin = process.env.TILEPROOF_BIN;
  if (!bin) {
    bin = join(tmp, 'tileproof');
    execFileSync('go', ['build', '-o', bin, './cmd/tileproof'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  writeFileSync(keyFile, '0123456789abcdef0123456789abcdef-server-game\n');
  writeFileSync(otherKey, 'another key of thirty-two bytes or more\n');
  signed = await serve('--key-file', keyFile);
  unsigned = await serve();
});

after(() => {
  for (const p of servers) p.kill();
  rmSync(tmp, { recursive: true, force: true });
});

test('a signed server, the client\'s seed: each move\'s think time and the seal in the replay, checked by verify and analyze', async () => {
  const g = await ServerGame.start(signed, { game: 'tile-merge', seed: ' timed ', source: 'server-game.test.js' });
  assert.equal(g.signed, true);
  assert.equal(g.seed, 'timed', 'the seed as tp1 reads it, trimmed');
  assert.match(g.timesSeal, /^hmac-sha256:[0-9a-f]{64}$/);
  const waited = [];
  for (let i = 0; i < 40 && !g.over; i++) {
    if (i === 3) {
      // A move the rules refuse: nothing spent, nothing recorded.
      const legal = new Set(g.legalActions.map((a) => a.direction));
      const illegal = ['up', 'down', 'left', 'right'].find((d) => !legal.has(d));
      if (illegal) {
        const a = await g.move(illegal);
        assert.equal(a.ok, false);
        assert.equal(a.error, 'illegal-move');
      }
    }
    if (i === 5) {
      const a = await g.observe(); // no action of the log
      assert.equal(a.ok, true);
      assert.equal(a.thinkMs, undefined);
    }
    const ms = i % 10 === 7 ? 60 : 0;
    if (ms) await sleep(ms);
    waited.push(ms);
    const a = await g.act(g.legalActions[i % g.legalActions.length]);
    assert.equal(a.ok, true);
    assert.equal(a.thinkMs, g.times[g.times.length - 1]);
  }
  const times = g.times;
  assert.equal(times.length, g.observation.moves);
  times.forEach((t, i) => assert.ok(t >= waited[i], `move ${i + 1}: ${t} ms after a wait of ${waited[i]}`));
  const r = g.replay();
  assert.ok(validate(r), JSON.stringify(validate.errors));
  assert.deepEqual(Object.keys(r), ['profile', 'rules', 'rng', 'seed', 'moves', 'times', 'timesSeal', 'claim', 'source']);
  assert.equal(r.times, times.join(' '));
  assert.equal(r.timesSeal, g.timesSeal);
  assert.equal(r.moves.length, times.length);

  const { code, verdict } = await verifyJSON(r);
  assert.equal(code, 0);
  assert.equal(verdict.valid, true, JSON.stringify(verdict));
  assert.deepEqual(verdict.thinkTimes, { count: times.length, sealed: true });
  assert.equal((await analyzeJSON(r)).think_time.sealed, true);
  const text = await tileproof(['verify', '--times-key-file', keyFile], g.toJSONLine());
  assert.match(text.out, /think times: \d+, sealed by the server whose key was given/);

  // A time changed by 1 ms, the seal changed, another key: the game is as
  // valid as before, its times are not the server's.
  const slower = { ...r, times: times.map((t, i) => (i === 9 ? t + 1 : t)).join(' ') };
  const reseal = { ...r, timesSeal: r.timesSeal.replace(/.$/, (c) => (c === '0' ? '1' : '0')) };
  for (const [what, bad, key] of [['a time 1 ms longer', slower, keyFile], ['another seal', reseal, keyFile], ['another key', r, otherKey]]) {
    const v = await verifyJSON(bad, key);
    assert.equal(v.code, 0, what);
    assert.equal(v.verdict.valid, true, what);
    assert.equal(v.verdict.thinkTimes.sealed, false, what);
    assert.match(v.verdict.thinkTimes.reason, /not the times a server with this key measured for this game/, what);
    assert.equal((await analyzeJSON(bad, key)).think_time.sealed, false, what);
  }
  const t = await tileproof(['verify', '--times-key-file', keyFile], slower);
  assert.match(t.out, /^ok .*\n.*think times: \d+, NOT sealed by the server whose key was given: .*the verdict on the game stands/m);
});

test('a signed server\'s own seed, online-2048: undo, moves passed over, End run; the seed revealed at the end and checked', async () => {
  const g = await ServerGame.start(signed, { game: 'online-2048' });
  assert.equal(g.seed, undefined);
  assert.match(g.seedCommitment, /^sha256:[0-9a-f]{64}$/);
  let passed = 0;
  for (let i = 0; i < 30; i++) {
    const legal = new Set(g.legalActions.filter((a) => a.type === 'move').map((a) => a.direction));
    const still = ['up', 'down', 'left', 'right'].find((d) => !legal.has(d));
    // Every fourth move, and each one until one was sent: the server
    // draws the seed, so which boards come is not known.
    if ((i % 4 === 1 || passed === 0) && still) {
      // online-2048 passes over a move that changes nothing: no action of the log.
      const a = await g.move(still);
      assert.equal(a.ok, true);
      assert.equal(a.changed, false);
      assert.equal(a.thinkMs, undefined);
      passed++;
    }
    await g.move([...legal][i % legal.size]);
    if (i % 7 === 3) assert.equal((await g.undo()).ok, true);
  }
  assert.ok(passed > 0, 'a move that changes nothing was sent');
  assert.throws(() => g.replay(), /reveals the seed it drew when the game ends/);
  assert.equal((await g.endRun()).ok, true);
  assert.equal(g.over, true);
  assert.match(g.seed, /^[0-9a-f]{32}$/);
  assert.equal(await seedCommitment(g.seed), g.seedCommitment);
  const r = g.replay();
  assert.ok(validate(r), JSON.stringify(validate.errors));
  assert.equal(r.seedCommitment, g.seedCommitment);
  assert.match(r.moves, /Z/);
  assert.match(r.moves, /E$/);
  assert.equal(r.times.split(' ').length, r.moves.length, 'a time for each action of the log, undos and End run included');
  const { code, verdict } = await verifyJSON(r);
  assert.equal(code, 0);
  assert.equal(verdict.valid, true, JSON.stringify(verdict));
  assert.deepEqual(verdict.thinkTimes, { count: r.moves.length, sealed: true });
  // The times of another order (an undo's and a move's swapped) are not the server's.
  const ts = r.times.split(' ');
  const z = r.moves.indexOf('Z');
  [ts[z], ts[z - 1]] = [ts[z - 1], ts[z]];
  if (ts[z] !== ts[z - 1]) {
    const v = await verifyJSON({ ...r, times: ts.join(' ') });
    assert.equal(v.verdict.valid, true);
    assert.equal(v.verdict.thinkTimes.sealed, false);
  }
});

test('an unsigned server: no times, a replay without them', async () => {
  await assert.rejects(ServerGame.start(unsigned, { game: 'classic' }), (e) => e instanceof ServerError && e.status === 400 && /needs \?seed=S/.test(e.message));
  const g = await ServerGame.start(unsigned, { game: 'classic', seed: 7 });
  assert.equal(g.signed, false);
  for (let i = 0; i < 20 && !g.over; i++) await g.act(g.legalActions[i % g.legalActions.length]);
  assert.deepEqual(g.times, []);
  const r = g.replay();
  assert.equal(r.times, undefined);
  assert.equal(r.timesSeal, undefined);
  const { code, verdict } = await verifyJSON(r);
  assert.equal(code, 0);
  assert.equal(verdict.valid, true);
  assert.deepEqual(verdict.thinkTimes, { count: 0, sealed: false, reason: 'the replay has no times, or no times seal' });
});

test('fetch is called as a plain function, as a browser\'s fetch must be (else: Illegal invocation)', async () => {
  // A browser's fetch checks its receiver: called as a method of another
  // object (game._fetch(...)), it throws "TypeError: Failed to execute
  // 'fetch' on 'Window': Illegal invocation". Node's does not check, so
  // this fetch does as a browser's does.
  const browserFetch = function (url, init) {
    if (this !== undefined && this !== globalThis) throw new TypeError("Failed to execute 'fetch' on 'Window': Illegal invocation");
    return fetch(url, init);
  };
  const g = await ServerGame.start(unsigned, { game: 'tile-merge', seed: 'browser', fetch: browserFetch });
  const a = await g.move(g.legalActions[0].direction);
  assert.equal(a.ok, true);
  assert.equal(g.replay().moves.length, 1);
});

test('a profile of another generator (hallabois): the replay is spawn-recorded and verifies, by tileproof and by the server', async () => {
  const other = await serve('--profiles', 'hallabois-4x4,hallabois-3x3');
  for (const game of ['hallabois-4x4', 'hallabois-3x3']) {
    const g = await ServerGame.start(other, { game, seed: 'hello' });
    assert.equal(g.spec.replay, 'spawn-recorded');
    const start = g.observation.board.map((row) => [...row]);
    for (let i = 0; i < 400 && !g.over; i++) await g.act(g.legalActions[i % g.legalActions.length]);
    const r = g.replay();
    assert.ok(validate(r), JSON.stringify(validate.errors));
    assert.equal(r.rng, undefined);
    assert.equal(r.seed, undefined);
    assert.deepEqual(r.start, start);
    const { code, verdict } = await verifyJSON(r);
    assert.equal(code, 0, JSON.stringify(verdict));
    assert.equal(verdict.valid, true, JSON.stringify(verdict));
    assert.equal(verdict.score, g.observation.score);
    const own = await fetch(new URL('api/verify', `${other}/`), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(r) });
    assert.equal((await own.json()).valid, true, `${game}: the server's own POST /api/verify`);
  }
});

test('a spawn-recorded game: a spawn the answer\'s board does not show is a ServerError, recorded not at all', async () => {
  const other = await serve('--profiles', 'hallabois-4x4');
  const lies = [(s) => ({ ...s, value: s.value === 2 ? 4 : 2 }), (s) => ({ ...s, row: 9 }), (s) => ({ ...s, col: String(s.col) })];
  for (const lie of lies) {
    const lying = async (url, options) => {
      const r = await fetch(url, options);
      const a = await r.json();
      if (isObjectWithSpawn(a)) a.spawn = lie(a.spawn);
      return new Response(JSON.stringify(a), { status: r.status, headers: r.headers });
    };
    const g = await ServerGame.start(other, { game: 'hallabois-4x4', seed: 'lies', fetch: lying });
    await assert.rejects(g.act(g.legalActions[0]), (e) => e instanceof ServerError && /has a spawn, .* that is not a tile of its board/.test(e.message));
    assert.equal(g.replay().moves.length, 0, 'nothing recorded');
  }
});

function isObjectWithSpawn(a) {
  return a !== null && typeof a === 'object' && a.spawn !== null && typeof a.spawn === 'object';
}

test('the server\'s refusals are ServerErrors, and change nothing of the game', async () => {
  await assert.rejects(ServerGame.start(signed, { game: 'no-such-game', seed: 1 }), (e) => e instanceof ServerError && e.status === 404);
  const g = await ServerGame.start(signed, { game: 'tile-merge', seed: 'refusals' });
  await g.act(g.legalActions[0]);
  const before = g.replay();
  // An edited state fails its seal (403); the state played already (409).
  const kept = g.answer;
  g.answer = { ...kept, state: { ...kept.state, score: kept.state.score + 4 } };
  await assert.rejects(g.act(kept.legalActions[0]), (e) => e instanceof ServerError && e.status === 403);
  g.answer = kept;
  await g.act(kept.legalActions[0]);
  const after = g.answer;
  g.answer = kept;
  await assert.rejects(g.act(kept.legalActions[0]), (e) => e instanceof ServerError && e.status === 409);
  g.answer = after;
  assert.equal(g.replay().moves.length, before.moves.length + 1);
  assert.equal(g.times.length, 2);
  // One action at a time.
  const a = g.act(g.legalActions[0]);
  await assert.rejects(g.act(g.legalActions[0]), /already on its way/);
  await a;
  await assert.rejects(g.move('sideways'), RangeError);
  const { verdict } = await verifyJSON(g.replay());
  assert.equal(verdict.valid, true);
  assert.equal(verdict.thinkTimes.sealed, true);
});

// examples/serve-play.mjs names the server it cannot reach, and why
// (before: "serve-play.mjs: fetch failed", fetch's own TypeError).
test('serve-play.mjs: a server not reached is named, with why', async () => {
  const net = await import('node:net');
  const port = await new Promise((resolve) => {
    const l = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = l.address();
      l.close(() => resolve(port)); // a port with no server now
    });
  });
  const script = fileURLToPath(new URL('../examples/serve-play.mjs', import.meta.url));
  const url = `http://127.0.0.1:${port}`;
  const { code, stderr } = await new Promise((resolve) => execFile(process.execPath, [script, '--url', url, '--seed', 'x', '--games', '1'],
    (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stderr })));
  assert.equal(code, 1);
  assert.equal(stderr, `serve-play.mjs: cannot reach ${url} (ECONNREFUSED): is tileproof serve running there? (--url names another)\n`);
});
