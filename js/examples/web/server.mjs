#!/usr/bin/env node
// The server of the example page (docs/web.md): it serves the page and the
// kit, gives each game a random seed and its commitment, verifies each
// submitted replay in process with the kit's verifier (src/verify.js, the
// verifier of `tileproof verify --json` in WebAssembly: no process a
// replay), and keeps the valid verdicts, with their hashes, as a
// leaderboard. Node's standard library and the kit only.
//
//   node js/examples/web/server.mjs [--port 8049] [--host 127.0.0.1] [--wasm PATH] [--store verdicts.jsonl]
//
// --wasm names the verifier's module (by default the kit's
// dist/verifier.wasm, which `npm run build` in js/ makes); --store appends
// each valid verdict, with its replay, to a JSON Lines file, and reads
// the file back at start: the leaderboard outlives a restart.
//
// POST /api/games              -> {id, seed, seedCommitment, profile, rules}
// POST /api/games/ID/replay    the replay as one JSON line -> the verdict
// GET  /api/scores             -> the best 100 valid verdicts, best first

import { createServer } from 'node:http';
import { randomBytes, createHash } from 'node:crypto';
import { readFile, readdir, open } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { loadVerifier } from '../../src/verify.js';

const USAGE = 'usage: node js/examples/web/server.mjs [--port 8049] [--host 127.0.0.1] [--wasm PATH] [--store verdicts.jsonl]\n';
let opts;
try {
  ({ values: opts } = parseArgs({
    options: {
      port: { type: 'string', default: '8049' },
      host: { type: 'string', default: '127.0.0.1' },
      wasm: { type: 'string' },
      store: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (e) {
  process.stderr.write(`server.mjs: ${e.message}\n${USAGE}`);
  process.exit(2);
}
if (opts.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const PROFILE = 'tile-merge';
const MAX_BODY = 1 << 20; // a replay of some 100,000 moves
// Games handed out and not yet submitted: past this, a new game (or one
// given back, its verdict not stored: keepOpen) takes the place of the
// oldest open one (whose later submission is refused as any unknown
// game's), so that a flood of new games never locks players out, and the
// open games' memory stays bounded.
const MAX_OPEN = 10000;
// The valid verdicts kept and listed (GET /api/scores): the best, so that
// neither the memory nor the list grows with every game submitted (an
// empty game verifies, with score 0). --store keeps every one.
const MAX_SCORES = 100;

// The verifier, loaded once from its module's bytes, read once: the
// same bytes are served to a page that verifies in the browser (below).
// A replay of at most MAX_BODY bytes verifies in milliseconds, so it
// runs on the server's own thread (a server that takes longer replays
// runs it in a worker, docs/web.md).
let verifier, wasmBytes;
try {
  wasmBytes = await readFile(opts.wasm ?? new URL('../../dist/verifier.wasm', import.meta.url)); // a path as given, from the working directory
  verifier = await loadVerifier({ wasm: wasmBytes });
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
// The verifier's module, served where /kit/verify.js looks for it
// (/dist/verifier.wasm) to a page that verifies in the browser
// (docs/web.md), gzipped once (some 6 MB, 1.4 MB gzipped) for a browser
// that takes gzip, as docs/web.md advises serving it.
const wasmGzipped = gzipSync(wasmBytes);

const games = new Map(); // id -> {seed, seedCommitment}, until its replay comes
const scores = []; // the best MAX_SCORES valid verdicts, best first

// list puts a valid verdict's entry on the leaderboard, if it is among
// the best MAX_SCORES.
function list(entry) {
  const at = scores.findIndex((e) => e.score < entry.score); // after those of the same score: first come, first listed
  scores.splice(at < 0 ? scores.length : at, 0, entry);
  scores.length = Math.min(scores.length, MAX_SCORES);
}

// keepOpen puts a game among the open ones, as the newest: past MAX_OPEN
// the oldest gives its place. Every game that becomes open comes here, a
// new one and one given back because its verdict could not be stored, so
// that the bound holds whatever order these come in.
function keepOpen(id, game) {
  if (!games.has(id) && games.size >= MAX_OPEN) games.delete(games.keys().next().value); // a Map keeps the order of insertion: the oldest
  games.set(id, game);
}

// The store (--store FILE): one valid verdict a line, as JSON, with the
// entry listed and the replay. A line is appended whole or not at all
// (append), so that a line cut short by a full disk cannot spoil the next
// one, and the file is read back at start (readStore).

// MAX_LINE is the longest line read back: a replay of MAX_BODY bytes and
// its verdict take less.
const MAX_LINE = 4 * MAX_BODY;

// storedEntry returns the entry of a line of the store; its error says
// why the line is not one.
function storedEntry(text) {
  let v;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new Error(`not JSON (${e.message})`);
  }
  const count = (n) => Number.isSafeInteger(n) && n >= 0;
  const bad = v === null || typeof v !== 'object' ? 'not an object'
    : typeof v.id !== 'string' || !/^[0-9a-f]{16}$/.test(v.id) ? 'its id'
    : !count(v.score) ? 'its score'
    : !count(v.maxTile) ? 'its maxTile'
    : !count(v.moves) ? 'its moves'
    : typeof v.sha256 !== 'string' ? 'its sha256'
    : typeof v.proved !== 'string' ? 'its proved'
    : v.verdict === null || typeof v.verdict !== 'object' || v.verdict.valid !== true ? 'its verdict is not a valid one'
    : '';
  if (bad) throw new Error(`not a stored verdict (${bad})`);
  return { id: v.id, score: v.score, maxTile: v.maxTile, moves: v.moves, sha256: v.sha256, proved: v.proved };
}

// readStore lists the verdicts of the store, file, and returns how many
// lines it read and how many it skipped. A line it cannot read (one
// changed by hand, or cut short by a crash in the middle of its append:
// the last, with no newline) it names, file and line, on stderr, and
// skips, and it reads on: the lines after it are listed. A file that
// is not there yet is an empty store; one it cannot open, or that is not
// a regular file, throws.
async function readStore(file) {
  let fh;
  try {
    fh = await open(file, 'r');
  } catch (e) {
    if (e.code === 'ENOENT') return { read: 0, skipped: 0 };
    throw e;
  }
  const seen = new Map(); // id -> its line
  let n = 0;
  let skipped = 0;
  const skip = (why) => {
    skipped++;
    process.stderr.write(`server.mjs: ${file}:${n}: ${why}; skipped\n`);
  };
  // take reads line n, its bytes in parts (undefined: too long, dropped).
  const take = (parts) => {
    n++;
    if (parts === undefined) return skip(`longer than ${MAX_LINE} bytes`);
    let entry;
    try {
      entry = storedEntry(Buffer.concat(parts).toString('utf8'));
    } catch (e) {
      return skip(e.message);
    }
    if (seen.has(entry.id)) return skip(`game ${entry.id} is stored already, at line ${seen.get(entry.id)}`);
    seen.set(entry.id, n);
    list(entry);
  };
  try {
    if (!(await fh.stat()).isFile()) throw new Error('not a regular file');
    let parts = [];
    let size = 0;
    for await (const chunk of fh.createReadStream({ autoClose: false })) {
      let from = 0;
      for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, from)) {
        if (parts !== undefined) parts.push(chunk.subarray(from, nl));
        take(parts !== undefined && size + nl - from <= MAX_LINE ? parts : undefined);
        parts = [];
        size = 0;
        from = nl + 1;
      }
      if (parts !== undefined && from < chunk.length) {
        size += chunk.length - from;
        parts = size <= MAX_LINE ? [...parts, chunk.subarray(from)] : undefined;
      }
    }
    if (parts === undefined || size > 0) {
      n++;
      skip('cut short (the file ends in it, with no newline)');
    }
  } finally {
    await fh.close();
  }
  return { read: seen.size, skipped };
}

// append appends text, one line, to the store, file: whole, or not at
// all. A write that fails part way (a full disk) is cut back
// off the file, so that the next line starts where this one did: a line
// appended to a torn one would be torn too. If the file does not end
// with a newline (a line torn by a crash, or whose cutting back failed)
// the line starts with one: the torn line stays a line of its own, which
// a restart names and skips. The line is on the disk (datasync) before
// append returns, so that a verdict answered 200 outlives a power cut; a
// failed sync cuts the line back as a failed write does. One at a time
// (store): each needs the end of the one before.
async function append(file, text) {
  const fh = await open(file, 'a');
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new Error('the store is not a regular file');
    const end = st.size;
    if (end > 0 && !(await endsLine(file, end))) text = '\n' + text;
    try {
      await fh.writeFile(text);
      await fh.datasync();
    } catch (e) {
      await fh.truncate(end).catch((t) => {
        process.stderr.write(`server.mjs: ${file}: a failed append could not be cut back (${t.code || t.message}): its last line is torn, and a restart skips it\n`);
      });
      throw e;
    }
  } finally {
    await fh.close().catch(() => {});
  }
}

// endsLine says whether the file's byte at size-1 is a newline.
async function endsLine(file, size) {
  const fh = await open(file, 'r');
  try {
    const { bytesRead, buffer } = await fh.read(Buffer.alloc(1), 0, 1, size - 1);
    return bytesRead === 1 && buffer[0] === 10;
  } finally {
    await fh.close();
  }
}

let storing = Promise.resolve(); // the last append, after which the next starts

// store appends text to the store once the appends before it are done.
function store(text) {
  const done = storing.then(() => append(opts.store, text));
  storing = done.catch(() => {});
  return done;
}

if (opts.store) {
  try {
    const { read, skipped } = await readStore(opts.store);
    const plural = (k, what) => `${k} ${what}${k === 1 ? '' : 's'}`;
    if (read > 0 || skipped > 0) process.stdout.write(`${opts.store}: ${plural(read, 'verdict')} read back${skipped > 0 ? `, ${plural(skipped, 'line')} skipped (on stderr)` : ''}\n`);
  } catch (e) {
    process.stderr.write(`server.mjs: cannot read the store ${opts.store}: ${e.code || e.message}\n`);
    process.exit(2);
  }
}

function send(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...(status === 413 ? { Connection: 'close' } : {}) });
  res.end(JSON.stringify(body) + '\n');
  if (status === 413) res.on('finish', () => res.socket && res.socket.destroy());
}

// body reads a request's body, up to MAX_BODY bytes; one whose
// Content-Length says more is refused before any of it is read.
function body(req) {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > MAX_BODY) {
      req.pause();
      return reject(Object.assign(new Error(`a replay is at most ${MAX_BODY} bytes`), { status: 413 }));
    }
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
  const id = randomBytes(8).toString('hex');
  const seed = randomBytes(16).toString('hex'); // 32 hex digits: not to be guessed from its commitment
  const seedCommitment = 'sha256:' + createHash('sha256').update(seed).digest('hex');
  keepOpen(id, { seed, seedCommitment });
  send(res, 200, { id, seed, seedCommitment, profile: PROFILE, rules: RULES });
}

