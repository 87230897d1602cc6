// The kit's verifier (src/verify.js), the module `npm run build` makes
// (npm test builds it first): the corpus's verdicts as replays/manifest.yaml
// gives them, games the kit records, every form of input and output, the
// stream against the batch, and the bounds. That its lines are the
// command's byte for byte is the differential test's
// (js/wasm/diff_test.go).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { loadVerifier, verify, verifyLines, Verifier } from '../src/verify.js';
import { Recorder } from '../src/recorder.js';
import { slide, legalMoves } from '../src/rules.js';

const root = new URL('../../', import.meta.url);
const corpus = new URL('replays/', root);

test('verify before loadVerifier says so', () => {
  assert.throws(() => verify('{}'), /await loadVerifier\(\) first/);
});

const v = await loadVerifier();

// manifest reads replays/manifest.yaml: a list of flat mappings.
function manifest() {
  const out = [];
  for (const line of readFileSync(new URL('manifest.yaml', corpus), 'utf8').split('\n')) {
    const m = /^(- |  )(\w+): (.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === '- ') out.push({});
    let value = m[3];
    if (value.startsWith('"')) value = JSON.parse(value);
    out[out.length - 1][m[2]] = value;
  }
  return out;
}

test('the corpus gets the verdicts its manifest lists', () => {
  const entries = manifest();
  assert.ok(entries.length > 20, `${entries.length} entries in the manifest`);
  for (const e of entries) {
    const vd = v.verify(readFileSync(new URL(e.file, corpus)), { name: e.file });
    assert.equal(vd.name, e.file);
    switch (e.verdict) {
      case 'valid':
        assert.equal(vd.valid, true, `${e.file}: ${JSON.stringify(vd)}`);
        if (e.score) assert.equal(vd.score, Number(e.score), e.file);
        if (e.moves) assert.equal(vd.moves, Number(e.moves), e.file);
        if (e.maxTile) assert.equal(vd.maxTile, Number(e.maxTile), e.file);
        break;
      case 'invalid':
        assert.equal(vd.valid, false, e.file);
        assert.equal(vd.reason, e.reason, e.file);
        if (e.action) assert.equal(vd.divergence.action, Number(e.action), e.file);
        break;
      case 'unreadable':
        assert.equal(vd.valid, false, e.file);
        assert.ok(vd.reason === 'malformed' || vd.reason === 'refused', `${e.file}: ${vd.reason}`);
        assert.ok(vd.error.length > 0, e.file);
        break;
      default:
        assert.fail(`${e.file}: verdict ${e.verdict}`);
    }
  }
});

test('games the kit records verify, seeded and spawn-recorded', () => {
  for (const form of ['seeded', 'spawns']) {
    const lines = execFileSync(process.execPath, [new URL('examples/record.mjs', new URL('js/', root)).pathname, '--games', '20', '--seed', 'verify-test', '--form', form], { encoding: 'utf8' });
    const verdicts = v.verifyLines(lines);
    assert.equal(verdicts.length, 20);
    verdicts.forEach((vd, i) => {
      assert.equal(vd.name, `stdin:${i + 1}`);
      assert.equal(vd.valid, true, JSON.stringify(vd));
    });
    // A claim changed is found.
    const first = JSON.parse(lines.split('\n')[0]);
    first.claim.moves += 1;
    const bad = v.verify(JSON.stringify(first));
    assert.equal(bad.valid, false);
    assert.match(bad.reason, /claim/);
  }
});

// builtinProfiles returns the names of the verifier's built-in profiles,
// as it lists them refusing a replay of a profile it does not know.
function builtinProfiles() {
  const vd = v.verify(JSON.stringify({ profile: 'no-such-profile', seed: '0', moves: '', claim: { score: 0, maxTile: 2, moves: 0 } }));
  const m = /^unknown profile "no-such-profile" \(this verifier knows ([a-z0-9, -]+); a profile of a file is known once the file is given: verifier\.addProfile\(yaml\)\)$/.exec(vd.error);
  assert.ok(m, `the verifier's refusal of an unknown profile lists the profiles it knows: ${vd.error}`);
  return m[1].split(', ');
}

