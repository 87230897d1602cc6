#!/usr/bin/env node
// An exec-protocol adapter (docs/protocol.md) for 2048-webcomponent 1.1.0,
// Manuel Henke's 2048 as a web component: its engine module (the
// package's `2048-webcomponent/engine` export, lib-esm/src/engine/Engine.js
// and Board.js, the rules without the element), loaded as it is from
// node_modules (npm ci in this folder; the engine imports tslib without
// declaring it, so package.json installs it beside it). Nothing of the
// game is copied here: this file only drives it.
//
// It declares its own variant, the profile file webcomponent-2048.yaml
// beside it (classic with play going on after the win), and the features
// load-state (the engine's own createBoard with a state), force-spawn (by
// answering the engine's Math.random calls) and boards of 2 to 8 rows and
// columns (createBoard's columns and rows). The protocol itself (hello,
// ids, the checks of each request, errors) is the kit's harness,
// js/src/harness.js; this file gives it the engine's hooks.
//
// The spawns the runner does not force come from the real Math.random,
// or, with WEBCOMPONENT_2048_SEED set to a whole number, from SplitMix64
// seeded with it (the kit's TP1 generator from that state, 53 bits of each
// draw as a number in [0, 1)), so that a run repeats exactly, as
// ORIGINAL_2048_SEED does for the original's adapter.
'use strict';

const fs = require('fs');
const path = require('path');

const pkgDir = path.join(__dirname, 'node_modules', '2048-webcomponent');
const profileFile = path.join(__dirname, 'webcomponent-2048.yaml');

// The engine's empty cell is undefined; the protocol's is 0.
const rowsOf = (positions) => positions.map((row) => row.map((v) => (v === undefined ? 0 : v)));
const sameBoard = (a, b) => a.every((row, r) => row.every((v, c) => v === b[r][c]));