async function submit(req, res, id) {
  const game = games.get(id);
  if (!game) return send(res, 404, { error: 'no open game with this id' });
  const line = (await body(req)).trim();
  // Another request may have submitted the game while this one's body
  // came in: one submission a game.
  if (games.get(id) !== game) return send(res, 404, { error: 'no open game with this id' });
  // What to send, for the messages of a body that is not it.
  const how = "send the replay as one line of JSON, as the kit's Recorder writes it (toJSONLine())";
  if (line.startsWith('[object ')) {
    // fetch's body given the replay object, which it sends as its
    // String(): "[object Object]".
    return send(res, 400, { error: `the body is "${line.slice(0, 40)}", an object sent as text: ${how}, or JSON.stringify(replay)` });
  }
  if (line.includes('\n')) {
    // JSON.parse takes an object over several lines, the verifier's
    // JSON Lines one line a replay.
    return send(res, 400, { error: `the replay is on several lines: ${how}` });
  }
  let replay;
  try {
    replay = JSON.parse(line);
  } catch (e) {
    return send(res, 400, { error: `the replay is not one line of JSON (${e.message.slice(0, 100)}): ${how}; YAML, or JSON over several lines, is not taken here` });
  }
  if (replay === null || typeof replay !== 'object' || Array.isArray(replay)) {
    return send(res, 400, { error: 'the replay is not a JSON object' }); // pinned by go test ./e2e
  }
  // The replay must be of the game this server started: its seed, its
  // commitment, its rules. Anything else is a game the player chose.
  // The message names what differs or is missing, and what the game has
  // for the profile and rules (the seed and its commitment the page was
  // given: a player's page has them, a developer's bug is in them).
  const expect = { seed: game.seed, seedCommitment: game.seedCommitment, profile: PROFILE, rules: RULES };
  const differ = Object.keys(expect).filter((k) => replay[k] !== expect[k]).map((k) =>
    `${replay[k] === undefined ? 'no' : 'its'} ${k}${k === 'profile' || k === 'rules' ? ` (${expect[k]} for this game)` : ''}`);
  if (differ.length > 0) {
    return send(res, 422, { error: `the replay is not of game ${id}, by ${differ.join(', ')}: send the seed, seedCommitment, profile and rules as POST /api/games gave them` });
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
        await store(JSON.stringify({ ...entry, verdict, replay }) + '\n');
      } catch (e) {
        keepOpen(id, game);
        process.stderr.write(`server.mjs: ${opts.store}: a verdict could not be stored (${e.code || e.message}); game ${id} is open again\n`);
        throw Object.assign(new Error(`the verdict could not be stored; submit the game again: ${e.code || e.message}`), { status: 503 });
      }
    }
    list(entry);
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
    if (req.method === 'GET' && path === '/dist/verifier.wasm') {
      const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] || '');
      res.writeHead(200, { 'Content-Type': 'application/wasm', Vary: 'Accept-Encoding', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) });
      return res.end(gzip ? wasmGzipped : wasmBytes);
    }
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

server.on('error', (e) => {
  process.stderr.write(`server.mjs: cannot listen on ${opts.host}:${opts.port}: ${e.code || e.message}${e.code === 'EADDRINUSE' ? ' (another server has the port: --port N names another)' : ''}\n`);
  process.exit(1);
});
server.listen(Number(opts.port), opts.host, () => {
  const { address, port } = server.address();
  process.stdout.write(`listening on http://${address}:${port}/ (verifying in process with the kit, ${PROFILE} rules version ${RULES})\n`);
  // What the verifier builds on first use, built now, once listening, so
  // that the first submission costs what the next does; a request that
  // comes meanwhile waits for it.
  setImmediate(() => verifier.warm());
});
