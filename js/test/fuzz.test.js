// Fuzz tests of the kit's decoders, with a fixed budget and a fixed seed:
// mutated protocol requests into the harness, random text into
// normalizeSeed, random values into the Recorder, mutated server answers
// into ServerGame. Whatever comes in, the
// answer is a well-formed response or the documented error, never a crash.
// FUZZ_SEED=text FUZZ_N=count runs another stream or a longer one.

import test from 'node:test';
import assert from 'node:assert/strict';
import { createSession, ERRORS } from '../src/harness.js';
import { normalizeSeed, SeedError, TP1, seedKey } from '../src/tp1.js';
import { Recorder } from '../src/recorder.js';
import { ServerGame, ServerError } from '../src/server-game.js';
import { slide, legalMoves } from '../src/rules.js';

const N = Number(process.env.FUZZ_N || 3000);
const rng = new TP1(await seedKey(process.env.FUZZ_SEED || 'kit fuzz'));
const int = (n) => Number(rng.next() % BigInt(n));
const pick = (xs) => xs[int(xs.length)];

const values = [null, true, false, 0, -1, 1.5, 2, 4, 3, 2 ** 53, 1e308, '', 'up', 'classic', '7', 'toString', '__proto__', 'hasOwnProperty', [], [[]], {}, [[2, 0], [0, 2]],
  [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]], { row: 0, col: 0, value: 2 }, { row: 9, col: -1, value: 'x' }];
const valid = [
  { id: 1, op: 'hello', protocol: 1 },
  { id: 2, op: 'new', profile: 'classic' },
  { id: 3, op: 'load', profile: 'classic', rows: 2, cols: 2, board: [[2, 2], [0, 0]], score: 0, moves: 0, won: false, keepPlaying: false },
  { id: 4, op: 'move', direction: 'left', spawn: { row: 0, col: 1, value: 2 } },
  { id: 5, op: 'legal' }, { id: 6, op: 'undo' }, { id: 7, op: 'keep-playing' },
];

// A mutation of a valid request: a field set to a random value, removed,
// or the text cut, doubled or with a character changed.
function mutate() {
  const req = structuredClone(pick(valid));
  const keys = Object.keys(req);
  switch (int(5)) {
    case 0: req[pick(keys)] = structuredClone(pick(values)); break;
    case 1: delete req[pick(keys)]; break;
    case 2: { const s = JSON.stringify(req); return s.slice(0, int(s.length + 1)); }
    case 3: { const s = JSON.stringify(req); const i = int(s.length); return s.slice(0, i) + String.fromCharCode(int(0x3000)) + s.slice(i + 1); }
    default: return JSON.stringify(req) + JSON.stringify(req);
  }
  return JSON.stringify(req);
}

// A game whose hooks are the kit's move on a real board.
function game() {
  let st = null;
  return {
    name: 'fuzz', version: '0', profiles: ['classic'], features: ['load-state', 'force-spawn', 'keep-playing', 'size:2x2'],
    newGame() { st = { board: [[2, 0], [0, 2]], score: 0, moves: 0 }; },
    load(req) { st = { board: req.board, score: req.score, moves: req.moves }; },
    move(d, spawn) {
      const s = slide(st.board, d);
      if (s.changed) {
        const t = spawn || { row: 0, col: 0, value: 2 };
        s.board[t.row][t.col] = t.value;
        st = { board: s.board, score: st.score + s.gained, moves: st.moves + 1 };
      }
      return { changed: s.changed, gained: s.gained, spawn };
    },
    legal: () => legalMoves(st.board),
    keepPlaying() {},
    state: () => ({ ...st, won: false, over: false }),
  };
}

test('the harness answers every line with one protocol response', async () => {
  const words = new Set(Object.values(ERRORS));
  const handle = createSession(game());
  await handle(JSON.stringify(valid[0]));
  for (let i = 0; i < N; i++) {
    const line = mutate();
    const out = await handle(line);
    if (out === null) { assert.equal(line.trim(), ''); continue; }
    assert.ok(!out.includes('\n'), line);
    const r = JSON.parse(out);
    assert.equal(typeof r.ok, 'boolean', line);
    let req;
    try { req = JSON.parse(line); } catch { req = undefined; }
    if (req && Number.isSafeInteger(req.id) && req.id >= 1) assert.equal(r.id, req.id, line);
    else assert.equal(r.id, null, line);
    if (!r.ok) {
      assert.ok(words.has(r.error), `${line} -> ${out}`);
      assert.notEqual(r.error, ERRORS.implError, `the harness let a hook fail on ${line}: ${r.message}`);
      assert.equal(typeof r.message, 'string');
    }
  }
});

test('normalizeSeed returns text or throws SeedError, whatever the text', () => {
  for (let i = 0; i < N; i++) {
    let s = '';
    for (let n = int(8); n > 0; n--) {
      s += pick([' ', '\u3000', '\u0085', '\ufeff', 'x', '\ud800', '\udc00', '🎲', String.fromCharCode(int(0x10000))]);
    }
    try {
      const t = normalizeSeed(s);
      assert.ok(t.length > 0 && t === normalizeSeed(t), JSON.stringify(s));
    } catch (e) {
      assert.ok(e instanceof SeedError, `${JSON.stringify(s)}: ${e}`);
    }
  }
});

