// The replay viewer: draws the frame of the chosen step from the JSON
// data in #tp-data (see htmlview/replay.go, type data).
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("tp-data").textContent);
  var DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  var NAMES = { U: "up", D: "down", L: "left", R: "right", Z: "undo", E: "End run", K: "keep playing", "-": "none (the start)" };
  var ARROWS = { U: "\u2191", D: "\u2193", L: "\u2190", R: "\u2192", Z: "\u21B6", E: "\u25A0", K: "\u21BB" };
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
  // A cell is named one way everywhere: its row and column, counted from
  // 0 as in verdicts and spawn logs.
  function rc(cell) { return "row " + Math.floor(cell / D.cols) + ", column " + cell % D.cols; }

  // draw fills a board element: a cell div a cell, with data-value, the
  // class "bad" on marked cells and "new" on the tile that appeared.
  function draw(el, code, marks, spawn, notes) {
    var n = D.rows * D.cols;
    var cells = el.querySelectorAll("[data-cell]");
    if (cells.length !== n) {
      el.textContent = "";
      el.style.setProperty("--cols", D.cols);
      for (var k = 0; k < n; k++) {
        var c = document.createElement("div");
        c.dataset.cell = k;
        el.appendChild(c);
      }
      cells = el.querySelectorAll("[data-cell]");
    }
    for (var i = 0; i < n; i++) {
      var v = value(code, i);
      var cell = cells[i];
      cell.className = "c " + tileClass(v) + (i === spawn ? " new" : "") + (marks.indexOf(i) >= 0 ? " bad" : "");
      cell.textContent = v ? String(v) : "";
      cell.dataset.value = v;
      if (notes && notes[i]) { cell.dataset.note = notes[i]; } else { delete cell.dataset.note; }
    }
  }

  // refusal draws the refused action over the board (or removes it).
  function refusal(el, letter, why) {
    var r = el.querySelector(".refused");
    if (!letter) {
      if (r) { el.removeChild(r); }
      return;
    }
    if (!r) {
      r = document.createElement("div");
      r.className = "refused";
      r.id = "refused";
      r.innerHTML = '<span class="arrow"></span><span class="what"></span>';
      el.appendChild(r);
    }
    r.firstChild.textContent = ARROWS[letter] || "?";
    r.lastChild.textContent = NAMES[letter] + ": " + why;
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
    var past = extra && i === frames; // the step past the frames: the refused action
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
    refusal(board, past && D.div.refused ? D.div.letter : "", D.div && D.div.refused);
    board.dataset.step = i;
    var act = past ? NAMES[D.div.letter] : NAMES[D.act.charAt(i)];
    $("cap").textContent = past ? (D.div.refused ? "action " + i + " (" + act + "), refused: " + D.div.refused
      : "after the slide of action " + i + " (" + act + "), refused")
      : (i === 0 ? "the start" : "after action " + i + " (" + act + ")");
    $("f-step").textContent = i + " of " + last;
    $("f-moves").textContent = D.moves[f];
    $("f-score").textContent = D.score[f];
    $("f-action").textContent = past ? act + " (refused)" : (i === 0 ? NAMES["-"] : act);
    $("f-gained").textContent = past || i === 0 ? "-" : D.gained[i];
    $("f-spawn").textContent = past ? (D.div.spawn ? "recorded: a " + D.div.spawn[1] + " at " + rc(D.div.spawn[0]) : "none")
      : (spawn >= 0 ? "a " + D.spawn[i][1] + " at " + rc(spawn) + " (ringed)" : "none");
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
    if (atDiv) { note.textContent = D.div.note; }
    var hit = $("hit"), mark = $("mark");
    if (hit && mark) {
      var x0 = +hit.dataset.x0, x1 = +hit.dataset.x1;
      var x = x0 + (last ? i / last : 1) * (x1 - x0);
      mark.setAttribute("x1", x);
      mark.setAttribute("x2", x);
    }
    if (history.replaceState) { history.replaceState(null, "", "#step=" + i); }
  }

  // Play and pause: a step every 1/speed seconds, stopping at the end.
  var timer = 0, playBtn = $("play"), speed = $("speed");
  function playing() { return timer !== 0; }
  function pause() {
    if (timer) { clearInterval(timer); timer = 0; }
    playBtn.setAttribute("aria-pressed", "false");
    playBtn.textContent = "\u25B6 play";
  }
  function play() {
    if (cur >= last) { show(0); }
    pause();
    timer = setInterval(function () {
      if (cur >= last) { pause(); return; }
      show(cur + 1);
    }, 1000 / (+speed.value || 8));
    playBtn.setAttribute("aria-pressed", "true");
    playBtn.textContent = "\u275A\u275A pause";
  }
  function toggle() { if (playing()) { pause(); } else { play(); } }
  // go is a step chosen by hand: it pauses the play.
  function go(i) { pause(); show(i); }

  slider.addEventListener("input", function () { go(+slider.value); });
  $("first").onclick = function () { go(0); };
  $("prev").onclick = function () { go(cur - 1); };
  $("next").onclick = function () { go(cur + 1); };
  $("last").onclick = function () { go(last); };
  playBtn.onclick = toggle;
  speed.addEventListener("change", function () { if (playing()) { play(); } });
  if ($("go-div")) { $("go-div").onclick = function () { go(D.div ? D.div.step : last); }; }

  // The chart: a point maps to the step at its x on the axis, in the
  // chart's own units (the SVG scales with the window).
  var hit = $("hit");
  if (hit) {
    var chart = hit.ownerSVGElement;
    var stepAt = function (ev) {
      var pt = chart.createSVGPoint();
      pt.x = ev.clientX;
      pt.y = ev.clientY;
      var x = pt.matrixTransform(chart.getScreenCTM().inverse()).x;
      var x0 = +hit.dataset.x0, x1 = +hit.dataset.x1;
      return Math.round((x - x0) / (x1 - x0) * last);
    };
    var dragging = false;
    hit.addEventListener("pointerdown", function (ev) {
      dragging = true;
      if (hit.setPointerCapture) { hit.setPointerCapture(ev.pointerId); }
      go(stepAt(ev));
    });
    hit.addEventListener("pointermove", function (ev) { if (dragging) { go(stepAt(ev)); } });
    hit.addEventListener("pointerup", function () { dragging = false; });
    hit.addEventListener("pointercancel", function () { dragging = false; });
  }

  // The keys work wherever the focus is: listened to before any element
  // (the slider's own Page Up / Page Down go the other way, and it would
  // swallow n and p).
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.altKey || ev.metaKey) { return; }
    var k = ev.key;
    if (k === " " || k === "k" || k === "K") {
      ev.preventDefault();
      ev.stopPropagation();
      toggle();
      return;
    }
    var to = { ArrowRight: cur + 1, n: cur + 1, N: cur + 1, ArrowLeft: cur - 1, p: cur - 1, P: cur - 1,
      PageDown: cur + 50, PageUp: cur - 50, Home: 0, End: last }[k];
    if (to === undefined) { return; }
    ev.preventDefault();
    ev.stopPropagation();
    go(to);
  }, true);

  // #step=N: on opening, and whenever the address changes.
  function fromHash() {
    var m = /^#step=(\d+)$/.exec(location.hash);
    return m ? +m[1] : -1;
  }
  window.addEventListener("hashchange", function () {
    var s = fromHash();
    if (s >= 0) { go(s); }
  });
  var s0 = fromHash();
  show(s0 >= 0 ? s0 : (D.div ? D.div.step : last));
})();