async function main() {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  // The profile's name, as its file states it (a top-level name: line).
  const named = /^name:[ \t]*([a-z0-9-]+)[ \t]*$/m.exec(fs.readFileSync(profileFile, 'utf8'));
  if (!named) throw new Error(`${profileFile}: no name: line`);
  const profileName = named[1];
  const { Engine, Board } = await import('2048-webcomponent/engine');
  const { Direction } = await import('2048-webcomponent/core'); // the package's core export: engine, events, types
  const { serve, Refusal, ERRORS, TP1 } = await import('../../js/src/index.js');

  const seed = process.env.WEBCOMPONENT_2048_SEED;
  let draw = Math.random;
  if (seed !== undefined && seed !== '') {
    if (!/^[0-9]+$/.test(seed)) {
      process.stderr.write(`webcomponent-2048.js: WEBCOMPONENT_2048_SEED=${seed}: not a whole number\n`);
      process.exit(2);
    }
    const rng = new TP1(BigInt.asUintN(64, BigInt(seed)));
    draw = () => Number(rng.next() >> 11n) / 2 ** 53;
  }
  // The engine draws from the global Math.random (Board.spawnNewField):
  // the answers in forced go first, the others come from draw.
  let forced = [];
  Math.random = () => (forced.length ? forced.shift() : draw());

  // One engine, as one <game-2048> element holds one (Game.js constructor).
  const engine = new Engine();
  let moves = 0; // the engine counts no moves: the adapter counts the moves that changed the board

  // During a move: the spawn to force (or null), and the tile the engine's
  // own board spawned. The engine also builds boards of its own (copies in
  // isMoveValid, each spawning two tiles as it is made); only a spawn on
  // the engine's board is forced or recorded.
  let moving = null;
  const spawnNewField = Board.prototype.spawnNewField;
  Board.prototype.spawnNewField = function () {
    if (moving === null || this.positions !== engine.positions) return spawnNewField.call(this);
    // The engine's order: the empty cells row by row, a cell drawn
    // uniformly among them, then the value, 2 below 0.9 (Board.js
    // spawnNewField). Answer both draws so that the tile lands where asked.
    const empty = [];
    this.positions.forEach((row, r) => row.forEach((v, c) => { if (v === undefined) empty.push([r, c]); }));
    if (moving.spawn) {
      const { row, col, value } = moving.spawn;
      const i = empty.findIndex(([r, c]) => r === row && c === col);
      if (i < 0) throw new Error(`the forced spawn's cell (row ${row}, col ${col}) is not empty`); // move checked it first
      forced = [(i + 0.5) / empty.length, value === 4 ? 0.95 : 0.5];
    }
    try {
      spawnNewField.call(this);
    } finally {
      forced = [];
    }
    for (const [r, c] of empty) {
      if (this.positions[r][c] !== undefined) moving.placed = { row: r, col: c, value: this.positions[r][c] };
    }
  };

  // The engine's directions (types/index.js): "UP", "DOWN", "LEFT", "RIGHT".
  const dirs = { up: Direction.Up, down: Direction.Down, left: Direction.Left, right: Direction.Right };

  function move(direction, spawn) {
    const before = rowsOf(engine.positions);
    const scoreBefore = engine.score;
    if (spawn) {
      if (spawn.value !== 2 && spawn.value !== 4) throw new Refusal(ERRORS.badSpawn, `a spawn of ${spawn.value}: this game spawns only 2 and 4`);
      // Where the forced tile must go has to be empty after the slide:
      // slide a copy (the engine's own Board) to know before the engine moves.
      const probe = new Board(before[0].length, before.length);
      probe.setState({ positions: engine.positions, score: 0 });
      probe.move(dirs[direction]);
      if (probe.positions[spawn.row][spawn.col] !== undefined && !sameBoard(rowsOf(probe.positions), before)) {
        throw new Refusal(ERRORS.badSpawn, `the spawn's cell (row ${spawn.row}, col ${spawn.col}) is not empty after moving ${direction}`);
      }
    }
    moving = { spawn, placed: null };
    let placed;
    try {
      engine.move(dirs[direction]);
    } finally {
      placed = moving.placed;
      moving = null;
    }
    // The board after differs from the board before exactly when the
    // slide changed it: a slide that changes nothing spawns nothing, and
    // after one that does, the engine keeps the slid board (the move that
    // wins) or spawns a tile, adding to the tile sum, which a slide keeps.
    const changed = !sameBoard(rowsOf(engine.positions), before);
    if (changed) moves++;
    return { changed, gained: engine.score - scoreBefore, spawn: placed };
  }

  const features = ['load-state', 'force-spawn'];
  for (let r = 2; r <= 8; r++) for (let c = 2; c <= 8; c++) features.push(`size:${r}x${c}`);

  await serve({
    name: `${pkg.name} engine (npm)`,
    version: pkg.version,
    // A profile file: hello declares its path, which the runner reads
    // relative to the directory it runs in (the one this process starts
    // in), and requests name it by the file's name.
    profiles: [{ file: path.relative(process.cwd(), profileFile), name: profileName }],
    features,
    // A new game as the element starts one: createBoard with its default
    // columns and rows, 4 and 4 (Game.js constructor and createGameBoard).
    // createBoard calls restart, which keeps isPast2048 as it was.
    newGame() {
      engine.createBoard(4, 4);
      moves = 0;
    },
    // A given state as the element's setGameModeConfiguration loads one:
    // createBoard with {positions, score}. The engine keeps the win only
    // in isPast2048, which createBoard leaves alone: set it from won.
    load(req) {
      const positions = req.board.map((row) => row.map((v) => (v === 0 ? undefined : v)));
      engine.createBoard(req.cols, req.rows, { positions, score: req.score });
      engine.isPast2048 = req.won;
      moves = req.moves;
    },
    move,
    // The legal moves: the directions the engine's own isMoveValid allows
    // (none once isGameOver, as Engine.move ignores every move then).
    legal: () => Object.keys(dirs).filter((d) => engine.isMoveValid(dirs[d])),
    // The game never stops at the win (Engine.move plays on), so there is
    // never a stop to keep playing from.
    keepPlaying() {
      throw new Refusal(ERRORS.notStopped, 'play never stops at the win in this game');
    },
    state: () => ({
      board: rowsOf(engine.positions),
      score: engine.score,
      moves,
      won: engine.isPast2048,
      over: engine.isGameOver,
      result: engine.isGameOver ? 'no-moves' : 'playing',
    }),
  });
}

main().catch((e) => {
  process.stderr.write(`webcomponent-2048.js: ${(e && e.stack) || e}\n`);
  process.exit(2);
});
