// The example leaderboard server of docs/web.md (examples/web/server.mjs)
// under a hostile client, on a real socket: a game submitted twice at
// once is scored once, a flood of new games does not lock players out,
// and the open games (failures to store in flight too) and the
// leaderboard it lists stay bounded; and its store (--store) on
// real files: an append that fails part way leaves no torn line, and a
// restart reads the store back, naming each line it cannot read. (go
// test ./e2e plays its page in a browser.)

import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { mkdtemp, mkdir, rmdir, readFile, writeFile, unlink, rm } from 'node:fs/promises';
import { openSync, closeSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTP1, startBoard, slide, chooseSpawn, legalMoves, maxTile, DEFAULT_WEIGHTS } from '../src/index.js';
import { Recorder } from '../src/recorder.js';

const script = fileURLToPath(new URL('../examples/web/server.mjs', import.meta.url));
let proc;
let base;

// start runs server.mjs with args and returns the process, its address
// and a function that returns what it has written on stderr so far.
async function start(...args) {
  const p = spawn(process.execPath, [script, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  p.stderr.on('data', (b) => (err += b));
  let out = '';
  const url = await new Promise((resolve, reject) => {
    p.stdout.on('data', (b) => {
      out += b;
      const m = /listening on (http:\/\/\S+\/)/.exec(out);
      if (m) resolve(m[1]);
    });
    p.on('exit', (code) => reject(new Error(`server.mjs exited ${code}: ${out}${err}`)));
  });
  return { p, url, stderr: () => err, stdout: () => out };
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

// empty returns a replay line of g with no move, which verifies (score 0).
async function empty(g) {
  const start = startBoard(await createTP1(g.seed));
  return JSON.stringify({ profile: g.profile, rules: g.rules, seed: g.seed, seedCommitment: g.seedCommitment, moves: '', claim: { score: 0, maxTile: maxTile(start), moves: 0 } });
}

// post submits body for game id to the server at at.
function post(at, id, body) {
  return fetch(`${at}api/games/${id}/replay`, { method: 'POST', body });
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

// The mistakes a page's developer makes, each refused before the
// verifier with what to send instead, the game left open: the Recorder's
// replay() object given to fetch (sent as "[object Object]"), pretty
// JSON (before: 422, "not of game"), YAML, and a field not as the game
// gave it, named (before: "its seed, seedCommitment, profile
// (tile-merge) or rules (1) differ", whichever it was).
test('a submission refused says what is wrong and what to send, and the game stays open', async () => {
  const g = await newGame();
  const line = await empty(g);
  const replay = JSON.parse(line);
  const how = "send the replay as one line of JSON, as the kit's Recorder writes it (toJSONLine())";
  const cases = [
    [String(replay), 400, `the body is "[object Object]", an object sent as text: ${how}, or JSON.stringify(replay)`],
    [JSON.stringify(replay, null, 2), 400, `the replay is on several lines: ${how}`],
    [`profile: ${g.profile}\nseed: "${g.seed}"\n`, 400, `the replay is on several lines: ${how}`],
    ['profile: tile-merge', 400, new RegExp(`^the replay is not one line of JSON \\(.+\\): ${how.replace(/[()]/g, '\\$&')}; YAML, or JSON over several lines, is not taken here$`)],
    ['[1,2]', 400, 'the replay is not a JSON object'],
    [JSON.stringify({ ...replay, profile: 'tile_merge' }), 422, `the replay is not of game ${g.id}, by its profile (${g.profile} for this game): send the seed, seedCommitment, profile and rules as POST /api/games gave them`],
    [JSON.stringify({ ...replay, rules: undefined, seed: 'mine' }), 422, `the replay is not of game ${g.id}, by its seed, no rules (${g.rules} for this game): send the seed, seedCommitment, profile and rules as POST /api/games gave them`],
    [JSON.stringify({ ...replay, seedCommitment: undefined }), 422, /, by no seedCommitment: /],
  ];
  for (const [body, status, message] of cases) {
    const r = await post(base, g.id, body);
    const { error } = await r.json();
    assert.equal(r.status, status, `${body}: ${error}`);
    if (typeof message === 'string') assert.equal(error, message, body);
    else assert.match(error, message, body);
  }
  const r = await post(base, g.id, line);
  assert.equal(r.status, 200);
  assert.equal((await r.json()).valid, true, 'the game stayed open through the refusals');
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
      const a = await post(base, e.id, await empty(e));
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
  const { p, url } = await start('--store', store);
  t.after(() => p.kill());
  await mkdir(store); // a directory where the file should be (once started: it stops a start): every append fails
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

// eventually returns once check() is true, polling: what a server writes
// on stderr comes on a pipe of its own, maybe after its answer on the
// socket or its line on stdout.
async function eventually(check, what) {
  for (const t0 = Date.now(); !check(); await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (Date.now() - t0 > 10000) assert.fail(`waited 10 s for ${what}`);
  }
}

// storedLines returns the lines of the store file, each parsed.
async function storedLines(file) {
  const text = await readFile(file, 'utf8');
  assert.ok(text.endsWith('\n'), `the store ends with a whole line: ${JSON.stringify(text.slice(-80))}`);
  return text.slice(0, -1).split('\n').map((l, i) => {
    try {
      return JSON.parse(l);
    } catch (e) {
      assert.fail(`line ${i + 1} of the store is not JSON (${e.message}): ${JSON.stringify(l.slice(0, 200))}`);
    }
  });
}

test('an append cut short (a file too big, as a full disk) is cut back off the store, and a restart reads the store back', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'web-example-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = join(dir, 'verdicts.jsonl');
  const s = await start('--store', store);
  t.after(() => s.p.kill());
  const a = await newGame(s.url);
  assert.equal((await post(s.url, a.id, await empty(a))).status, 200);
  const good = await readFile(store, 'utf8');
  // The file may grow by 100 bytes more (RLIMIT_FSIZE, the server's own,
  // set from here): a played game's line is longer, so its append writes
  // 100 bytes and then fails (EFBIG, as a full disk's ENOSPC would).
  execFileSync('prlimit', ['--pid', String(s.p.pid), `--fsize=${Buffer.byteLength(good) + 100}:`]);
  const b = await newGame(s.url);
  const line = await played(b);
  const failed = await post(s.url, b.id, line);
  assert.equal(failed.status, 503);
  assert.match((await failed.json()).error, /^the verdict could not be stored; submit the game again: EFBIG$/);
  assert.equal(await readFile(store, 'utf8'), good, 'the part written is cut back off');
  await eventually(() => s.stderr() !== '', 'the server to say the verdict could not be stored');
  assert.equal(s.stderr(), `server.mjs: ${store}: a verdict could not be stored (EFBIG); game ${b.id} is open again\n`);
  execFileSync('prlimit', ['--pid', String(s.p.pid), '--fsize=unlimited:']);
  const ok = await post(s.url, b.id, line);
  assert.equal(ok.status, 200);
  const verdict = await ok.json();
  assert.deepEqual((await storedLines(store)).map((e) => e.id), [a.id, b.id], 'the line after the failed one is whole');

  // A restart lists what the store holds, and has nothing to say of it.
  s.p.kill();
  const r = await start('--store', store);
  t.after(() => r.p.kill());
  const list = await scores(r.url);
  assert.deepEqual(list.map((e) => e.id), [b.id, a.id]);
  assert.equal(list[0].sha256, verdict.sha256);
  assert.equal(list[0].score, verdict.score);
  assert.equal(r.stderr(), '');
  assert.equal(r.stdout().split('\n')[0], `${store}: 2 verdicts read back`);
});

test('a restart names, file and line, each line of the store it cannot read, and reads the lines after it', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'web-example-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = join(dir, 'verdicts.jsonl');
  const s = await start('--store', store);
  const g = [];
  for (let i = 0; i < 3; i++) {
    g.push(await newGame(s.url));
    assert.equal((await post(s.url, g[i].id, i === 1 ? await played(g[i]) : await empty(g[i]))).status, 200);
  }
  s.p.kill();
  const [l1, l2, l3] = (await readFile(store, 'utf8')).split('\n');
  // Line 2 is torn (an append cut short, which the server before this
  // one left, and another appended to it), line 4 repeats line 1, line 5
  // is no stored verdict, line 6 is longer than a line is read (4 MiB),
  // line 7 starts 100 bytes before the end of a 64 KiB read, and line 8,
  // the last, is cut short by a crash in the middle of its append: no
  // newline.
  const head = [l1, l2.slice(0, 100) + l3, l2, l1, '{"id": "0123456789abcdef", "score": 1e6}'].join('\n') + '\n';
  const long = 'x'.repeat(4 * 1024 * 1024 + 1 + ((65536 - 100 - 1 - Buffer.byteLength(head) - 4 * 1024 * 1024 - 1) % 65536 + 65536) % 65536);
  assert.equal((Buffer.byteLength(head) + long.length + 1) % 65536, 65536 - 100);
  await writeFile(store, head + [long, l3, l3.slice(0, 50)].join('\n'));
  const r = await start('--store', store);
  t.after(() => r.p.kill());
  await eventually(() => r.stderr().split('\n').length >= 6, 'five lines on stderr');
  const err = r.stderr();
  assert.match(err, new RegExp(`^server\\.mjs: ${store}:2: not JSON \\(.*\\); skipped$`, 'm'));
  assert.match(err, new RegExp(`^server\\.mjs: ${store}:4: game ${g[0].id} is stored already, at line 1; skipped$`, 'm'));
  assert.match(err, new RegExp(`^server\\.mjs: ${store}:5: not a stored verdict \\(its maxTile\\); skipped$`, 'm'));
  assert.match(err, new RegExp(`^server\\.mjs: ${store}:6: longer than 4194304 bytes; skipped$`, 'm'));
  assert.match(err, new RegExp(`^server\\.mjs: ${store}:8: cut short \\(the file ends in it, with no newline\\); skipped$`, 'm'));
  assert.equal(err.split('\n').length, 6, err);
  assert.equal(r.stdout().split('\n')[0], `${store}: 3 verdicts read back, 5 lines skipped (on stderr)`);
  assert.deepEqual((await scores(r.url)).map((e) => e.id).sort(), [g[0].id, g[1].id, g[2].id].sort(), 'the lines after the torn one are read');

  // The next verdict starts a line of its own: the cut one stays one
  // line, which the next restart names again.
  const d = await newGame(r.url);
  assert.equal((await post(r.url, d.id, await empty(d))).status, 200);
  const text = await readFile(store, 'utf8');
  assert.equal(text.split('\n')[7], l3.slice(0, 50));
  assert.equal(JSON.parse(text.split('\n')[8]).id, d.id);
  assert.ok(text.endsWith('\n'));
  r.p.kill();
  const again = await start('--store', store);
  t.after(() => again.p.kill());
  assert.equal((await scores(again.url)).length, 4);
  await eventually(() => again.stderr().includes(`${store}:8: `), 'line 8 named');
  assert.match(again.stderr(), new RegExp(`^server\\.mjs: ${store}:8: not JSON`, 'm'));
});

test('a store that cannot be read at start stops the server, saying why', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'web-example-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const p = spawn(process.execPath, [script, '--port', '0', '--store', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  p.stderr.on('data', (b) => (err += b));
  const code = await new Promise((resolve) => {
    p.on('close', resolve); // after its stderr, unlike exit
    p.stdout.on('data', (b) => {
      if (/listening on/.test(b)) {
        p.kill();
        resolve(`listening: ${b}`);
      }
    });
  });
  assert.equal(code, 2);
  assert.equal(err, `server.mjs: cannot read the store ${dir}: not a regular file\n`);
});

test('verdicts that cannot be stored give their games back without passing the bound of open games', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'web-example-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = join(dir, 'verdicts.jsonl');
  const s = await start('--store', store);
  t.after(() => s.p.kill());
  const held = [];
  for (let i = 0; i < 5; i++) {
    const g = await newGame(s.url);
    held.push({ ...g, line: await empty(g) });
  }
  // A named pipe where the store should be: the first append waits for
  // a reader, the others behind it; their games are not open meanwhile.
  execFileSync('mkfifo', [store]);
  const answers = held.map((g) => post(s.url, g.id, g.line));
  const open = async (id) => {
    // A body that is no replay of the game: 422 if it is open, else 404.
    const r = await post(s.url, id, '{}');
    await r.text();
    assert.ok(r.status === 404 || r.status === 422, `${r.status}`);
    return r.status === 422;
  };
  for (const g of held) while (await open(g.id)) await new Promise((resolve) => setTimeout(resolve, 10));
  // 10,000 new games, the bound, all open.
  const flood = [];
  for (let i = 0; i < 10000; i += 100) {
    flood.push(...(await Promise.all(Array.from({ length: 100 }, () => newGame(s.url)))).map((g) => g.id));
  }
  // The pipe opened: every append fails (the store is no regular file),
  // and each game comes back, taking the place of the oldest open game.
  const reader = openSync(store, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    for (const a of await Promise.all(answers)) assert.equal(a.status, 503);
  } finally {
    closeSync(reader);
  }
  for (const g of held) assert.equal(await open(g.id), true, 'the game given back is open');
  for (const id of flood.slice(0, 5)) assert.equal(await open(id), false, 'the oldest open game gave its place');
  assert.equal(await open(flood[5]), true, 'five places given, no more');
  await unlink(store);
  for (const g of held) assert.equal((await post(s.url, g.id, g.line)).status, 200);
  assert.equal((await storedLines(store)).length, 5);
});
