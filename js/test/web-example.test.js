// The example leaderboard server of docs/web.md (examples/web/server.mjs)
// under a hostile client, on a real socket: a game submitted twice at
// once is scored once, a flood of new games does not lock players out,
// and the leaderboard it lists stays bounded. (go test ./e2e plays its
// page in a browser.)

import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { mkdtemp, mkdir, rmdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTP1, startBoard, slide, chooseSpawn, legalMoves, maxTile, DEFAULT_WEIGHTS } from '../src/index.js';
import { Recorder } from '../src/recorder.js';

const script = fileURLToPath(new URL('../examples/web/server.mjs', import.meta.url));
let proc;
let base;

// start runs server.mjs with args and returns the process and its address.
async function start(...args) {
  const p = spawn(process.execPath, [script, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    p.stdout.on('data', (b) => {
      out += b;
      const m = /listening on (http:\/\/\S+\/)/.exec(out);
      if (m) resolve(m[1]);
    });
    p.on('exit', (code) => reject(new Error(`server.mjs exited ${code}: ${out}`)));
  });
  return { p, url };
}

before(async () => {
  ({ p: proc, url: base } = await start());
});

after(() => proc.kill());

async function newGame(at = base) {
  const r = await fetch(at + 'api/games', { method: 'POST' });
  assert.equal(r.status, 200);
  return r.json();
}

// played plays a whole game of g with the kit and returns its replay line.
async function played(g) {
  const rng = await createTP1(g.seed);
  let board = startBoard(rng);
  let score = 0;
  const rec = new Recorder({ profile: g.profile, rules: g.rules, seed: g.seed, seedCommitment: g.seedCommitment });
  for (let i = 0; legalMoves(board).length > 0; i++) {
    const moves = legalMoves(board);
    const d = moves[i % moves.length];
    const s = slide(board, d);
    const t = chooseSpawn(s.board, DEFAULT_WEIGHTS, rng);
    s.board[t.row][t.col] = t.value;
    board = s.board;
    score += s.gained;
    rec.move(d);
  }
  return rec.toJSONLine({ score, board, over: true });
}

// submission posts line for game id on a connection of its own, its
// body cut in two: the first part at once, the rest when go resolves. It
// returns the answer's status.
function submission(id, line, go) {
  const body = Buffer.from(line);
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const c = net.connect(Number(port), hostname);
    let out = '';
    c.on('data', (b) => {
      out += b;
      const m = /^HTTP\/1\.1 (\d+)/.exec(out);
      if (m && out.includes('\r\n\r\n')) {
        resolve(Number(m[1]));
        c.destroy();
      }
    });
    c.on('error', reject);
    c.write(`POST /api/games/${id}/replay HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    c.write(body.subarray(0, 10));
    go.then(() => c.write(body.subarray(10)));
  });
}

async function scores(at = base) {
  return (await fetch(at + 'api/scores')).json();
}

test('a game submitted twice at once is verified and scored once', async () => {
  const g = await newGame();
  const line = await played(g);
  let release;
  const first = submission(g.id, line, new Promise((resolve) => (release = resolve)));
  // The second comes whole while the first is still reading its body.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const second = await submission(g.id, line, Promise.resolve());
  release();
  const codes = [await first, second].sort();
  assert.deepEqual(codes, [200, 404], 'one submission a game: the other is refused');
  assert.equal((await scores()).filter((e) => e.id === g.id).length, 1, 'the game is on the leaderboard once');
});

test('a flood of new games does not lock players out, and the leaderboard stays bounded', async () => {
  // 10,000 open games is the example's bound: past it the oldest open game
  // gives its place, so a new game is never refused.
  const first = await newGame();
  for (let i = 0; i < 10000; i += 100) {
    const codes = await Promise.all(Array.from({ length: 100 }, () => fetch(base + 'api/games', { method: 'POST' }).then(async (r) => (await r.text(), r.status))));
    assert.deepEqual([...new Set(codes)], [200]);
  }
  const g = await newGame();
  const line = await played(g);
  assert.equal(await submission(g.id, line, Promise.resolve()), 200);
  const r = await fetch(`${base}api/games/${first.id}/replay`, { method: 'POST', body: await played(first) });
  assert.equal(r.status, 404, 'the oldest open game gave its place');

  // Empty games verify (score 0): a client can put as many on the
  // leaderboard as it likes, and the list served stays the best 100.
  for (let i = 0; i < 120; i += 20) {
    await Promise.all(Array.from({ length: 20 }, async () => {
      const e = await newGame();
      const start = startBoard(await createTP1(e.seed));
      const empty = JSON.stringify({ profile: e.profile, rules: e.rules, seed: e.seed, seedCommitment: e.seedCommitment, moves: '', claim: { score: 0, maxTile: maxTile(start), moves: 0 } });
      const a = await fetch(`${base}api/games/${e.id}/replay`, { method: 'POST', body: empty });
      assert.equal(a.status, 200);
      assert.equal((await a.json()).valid, true);
    }));
  }
  const list = await scores();
  assert.equal(list.length, 100);
  assert.ok(list.some((e) => e.id === g.id), 'the played game is among the best');
  for (let i = 1; i < list.length; i++) assert.ok(list[i - 1].score >= list[i].score, 'best first');
});

test('a verdict that cannot be stored is not scored, and the game can be submitted again', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'web-example-'));
  const store = join(dir, 'verdicts.jsonl');
  await mkdir(store); // a directory where the file should be: every append fails
  const { p, url } = await start('--store', store);
  t.after(() => p.kill());
  const g = await newGame(url);
  const line = await played(g);
  const post = () => fetch(`${url}api/games/${g.id}/replay`, { method: 'POST', body: line });
  const failed = await post();
  assert.equal(failed.status, 503);
  assert.match((await failed.json()).error, /could not be stored; submit the game again/);
  assert.deepEqual(await scores(url), [], 'not scored without being stored');
  await rmdir(store);
  const ok = await post();
  assert.equal(ok.status, 200);
  assert.equal((await ok.json()).valid, true);
  assert.equal((await scores(url)).length, 1);
  const kept = (await readFile(store, 'utf8')).trim().split('\n');
  assert.equal(kept.length, 1);
  assert.equal(JSON.parse(kept[0]).id, g.id);
});
