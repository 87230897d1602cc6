// The replay viewer: draws the frame of the chosen step from the JSON
// data in #tp-data (see htmlview/replay.go, type data).
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("tp-data").textContent);
  var DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  var NAMES = { U: "up", D: "down", L: "left", R: "right", Z: "undo", E: "End run", K: "keep playing", B: "break", "-": "none (the start)" };
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
    if (head & 16) {
      var d = varint(s);
      s.score += d;
      if (s.act === "B") { s.gained = d; } // a break merges nothing: its price
    }
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

  // show draws step i; playing says the play drew it (the address is
  // then left alone until the play stops: rewriting it costs a few ms).
  function show(i, playing) {
    i = Math.max(0, Math.min(last, i | 0));
    var from = cur, before = shownCode;
    cur = i;
    slider.value = String(i);
    stopAnim();
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
    shownCode = code;
    var refused = past && D.div.refused ? D.div.letter : "";
    refusal(board, refused, D.div && D.div.refused);
    board.dataset.step = i;
    arrow(i === 0 || refused ? "" : (past ? D.div.letter : f.act));
    if (i === from + 1 && !past && before && animating()) { animate(before, code, f, spawn); }
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
    if (tickAt) { tickAt(); }
    if (!playing) { address(i); }
  }
  function address(i) {
    if (history.replaceState) { history.replaceState(null, "", "#step=" + i); }
  }

  // The arrow of the step's action, on the side of the board the tiles
  // went to (a symbol for undo, End run, keep playing).
  function arrow(letter) {
    var d = $("dir");
    if (!letter || !ARROWS[letter] || letter === "B") {
      d.hidden = true;
      return;
    }
    d.hidden = false;
    d.className = "dir d-" + letter;
    d.textContent = ARROWS[letter];
    d.title = NAMES[letter];
  }

  // Animation: the tiles of a step forward slide from where they were
  // (the record's slide pairs, written by the verifier: the script moves
  // nothing by the rules), a merged tile pops, and the tile that appeared
  // grows. The board is drawn at once; copies of the tiles before the
  // step (#ghosts) slide over it while the cells they go to are hidden.
  var motion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var animBox = $("animate");
  animBox.checked = !(motion && motion.matches);
  if (motion && motion.addEventListener) {
    motion.addEventListener("change", function () { animBox.checked = !motion.matches; });
  }
  var anims = [];
  var shownCode = "";
  function animating() { return animBox.checked && typeof Element.prototype.animate === "function"; }
  function stopAnim() {
    for (var k = 0; k < anims.length; k++) { anims[k].cancel(); }
    anims = [];
    $("ghosts").textContent = "";
  }
  // slideTime is the time of a slide, in ms: the pop or the appearing
  // tile takes as long again after it; both fit in 80% of a played step.
  function slideTime() {
    var t = timer ? 400 / (+speed.value || 8) : 110;
    return Math.min(110, t);
  }
  function animate(before, code, s, spawn) {
    var T = slideTime();
    if (T < 12) { return; }
    var board = $("board"), ghosts = $("ghosts"), cells = board.querySelectorAll("[data-cell]");
    var bx = board.offsetLeft, by = board.offsetTop, side = cells[0].offsetWidth;
    ghosts.style.setProperty("--cell", side + "px");
    var moved = {}, into = {}, k, c;
    var ghost = function (from, to) {
      var v = value(before, from), g = document.createElement("div");
      g.className = "c " + tileClass(v);
      g.textContent = String(v);
      g.dataset.from = from;
      g.dataset.to = to;
      g.dataset.value = v;
      g.style.left = (bx + cells[from].offsetLeft) + "px";
      g.style.top = (by + cells[from].offsetTop) + "px";
      ghosts.appendChild(g);
      var dx = cells[to].offsetLeft - cells[from].offsetLeft, dy = cells[to].offsetTop - cells[from].offsetTop;
      anims.push(g.animate([{ transform: "translate(0, 0)" }, { transform: "translate(" + dx + "px, " + dy + "px)" }],
        { duration: T, easing: "ease-in-out", fill: "forwards" }));
    };
    for (k = 0; k < s.slideN; k++) {
      var a = bytes[s.slideOff + 2 * k], b = bytes[s.slideOff + 2 * k + 1];
      moved[a] = true;
      into[b] = (into[b] || 0) + 1;
      ghost(a, b);
    }
    for (c in into) {
      c = +c;
      // A tile that stayed where another merges into it: a copy that
      // stands still, so that both are seen to meet.
      if (value(before, c) && !moved[c]) {
        ghost(c, c);
        into[c]++;
      }
      var pop = into[c] > 1;
      anims.push(cells[c].animate(pop
        ? [{ opacity: 0, transform: "scale(1)" }, { opacity: 0, offset: 0.5 }, { opacity: 1, transform: "scale(1)", offset: 0.5 },
          { transform: "scale(1.15)", offset: 0.75 }, { transform: "scale(1)" }]
        : [{ opacity: 0 }, { opacity: 0, offset: 0.5 }, { opacity: 1, offset: 0.5 }, { opacity: 1 }],
      { duration: 2 * T }));
      if (pop) { cells[c].classList.add("merged"); }
    }
    if (spawn >= 0) {
      anims.push(cells[spawn].animate([{ opacity: 0, transform: "scale(0.2)" }, { opacity: 0, transform: "scale(0.2)", offset: 0.5 },
        { opacity: 1, transform: "scale(1)" }], { duration: 2 * T, easing: "ease-out" }));
    }
    var d = $("dir");
    if (!d.hidden) { anims.push(d.animate([{ opacity: 1 }, { opacity: 0.55 }], { duration: 2 * T })); }
    var mine = anims;
    setTimeout(function () {
      if (mine === anims) { stopAnim(); }
    }, 2 * T + 20);
  }

  // Play and pause: step k of the play is shown at k/speed seconds from
  // its start, by the clock (a late timer catches up, skipping the steps
  // it is late for, so the chosen speed is the one achieved); the address
  // is written when the play stops.
  var timer = 0, playBtn = $("play"), speed = $("speed");
  function playing() { return timer !== 0; }
  function pause() {
    var was = timer !== 0;
    if (timer) { clearTimeout(timer); timer = 0; }
    playBtn.setAttribute("aria-pressed", "false");
    playBtn.textContent = "\u25B6 play";
    if (was) { address(cur); }
  }
  function play() {
    if (cur >= last) { show(0); }
    pause();
    var sp = +speed.value || 8, t0 = performance.now(), s0 = cur;
    var tick = function () {
      var due = s0 + Math.floor((performance.now() - t0) * sp / 1000 + 1e-6);
      if (due > cur) { show(Math.min(due, last), true); }
      if (cur >= last) { pause(); return; }
      timer = setTimeout(tick, Math.max(0, t0 + (cur - s0 + 1) * 1000 / sp - performance.now()));
    };
    timer = setTimeout(tick, 1000 / sp);
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

  // The moments of the game (D.marks, and the divergence): ticks on the
  // slider, marks on the chart, a list; m and M go to the next and the
  // previous one.
  var moments = (D.marks || []).slice();
  if (D.div) {
    moments.push({ step: D.div.step, kind: "div", label: (D.div.claim ? "the claim is false: " : "leaves the rules: ") + D.div.reason });
    moments.sort(function (a, b) { return a.step - b.step; });
  }
  var tickAt = null;
  function group(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function drawMoments() {
    if (!moments.length) { return; }
    var ticks = $("ticks"), list = $("moments"), g = $("marks");
    list.hidden = false;
    moments.forEach(function (m, k) {
      var at = last ? m.step / last : 1, text = "step " + group(m.step) + ": " + m.label;
      var t = document.createElement("button");
      t.type = "button";
      t.className = "tick k-" + m.kind;
      t.style.left = "calc(8px + (100% - 16px) * " + at + ")";
      t.title = text;
      t.setAttribute("aria-label", text);
      t.dataset.step = m.step;
      t.onclick = function () { go(m.step); };
      ticks.appendChild(t);
      var li = document.createElement("li"), b = document.createElement("button");
      b.type = "button";
      b.className = "k-" + m.kind;
      b.dataset.step = m.step;
      b.textContent = text;
      b.onclick = function () { go(m.step); };
      li.appendChild(b);
      list.appendChild(li);
      if (g && hit) {
        var x = +hit.dataset.x0 + at * (+hit.dataset.x1 - +hit.dataset.x0);
        var ns = "http://www.w3.org/2000/svg", line = document.createElementNS(ns, "line"), dot = document.createElementNS(ns, "circle");
        line.setAttribute("class", "moment k-" + m.kind);
        line.setAttribute("x1", x); line.setAttribute("x2", x);
        line.setAttribute("y1", 6); line.setAttribute("y2", hit.getAttribute("height") - 20);
        dot.setAttribute("class", "moment k-" + m.kind);
        dot.setAttribute("cx", x); dot.setAttribute("cy", 8 + (k % 3) * 7); dot.setAttribute("r", 3.5);
        var title = document.createElementNS(ns, "title");
        title.textContent = text;
        dot.appendChild(title);
        g.appendChild(line);
        g.appendChild(dot);
      }
    });
    tickAt = function () {
      var bs = list.querySelectorAll("button");
      for (var k = 0; k < bs.length; k++) { bs[k].classList.toggle("here", +bs[k].dataset.step === cur); }
    };
  }
  function moment(dir) {
    for (var k = 0; k < moments.length; k++) {
      var m = moments[dir > 0 ? k : moments.length - 1 - k];
      if (dir > 0 ? m.step > cur : m.step < cur) { return m.step; }
    }
    return cur;
  }

  // Touch: a swipe on the board to the left goes on a step, to the right
  // back a step; a tap plays and pauses. The board lets the page scroll
  // up and down (touch-action: pan-y).
  var stage = $("stage"), touch = null;
  stage.addEventListener("pointerdown", function (ev) {
    if (ev.pointerType === "mouse") { return; }
    touch = { x: ev.clientX, y: ev.clientY, id: ev.pointerId };
  });
  stage.addEventListener("pointercancel", function () { touch = null; });
  stage.addEventListener("pointerup", function (ev) {
    if (!touch || ev.pointerId !== touch.id) { return; }
    var dx = ev.clientX - touch.x, dy = ev.clientY - touch.y;
    touch = null;
    if (Math.abs(dx) >= 30 && Math.abs(dx) > 1.5 * Math.abs(dy)) {
      go(cur + (dx < 0 ? 1 : -1));
    } else if (Math.abs(dx) < 10 && Math.abs(dy) < 10) {
      toggle();
    }
  });

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
    if (k === "m" || k === "M") { to = moment(k === "m" ? 1 : -1); }
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
    drawMoments();
    var s0 = fromHash();
    show(s0 >= 0 ? s0 : (D.div ? D.div.step : last));
    // When the first board was drawn, in ms from the page's start (the
    // load time the tests measure).
    document.body.dataset.shown = String(Math.round(performance.now()));
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
