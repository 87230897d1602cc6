#!/usr/bin/env node
// The server of the example page (docs/web.md): it serves the page and the
// kit, gives each game a random seed and its commitment, verifies each
// submitted replay with `tileproof verify`, and keeps the valid verdicts,
// with their hashes, as a leaderboard. Node's standard library only.
//
//   node js/examples/web/server.mjs [--port 8048] [--tileproof PATH] [--store verdicts.jsonl]
//
// --store appends each valid verdict, with its replay, to a JSON Lines file.
//
// POST /api/games              -> {id, seed, seedCommitment, profile, rules}
// POST /api/games/ID/replay    the replay as one JSON line -> the verdict
// GET  /api/scores             -> the valid verdicts, best first

import { createServer } from 'node:http';
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes, createHash } from 'node:crypto';
import { readFile, appendFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

const { values: opts } = parseArgs({
  options: {
    port: { type: 'string', default: '8048' },
    host: { type: 'string', default: '127.0.0.1' },
    tileproof: { type: 'string', default: process.env.TILEPROOF || 'tileproof' },
    store: { type: 'string' },
  },
});

const PROFILE = 'tile-merge';
const MAX_BODY = 1 << 20; // a replay of some 100,000 moves
const MAX_OPEN = 10000; // games handed out and not yet submitted
const VERIFY_TIMEOUT = 10000; // ms

// The rules version to pin: the one the verifier has for the profile.
let RULES;
try {
  RULES = Number(/^version: *([0-9]+)$/m.exec(execFileSync(opts.tileproof, ['profiles', PROFILE], { encoding: 'utf8' }))[1]);
} catch (e) {
  process.stderr.write(`server.mjs: cannot ask ${opts.tileproof} for the ${PROFILE} profile's version (--tileproof PATH names the command): ${e.message}\n`);
  process.exit(2);
}

// The files the page needs, by path: the page, its script and the kit.
const here = new URL('./', import.meta.url);
const files = {
  '/': [new URL('index.html', here), 'text/html; charset=utf-8'],
  '/game.js': [new URL('game.js', here), 'text/javascript; charset=utf-8'],
};
for (const m of ['index', 'tp1', 'rules', 'recorder', 'harness']) {
  files[`/kit/${m}.js`] = [new URL(`../../src/${m}.js`, here), 'text/javascript; charset=utf-8'];
}

const games = new Map(); // id -> {seed, seedCommitment}, until its replay comes
const scores = []; // the valid verdicts

function send(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...(status === 413 ? { Connection: 'close' } : {}) });
  res.end(JSON.stringify(body) + '\n');
  if (status === 413) res.on('finish', () => res.socket && res.socket.destroy());
}

// verify runs tileproof verify on one replay line and returns its verdict.
function verify(line) {
  return new Promise((resolve, reject) => {
    const child = spawn(opts.tileproof, ['verify', '--json', '-'], { stdio: ['pipe', 'pipe', 'ignore'], timeout: VERIFY_TIMEOUT });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c) => { out += c; });
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve(JSON.parse(out));
      } catch {
        reject(new Error(`tileproof verify exited ${code} without a verdict`));
      }
    });
    child.stdin.end(line);
  });
}

// body reads a request's body, up to MAX_BODY bytes.
function body(req) {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks = [];
    req.on('data', (c) => {
      size += c.length;
      if (size <= MAX_BODY) return chunks.push(c);
      req.removeAllListeners('data').pause(); // read no more of it
      reject(Object.assign(new Error(`a replay is at most ${MAX_BODY} bytes`), { status: 413 }));
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function newGame(res) {
  if (games.size >= MAX_OPEN) return send(res, 503, { error: 'too many open games' });
  const id = randomBytes(8).toString('hex');
  const seed = randomBytes(16).toString('hex'); // 32 hex digits: not to be guessed from its commitment
  const seedCommitment = 'sha256:' + createHash('sha256').update(seed).digest('hex');
  games.set(id, { seed, seedCommitment });
  send(res, 200, { id, seed, seedCommitment, profile: PROFILE, rules: RULES });
}

async function submit(req, res, id) {
  const game = games.get(id);
  if (!game) return send(res, 404, { error: 'no open game with this id' });
  const line = (await body(req)).trim();
  let replay;
  try {
    replay = JSON.parse(line);
  } catch {
    return send(res, 400, { error: 'the replay is not one line of JSON' });
  }
  // The replay must be of the game this server started: its seed, its
  // commitment, its rules. Anything else is a game the player chose.
  if (replay === null || typeof replay !== 'object' || replay.seed !== game.seed || replay.seedCommitment !== game.seedCommitment ||
      replay.profile !== PROFILE || replay.rules !== RULES || line.includes('\n')) {
    return send(res, 422, { error: `the replay is not of game ${id}: its seed, seedCommitment, profile (${PROFILE}) or rules (${RULES}) differ` });
  }
  games.delete(id); // one submission a game, valid or not
  const verdict = await verify(line + '\n');
  if (verdict.valid) {
    const entry = { id, score: verdict.score, maxTile: verdict.maxTile, moves: verdict.moves, sha256: verdict.sha256, proved: verdict.proved };
    scores.push(entry);
    scores.sort((a, b) => b.score - a.score);
    if (opts.store) await appendFile(opts.store, JSON.stringify({ ...entry, verdict, replay }) + '\n'); // the replay, to verify again later
  }
  send(res, 200, verdict);
}

const server = createServer(async (req, res) => {
  try {
    const path = new URL(req.url, 'http://x').pathname;
    const m = /^\/api\/games\/([0-9a-f]{16})\/replay$/.exec(path);
    if (req.method === 'POST' && path === '/api/games') return await newGame(res);
    if (req.method === 'POST' && m) return await submit(req, res, m[1]);
    if (req.method === 'GET' && path === '/api/scores') return send(res, 200, scores);
    const file = files[path === '/index.html' ? '/' : path];
    if (req.method === 'GET' && file) {
      res.writeHead(200, { 'Content-Type': file[1] });
      return res.end(await readFile(file[0]));
    }
    send(res, 404, { error: `no ${req.method} ${path}` });
  } catch (e) {
    send(res, e.status || 500, { error: e.message });
  }
});

server.listen(Number(opts.port), opts.host, () => {
  const { address, port } = server.address();
  process.stdout.write(`listening on http://${address}:${port}/ (verifying with ${opts.tileproof}, ${PROFILE} rules version ${RULES})\n`);
});
