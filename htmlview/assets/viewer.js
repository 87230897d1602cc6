// The replay viewer: draws the frame of the chosen step from the JSON
// data in #tp-data (see htmlview/replay.go, type data).
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("tp-data").textContent);
  var DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  var NAMES = { U: "up", D: "down", L: "left", R: "right", Z: "undo", E: "End run", K: "keep playing", "-": "none (the start)" };
  var frames = D.board.length;
  var extra = D.div && D.div.board ? 1 : 0; // the refused action's step, past the frames
  var last = frames + extra - 1;
  var $ = function (id) { return document.getElementById(id); };
  var slider = $("slider");
  var cur = -1;

  function value(code, i) {
    var e = DIGITS.indexOf(code.charAt(i));
    return e <= 0 ? 0 : Math.pow(2, e);
  }
  function tileClass(v) {
    if (!v) { return "t0"; }
    var e = Math.round(Math.log2(v));
    return "t" + DIGITS.charAt(Math.min(e, 13));
  }
  // Rows, columns and cells count from 0, as in verdicts and spawn logs.
  function rc(cell) { return "cell " + cell + " (row " + Math.floor(cell / D.cols) + ", column " + cell % D.cols + ")"; }

  // draw fills a board element: a cell div a cell, with data-value, the
  // class "bad" on marked cells and "new" on the tile that appeared.
  function draw(el, code, marks, spawn, notes) {
    var n = D.rows * D.cols;
    if (el.children.length !== n) {
      el.textContent = "";
      el.style.gridTemplateColumns = "repeat(" + D.cols + ", auto)";
      for (var k = 0; k < n; k++) {
        var c = document.createElement("div");
        c.dataset.cell = k;
        el.appendChild(c);
      }
    }
    for (var i = 0; i < n; i++) {
      var v = value(code, i);
      var cell = el.children[i];
      cell.className = "c " + tileClass(v) + (i === spawn ? " new" : "") + (marks.indexOf(i) >= 0 ? " bad" : "");
      cell.textContent = v ? String(v) : "";
      cell.dataset.value = v;
      if (notes && notes[i]) { cell.dataset.note = notes[i]; } else { delete cell.dataset.note; }
    }
  }

  function maxTile(code) {
    var m = 0;
    for (var i = 0; i < code.length; i++) { m = Math.max(m, value(code, i)); }
    return m;
  }

  function show(i) {
    i = Math.max(0, Math.min(last, i | 0));
    cur = i;
    slider.value = String(i);
    var past = extra && i === frames; // the refused action
    var f = past ? frames - 1 : i;
    var code = past ? D.div.board : D.board[i];
    var atDiv = D.div && i === D.div.step;
    var marks = atDiv ? D.div.cells : [];
    var spawn = !past && D.spawn[i][1] ? D.spawn[i][0] : -1;
    var notes = null;
    if (past && D.div.spawn) {
      notes = {};
      notes[D.div.spawn[0]] = "+" + D.div.spawn[1] + "?";
    }
    var board = $("board");
    draw(board, code, marks, spawn, notes);
    board.dataset.step = i;
    $("cap").textContent = past ? "after the slide of action " + i + ", refused" : (i === 0 ? "the start" : "after action " + i);
    $("f-step").textContent = i + " of " + last;
    $("f-moves").textContent = D.moves[f];
    $("f-score").textContent = D.score[f];
    $("f-action").textContent = past ? NAMES[D.div.letter] + " (refused)" : (i === 0 ? NAMES["-"] : NAMES[D.act.charAt(i)]);
    $("f-gained").textContent = past || i === 0 ? "-" : D.gained[i];
    $("f-spawn").textContent = past ? (D.div.spawn ? "recorded: " + D.div.spawn[1] + " at " + rc(D.div.spawn[0]) : "-")
      : (spawn >= 0 ? D.spawn[i][1] + " at " + rc(spawn) : "none");
    $("f-max").textContent = maxTile(code);
    $("f-result").textContent = D.results[DIGITS.indexOf(D.result.charAt(f))] + (D.won.charAt(f) === "1" ? ", won" : "");
    $("stepno").textContent = "step " + i + " of " + last;
    var claim = $("claimfig");
    if (atDiv && D.claimed) {
      claim.hidden = false;
      draw($("claimboard"), D.claimed.board, marks, -1, null);
    } else {
      claim.hidden = true;
    }
    var note = $("note");
    note.hidden = !atDiv;
    if (atDiv) { note.textContent = D.div.note + (D.div.reason ? " [" + D.div.reason + "]" : ""); }
    var hit = $("hit"), mark = $("mark");
    if (hit && mark) {
      var x0 = +hit.dataset.x0, x1 = +hit.dataset.x1;
      var x = x0 + (last ? i / last : 1) * (x1 - x0);
      mark.setAttribute("x1", x);
      mark.setAttribute("x2", x);
    }
    if (history.replaceState) { history.replaceState(null, "", "#step=" + i); }
  }

  slider.addEventListener("input", function () { show(+slider.value); });
  $("first").onclick = function () { show(0); };
  $("prev").onclick = function () { show(cur - 1); };
  $("next").onclick = function () { show(cur + 1); };
  $("last").onclick = function () { show(last); };
  if ($("go-div")) { $("go-div").onclick = function () { show(D.div ? D.div.step : last); }; }
  var hit = $("hit");
  if (hit) {
    hit.addEventListener("click", function (ev) {
      var r = hit.getBoundingClientRect();
      show(Math.round((ev.clientX - r.left) / r.width * last));
    });
  }
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.altKey || ev.metaKey) { return; }
    if (ev.target === slider) { return; } // the slider steps itself
    var to = { ArrowRight: cur + 1, n: cur + 1, ArrowLeft: cur - 1, p: cur - 1,
      PageDown: cur + 50, PageUp: cur - 50, Home: 0, End: last }[ev.key];
    if (to === undefined) { return; }
    ev.preventDefault();
    show(to);
  });
  var m = /^#step=(\d+)$/.exec(location.hash);
  show(m ? +m[1] : (D.div ? D.div.step : last));
})();
