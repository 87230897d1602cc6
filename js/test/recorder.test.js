// The recorder's replays against the JSON Schema of replays
// (docs/replay.schema.json) and the format of docs/replay-format.md.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { Recorder } from '../src/recorder.js';
import { seedCommitment } from '../src/tp1.js';

const schema = JSON.parse(readFileSync(new URL('../../docs/replay.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv2020({ allErrors: true }).compile(schema);
const vectors = JSON.parse(readFileSync(new URL('./vectors/tp1.json', import.meta.url), 'utf8'));
const game = vectors.games[0]; // seed 7, 4x4, the engine's moves and spawns

function finalBoard(g) {
  const s = g.steps[g.steps.length - 1];
  const b = s.after.map((row) => [...row]);
  b[s.spawn.row][s.spawn.col] = s.spawn.value;
  return b;
}

function valid(line) {
  assert.ok(line.endsWith('\n') && !line.slice(0, -1).includes('\n'), 'one line');
  const replay = JSON.parse(line);
  assert.ok(validate(replay), JSON.stringify(validate.errors));
  return replay;
}

const claim = {
  score: game.steps.reduce((s, st) => s + st.gained, 0),
  board: finalBoard(game),
};

test('seeded: the moves as letters, tp1 pinned, valid against the schema', () => {
  const rec = new Recorder({ profile: 'tile-merge', seed: '  7 ', rules: 1, source: 'recorder.test.js' });
  for (const s of game.steps) rec.move(s.direction, s.spawn);
  const r = valid(rec.toJSONLine(claim));
  assert.deepEqual(Object.keys(r), ['profile', 'rules', 'rng', 'seed', 'moves', 'claim', 'source']);
  assert.equal(r.seed, '7', 'the seed is written trimmed');
  assert.equal(r.rng, 'tp1');
  assert.equal(r.moves, game.steps.map((s) => s.direction[0].toUpperCase()).join(''));
  assert.deepEqual(r.claim, { score: claim.score, maxTile: Math.max(...claim.board.flat()), moves: game.steps.length, board: claim.board });
});

test('spawn-recorded: each move with its spawn as CELL:VALUE, valid against the schema', () => {
  const rec = new Recorder({ profile: 'classic', start: game.start });
  for (const s of game.steps) rec.move(s.direction, s.spawn);
  const r = valid(rec.toJSONLine({ ...claim, won: false, over: false, result: 'playing' }));
  assert.deepEqual(Object.keys(r), ['profile', 'start', 'moves', 'claim']);
  assert.deepEqual(r.start, game.start);
  const tokens = r.moves.split(' ');
  assert.equal(tokens.length, game.steps.length);
  const first = game.steps[0];
  assert.equal(tokens[0], `${first.direction[0].toUpperCase()}${first.spawn.row * 4 + first.spawn.col}:${first.spawn.value}`);
  assert.equal(tokens[0], 'D2:2'); // docs/replay-format.md: row-major, row 0 is cells 0 to 3
  assert.deepEqual([r.claim.won, r.claim.over, r.claim.result], [false, false, 'playing']);
  // The cell index uses the board's width: on a 3x5 board row 1, column 0 is cell 5.
  const wide = new Recorder({ profile: 'p', start: [[2, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 2]] });
  wide.move('left', { row: 1, col: 0, value: 4 });
  assert.equal(wide.log, 'L5:4');
});

test('undo, End run and keep playing: letters that stand alone, and the counted moves', () => {
  const rec = new Recorder({ profile: 'online-2048', start: [[2, 2], [0, 0]] });
  rec.move('L', { row: 1, col: 1, value: 2 });
  rec.undo();
  rec.move('right', { row: 0, col: 0, value: 4 });
  rec.keepPlaying();
  rec.endRun();
  assert.equal(rec.log, 'L3:2 Z R0:4 K E');
  assert.equal(rec.moves, 1);
  const r = valid(rec.toJSONLine({ score: 4, maxTile: 4 }));
  assert.equal(r.claim.moves, 1);
  assert.throws(() => new Recorder({ profile: 'x', seed: 'a' }).undo(), /no counted move/);
});

test('a commitment and a setup are written as given, in the canonical order', async () => {
  const c = await seedCommitment('secret seed');
  const rec = new Recorder({ profile: 'online-2048', seed: 'secret seed', setup: { target: 512, openEnded: true }, seedCommitment: c.toUpperCase().replace('SHA256', 'sha256') });
  rec.move('up');
  const r = valid(rec.toJSONLine({ score: 0, maxTile: 4, moves: 1 }));
  assert.deepEqual(Object.keys(r), ['profile', 'rng', 'setup', 'seed', 'seedCommitment', 'moves', 'claim']);
  assert.equal(r.seedCommitment, c, 'lower case');
  assert.deepEqual(r.setup, { target: 512, openEnded: true });
});

test('the claim: the game\'s own figures; maxTile from the board unless given', () => {
  const rec = new Recorder({ profile: 'classic', seed: 7 });
  rec.move('down');
  assert.equal(rec.replay({ score: 0, board: [[0, 0], [2, 8]] }).claim.maxTile, 8);
  assert.equal(rec.replay({ score: 4, maxTile: 16, moves: 9 }).claim.maxTile, 16);
  assert.equal(rec.replay({ score: 4, maxTile: 16, moves: 9 }).claim.moves, 9);
  assert.equal(rec.replay({ score: 0, board: [[null, 0], [2, 0]] }).claim.board[0][0], 0);
  for (const bad of [{}, { score: -4, maxTile: 2 }, { score: 1.5, maxTile: 2 }, { score: 4 }, { score: 4, maxTile: 3 },
    { score: 4, board: [[2, 3], [0, 0]] }, { score: 4, maxTile: 4, won: 'yes' }, { score: 4, maxTile: 4, result: 'won' },
    { score: 4, maxTile: 4, moves: -1 }]) {
    assert.throws(() => rec.replay(bad), Error, JSON.stringify(bad));
  }
});

test('what the recorder refuses', () => {
  const bad = [
    {}, { profile: 'classic' }, { profile: 'Classic!', seed: '7' }, { profile: 'classic', seed: '7', start: [[0, 0], [0, 0]] },
    { profile: 'classic', seed: '' }, { profile: 'classic', seed: '7', rules: 0 },
    { profile: 'classic', start: [[0, 0, 0]] }, { profile: 'classic', start: [[0, 0], [0]] }, { profile: 'classic', start: [[0, 5], [0, 0]] },
    { profile: 'classic', start: [[2, 0], [0, 0]], seedCommitment: 'sha256:' + '0'.repeat(64) },
    { profile: 'classic', seed: '7', seedCommitment: 'sha256:abc' }, { profile: 'classic', seed: '7', setup: { target: 500 } },
    { profile: 'classic', seed: '7', setup: { colour: 'red' } },
  ];
  for (const o of bad) assert.throws(() => new Recorder(o), Error, JSON.stringify(o));
  const rec = new Recorder({ profile: 'classic', start: [[2, 0], [0, 2]] });
  for (const [d, s] of [['north', { row: 0, col: 1, value: 2 }], ['toString', { row: 0, col: 1, value: 2 }], ['up'], ['up', { row: 2, col: 0, value: 2 }],
    ['up', { row: 0, col: -1, value: 2 }], ['up', { row: 0, col: 1, value: 3 }], ['up', { row: '0', col: 1, value: 2 }]]) {
    assert.throws(() => rec.move(d, s), RangeError, JSON.stringify([d, s]));
  }
  assert.equal(rec.log, '', 'a refused move is not recorded');
  // A string where a number goes is quoted in the message, not shown as
  // the number it spells.
  assert.throws(() => new Recorder({ profile: 'classic', seed: '7', rules: '1' }), { message: 'rules "1" is not a version (1, 2, ...)' });
  const seeded = new Recorder({ profile: 'classic', seed: '7' });
  assert.throws(() => seeded.replay({ score: '4', maxTile: 4 }), { message: 'claim: score "4" is not a whole number from 0 to 2^53-1' });
  assert.throws(() => seeded.replay({ score: NaN, maxTile: 4 }), { message: 'claim: score NaN is not a whole number from 0 to 2^53-1' });
  assert.throws(() => seeded.replay({ score: 0, maxTile: '4' }), { message: 'claim: maxTile "4" is not a tile' });
});

test('think times: one a logged action, after the moves, valid against the schema', () => {
  const seal = `hmac-sha256:${'5f'.repeat(32)}`;
  const rec = new Recorder({ profile: 'online-2048', seed: 'timed' });
  rec.move('left');
  rec.undo();
  rec.move('up');
  rec.endRun();
  assert.throws(() => rec.setTimes([1, 2, 3], seal), /one a logged action, 4/);
  assert.throws(() => rec.setTimes([1, 2, 3, 2 ** 32], seal), /time 4/);
  assert.throws(() => rec.setTimes([1, 2, 3, 4], seal.toUpperCase()), /timesSeal/);
  rec.setTimes([812, 0, 95, 4294967295], seal);
  const r = valid(rec.toJSONLine({ score: 0, maxTile: 4 }));
  assert.deepEqual(Object.keys(r), ['profile', 'rng', 'seed', 'moves', 'times', 'timesSeal', 'claim']);
  assert.equal(r.times, '812 0 95 4294967295');
  assert.equal(r.timesSeal, seal);
  rec.move('down'); // an action after the times: they no longer fit the log
  assert.throws(() => rec.replay({ score: 0, maxTile: 4 }), /4 for the log's 5 actions/);
});
