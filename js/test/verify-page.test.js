// The example's pages (examples/web/) in headless Chromium, served by a
// server of the test's own, as pages copied to another site are:
// verify.html says why when its verifier cannot be loaded, the kit or the
// module not served, instead of "loading the verifier…" for ever; the
// game page shows a refused submission as refused, and sends it again.
// (go test ./e2e plays the game and verifies replays in the pages,
// served by server.mjs.) Skipped without Chromium on PATH, unless
// TILEPROOF_BROWSER=required.

import test from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { spawn, execFileSync } from 'node:child_process';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';

const web = new URL('../examples/web/', import.meta.url);
const src = new URL('../src/', import.meta.url);
const wasm = new URL('../dist/verifier.wasm', import.meta.url);

// chromium returns the path of a Chromium on PATH, or an empty string.
function chromium() {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    } catch {}
  }
  return '';
}

// REPORT, put into the page served, sends the page's state and status to
// the test's server (POST /report) once it is not "loading" any more.
const REPORT = `<script>
  const iv = setInterval(() => {
    if (document.body.dataset.state === 'loading') return;
    clearInterval(iv);
    fetch('/report', { method: 'POST', body: JSON.stringify({ state: document.body.dataset.state, status: document.getElementById('status').textContent }) });
  }, 50);
</script>`;

// load serves verify.html and its worker, and, as served says, the kit
// at kit/ and the verifier's module at dist/verifier.wasm (anything else
// is 404); opens the page in headless Chromium, and returns the page's
// state and status once its scripts have run.
async function load(browser, served) {
  const types = { html: 'text/html', js: 'text/javascript', wasm: 'application/wasm' };
  let report;
  const reported = new Promise((resolve) => (report = resolve));
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/report') {
      let body = '';
      for await (const c of req) body += c;
      report(JSON.parse(body));
      return res.end();
    }
    let file = null;
    if (path === '/verify.html' || path === '/verify-worker.js') file = new URL(path.slice(1), web);
    else if (served.kit && /^\/kit\/[a-z0-9-]+\.js$/.test(path)) file = new URL(path.slice(5), src);
    else if (served.module && path === '/dist/verifier.wasm') file = wasm;
    if (!file) return res.writeHead(404).end('not found');
    let data = await readFile(file);
    if (path === '/verify.html') data = data.toString().replace('</body>', REPORT + '</body>');
    res.writeHead(200, { 'Content-Type': types[path.split('.').pop()] });
    res.end(data);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const profile = await mkdtemp(join(tmpdir(), 'tileproof-chromium-'));
  const proc = spawn(browser, ['--headless', '--no-sandbox', '--disable-gpu', `--user-data-dir=${profile}`,
    `http://127.0.0.1:${server.address().port}/verify.html`], { stdio: 'ignore' });
  try {
    let timer;
    const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve({ state: 'loading', status: 'no report in 60 s' }), 60000)));
    const got = await Promise.race([reported, timeout]);
    clearTimeout(timer);
    return got;
  } finally {
    proc.kill();
    await new Promise((resolve) => (proc.exitCode !== null ? resolve() : proc.once('exit', resolve)));
    server.close();
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }); // Chromium's helpers may still be writing
  }
}

