#!/usr/bin/env node
// Plays games through the Tile Merge API of `tileproof serve` with the
// kit's ServerGame, and writes each as a replay, one JSON line, on stdout.
// From a signed server the replays carry each action's think time, as
// the server measured it, and its times seal:
//
//   head -c 32 /dev/urandom | base64 > key
//   tileproof serve --key-file key &
//   node js/examples/serve-play.mjs --games 3 --think 20 > games.jsonl
//   tileproof verify --times-key-file key games.jsonl
//   tileproof analyze --times-key-file key games.jsonl
//
// Each move is one of the legal moves, picked by a tp1 generator of its
// own (--player-seed); before each the player waits --think ms and
// --think-per-cell ms for each filled cell, so that its times follow the
// board's crowding as a person's might. Without --seed a signed server
// draws the seed and reveals it at the end: each game is played to its
// end. With --seed S, game i has the seed "S-i" and --max-moves may stop
// it early.

import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServerGame, createTP1, normalizeSeed } from '../src/index.js';

const usage = 'usage: node serve-play.mjs [--url URL] [--game G] [--games N] [--seed S] [--max-moves N] [--think MS] [--think-per-cell MS] [--player-seed S]';

function options() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:8048' },
      game: { type: 'string', default: 'tile-merge' },
      games: { type: 'string', default: '1' },
      seed: { type: 'string' },
      'max-moves': { type: 'string', default: '0' },
      think: { type: 'string', default: '0' },
      'think-per-cell': { type: 'string', default: '0' },
      'player-seed': { type: 'string', default: 'serve-play' },
    },
  });
  const count = (k, max) => {
    const n = Number(values[k]);
    if (!Number.isInteger(n) || n < 0 || n > max) throw new Error(`--${k} ${values[k]}: a whole number from 0 to ${max}`);
    return n;
  };
  const o = { ...values, games: count('games', 100000), maxMoves: count('max-moves', 1e9), think: count('think', 60000), perCell: count('think-per-cell', 60000) };
  if (o.games < 1) throw new Error('--games: 1 or more');
  if (o.seed !== undefined) normalizeSeed(o.seed); // refuses an empty seed, with the reason
  else if (o.maxMoves > 0) throw new Error('--max-moves needs --seed: a seed the server draws is revealed only at the end of the game');
  normalizeSeed(o['player-seed']);
  return o;
}

// play plays one game and returns its replay line.
async function play(o, i, pick) {
  const source = `js/examples/serve-play.mjs --game ${o.game}: game ${i}, random play through ${new URL(o.url).host}`;
  const g = await ServerGame.start(o.url, { game: o.game, seed: o.seed === undefined ? undefined : `${o.seed}-${i}`, source });
  for (let n = 0; !g.over && (o.maxMoves === 0 || n < o.maxMoves); n++) {
    const moves = g.legalActions.filter((a) => a.type === 'move');
    const a = moves.length > 0 ? moves[Number(pick.next() % BigInt(moves.length))] : g.legalActions[0];
    if (a === undefined) break;
    const filled = g.observation.board.flat().filter((v) => v).length;
    if (o.think + o.perCell > 0) await sleep(o.think + o.perCell * filled);
    const answer = await g.act(a);
    if (answer.ok === false) throw new Error(`the server refused a legal action: ${answer.error}`); // a word: ServerGame checks it
  }
  return g.toJSONLine();
}

let o; // the options

async function main() {
  try {
    o = options();
  } catch (e) {
    process.stderr.write(`serve-play.mjs: ${e.message}\n${usage}\n`);
    process.exit(2);
  }
  const pick = await createTP1(o['player-seed']);
  for (let i = 1; i <= o.games; i++) {
    if (!process.stdout.write(await play(o, i, pick))) await new Promise((r) => process.stdout.once('drain', r));
  }
}

main().catch((e) => {
  // fetch's own failure, the server not reached, is a TypeError saying
  // only "fetch failed": say where, and why (its cause).
  const why = e instanceof TypeError && e.message === 'fetch failed'
    ? `cannot reach ${o.url} (${e.cause?.code || e.cause?.message || e.message}): is tileproof serve running there? (--url names another)`
    : e.message;
  process.stderr.write(`serve-play.mjs: ${why}\n`);
  process.exit(1);
});
