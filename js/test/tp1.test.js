// tp1 against the engine's vectors (vectors/tp1.json, which
// e2e/TestTP1Vectors holds to the Go engine) and docs/tp1.md.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import {
  normalizeSeed, seedKey, seedCommitment, createTP1, TP1, chooseSpawn, startBoard, isTile, SeedError, DEFAULT_WEIGHTS,
} from '../src/tp1.js';

const vectors = JSON.parse(readFileSync(new URL('./vectors/tp1.json', import.meta.url), 'utf8'));
const hex = (n) => n.toString(16).padStart(16, '0');

test('seeds: normalisation, key and first three draws, as the engine gives them', async () => {
  assert.ok(vectors.seeds.length >= 20);
  for (const v of vectors.seeds) {
    const what = `${v.note}: ${JSON.stringify(v.seed)}`;
    assert.equal(normalizeSeed(v.seed), v.normalized, what);
    assert.equal(hex(await seedKey(v.seed)), v.key, what);
    const rng = await createTP1(v.seed);
    assert.deepEqual([rng.next(), rng.next(), rng.next()].map(hex), v.draws, what);
  }
});

test('the table of docs/tp1.md', async () => {
  // Written out from the doc, not from the vectors file, so that the file
  // cannot drift from the doc either.
  const table = [
    ['7', '7902699be42c8a8e', 'd453dfeae1476663'],
    ['  7  ', '7902699be42c8a8e', 'd453dfeae1476663'],
    ['0', '5feceb66ffc86f38', '382c6b40f7954d1f'],
    ['2048-practice', '9978de802fbf5898', '14e954d1edfc9235'],
    ['héllo wörld ✓', 'c2a59c71097b678d', 'd11b2c1fd506fba0'],
    ['\u00a0日本語\u3000', '77710aedc74ecfa3', 'a16b051b3bce5893'],
  ];
  for (const [seed, key, draw] of table) {
    const rng = await createTP1(seed);
    assert.equal(hex(rng.state), key, seed);
    assert.equal(hex(rng.next()), draw, seed);
  }
  const zero = new TP1(0n);
  assert.deepEqual([zero.next(), zero.next(), zero.next()].map(hex), ['e220a8397b1dcdaf', '6e789e6aa1b965f4', '06c45d188009454f']);
});

