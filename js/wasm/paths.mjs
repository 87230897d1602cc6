// paths.mjs TILEPROOF BATCH.jsonl [N]: the cost of each way a node server
// can verify a replay (docs/web.md, "Four ways to verify"), measured on the
// same replays, the lines of BATCH (N of them, 500 by default), one at a
// time as submissions come: the time from a replay in hand to its verdict
// in hand, median and 95th percentile, and replays a second were it
// busy with nothing else (1000 over the mean).
//
//   kit        the kit's verifier in this process (src/verify.js)
//   verify -   one `tileproof verify --json -` process kept open: a line
//              written to its stdin, its verdict line read back
//   http       `tileproof serve`'s POST /api/verify over loopback, one
//              request a replay on a kept-alive connection
//   process    a `tileproof verify --json -` process a replay (what the
//              web example did before)
//
// And the kit's load and warm-up, once. It prints one JSON object a path.

import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { request, Agent } from 'node:http';
import { once } from 'node:events';

const [tileproof, batchFile, count = '500'] = process.argv.slice(2);
if (!tileproof || !batchFile) {
  process.stderr.write('usage: node paths.mjs TILEPROOF BATCH.jsonl [N]\n');
  process.exit(2);
}
// gap waits a millisecond between replays, outside the timing, as
// submissions come apart: a process that never waits is the one a busy
// machine's scheduler puts last, which would be the measure of the
// machine, not of the path.
const gap = () => new Promise((resolve) => setTimeout(resolve, 1));

const lines = readFileSync(batchFile, 'utf8').split('\n').filter((l) => l.trim() !== '').slice(0, Number(count));

function report(path, times, extra = {}) {
  const sorted = [...times].sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  process.stdout.write(JSON.stringify({ path, replays: times.length, medianMs: +q(0.5).toFixed(3), p95Ms: +q(0.95).toFixed(3), perSecondBusy: Math.round(times.length / (total / 1000)), ...extra }) + '\n');
}

// check makes sure a path gave a verdict of the replay, valid or not.
function check(path, text) {
  const vd = JSON.parse(text);
  if (typeof vd.valid !== 'boolean') throw new Error(`${path}: ${text}`);
}

// kit
{
  const t = performance.now();
  const { loadVerifier } = await import('../src/verify.js');
  const v = await loadVerifier();
  const loadMs = performance.now() - t;
  const t1 = performance.now();
  v.warm(); // as a server does once it has loaded it
  const warmMs = performance.now() - t1;
  const times = [];
  for (const l of lines) {
    await gap();
    const t0 = performance.now();
    const vd = v.verifyLines(l + '\n', { output: 'text' });
    times.push(performance.now() - t0);
    check('kit', vd);
  }
  report('kit', times, { loadMs: +loadMs.toFixed(1), warmMs: +warmMs.toFixed(1) });
}

// verify -
{
  const child = spawn(tileproof, ['verify', '--json', '-'], { stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdout.setEncoding('utf8');
  let buf = '';
  const waiting = [];
  child.stdout.on('data', (c) => {
    buf += c;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      waiting.shift()(line);
    }
  });
  const times = [];
  for (const l of lines) {
    await gap();
    const t0 = performance.now();
    const got = new Promise((resolve) => waiting.push(resolve));
    child.stdin.write(l + '\n');
    check('verify -', await got);
    times.push(performance.now() - t0);
  }
  child.stdin.end();
  await once(child, 'close');
  report('verify -', times);
}

// http
{
  const child = spawn(tileproof, ['serve', '--addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  const addr = await new Promise((resolve, reject) => {
    const look = (c) => {
      said += c;
      const m = /(127\.0\.0\.1:[0-9]+)/.exec(said);
      if (m) resolve(m[1]);
    };
    child.stdout.setEncoding('utf8').on('data', look);
    child.stderr.setEncoding('utf8').on('data', look);
    child.on('close', () => reject(new Error(`tileproof serve: ${said}`)));
  });
  const [host, port] = addr.split(':');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const post = (body) => new Promise((resolve, reject) => {
    const req = request({ host, port, path: '/api/verify', method: 'POST', agent, headers: { 'Content-Type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c) => { text += c; }).on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end(body);
  });
  const times = [];
  for (const l of lines) {
    await gap();
    const t0 = performance.now();
    check('http', await post(l));
    times.push(performance.now() - t0);
  }
  agent.destroy();
  child.kill();
  report('http', times);
}

// process
{
  const times = [];
  for (const l of lines.slice(0, 100)) {
    await gap();
    const t0 = performance.now();
    const child = spawn(tileproof, ['verify', '--json', '-'], { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c) => { out += c; });
    child.stdin.end(l + '\n');
    await once(child, 'close');
    check('process', out);
    times.push(performance.now() - t0);
  }
  report('process', times);
}
