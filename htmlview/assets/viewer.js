// The replay viewer: draws the frame of the chosen step from the JSON
// data in #tp-data (see htmlview/replay.go, type data).
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("tp-data").textContent);
  var DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  var NAMES = { U: "up", D: "down", L: "left", R: "right", Z: "undo", E: "End run", K: "keep playing", "-": "none (the start)" };
  var ARROWS = { U: "\u2191", D: "\u2193", L: "\u2190", R: "\u2192", Z: "\u21B6", E: "\u25A0", K: "\u21BB" };
  var frames = D.frames;
  var extra = D.div && D.div.board ? 1 : 0; // the refused action's step, past the frames
  var last = frames + extra - 1;
  var $ = function (id) { return document.getElementById(id); };
  var slider = $("slider");
  var cur = -1;
  var N = D.rows * D.cols;

  // The steps: gzip-compressed records (htmlview/steps.go), inflated
  // once, then applied in turn to a state; a keyframe every K steps keeps
  // the state at that step, so that any step is at most K records away.
  var K = 64;
  var bytes = null; // the records, inflated
  var keys = [];    // keys[k]: the state at step k*K
  function startState() {
    var cells = new Uint8Array(N);
    for (var i = 0; i < N; i++) { cells[i] = DIGITS.indexOf(D.start.charAt(i)); }
    return { step: 0, off: 0, cells: cells, score: D.score, moves: D.moves, state: D.state,
      act: "-", gained: 0, spawn: -1, slideOff: 0, slideN: 0 };
  }
  function copyState(s) {
    return { step: s.step, off: s.off, cells: new Uint8Array(s.cells), score: s.score, moves: s.moves, state: s.state,
      act: s.act, gained: s.gained, spawn: s.spawn, slideOff: s.slideOff, slideN: s.slideN };
  }
  function uvarint(s) {
    var x = 0, mul = 1, b;
    do {
      b = bytes[s.off++];
      x += (b & 127) * mul;
      mul *= 128;
    } while (b & 128);
    return x;
  }
  function varint(s) {
    var u = uvarint(s);
    return u % 2 ? -(u + 1) / 2 : u / 2;
  }
  // apply moves state s on by one step: the record at s.off.
  function apply(s) {
    var head = bytes[s.off++];
    s.act = "UDLRZEKB".charAt(head & 7);
    s.gained = 0;
    s.spawn = -1;
    s.slideN = 0;
    if (head & 16) { s.score += varint(s); }
    if (head & 32) { s.moves += varint(s); }
    if (head & 64) { s.gained = uvarint(s); }
    if (head & 128) { s.state = bytes[s.off++]; }
    var n = bytes[s.off++];
    for (var i = 0; i < n; i++) {
      s.cells[bytes[s.off]] = bytes[s.off + 1];
      s.off += 2;
    }
    if (head & 8) {
      s.spawn = bytes[s.off++];
      s.slideN = bytes[s.off++];
      s.slideOff = s.off;
      s.off += 2 * s.slideN;
    }
    s.step++;
  }
  var st = null; // the state of the step shown
  // stateAt returns the state of step i (a frame), from the state shown
  // when it is just before, else from the keyframe before.
  function stateAt(i) {
    if (!st || st.step > i || i - st.step > K) { st = copyState(keys[Math.floor(i / K)]); }
    while (st.step < i) { apply(st); }
    return st;
  }
  function index() {
    var s = startState();
    keys.push(copyState(s));
    while (s.step < frames - 1) {
      apply(s);
      if (s.step % K === 0) { keys.push(copyState(s)); }
    }
    st = null;
  }

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
  function codeOf(cells) {
    var c = "";
    for (var i = 0; i < cells.length; i++) { c += DIGITS.charAt(cells[i]); }
    return c;
  }

  function show(i) {
    i = Math.max(0, Math.min(last, i | 0));
    cur = i;
    slider.value = String(i);
    var past = extra && i === frames; // the step past the frames: the refused action
    var f = stateAt(past ? frames - 1 : i);
    var code = past ? D.div.board : codeOf(f.cells);
    var atDiv = D.div && i === D.div.step;
    var marks = atDiv ? D.div.cells : [];
    var spawn = past ? -1 : f.spawn;
    var notes = null;
    if (past && D.div.spawn) {
      notes = {};
      notes[D.div.spawn[0]] = "+" + D.div.spawn[1] + "?";
    }
    var board = $("board");
    draw(board, code, marks, spawn, notes);
    refusal(board, past && D.div.refused ? D.div.letter : "", D.div && D.div.refused);
    board.dataset.step = i;
    var act = past ? NAMES[D.div.letter] : NAMES[f.act];
    $("cap").textContent = past ? (D.div.refused ? "action " + i + " (" + act + "), refused: " + D.div.refused
      : "after the slide of action " + i + " (" + act + "), refused")
      : (i === 0 ? "the start" : "after action " + i + " (" + act + ")");
    $("f-step").textContent = i + " of " + last;
    $("f-moves").textContent = f.moves;
    $("f-score").textContent = f.score;
    $("f-action").textContent = past ? act + " (refused)" : (i === 0 ? NAMES["-"] : act);
    $("f-gained").textContent = past || i === 0 ? "-" : f.gained;
    $("f-spawn").textContent = past ? (D.div.spawn ? "recorded: a " + D.div.spawn[1] + " at " + rc(D.div.spawn[0]) : "none")
      : (spawn >= 0 ? "a " + value(code, spawn) + " at " + rc(spawn) + " (ringed)" : "none");
    $("f-max").textContent = maxTile(code);
    $("f-result").textContent = D.results[f.state & 127] + (f.state & 128 ? ", won" : "");
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
  // Opened from the batch report (#from=STATE): back to the same row with
  // the filters kept, and on to the next or previous replay of the filter
  // (the report finds it: #v?STATE&go=next).
  function fromReport() {
    var m = /^#from=(.*)$/.exec(location.hash), back = $("back");
    if (!m || !back) { return; }
    var q = decodeURIComponent(m[1]), base = back.getAttribute("href").split("#")[0];
    back.href = base + "#v?" + q;
    $("prev-sub").href = base + "#v?" + q + "&go=prev";
    $("next-sub").href = base + "#v?" + q + "&go=next";
    $("prev-sub").hidden = $("next-sub").hidden = false;
  }
  function start() {
    fromReport();
    index();
    var s0 = fromHash();
    show(s0 >= 0 ? s0 : (D.div ? D.div.step : last));
  }
  // Inflate the records, then draw.
  var z = $("tp-steps").textContent.trim().replace(/-/g, "+").replace(/_/g, "/");
  var raw = atob(z);
  var packed = new Uint8Array(raw.length);
  for (var i = 0; i < raw.length; i++) { packed[i] = raw.charCodeAt(i); }
  if (frames <= 1) {
    bytes = new Uint8Array(0);
    start();
    return;
  }
  new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer().then(function (buf) {
    bytes = new Uint8Array(buf);
    start();
  }, function (err) {
    $("cap").textContent = "this browser cannot read the page's steps: " + err;
  });
})();
