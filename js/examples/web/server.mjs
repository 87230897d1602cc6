#!/usr/bin/env node
// The server of the example page (docs/web.md): it serves the page and the
// kit, gives each game a random seed and its commitment, verifies each
// submitted replay in process with the kit's verifier (src/verify.js, the
// verifier of `tileproof verify --json` in WebAssembly: no process a
// replay), and keeps the valid verdicts, with their hashes, as a
// leaderboard. Node's standard library and the kit only.
//
//   node js/examples/web/server.mjs [--port 8048] [--wasm PATH] [--store verdicts.jsonl]
//
// --wasm names the verifier's module (by default the kit's
// dist/verifier.wasm, which `npm run build` in js/ makes); --store appends
// each valid verdict, with its replay, to a JSON Lines file.
//
// POST /api/games              -> {id, seed, seedCommitment, profile, rules}
// POST /api/games/ID/replay    the replay as one JSON line -> the verdict
// GET  /api/scores             -> the best 100 valid verdicts, best first

import { createServer } from 'node:http';
import { randomBytes, createHash } from 'node:crypto';
import { readFile, appendFile, readdir } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadVerifier } from '../../src/verify.js';

const { values: opts } = parseArgs({
  options: {
    port: { type: 'string', default: '8048' },
    host: { type: 'string', default: '127.0.0.1' },
    wasm: { type: 'string' },
    store: { type: 'string' },
  },
});

const PROFILE = 'tile-merge';
const MAX_BODY = 1 << 20; // a replay of some 100,000 moves
// Games handed out and not yet submitted: past this, a new game takes
// the place of the oldest open one (whose later submission is refused as
// any unknown game's), so that a flood of new games never locks players
// out, and the open games' memory stays bounded.
const MAX_OPEN = 10000;
// The valid verdicts kept and listed (GET /api/scores): the best, so that
// neither the memory nor the list grows with every game submitted (an
// empty game verifies, with score 0). --store keeps every one.
const MAX_SCORES = 100;

// The verifier, loaded once. A replay of at most MAX_BODY bytes verifies
// in milliseconds, so it runs on the server's own thread (a server that
// takes longer replays runs it in a worker, docs/web.md).
let verifier;
try {
  verifier = await loadVerifier({ wasm: opts.wasm });
} catch (e) {
  process.stderr.write(`server.mjs: cannot load the verifier (npm run build in js/ makes it; --wasm PATH names another): ${e.message}\n`);
  process.exit(2);
}

// The rules version to pin: the one the verifier has for the profile, as
// the verdict of an empty game of it says.
const RULES = verifier.verify(JSON.stringify({ profile: PROFILE, seed: '0', moves: '', claim: { score: 0, maxTile: 4, moves: 0 } })).rulesVersion;
if (!Number.isInteger(RULES)) {
  process.stderr.write(`server.mjs: the verifier does not know the ${PROFILE} profile\n`);
  process.exit(2);
}

// The files the page needs, by path: the page, its script and the kit.
const here = new URL('./', import.meta.url);
const files = {
  '/': [new URL('index.html', here), 'text/html; charset=utf-8'],
  '/game.js': [new URL('game.js', here), 'text/javascript; charset=utf-8'],
  '/verify.html': [new URL('verify.html', here), 'text/html; charset=utf-8'],
  '/verify-worker.js': [new URL('verify-worker.js', here), 'text/javascript; charset=utf-8'],
};
// Every module of the kit, so that one it adds is served with the rest
// (a module index.js imports and the page cannot load stops the page).
for (const m of await readdir(new URL('../../src/', here))) {
  if (m.endsWith('.js')) files[`/kit/${m}`] = [new URL(`../../src/${m}`, here), 'text/javascript; charset=utf-8'];
}
// The verifier's module, where /kit/verify.js looks for it, for a page
// that verifies in the browser (docs/web.md).
files['/dist/verifier.wasm'] = [opts.wasm ? new URL(opts.wasm, `file://${process.cwd()}/`) : new URL('../../dist/verifier.wasm', here), 'application/wasm'];

const games = new Map(); // id -> {seed, seedCommitment}, until its replay comes
const scores = []; // the best MAX_SCORES valid verdicts, best first

function send(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...(status === 413 ? { Connection: 'close' } : {}) });
  res.end(JSON.stringify(body) + '\n');
  if (status === 413) res.on('finish', () => res.socket && res.socket.destroy());
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
  if (games.size >= MAX_OPEN) games.delete(games.keys().next().value); // a Map keeps the order of insertion: the oldest
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
  // Another request may have submitted the game while this one's body
  // came in: one submission a game.
  if (games.get(id) !== game) return send(res, 404, { error: 'no open game with this id' });
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
  // The verdict `tileproof verify --json -` gives the line, named as there.
  const [verdict] = verifier.verifyLines(line + '\n');
  if (verdict.valid) {
    const entry = { id, score: verdict.score, maxTile: verdict.maxTile, moves: verdict.moves, sha256: verdict.sha256, proved: verdict.proved };
    if (opts.store) {
      // Stored first, the replay with it (to verify again later), then
      // listed: a verdict that could not be stored is not scored, and the
      // game stays open for the player to submit again.
      try {
        await appendFile(opts.store, JSON.stringify({ ...entry, verdict, replay }) + '\n');
      } catch (e) {
        games.set(id, game);
        throw Object.assign(new Error(`the verdict could not be stored; submit the game again: ${e.code || e.message}`), { status: 503 });
      }
    }
    const at = scores.findIndex((e) => e.score < entry.score); // after those of the same score: first come, first listed
    scores.splice(at < 0 ? scores.length : at, 0, entry);
    scores.length = Math.min(scores.length, MAX_SCORES);
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
  process.stdout.write(`listening on http://${address}:${port}/ (verifying in process with the kit, ${PROFILE} rules version ${RULES})\n`);
  // What the verifier builds on first use, built now, once listening, so
  // that the first submission costs what the next does; a request that
  // comes meanwhile waits for it.
  setImmediate(() => verifier.warm());
});
