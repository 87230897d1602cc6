// The batch report's table (htmlview/rows.go): the rows arrive as JSON
// arrays and are drawn a page at a time; a click on a heading sorts, the
// boxes under the headings filter, the buttons export what is shown. The
// state (sort, filters, page) is kept in the address (#v?...), so that a
// viewer page links back to the same row with the filters kept, and
// steps to the next or previous replay of the filter through it.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var table = $("replays");
  if (!table) { return; }
  var D = JSON.parse($("tp-rows").textContent);
  var R = D.rows, C = D.classes, PER = 100;
  // B, the bands of evidence of computer play by their number in a row's
  // field 12, least atypical first; absent when no game was analysed.
  var B = D.bands;
  // P, the batch's profiles; PR, each row's place among them from 1 (0
  // none), by the row's place in the batch: the profile of row r is
  // profileOf(r).
  var P = D.profiles || [], PR = D.prof || [];
  function profileOf(r) { var k = PR[r[0] - 1]; return k ? P[k - 1] : ""; }
  var BLOBS = window.URL; // object URLs for the downloads
  var body = table.tBodies[0];
  var inputs = Array.prototype.slice.call(table.querySelectorAll("[data-f]"));
  var NUMERIC = { 0: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1 };
  if (B) { NUMERIC[12] = 1; } // sorted by the band's number: the strongly atypical first
  // T, whether the rows carry field 13, the median think time in ms of a
  // game with one (with the bands only; a row without one ends at the
  // band, and gets its null here). The column's rules (its width, on a
  // phone its label) are added here, not in analysis.css, which every
  // analysed game's viewer page carries: a page of a game without times
  // keeps its bytes.
  var T = !!(B && D.think);
  if (T) {
    NUMERIC[13] = 1;
    R.forEach(function (r) { if (r.length < 14) { r.push(null); } });
    var css = document.createElement("style");
    css.textContent = "#replays th:nth-child(12) { width: 5.5em; }\n" +
      "@media (max-width: 640px) { #replays tbody td:nth-child(12) { display: inline-block; }\n" +
      "#replays tbody td:nth-child(12)::before { content: \"think ms \"; }\n" +
      "#replays .filters td:nth-child(12)::before { content: \"think ms\"; } }";
    document.head.appendChild(css);
  }
  var view = [];   // the indices into R shown, in order
  var page = 0, sortCol = -1, sortDir = 1;

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
  }
  // A name with its controls and format characters shown (\u202e), as
  // the page's own text and a terminal show them: a right-to-left
  // override cannot make one name read as another. Unassigned code
  // points and U+FFFD too, as the page's text (safetext) shows them.
  function shown(s) {
    return String(s).replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\uFFFD]/gu, function (c) {
      var n = c.codePointAt(0), h = n.toString(16);
      return n < 0x20 || n === 0x7f ? "\\x" + ("0" + h).slice(-2) : n > 0xffff ? "\\U" + ("0000000" + h).slice(-8) : "\\u" + ("000" + h).slice(-4);
    });
  }
  function group(n) { return n === null ? "\u2013" : String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function encPath(p) { return p.split("/").map(encodeURIComponent).join("/"); }
  function pageHref(r) { return r[9] ? D.pre + encPath(r[9]) + ".html" : ""; }
  function fileHref(r) { return r[10] === 1 ? encPath(r[1]) : (r[10] || ""); }
  function verdictText(r) { return r[2] >= 2 ? r[3] : C[r[2]]; }

  // A numeric filter: ">1000", "<=50", "100..200", "=7" or "7".
  function numTest(text) {
    var m = /^\s*(>=|<=|>|<|=)?\s*([0-9.eE+-]+)\s*(?:\.\.\s*([0-9.eE+-]+))?\s*$/.exec(text);
    if (!m) { return function () { return false; }; }
    var a = +m[2], b = m[3] !== undefined ? +m[3] : null, op = m[1] || "=";
    if (b !== null) { return function (v) { return v !== null && v >= a && v <= b; }; }
    return {
      ">": function (v) { return v !== null && v > a; }, "<": function (v) { return v !== null && v < a; },
      ">=": function (v) { return v !== null && v >= a; }, "<=": function (v) { return v !== null && v <= a; },
      "=": function (v) { return v !== null && v === a; }
    }[op];
  }
  function filterTests() {
    var tests = [];
    inputs.forEach(function (el) {
      var col = +el.dataset.f, v = el.value.trim();
      if (!v) { return; }
      if (col === 2) {
        var kind = v.indexOf("kind:") === 0 ? C.indexOf(v.slice(5)) : -1;
        var reason = v.indexOf("reason:") === 0 ? v.slice(7) : null;
        var prof = v.indexOf("profile:") === 0 ? P.indexOf(v.slice(8)) + 1 : -1;
        tests.push(function (r) { return kind >= 0 ? r[2] === kind : prof >= 0 ? PR[r[0] - 1] === prof : r[3] === reason; });
      } else if (col === 12) {
        var band = B.indexOf(v);
        tests.push(function (r) { return r[12] === band; });
      } else if (NUMERIC[col]) {
        var t = numTest(v);
        tests.push(function (r) { return t(r[col]); });
      } else {
        var low = v.toLowerCase();
        tests.push(function (r) { return String(r[col]).toLowerCase().indexOf(low) >= 0; });
      }
    });
    return tests;
  }

  // The triage order, the page's order without a sort: the suspicious,
  // the invalid, the unreadable, the valid; the batch's order in each.
  var RANK = [3, 0, 1, 2];
  function compute() {
    var tests = filterTests(), nt = tests.length;
    view = [];
    for (var i = 0; i < R.length; i++) {
      var ok = true;
      for (var k = 0; k < nt && ok; k++) { ok = tests[k](R[i]); }
      if (ok) { view.push(i); }
    }
    var col = sortCol, dir = sortDir;
    if (col < 0) {
      view.sort(function (a, b) { return RANK[R[a][2]] - RANK[R[b][2]] || a - b; });
    } else if (NUMERIC[col]) {
      // Figures never computed sort last, whichever the way.
      view.sort(function (a, b) {
        var x = R[a][col], y = R[b][col];
        if (x === null || y === null) { return x === y ? a - b : (x === null ? 1 : -1); }
        return (x - y) * dir || a - b;
      });
    } else {
      var key = col === 2 ? verdictText : function (r) { return String(r[col]).toLowerCase(); };
      var keys = new Array(R.length);
      view.forEach(function (i) { keys[i] = key(R[i]); });
      view.sort(function (a, b) { var x = keys[a], y = keys[b]; return (x < y ? -1 : x > y ? 1 : 0) * dir || a - b; });
    }
  }

  function rowHTML(i, mark) {
    var r = R[i], p = pageHref(r), f = fileHref(r), pn = profileOf(r);
    var name = p ? '<a class="page" data-i="' + i + '" href="' + esc(p) + '">' + esc(shown(r[1])) + "</a>" : esc(shown(r[1]));
    return '<tr id="r' + r[0] + '" data-n="' + r[0] + '" data-kind="' + C[r[2]] + '" data-reason="' + esc(r[3]) + '"' + (mark ? ' class="target"' : "") + ">" +
      '<td class="n">' + r[0] + "</td><td>" + name + '</td><td><span class="verdict ' + C[r[2]] + '">' + esc(verdictText(r)) + "</span>" + (pn ? '<span class="prof">' + esc(pn) + "</span>" : "") + "</td>" +
      '<td class="n">' + group(r[4]) + '</td><td class="n">' + group(r[5]) + '</td><td class="n">' + group(r[6]) + '</td><td class="n">' + group(r[7]) + "</td>" +
      '<td class="n' + (r[8] !== null && r[8] < 0.001 ? " low" : "") + '">' + (r[8] === null ? "\u2013" : r[8] < 1e-300 ? "&lt;1e-300" : r[8]) + '</td><td class="what">' + esc(r[11]) + "</td>" +
      "<td>" + (f ? '<a href="' + esc(f) + '">file</a>' : "") + "</td>" + (B ? bandCell(r) : "") +
      (T ? '<td class="n">' + group(r[13]) + "</td>" : "") + "</tr>";
  }
  function bandText(r) { return r[12] === null || r[12] === undefined ? null : B[r[12]]; }
  function bandCell(r) {
    var b = bandText(r);
    return b === null ? '<td class="none">\u2013</td>' : '<td><span class="band b-' + b + '">' + b + "</span></td>";
  }
  var target = -1; // the row an address pointed at, marked
  function draw() {
    var pages = Math.max(1, Math.ceil(view.length / PER));
    page = Math.max(0, Math.min(page, pages - 1));
    var html = [];
    for (var k = page * PER; k < Math.min(view.length, (page + 1) * PER); k++) { html.push(rowHTML(view[k], view[k] === target)); }
    body.innerHTML = html.join("");
    $("shown").textContent = view.length + " of " + R.length + " shown";
    $("pg-at").textContent = view.length ? "rows " + (page * PER + 1) + " to " + Math.min(view.length, (page + 1) * PER) : "no rows";
    $("pg-prev").disabled = $("pg-first").disabled = page === 0;
    $("pg-next").disabled = $("pg-last").disabled = page >= pages - 1;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      if (+th.dataset.col === sortCol) { th.setAttribute("aria-sort", sortDir > 0 ? "ascending" : "descending"); } else { th.removeAttribute("aria-sort"); }
    });
  }

  // The state in the address: s (sort column, negative for the other
  // way), p (page), fN (filters).
  function state() {
    var q = new URLSearchParams();
    if (sortCol >= 0) { q.set("s", String(sortDir > 0 ? sortCol + 1 : -(sortCol + 1))); }
    inputs.forEach(function (el) { if (el.value) { q.set("f" + el.dataset.f, el.value); } });
    return q;
  }
  function save() {
    var q = state();
    q.set("p", String(page));
    if (history.replaceState) { history.replaceState(null, "", "#v?" + q.toString()); }
  }
  function load(q) {
    inputs.forEach(function (el) { el.value = q.get("f" + el.dataset.f) || ""; });
    var s = +(q.get("s") || 0);
    sortCol = s ? Math.abs(s) - 1 : -1;
    sortDir = s < 0 ? -1 : 1;
  }
  function update() { compute(); page = 0; draw(); save(); }

  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
    var col = +th.dataset.col;
    var b = document.createElement("button");
    b.type = "button";
    b.className = "sort";
    b.textContent = th.textContent;
    b.title = "sort by " + th.textContent;
    th.textContent = "";
    th.appendChild(b);
    b.addEventListener("click", function () {
      // Numbers highest first, words from a; again for the other way.
      if (sortCol === col) { sortDir = -sortDir; } else { sortCol = col; sortDir = NUMERIC[col] ? -1 : 1; }
      update();
    });
  });
  var typing = 0;
  inputs.forEach(function (el) {
    el.addEventListener("input", function () { clearTimeout(typing); typing = setTimeout(update, 60); });
    el.addEventListener("change", update);
  });
  $("clear").onclick = function () { inputs.forEach(function (el) { el.value = ""; }); update(); };
  $("pg-first").onclick = function () { page = 0; draw(); save(); };
  $("pg-prev").onclick = function () { page--; draw(); save(); };
  $("pg-next").onclick = function () { page++; draw(); save(); };
  $("pg-last").onclick = function () { page = 1e9; draw(); save(); };

  // Export what is shown, in its order.
  function download(name, type, text) {
    var a = document.createElement("a");
    a.href = BLOBS.createObjectURL (new Blob([text], { type: type }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { BLOBS.revokeObjectURL (a.href); a.remove(); }, 0);
  }
  var HEAD = ["n", "replay", "verdict", "profile", "claimed", "score", "maxTile", "moves", "smallestP", "what", "page", "file"];
  if (B) { HEAD.push("band"); }
  if (T) { HEAD.push("thinkMedianMs"); }
  function record(r) {
    var rec = [r[0], r[1], verdictText(r), profileOf(r) || null, r[4], r[5], r[6], r[7], r[8], r[11], pageHref(r), fileHref(r)];
    if (B) { rec.push(bandText(r)); }
    if (T) { rec.push(r[13]); }
    return rec;
  }
  // A cell of the CSV, for a spreadsheet: never a formula, whichever
  // separator it reads the file by (OWASP's CSV injection advice,
  // docs/security.md). The text is shown as on the page (a control or
  // format character as \x09, \u202e): no tab, carriage return or NUL
  // is left to start a cell, and no override turns a name around. A cell
  // whose text begins with = + - @ (after spaces and quotes) starts with
  // ', which a spreadsheet reads as text; so does a part of it after a
  // semicolon, the separator of the spreadsheets of many locales, which
  // read "a;=1+1;b" as three cells, the second a formula, quoted or not.
  function csvCell(v) {
    if (v === null) { return ""; }
    v = shown(v);
    if (/^[\s"]*[=+\-@]/.test(v)) { v = "'" + v; }
    v = v.replace(/;(?=[\s"]*[=+\-@])/g, ";'");
    return /[",\n\r]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v;
  }
  $("dl-csv").onclick = function () {
    var lines = [HEAD.join(",")];
    view.forEach(function (i) { lines.push(record(R[i]).map(csvCell).join(",")); });
    download("replays.csv", "text/csv", lines.join("\r\n") + "\r\n");
  };
  $("dl-json").onclick = function () {
    download("replays.json", "application/json", JSON.stringify(view.map(function (i) {
      var o = {}, rec = record(R[i]);
      HEAD.forEach(function (h, k) { o[h] = rec[k]; });
      return o;
    })));
  };

  // A link to a viewer page carries the state, the row and where to come
  // back (#from=...): the page links back to this row with the filters
  // kept, and to the next and previous replays of the filter.
  body.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest("a.page");
    if (!a) { return; }
    var q = state();
    q.set("r", String(R[+a.dataset.i][0]));
    a.href = pageHref(R[+a.dataset.i]) + "#from=" + encodeURIComponent(q.toString());
  });

  // showRow goes to the page of row n and marks it.
  function showRow(n) {
    var at = -1;
    for (var k = 0; k < view.length; k++) { if (R[view[k]][0] === n) { at = k; break; } }
    if (at < 0) { draw(); return; }
    target = view[at];
    page = Math.floor(at / PER);
    draw();
    var el = $("r" + n);
    if (el) { el.scrollIntoView({ block: "center" }); }
  }
  // go steps from row n to the next (+1) or previous (-1) row of the
  // view that has a page, and opens that page.
  function go(n, step) {
    var at = -1;
    for (var k = 0; k < view.length; k++) { if (R[view[k]][0] === n) { at = k; break; } }
    for (var j = at + step; at >= 0 && j >= 0 && j < view.length; j += step) {
      var r = R[view[j]];
      if (r[9]) {
        var q = state();
        q.set("r", String(r[0]));
        location.replace(pageHref(r) + "#from=" + encodeURIComponent(q.toString()));
        return true;
      }
    }
    return false;
  }

  // follow shows what the address asks for; clicked, whether a link on
  // this page asked (a filter's address then scrolls to the table).
  function follow(clicked) {
    var h = location.hash, m;
    target = -1;
    if ((m = /^#r(\d+)$/.exec(h))) {
      compute();
      showRow(+m[1]);
    } else if ((m = /^#(reason|kind)-(.+)$/.exec(h))) {
      inputs.forEach(function (el) { el.value = ""; });
      table.querySelector('[data-f="2"]').value = m[1] + ":" + decodeURIComponent(m[2]);
      compute();
      page = 0;
      draw();
      $("replays-title").scrollIntoView();
    } else if (h.indexOf("#v?") === 0) {
      var q = new URLSearchParams(h.slice(3));
      load(q);
      compute();
      page = +(q.get("p") || 0);
      var n = +(q.get("r") || 0), dir = q.get("go");
      if (n && dir && go(n, dir === "next" ? 1 : -1)) { return; }
      if (n) { showRow(n); } else { draw(); }
      if (n || dir) { save(); }
      if (!n && clicked === true) { $("replays-title").scrollIntoView(); }
    } else {
      compute();
      draw();
    }
  }
  // A link to the address already shown fires no hashchange.
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest('a[href^="#"]');
    if (a && a.getAttribute("href") === location.hash) { follow(true); }
  });
  window.addEventListener("hashchange", function () { follow(true); });
  follow(false);
  document.body.dataset.ready = String(Math.round(performance.now()));
})();