test('the Recorder refuses bad values with TypeError, RangeError or SeedError only', () => {
  const fields = ['profile', 'seed', 'start', 'rules', 'setup', 'seedCommitment', 'source'];
  for (let i = 0; i < N; i++) {
    const o = { profile: 'classic', seed: '7' };
    o[pick(fields)] = structuredClone(pick(values));
    try {
      const rec = new Recorder(o);
      rec.move(pick(['up', 'U', 'x', 1, 'toString', 'constructor']), pick(values));
      if (int(2)) rec.setTimes(pick([[], [0], [2 ** 32 - 1], [2 ** 32], [-1], [1.5], ['7'], values, pick(values)]), pick([`hmac-sha256:${'0'.repeat(64)}`, `hmac-sha256:${'A'.repeat(64)}`, ...values]));
      rec.replay({ score: pick(values), board: pick(values), maxTile: pick([undefined, 2, 3]) });
    } catch (e) {
      assert.ok(e instanceof TypeError || e instanceof RangeError || e instanceof SeedError, `${JSON.stringify(o)}: ${e.stack}`);
    }
  }
});

// Answers of a signed tile-merge server, as tileproof serve gives them.
const SEAL = `hmac-sha256:${'ab'.repeat(32)}`;
const COMMIT = `sha256:${'cd'.repeat(32)}`;
function answer(extra) {
  return {
    ok: true, state: { format: 'tileproof/1', game: 'tile-merge', seal: 'x' },
    observation: { board: [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 4, 0]], score: 0, moves: 0, maxTile: 4, won: false, over: false, result: 'playing' },
    legalActions: [{ type: 'move', direction: 'left' }], score: 0, gameOver: false, timesSeal: SEAL, ...extra,
  };
}
const spec = { game: 'tile-merge', profile: 'tile-merge', rules: 1, signed: true };

// A mutation of an answer: a member (or a member of its observation) set
// to a random value or removed, or the text cut or a character changed.
function mutateAnswer(a) {
  const o = int(2) ? a : a.observation;
  const keys = Object.keys(o);
  switch (int(5)) {
    case 0: o[pick([...keys, 'thinkMs', 'seed', 'seedCommitment', 'changed', 'error'])] = structuredClone(pick([...values, 4294967296, SEAL, COMMIT, 'a\u001b[2J\u202e', '\u0000'])); break;
    case 1: delete o[pick(keys)]; break;
    case 2: { const s = JSON.stringify(a); return { status: 200, text: s.slice(0, int(s.length + 1)) }; }
    case 3: { const s = JSON.stringify(a); const i = int(s.length); return { status: pick([200, 403, 409, 500]), text: s.slice(0, i) + String.fromCharCode(int(0x3000)) + s.slice(i + 1) }; }
    default: return { status: pick([400, 409, 502]), text: JSON.stringify({ error: `bad \u001b]0;title\u0007 ${'x'.repeat(int(400))}` }) };
  }
  return { status: 200, text: JSON.stringify(a) };
}

test('ServerGame takes a well-formed answer or throws ServerError, whatever the server answers', async () => {
  for (let i = 0; i < N / 3; i++) {
    const script = [{ status: 200, text: JSON.stringify(answer({ spec })) }];
    for (let n = 0; n < 3; n++) script.push({ status: 200, text: JSON.stringify(answer({ thinkMs: 10 + n, changed: true })) });
    if (int(2)) script[2] = { status: 200, text: JSON.stringify({ ok: false, error: 'illegal-move', reason: 'moving left does not change the board', observation: answer().observation, legalActions: [], score: 0, gameOver: false }) };
    const at = int(script.length);
    script[at] = mutateAnswer(JSON.parse(script[at].text));
    let k = 0;
    const fetch = async () => {
      const { status, text } = script[k++];
      return { ok: status < 300, status, text: async () => text };
    };
    let g;
    try {
      g = await ServerGame.start('http://127.0.0.1:9/', { seed: 'fuzz', fetch });
      for (let n = 0; n < 3; n++) {
        const a = await g.move('left');
        if (a.ok === false) assert.match(a.error, /^[a-z][a-z0-9-]*$/, 'a refusal\'s error is a word');
      }
    } catch (e) {
      assert.ok(e instanceof ServerError || e instanceof SeedError, `${script[at].text}: ${e.stack}`);
      assert.ok(!/[\u0000-\u001f\u007f-\u009f\u202e]/.test(e.message), `a control character in ${JSON.stringify(e.message)}`);
      assert.ok(e.message.length < 400, e.message);
    }
    if (!g || !g.answer) continue;
    // Whatever came, what the game recorded is a time an action.
    try {
      const r = g.replay();
      assert.equal(r.times === undefined ? 0 : r.times.split(' ').filter(Boolean).length, r.moves.length, JSON.stringify(r));
    } catch (e) {
      assert.ok(e instanceof TypeError || e instanceof RangeError, `${script[at].text}: ${e.stack}`);
    }
  }
});
