// The move against the engine's games (vectors/tp1.json) and the line
// rules of docs/profiles.md.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { slide, legalMoves, maxTile } from '../src/rules.js';

const vectors = JSON.parse(readFileSync(new URL('./vectors/tp1.json', import.meta.url), 'utf8'));

test('each step of the engine games: the slide, its points and the legal moves before it', () => {
  let steps = 0;
  for (const g of vectors.games) {
    let board = g.start;
    g.steps.forEach((s, i) => {
      const what = `${g.seed}, step ${i + 1}`;
      assert.deepEqual(legalMoves(board), s.legal, what);
      const r = slide(board, s.direction);
      assert.deepEqual(r.board, s.after, what);
      assert.equal(r.gained, s.gained, what);
      assert.equal(r.changed, true, what);
      board = s.after.map((row) => [...row]);
      board[s.spawn.row][s.spawn.col] = s.spawn.value;
      steps++;
    });
  }
  assert.ok(steps > 150);
});

test('lines: non-greedy merging, the pair nearest the edge first', () => {
  const left = (line) => slide([line, line.map(() => 0)], 'left');
  const cases = [
    [[2, 2, 2, 2], [4, 4, 0, 0], 8],
    [[2, 2, 2, 0], [4, 2, 0, 0], 4],
    [[0, 2, 2, 2], [4, 2, 0, 0], 4],
    [[2, 2, 4, 0], [4, 4, 0, 0], 4],
    [[4, 4, 8, 8], [8, 16, 0, 0], 24],
    [[2, 0, 0, 2], [4, 0, 0, 0], 4],
    [[2, 4, 2, 4], [2, 4, 2, 4], 0],
    [[2, null, 2, 8, 8], [4, 16, 0, 0, 0], 20],
    [[2 ** 51, 2 ** 51], [2 ** 52, 0], 2 ** 52],
  ];
  for (const [line, want, gained] of cases) {
    const r = left(line);
    assert.deepEqual(r.board[0], want, JSON.stringify(line));
    assert.equal(r.gained, gained, JSON.stringify(line));
    assert.equal(r.changed, JSON.stringify(line.map((v) => v || 0)) !== JSON.stringify(want), JSON.stringify(line));
  }
  // The same line toward the other edges: the pair nearest that edge merges.
  assert.deepEqual(slide([[2, 2, 2, 0], [0, 0, 0, 0]], 'right').board[0], [0, 0, 2, 4]);
  const column = [[2, 0], [2, 0], [2, 0]];
  assert.deepEqual(slide(column, 'up').board.map((r) => r[0]), [4, 2, 0]);
  assert.deepEqual(slide(column, 'down').board.map((r) => r[0]), [0, 2, 4]);
});

test('a board that cannot move, and the input left unchanged', () => {
  const blocked = [[2, 4], [4, 2]];
  assert.deepEqual(legalMoves(blocked), []);
  for (const d of ['up', 'down', 'left', 'right']) assert.equal(slide(blocked, d).changed, false, d);
  const board = [[2, 2], [0, 0]];
  slide(board, 'left');
  assert.deepEqual(board, [[2, 2], [0, 0]]);
  assert.throws(() => slide(board, 'L'), RangeError);
  assert.equal(maxTile([[0, 8], [1024, 2]]), 1024);
  assert.equal(maxTile([[0, 0], [0, 0]]), 0);
});
