#!/usr/bin/env node
// An exec-protocol adapter (docs/protocol.md) for the npm package 2048
// 0.2.2, Wang Qiu's terminal 2048 (winsonwq/2048term): its Game
// (lib/game.js), with lib/table_calc.js and lib/row_calc.js, loaded as it
// is from node_modules (npm ci in this folder). Nothing of the game is
// copied here: this file only drives it.
//
// The game is driven as a player drives it: each move is the arrow key's
// escape sequence written to the game's input stream, which the package's
// own keypress listener (Game.prototype.start) turns into the slide, the
// score, the spawn and the redraw. Only the redraw is replaced: the real
// render draws the table, and at "Game Over!" or "You Win!" saves the
// score to score.txt and exits the process; here it records that end
// instead, by the same getResult test. The high score is not read from
// score.txt either (it is only drawn).
//
// It declares its own variant, the profile file 2048term.yaml beside it
// (classic with the package's spawn weights, a win that ends the game,
// and the win checked before game over), and the features load-state
// (the game's whole state, its table and score, set on a Game before its
// start) and force-spawn (by answering the game's Math.random calls). The
// protocol itself (hello, ids, the checks of each request, errors) is the
// kit's harness, js/src/harness.js; this file gives it the game's hooks.
//
// The spawns the runner does not force come from the real Math.random,
// or, with TERM_2048_SEED set to a whole number, from SplitMix64 seeded
// with it (the kit's TP1 generator from that state, 53 bits of each draw
// as a number in [0, 1)), so that a run repeats exactly, as
// ORIGINAL_2048_SEED does for the original's adapter.
'use strict';

const fs = require('fs');
const path = require('path');
const { EventEmitter } = require('events');

const pkgDir = path.dirname(require.resolve('2048/package.json', { paths: [__dirname] }));
const profileFile = path.join(__dirname, '2048term.yaml');