test('verify.html says why its verifier cannot be loaded', async (t) => {
  const browser = chromium();
  if (!browser) {
    if (process.env.TILEPROOF_BROWSER === 'required') assert.fail('no Chromium on PATH, and TILEPROOF_BROWSER=required');
    return t.skip('no Chromium on PATH');
  }
  const cases = [
    { name: 'all served', kit: true, module: true, state: 'ready', status: /^verifier loaded in \d+ ms$/ },
    { name: 'the module not served', kit: true, module: false, state: 'error',
      status: /^cannot load the verifier: cannot fetch the verifier's module http:\/\/127\.0\.0\.1:\d+\/dist\/verifier\.wasm: 404 /, },
    { name: 'the kit not served', kit: false, module: true, state: 'error',
      status: /^the verifier's worker did not start \(verify-worker\.js, or the kit beside it at kit\/, not served\?\)/ },
  ];
  await Promise.all(cases.map(async (c) => {
    const got = await load(browser, c);
    assert.equal(got.state, c.state, `${c.name}: ${JSON.stringify(got)}`);
    assert.match(got.status, c.status, c.name);
  }));
});

// GAME_REPORT, put into the game page served, clicks Submit once a game
// is under way, records each state the page settles in after it, with
// what it shows, clicks Submit again after the first, and sends the
// states to the test's server (POST /report): after the second, or 5 s
// after the first if no second comes.
const GAME_REPORT = `<script>
  const seen = [];
  let last = '';
  const report = () => fetch('/report', { method: 'POST', body: JSON.stringify(seen) });
  const iv = setInterval(() => {
    const state = document.body.dataset.state;
    if (state === last) return;
    last = state;
    if (state === 'playing' && seen.length === 0) return document.getElementById('submit').click();
    if (!['verified', 'rejected', 'error'].includes(state)) return;
    seen.push(state + ': ' + document.getElementById('verdict').textContent);
    if (seen.length === 1) {
      setTimeout(() => { clearInterval(iv); report(); }, 5000);
      document.getElementById('submit').click();
    } else {
      clearInterval(iv);
      report();
    }
  }, 20);
</script>`;

test('the game page shows a refused submission as refused, and sends it again', async (t) => {
  const browser = chromium();
  if (!browser) {
    if (process.env.TILEPROOF_BROWSER === 'required') assert.fail('no Chromium on PATH, and TILEPROOF_BROWSER=required');
    return t.skip('no Chromium on PATH');
  }
  const game = { id: '0123456789abcdef', seed: '7', seedCommitment: 'sha256:' + createHash('sha256').update('7').digest('hex'), profile: 'tile-merge', rules: 1 };
  const refusal = `the replay is not of game ${game.id}, by its profile (tile-merge for this game): send the seed, seedCommitment, profile and rules as POST /api/games gave them`;
  const submitted = [];
  let report;
  const reported = new Promise((resolve) => (report = resolve));
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    let body = '';
    for await (const c of req) body += c;
    const json = (status, v) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(v));
    if (path === '/report') return report(JSON.parse(body)), res.end();
    if (req.method === 'POST' && path === '/api/games') return json(200, game);
    if (req.method === 'POST' && path === `/api/games/${game.id}/replay`) {
      submitted.push(body);
      return submitted.length === 1 ? json(422, { error: refusal }) : json(200, { valid: true, proved: 'score 0 proved', sha256: 'abc' });
    }
    const file = path === '/' ? new URL('index.html', web) : path === '/game.js' ? new URL('game.js', web)
      : /^\/kit\/[a-z0-9-]+\.js$/.test(path) ? new URL(path.slice(5), src) : null;
    if (!file) return res.writeHead(404).end('not found');
    let data = await readFile(file);
    if (path === '/') data = data.toString().replace('</body>', GAME_REPORT + '</body>');
    res.writeHead(200, { 'Content-Type': path === '/' ? 'text/html' : 'text/javascript' }).end(data);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const profile = await mkdtemp(join(tmpdir(), 'tileproof-chromium-'));
  const proc = spawn(browser, ['--headless', '--no-sandbox', '--disable-gpu', `--user-data-dir=${profile}`,
    `http://127.0.0.1:${server.address().port}/`], { stdio: 'ignore' });
  try {
    let timer;
    const seen = await Promise.race([reported, new Promise((resolve) => (timer = setTimeout(() => resolve(['no report in 60 s']), 60000)))]);
    clearTimeout(timer);
    assert.deepEqual(seen, [
      `error: Error: the server refused the replay (422): ${refusal}`,
      'verified: Verified: score 0 proved. Stored as sha256 abc.',
    ]);
    assert.equal(submitted.length, 2);
    assert.equal(submitted[1], submitted[0], 'the same replay sent again');
  } finally {
    proc.kill();
    await new Promise((resolve) => (proc.exitCode !== null ? resolve() : proc.once('exit', resolve)));
    server.close();
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }); // Chromium's helpers may still be writing
  }
});
