#!/usr/bin/env node
// An exec adapter (docs/protocol.md) written with the kit: a complete
// implementation of the tile-merge profile, whose spawns are tp1's, in the
// kit's move and generator. The harness speaks the protocol and checks a
// forced spawn (its cell and value); this file is only the game.
//
//   tileproof conform --impl 'exec:node js/examples/adapter.mjs' --profile tile-merge

import { serve, Refusal, ERRORS, slide, legalMoves, maxTile, createTP1, chooseSpawn, startBoard, DEFAULT_WEIGHTS } from '../src/index.js';

const WIN = 2048; // tile-merge: reaching it is a milestone, play goes on
const MAX_TILE = 2 ** 52; // the largest tile a game may hold (docs/protocol.md)

const features = ['load-state', 'force-spawn', 'seed-tp1'];
for (let r = 2; r <= 8; r++) for (let c = 2; c <= 8; c++) features.push(`size:${r}x${c}`);

let game = null;
let games = 0; // a game without a seed gets one of its own: own-1, own-2, ...

// finish brings won and the result up to date after a move or a load.
function finish(g) {
  if (maxTile(g.board) >= WIN) g.won = true;
  if (legalMoves(g.board).length === 0) g.result = 'no-moves';
}

serve({
  name: 'tileproof-kit example adapter',
  version: '0.1.0',
  profiles: ['tile-merge'],
  features,
  async newGame({ seed }) {
    const rng = await createTP1(seed === undefined ? `own-${++games}` : seed);
    game = { board: startBoard(rng), score: 0, moves: 0, won: false, result: 'playing', rng };
    finish(game);
  },
  async load({ board, score, moves, won }) {
    game = { board, score, moves, won, result: 'playing', rng: await createTP1(`own-${++games}`) };
    finish(game);
  },
  move(direction, spawn) {
    if (game.result !== 'playing') throw new Refusal(ERRORS.finished, `the run is over (${game.result})`);
    const s = slide(game.board, direction);
    if (!s.changed) {
      throw new Refusal(ERRORS.illegalMove, `moving ${direction} does not change the board; legal moves: ${legalMoves(game.board).join(', ')}`);
    }
    if (maxTile(s.board) > MAX_TILE || game.score + s.gained > Number.MAX_SAFE_INTEGER) {
      throw new Refusal(ERRORS.overflow, `moving ${direction} would make a tile above 2^52 or a score above 2^53-1`);
    }
    // A forced spawn is one the slide allows: the harness has checked it.
    const tile = spawn || chooseSpawn(s.board, DEFAULT_WEIGHTS, game.rng);
    s.board[tile.row][tile.col] = tile.value;
    game.board = s.board;
    game.score += s.gained;
    game.moves++;
    finish(game);
    return { changed: true, gained: s.gained, spawn: tile };
  },
  legal() {
    return game.result === 'playing' ? legalMoves(game.board) : [];
  },
  state() {
    const { board, score, moves, won, result } = game;
    return { board, score, moves, won, over: result !== 'playing', result };
  },
});