test('record.mjs records a profile only when its games verify: every built-in profile, both forms', () => {
  const builtins = builtinProfiles();
  assert.ok(builtins.includes('tile-merge') && builtins.includes('classic'), builtins.join(', '));
  let recorded = 0;
  for (const profile of builtins) {
    for (const form of ['seeded', 'spawns']) {
      let lines;
      try {
        lines = execFileSync(process.execPath, [new URL('js/examples/record.mjs', root).pathname, '--games', '3', '--seed', 'profiles', '--profile', profile, '--form', form], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (e) {
        assert.match(e.stderr, new RegExp(`--profile ${profile}: `), `${profile} ${form}`);
        continue;
      }
      recorded++;
      for (const vd of v.verifyLines(lines)) assert.equal(vd.valid, true, `${profile} ${form}: ${JSON.stringify(vd)}`);
    }
  }
  assert.equal(recorded, 13, 'the profiles recorded');
});

test('strings, bytes and buffers give the same verdict, in every output', () => {
  const text = readFileSync(new URL('minimal.yaml', corpus), 'utf8');
  const bytes = new TextEncoder().encode(text);
  const line = v.verify(text, { output: 'text' });
  assert.ok(line.endsWith('}\n'));
  assert.deepEqual(v.verify(text), JSON.parse(line));
  assert.equal(v.verify(bytes, { output: 'text' }), line);
  assert.equal(v.verify(bytes.buffer, { output: 'text' }), line);
  assert.equal(v.verify(new DataView(bytes.buffer), { output: 'text' }), line);
  assert.deepEqual(v.verify(text, { output: 'bytes' }), new TextEncoder().encode(line));
  assert.equal(verify(text, { output: 'text' }), line); // the module-level verify uses the first verifier
  assert.equal(JSON.parse(line).name, 'replay');
  assert.throws(() => v.verify(42), TypeError);
  assert.throws(() => v.verify(text, { output: 'xml' }), TypeError);
});

// The usual mistakes: the Recorder's replay() object where its JSON text
// goes, a File or a Response not yet read, an array of replays. Each
// throws a TypeError that says what was given and what to give (before:
// "a replay is a string or bytes (...)", whatever was given).
test('what is not text or bytes throws a TypeError saying what to give instead', () => {
  const rec = new Recorder({ profile: 'tile-merge', seed: '7' });
  const claim = { score: 0, maxTile: 4 };
  assert.equal(v.verify(rec.toJSONLine(claim)).valid, true);
  const cases = [
    [() => v.verify(rec.replay(claim)), /^a replay is text \(YAML or JSON\) or its UTF-8 bytes .*, not an object: give its JSON text, JSON\.stringify\(replay\) \(a Recorder's toJSONLine\(\), not its replay\(\)\)$/],
    [() => v.verify(new Blob([rec.toJSONLine(claim)])), /, not an object to be read \(a Blob, a File or a Response\): give await it\.arrayBuffer\(\) or await it\.text\(\)$/],
    [() => v.verify(new Response(rec.toJSONLine(claim))), /await it\.arrayBuffer\(\)/],
    [() => v.verify(42), /^a replay is text \(YAML or JSON\) or its UTF-8 bytes .*, not a number$/],
    [() => v.verify(null), /, not null$/],
    [() => v.verifyLines([rec.replay(claim)]), /^a JSON Lines batch is text or its UTF-8 bytes .*, not an array: give the lines' text, JSON\.stringify\(replay\) \+ '\\n' for each/],
    [() => v.stream().push({}), /^a chunk of JSON Lines is text or .*, not an object$/],
    [() => v.addProfile({ name: 'x' }), /^a profile is text \(YAML\) or .*, not an object$/],
  ];
  for (const [f, message] of cases) assert.throws(f, (e) => e instanceof TypeError && message.test(e.message), String(f));
});

test('a JSON Lines batch: names, blank lines, lines that are not replays', () => {
  const good = JSON.stringify(JSON.parse(execFileSync(process.execPath, [new URL('js/examples/record.mjs', root).pathname, '--games', '1', '--seed', 'b'], { encoding: 'utf8' })));
  const vds = verifyLines(`${good}\n\n  \nnot json\r\n[1]\n${good}\r\n{`, { name: 'batch' });
  assert.deepEqual(vds.map((x) => x.name), ['batch:1', 'batch:4', 'batch:5', 'batch:6', 'batch:7']);
  assert.deepEqual(vds.map((x) => x.valid), [true, false, false, true, false]);
  assert.match(vds[1].error, /^batch:4: not a JSON object/);
  assert.deepEqual(v.verifyLines(''), []);
  assert.equal(v.verifyLines('', { output: 'text' }), '');
});

test('a stream gives the batch\'s verdicts, whatever its chunks', () => {
  const lines = execFileSync(process.execPath, [new URL('js/examples/record.mjs', root).pathname, '--games', '5', '--seed', 's', '--form', 'spawns'], { encoding: 'utf8' }) + '\nnope\n{"profile":"tile-merge"}';
  const want = v.verifyLines(lines, { output: 'text' });
  for (const size of [1, 7, 100, 4096, lines.length]) {
    const s = v.stream({ output: 'text' });
    let got = '';
    for (let i = 0; i < lines.length; i += size) got += s.push(lines.slice(i, i + size));
    const beforeEnd = got;
    got += s.end();
    assert.equal(got, want, `chunks of ${size}`);
    assert.ok(!beforeEnd.includes('stdin:8'), 'the last line, without its end, waits for end()');
    assert.throws(() => s.push('{}'), /ended/);
    assert.equal(s.end(), '');
  }
  // A verify while a stream is open ends the stream first.
  const s = v.stream();
  assert.deepEqual(s.push(lines.split('\n')[0] + '\n').map((x) => x.valid), [true]);
  assert.equal(v.verify(lines.split('\n')[1], { name: 'other' }).name, 'other');
  assert.throws(() => s.push('{}'), /ended/);
});

test('the bounds are the command\'s', () => {
  const big = new Uint8Array((64 << 20) + 1).fill(0x20);
  const vd = v.verify(big, { name: 'big.yaml' });
  assert.equal(vd.reason, 'malformed');
  assert.equal(vd.error, 'big.yaml: larger than 64 MiB');
  big[big.length - 1] = 0x0a;
  const vds = v.verifyLines(big.subarray(0, (64 << 20) + 1), { name: 'big' });
  assert.equal(vds.length, 1);
  assert.equal(vds[0].error, `big:1: line longer than ${64 << 20} bytes`);
});

// allFours plays a spawn-recorded game whose every spawn is a 4 in the
// first empty cell: legal under the rules, implausible under the weights.
function allFours() {
  let board = [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2], [0, 0, 0, 0]];
  const rec = new Recorder({ profile: 'tile-merge', start: board });
  let score = 0;
  for (let i = 0; i < 300; i++) {
    const moves = legalMoves(board);
    if (moves.length === 0) break;
    const d = moves[i % moves.length];
    const s = slide(board, d);
    board = s.board;
    score += s.gained;
    const at = board.flat().indexOf(0);
    const spawn = { row: Math.floor(at / 4), col: at % 4, value: 4 };
    board[spawn.row][spawn.col] = 4;
    rec.move(d, spawn);
  }
  return rec.toJSONLine({ score, board });
}

test('strict fails a valid replay whose spawns are implausible, as --strict', () => {
  const line = allFours();
  const loose = v.verify(line);
  assert.equal(loose.valid, true, JSON.stringify(loose));
  assert.ok(loose.warnings.length > 0, 'all fours draws a warning');
  const strict = v.verify(line, { strict: true });
  assert.equal(strict.valid, false);
  assert.equal(strict.reason, 'implausible');
  assert.deepEqual(v.verifyLines(line, { strict: true }).map((x) => x.reason), ['implausible']);
  assert.deepEqual(v.verify(line), loose, 'strict is for its call only');
  const good = readFileSync(new URL('minimal.yaml', corpus));
  assert.deepEqual(v.verify(good, { strict: true }), v.verify(good));
});

test('two verifiers are independent modules', async () => {
  const w = await loadVerifier({ wasm: readFileSync(new URL('js/dist/verifier.wasm', root)) });
  assert.ok(w instanceof Verifier);
  assert.notEqual(w, v);
  const s = v.stream({ output: 'text' });
  s.push('{"a":1}\n');
  assert.equal(w.verify('{}', { name: 'w' }).name, 'w');
  assert.match(s.end(), /^$/); // v's stream was not ended by w
});

test('warm changes no verdict and ends an open stream', async () => {
  const w = await loadVerifier();
  const data = readFileSync(new URL('minimal.yaml', corpus));
  const s = w.stream({ output: 'text' });
  w.warm();
  assert.throws(() => s.push('{}'), /ended/);
  const line = w.verify(data, { output: 'text' });
  const x = await loadVerifier();
  assert.equal(x.verify(data, { output: 'text' }), line);
  assert.equal(w.verifyLines('', { output: 'text' }), '', 'warm leaves no verdict behind');
});

test('addProfile: a variant\'s profile file, as --profile', async () => {
  const w = await loadVerifier();
  const replay = JSON.stringify({ profile: '2048-webcomponent', seed: '1', moves: '', claim: { score: 0, maxTile: 4, moves: 0 } });
  const before = w.verify(replay);
  assert.equal(before.reason, 'refused');
  assert.match(before.error, /^unknown profile .*: verifier\.addProfile\(yaml\)\)$/);
  w.addProfile(readFileSync(new URL('conformance/adapters/webcomponent-2048.yaml', root)), { file: 'webcomponent-2048.yaml' });
  const after = w.verify(replay);
  assert.equal(after.profile, '2048-webcomponent');
  assert.ok(after.valid || after.reason !== 'refused', JSON.stringify(after));
  assert.throws(() => w.addProfile('name: x\nnot a profile: [', { file: 'bad.yaml' }), /bad\.yaml/);
  assert.equal(v.verify(replay).reason, 'refused', 'another verifier does not know it');
});

test('a batch larger than one replay may be is verified whole', () => {
  const line = JSON.stringify({ profile: 'tile-merge', seed: '1', moves: '', claim: { score: 0, maxTile: 4, moves: 0 } }) + '\n';
  const pad = ' '.repeat(1 << 20) + '\n'; // blank lines: counted, not verified
  const parts = [];
  for (let size = 0; size <= (64 << 20) + (1 << 20); size += pad.length) parts.push(pad);
  parts.push(line);
  const vds = v.verifyLines(parts.join(''), { name: 'big' });
  assert.equal(vds.length, 1);
  assert.equal(vds[0].name, `big:${parts.length}`);
  assert.notEqual(vds[0].reason, 'malformed', JSON.stringify(vds[0]));
});

test('a kit whose module is not built says to build it', async (t) => {
  const { mkdtempSync, mkdirSync, copyFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'kit-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'src'));
  copyFileSync(new URL('../src/verify.js', import.meta.url), join(dir, 'src', 'verify.js'));
  const copy = await import(new URL(`file://${join(dir, 'src', 'verify.js')}`).href);
  await assert.rejects(copy.loadVerifier(), /^Error: the verifier's module is not built \(npm run build in the kit makes dist\/verifier\.wasm\): ENOENT/);
  await assert.rejects(copy.loadVerifier({ wasm: join(dir, 'nosuch.wasm') }), { code: 'ENOENT' }, 'a module named is the caller\'s: its error as it is');
});

// examples/verify.mjs answers a usage error, and a verifier it cannot
// load, as the command does: a line saying why, exit status 2 (before:
// node's stack trace, exit status 1).
test('verify.mjs: a usage error or a module it cannot load is exit status 2, saying why', () => {
  const script = new URL('../examples/verify.mjs', import.meta.url).pathname;
  const run = (args, env = {}) => {
    try {
      const stdout = execFileSync(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: 'pipe', encoding: 'utf8' });
      return { status: 0, stdout, stderr: '' };
    } catch (e) {
      return { status: e.status, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const usage = 'usage: node verify.mjs [--strict] [--profile FILE]... FILE|DIR|-...\n';
  let r = run(['--bogus', 'x.yaml']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^verify\.mjs: Unknown option '--bogus'.*\nusage: node verify\.mjs /);
  r = run([]);
  assert.deepEqual([r.status, r.stderr], [2, usage]);
  r = run(['--help']);
  assert.deepEqual([r.status, r.stdout], [0, usage]);
  r = run([new URL('minimal.yaml', corpus).pathname], { TILEPROOF_KIT_WASM: '/nonexistent/verifier.wasm' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^verify\.mjs: cannot load the verifier: ENOENT/);
});

// A verifier has one stream open at a time: another call on it ends the
// open stream, whose push and end then throw, naming the call and what
// to do (before: push threw "the stream is ended", and end gave nothing,
// the begun line's verdict lost without a word: a server streaming two
// requests at once, or verifying one replay while streaming, lost lines).
test('a stream ended by another call on its verifier says so on push and end', async () => {
  const w = await loadVerifier();
  const line = '{"profile":"tile-merge","seed":"7","moves":"","claim":{"score":0,"maxTile":4,"moves":0}}\n';
  const calls = [
    ['stream()', () => w.stream()],
    ['verify()', () => w.verify(line)],
    ['verifyLines()', () => w.verifyLines(line)],
    ['warm()', () => w.warm()],
    ['addProfile()', () => { try { w.addProfile('name: x'); } catch {} }],
  ];
  for (const [by, call] of calls) {
    const s = w.stream({ name: 'a' });
    assert.deepEqual(s.push(line + line.slice(0, 30)).map((v) => [v.name, v.valid]), [['a:1', true]]);
    call();
    const why = new RegExp(`^Error: the stream is ended: ${by.replace(/[()]/g, '\\$&')} on the same verifier ended it, and a line it had begun and not ended is lost \\(a verifier has one stream open at a time, .* loads a verifier for each\\)$`);
    assert.throws(() => s.push(line.slice(30)), why, by);
    assert.throws(() => s.end(), why, by);
  }
  const s = w.stream({ name: 'b' });
  assert.deepEqual(s.push(line).map((v) => v.name), ['b:1']);
  assert.deepEqual(s.end(), []);
  assert.deepEqual(s.end(), [], 'a stream ended by its own end() ends quietly again');
  assert.throws(() => s.push(line), /^Error: the stream is ended: its end\(\) was called$/);
});

// wasm/build.mjs (npm run build, npm test's first step) without Go, or
// with a build that fails, says so in a line and what to do, exit status
// 2 and 1 (before: node's stack trace of "spawnSync go ENOENT", exit 1).
test('npm run build without Go, or with a failing build, says so in a line', () => {
  const script = new URL('../wasm/build.mjs', import.meta.url).pathname;
  const run = (env) => {
    try {
      execFileSync(process.execPath, [script, '/nonexistent/verifier.wasm'], { env: { ...process.env, ...env }, stdio: 'pipe', encoding: 'utf8' });
      return { status: 0, stderr: '' };
    } catch (e) {
      return { status: e.status, stderr: e.stderr };
    }
  };
  assert.deepEqual(run({ PATH: '/nonexistent' }), {
    status: 2,
    stderr: "build.mjs: no go on PATH: the verifier is built from the repository's Go source, with the Go that go.mod names or later (https://go.dev/dl/); then npm run build again\n",
  });
  const r = run({ GOFLAGS: '-mod=bogus' }); // go refuses at once, before building
  assert.equal(r.status, 1);
  assert.match(r.stderr, /\nbuild\.mjs: go build failed \(exit status 1\); its messages are above\n$/);
});
