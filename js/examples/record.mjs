#!/usr/bin/env node
// Records games of random play with the kit and writes them as replays,
// one JSON line each, on stdout:
//
//   node js/examples/record.mjs --games 20 --seed ci > games.jsonl
//   tileproof verify --json - < games.jsonl
//
// Game i (from 1) has the tp1 seed "SEED-i". Each move is one of the legal
// moves, picked by a generator of its own; a game ends when no move is
// left or at the first 2048 tile (the profiles differ on what winning
// does, and this player does not choose). --form spawns writes the same
// games in the spawn-recorded form: the start board and each spawn.
//
// The game played is the kit's: a 4x4 board, two start tiles, spawns of
// 2 or 4 (9 to 1) drawn by tp1. --profile takes the built-in profiles
// whose games that is (PROFILES); another is refused, since its replays
// would not verify.

import { parseArgs } from 'node:util';
import { normalizeSeed, createTP1, startBoard, chooseSpawn, DEFAULT_WEIGHTS, slide, legalMoves, maxTile, Recorder } from '../src/index.js';

const usage = 'usage: node record.mjs [--games N] [--seed S] [--profile P] [--form seeded|spawns] [--rules V]';

// PROFILES are the profiles whose games the kit's game is, with the forms
// their replays take: hallabois-4x4's seeded games spawn by its own
// generator, not tp1, so it is recorded spawn by spawn only.
const PROFILES = {
  'tile-merge': ['seeded', 'spawns'],
  classic: ['seeded', 'spawns'],
  'online-2048': ['seeded', 'spawns'],
  pgs: ['seeded', 'spawns'],
  rosetta: ['seeded', 'spawns'],
  'hallabois-v1-4x4': ['seeded', 'spawns'],
  'hallabois-4x4': ['spawns'],
};

function options() {
  const { values } = parseArgs({
    options: {
      games: { type: 'string', default: '1' },
      seed: { type: 'string', default: 'kit' },
      profile: { type: 'string', default: 'tile-merge' },
      form: { type: 'string', default: 'seeded' },
      rules: { type: 'string' },
    },
  });
  const games = Number(values.games);
  if (!Number.isInteger(games) || games < 1 || games > 100000) throw new Error(`--games ${values.games}: a whole number from 1 to 100000`);
  if (values.form !== 'seeded' && values.form !== 'spawns') throw new Error(`--form ${values.form}: seeded or spawns`);
  if (!Object.hasOwn(PROFILES, values.profile)) {
    throw new Error(`--profile ${values.profile}: this player's game (4x4, tp1's spawns) is a game of ${Object.keys(PROFILES).join(', ')} only`);
  }
  if (!PROFILES[values.profile].includes(values.form)) {
    throw new Error(`--profile ${values.profile}: its seeded games spawn by its own generator, not tp1: give --form spawns`);
  }
  normalizeSeed(values.seed); // refuses an empty seed, with the reason
  const rules = values.rules === undefined ? undefined : Number(values.rules);
  return { ...values, games, rules };
}

// play plays one game of random legal moves and returns its replay line.
async function play(seed, o, source) {
  const rng = await createTP1(seed);
  const pick = await createTP1(`${seed}/player`); // the player's choices, apart from the spawns
  let board = startBoard(rng);
  const rec = o.form === 'seeded'
    ? new Recorder({ profile: o.profile, rules: o.rules, seed, source })
    : new Recorder({ profile: o.profile, rules: o.rules, start: board, source });
  let score = 0;
  for (let legal = legalMoves(board); legal.length > 0 && maxTile(board) < 2048; legal = legalMoves(board)) {
    const direction = legal[Number(pick.next() % BigInt(legal.length))];
    const s = slide(board, direction);
    const spawn = chooseSpawn(s.board, DEFAULT_WEIGHTS, rng);
    s.board[spawn.row][spawn.col] = spawn.value;
    board = s.board;
    score += s.gained;
    rec.move(direction, spawn);
  }
  return rec.toJSONLine({ score, board });
}

async function main() {
  let o;
  try {
    o = options();
  } catch (e) {
    process.stderr.write(`record.mjs: ${e.message}\n${usage}\n`);
    process.exit(2);
  }
  for (let i = 1; i <= o.games; i++) {
    const source = `js/examples/record.mjs --seed ${o.seed} --form ${o.form}: game ${i}, random play`;
    if (!process.stdout.write(await play(`${o.seed}-${i}`, o, source))) await new Promise((r) => process.stdout.once('drain', r));
  }
}

main().catch((e) => {
  process.stderr.write(`record.mjs: ${e.message}\n`);
  process.exit(2);
});