test('seed errors: the engine refuses them, with the same reason', () => {
  for (const v of vectors.seedErrors) {
    // The engine quotes the seed, cut short when long ("..." (N bytes in all)), then the reason.
    const reason = /(?:"|bytes in all\)): (.*)$/.exec(v.error)[1];
    assert.throws(() => normalizeSeed(v.seed), (e) => e instanceof SeedError && e.message.endsWith(reason), `${v.note}: ${JSON.stringify(v.seed)}`);
  }
});

test('lone surrogates (text that has no UTF-8 form) are refused; pairs are one character', async () => {
  for (const s of ['\ud800', 'x\udfff', '\udc00\ud800', 'a\ud83c']) {
    assert.throws(() => normalizeSeed(s), /not valid Unicode/, JSON.stringify(s));
    await assert.rejects(seedKey(s), SeedError);
  }
  assert.equal(normalizeSeed('\ud83c\udfb2'), '🎲');
});

test('integer seeds stand for their decimal text; other values are refused', async () => {
  assert.equal(normalizeSeed(7), '7');
  assert.equal(normalizeSeed(123456789012345678901234567890n), '123456789012345678901234567890');
  assert.equal(hex(await seedKey(7)), '7902699be42c8a8e');
  for (const bad of [7.5, NaN, null, undefined, {}, ['7'], 2 ** 60]) {
    assert.throws(() => normalizeSeed(bad), SeedError, String(bad));
  }
});

test('trimming is Unicode White_Space exactly, at every code point', () => {
  const ws = new Set(vectors.whiteSpace.map((h) => parseInt(h, 16)));
  assert.equal(ws.size, 25);
  let checked = 0;
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue; // not characters
    const c = String.fromCodePoint(cp);
    const got = normalizeSeed(c + 'x' + c);
    const want = ws.has(cp) ? 'x' : c + 'x' + c;
    if (got !== want) assert.fail(`U+${cp.toString(16).toUpperCase().padStart(4, '0')}: ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    checked++;
  }
  assert.equal(checked, 0x110000 - 0x800);
});

test('where JavaScript trim and Python strip differ from White_Space', () => {
  // The code points the three rules disagree on, named here from the
  // Unicode standard (PropList.txt), not from the vectors.
  assert.equal(normalizeSeed('\ufeffx'), '\ufeffx'); // BOM: String.prototype.trim removes it; not White_Space
  assert.equal('\ufeffx'.trim(), 'x');
  assert.equal(normalizeSeed('\u0085x\u0085'), 'x'); // NEL: White_Space; String.prototype.trim keeps it
  assert.equal('\u0085x'.trim(), '\u0085x');
  assert.equal(normalizeSeed('\u180ex'), '\u180ex'); // MONGOLIAN VOWEL SEPARATOR: not White_Space since Unicode 6.3
  for (const c of ['\u001c', '\u001d', '\u001e', '\u001f']) {
    assert.equal(normalizeSeed(c + 'x' + c), c + 'x' + c); // Python's str.strip removes these
  }
  assert.throws(() => normalizeSeed('\u0085\u2028\u3000'), /empty once white space is trimmed/);
});

test('length is counted in code points, not UTF-16 units', () => {
  assert.equal(normalizeSeed('🎲'.repeat(96)), '🎲'.repeat(96));
  assert.throws(() => normalizeSeed('🎲'.repeat(97)), /97 characters once trimmed/);
  assert.equal(normalizeSeed('\u3000' + 'x'.repeat(96) + '\u3000'), 'x'.repeat(96));
});

test('the commitment is the SHA-256 of the trimmed seed', async () => {
  for (const seed of ['7', ' 7\n', 'héllo wörld ✓', '\u00a0日本語\u3000']) {
    const want = 'sha256:' + createHash('sha256').update(normalizeSeed(seed), 'utf8').digest('hex');
    assert.equal(await seedCommitment(seed), want, seed);
  }
  assert.equal(await seedCommitment('7'), await seedCommitment('  7  '));
  await assert.rejects(seedCommitment(''), SeedError);
});

test('spawns: each step of the engine games, from the start board on', async () => {
  for (const g of vectors.games) {
    const rng = await createTP1(g.seed);
    assert.deepEqual(startBoard(rng, { rows: g.rows, cols: g.cols, startTiles: g.startTiles, weights: g.weights }), g.start, g.seed);
    g.steps.forEach((s, i) => {
      assert.deepEqual(chooseSpawn(s.after, g.weights, rng), s.spawn, `${g.seed}, step ${i + 1}`);
    });
  }
});

test('the opening board of seed 7 (docs/tp1.md)', async () => {
  assert.deepEqual(startBoard(await createTP1('7')), [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 4, 0]]);
});

test('chooseSpawn: the weight walk, the empty cells, and what it refuses', () => {
  // A generator whose draws are given, to place r exactly.
  const drawing = (...draws) => ({ next: () => BigInt(draws.shift()) });
  const empty = [[0, 0], [0, 0]];
  assert.deepEqual(chooseSpawn(empty, DEFAULT_WEIGHTS, drawing(8, 0)), { row: 0, col: 0, value: 2 }); // r = 8 < 9
  assert.deepEqual(chooseSpawn(empty, DEFAULT_WEIGHTS, drawing(9, 0)), { row: 0, col: 0, value: 4 }); // r = 9
  assert.deepEqual(chooseSpawn(empty, DEFAULT_WEIGHTS, drawing(19, 3)), { row: 1, col: 1, value: 4 }); // 19 mod 10 = 9
  assert.deepEqual(chooseSpawn([[2, null], [4, 0]], { 4: 1, 2: 9 }, drawing(0, 1)), { row: 1, col: 1, value: 2 }); // 2 empty: second is (1,1)
  assert.deepEqual(chooseSpawn(empty, [[8, 1], [2, 1]], drawing(1, 0)), { row: 0, col: 0, value: 8 }); // ascending: 2 then 8
  assert.deepEqual(chooseSpawn(empty, new Map([[2, 2 ** 32]]), drawing(2n ** 64n - 1n, 0)), { row: 0, col: 0, value: 2 });
  let drew = 0;
  assert.equal(chooseSpawn([[2, 4], [8, 16]], DEFAULT_WEIGHTS, { next: () => drew++ }), null);
  assert.equal(drew, 0, 'a full board draws nothing');
  for (const bad of [{}, { 3: 1 }, { 2: 0 }, { 2: 1.5 }, { 2: 2 ** 32 + 1 }, { 1: 1 }, { [2 ** 53]: 1 }, [[2, 1], [2, 1]], { 2: 2 ** 32, 4: 1 }]) {
    assert.throws(() => chooseSpawn(empty, bad, drawing(0, 0)), RangeError, JSON.stringify(bad));
  }
});

test('TP1: state, clone and what a state may be', () => {
  const a = new TP1(12345n);
  const b = a.clone();
  assert.equal(a.next(), b.next());
  const saved = a.state;
  const first = a.next();
  a.state = saved; // an undo
  assert.equal(a.next(), first);
  for (const bad of [-1n, 2n ** 64n, 5, '5']) assert.throws(() => new TP1(bad), RangeError, String(bad));
  assert.equal(new TP1(2n ** 64n - 1n).next(), new TP1(2n ** 64n - 1n).next()); // wraps, does not throw
});

test('startBoard and isTile refuse what no game has', () => {
  const rng = new TP1(1n);
  for (const o of [{ rows: 1 }, { cols: 9 }, { startTiles: 0 }, { rows: 2, cols: 2, startTiles: 5 }, { rows: 2.5 }]) {
    assert.throws(() => startBoard(rng, o), RangeError, JSON.stringify(o));
  }
  assert.equal(startBoard(rng, { rows: 2, cols: 2, startTiles: 4 }).flat().every(isTile), true);
  for (const v of [2, 4, 1024, 2 ** 52]) assert.equal(isTile(v), true, String(v));
  for (const v of [0, 1, 3, 6, 2 ** 53, -2, 2.5, '2', null]) assert.equal(isTile(v), false, String(v));
});