async function main() {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const named = /^name:[ \t]*([a-z0-9-]+)[ \t]*$/m.exec(fs.readFileSync(profileFile, 'utf8'));
  if (!named) throw new Error(`${profileFile}: no name: line`);
  const profileName = named[1];
  const Game = require(path.join(pkgDir, 'lib', 'game.js'));
  const { serve, Refusal, ERRORS, TP1 } = await import('../../js/src/index.js');

  const seed = process.env.TERM_2048_SEED;
  let draw = Math.random;
  if (seed !== undefined && seed !== '') {
    if (!/^[0-9]+$/.test(seed)) {
      process.stderr.write(`2048term.js: TERM_2048_SEED=${seed}: not a whole number\n`);
      process.exit(2);
    }
    const rng = new TP1(BigInt.asUintN(64, BigInt(seed)));
    draw = () => Number(rng.next() >> 11n) / 2 ** 53;
  }
  // The game draws from the global Math.random (Game.prototype.nextPosition
  // and addRandomNum): the answers in forced go first, the others come
  // from draw.
  let forced = [];
  Math.random = () => (forced.length ? forced.shift() : draw());

  // The redraw: what render decides, without drawing, saving or exiting.
  // render (lib/game.js) asks getResult of the board after the move and
  // its spawn: win -2 is "Game Over!", win 1 "You Win!", and either ends
  // the program (process.exit(0)).
  Game.prototype.render = function () {
    const r = this.getResult();
    if (r.win === -2) this.ended = 'no-moves';
    else if (r.win === 1) this.ended = 'target-reached';
  };
  Game.prototype.readHighestScore = () => 0;
  Game.prototype.saveScore = () => {};

  // Each spawn: the cell empty before and full after is the tile placed.
  // spawning: the spawn to force on the next addRandomNum, or null; quiet
  // leaves a Game being built without its start tiles (a loaded state).
  let spawning = null;
  let placed = null;
  let quiet = false;
  const addRandomNum = Game.prototype.addRandomNum;
  Game.prototype.addRandomNum = function () {
    if (quiet) return;
    const n = this.dimension;
    const empty = [];
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (!this.table[r][c]) empty.push([r, c]);
    if (spawning) {
      // The game's order: nextPosition draws a row, then a column, each
      // parseInt(Math.random() * 4), again until the cell is empty; then
      // the value, a 4 when Math.random() * 10 > 6. Answer the three
      // draws so that the tile lands where asked.
      const { row, col, value } = spawning;
      forced = [(row + 0.5) / n, (col + 0.5) / n, value === 4 ? 0.95 : 0.3];
    }
    try {
      addRandomNum.call(this);
    } finally {
      forced = [];
    }
    for (const [r, c] of empty) if (this.table[r][c]) placed = { row: r, col: c, value: this.table[r][c] };
  };

  // A Game as the program makes one (index.js: new Game(stdin, stdout),
  // then start()), on an input stream of our own that the package's
  // keypress listener reads, and an output that draws nothing.
  const output = { write() {} };
  function startGame(table, score) {
    const input = new EventEmitter();
    let g;
    if (table) {
      quiet = true;
      try {
        g = new Game(input, output);
      } finally {
        quiet = false;
      }
      g.table = table.map((row) => row.slice());
      g.score = score;
    } else {
      g = new Game(input, output);
    }
    g.ended = null;
    g.start(); // the keypress listener, and the first render: a state no move is left on, or with a 2048, ends here
    return g;
  }

  // The keys the game reads (lib/game.js, start: key.name up, down, left,
  // right), as a terminal sends them.
  const keys = { up: '\x1b[A', down: '\x1b[B', right: '\x1b[C', left: '\x1b[D' };
  const press = (g, direction) => g.input.emit('data', Buffer.from(keys[direction]));
  const copyTable = (g) => g.table.map((row) => row.slice());
  const same = (a, b) => a.every((row, r) => row.every((v, c) => v === b[r][c]));

  let game = null;
  let won = false; // the game ended at "You Win!", or was loaded won
  let moves = 0; // the game counts no moves: the adapter counts the moves that changed the board

  function move(direction, spawn) {
    // After "You Win!" or "Game Over!" the program has exited: no key
    // reaches the game any more, so a move changes nothing.
    if (game.ended) return { changed: false, gained: 0, spawn: null };
    const before = copyTable(game);
    const scoreBefore = game.score;
    spawning = spawn;
    placed = null;
    try {
      press(game, direction);
    } finally {
      spawning = null;
    }
    const changed = !same(game.table, before);
    if (changed) moves++;
    if (game.ended === 'target-reached') won = true;
    return { changed, gained: game.score - scoreBefore, spawn: changed ? placed : null };
  }

  // The legal moves: the keys that change the board, each pressed on a
  // copy of the game (its spawn left out); none once the game has ended.
  function legal() {
    if (game.ended) return [];
    return Object.keys(keys).filter((d) => {
      const copy = startGame(copyTable(game), game.score);
      copy.addRandomNum = () => {};
      const before = copyTable(copy);
      press(copy, d);
      return !same(copy.table, before);
    });
  }

  await serve({
    name: `2048term (npm ${pkg.name})`,
    version: pkg.version,
    // A profile file: hello declares its path, which the runner reads
    // relative to the directory it runs in (the one this process starts
    // in), and requests name it by the file's name.
    profiles: [{ file: path.relative(process.cwd(), profileFile), name: profileName }],
    features: ['load-state', 'force-spawn'],
    newGame() {
      game = startGame(null, 0);
      won = false;
      moves = 0;
    },
    // The game keeps no state but its table and score (it saves none and
    // loads none): a given state is a Game with that table and score,
    // started as the program starts one. A state won is one the program
    // has ended at "You Win!"; the game keeps no other sign of the win.
    load(req) {
      game = startGame(req.board, req.score);
      won = req.won || game.ended === 'target-reached';
      if (req.won && !game.ended) game.ended = 'target-reached';
      moves = req.moves;
    },
    move,
    legal,
    // "You Win!" ends the program: there is no playing on.
    keepPlaying() {
      throw new Refusal(ERRORS.notStopped, 'the game ends at the win: there is no keep playing');
    },
    state: () => ({
      board: copyTable(game),
      score: game.score,
      moves,
      won,
      over: game.ended !== null,
      result: game.ended || 'playing',
    }),
  });
}

main().catch((e) => {
  process.stderr.write(`2048term.js: ${(e && e.stack) || e}\n`);
  process.exit(2);
});
