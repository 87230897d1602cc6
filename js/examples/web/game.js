// The example page's game (docs/web.md): 2048 under the tile-merge
// profile, its spawns drawn by the kit's tp1 from the seed the server
// gave, each move recorded; at the end the replay goes to the server,
// which verifies it and answers the verdict.

import { createTP1, startBoard, chooseSpawn, DEFAULT_WEIGHTS, slide, legalMoves, Recorder } from './kit/index.js';

const KEYS = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right', w: 'up', s: 'down', a: 'left', d: 'right' };
const $ = (id) => document.getElementById(id);
let game = null;

function draw() {
  $('board').replaceChildren(...game.board.flat().map((v) => {
    const cell = document.createElement('div');
    cell.className = v > 64 ? 'cell big' : 'cell';
    cell.dataset.value = v;
    cell.textContent = v || '';
    return cell;
  }));
  $('score').textContent = game.score;
  $('commitment').textContent = game.seedCommitment;
}

async function newGame() {
  document.body.dataset.state = 'loading';
  $('verdict').textContent = '';
  const res = await fetch('api/games', { method: 'POST' });
  if (!res.ok) throw new Error(`the server answered ${res.status} to a new game`);
  const { id, seed, seedCommitment, profile, rules } = await res.json();
  const rng = await createTP1(seed);
  game = {
    id, rng, seedCommitment, board: startBoard(rng), score: 0, over: false, sent: false,
    recorder: new Recorder({ profile, rules, seed, seedCommitment, source: 'js/examples/web' }),
  };
  draw();
  document.body.dataset.state = 'playing';
}

function play(direction) {
  if (!game || game.over || game.sent) return;
  const s = slide(game.board, direction);
  if (!s.changed) return; // a key that moves nothing is not a move, and is not recorded
  const spawn = chooseSpawn(s.board, DEFAULT_WEIGHTS, game.rng);
  s.board[spawn.row][spawn.col] = spawn.value;
  game.board = s.board;
  game.score += s.gained;
  game.recorder.move(direction);
  game.over = legalMoves(game.board).length === 0;
  draw();
  if (game.over) submit().catch(failed);
}

async function submit() {
  if (!game || game.sent) return;
  game.sent = true;
  document.body.dataset.state = 'sending';
  const line = game.recorder.toJSONLine({ score: game.score, board: game.board, over: game.over });
  let res;
  try {
    res = await fetch(`api/games/${game.id}/replay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: line });
  } catch (e) {
    game.sent = false; // not sent (the network): Submit sends it again
    throw e;
  }
  const verdict = await res.json();
  if (res.status === 503) {
    game.sent = false; // the server kept the game open: Submit sends it again
    throw new Error(verdict.error);
  }
  if (res.status !== 200) {
    // Refused before the verifier: no verdict. A 400, 413 or 422 leaves
    // the game open (Submit sends it again); a 404 is a game closed.
    game.sent = res.status === 404;
    throw new Error(`the server refused the replay (${res.status}): ${verdict.error}`);
  }
  $('verdict').textContent = verdict.valid
    ? `Verified: ${verdict.proved}. Stored as sha256 ${verdict.sha256}.`
    : `Not verified: ${verdict.reason || verdict.error}`;
  document.body.dataset.state = verdict.valid ? 'verified' : 'rejected';
}

document.addEventListener('keydown', (e) => {
  const d = KEYS[e.key];
  if (d && !e.altKey && !e.ctrlKey && !e.metaKey) {
    e.preventDefault();
    play(d);
  }
});
// failed shows an error of the server or the network instead of the game.
const failed = (e) => {
  $('verdict').textContent = `Error: ${e.message}`;
  document.body.dataset.state = 'error';
};
$('new').addEventListener('click', () => newGame().catch(failed));
$('submit').addEventListener('click', () => submit().catch(failed));
newGame().catch(failed);
