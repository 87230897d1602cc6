// The batch report's table: filter the rows by verdict, reason and name,
// sort them by a column (a click on its heading; again for the other
// way). Without this script the rows keep the order the page was written
// in, the invalid first, and the reason links jump to their first row.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var table = $("replays"), show = $("show"), q = $("q"), shown = $("shown");
  if (!table || !show) { return; }
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  // The page's order is the triage order (invalid, unreadable, valid):
  // the kind column sorts by it.
  rows.forEach(function (r, i) { r.pageIndex = i; });
  $("controls").hidden = false;

  function filter() {
    var f = show.value, text = q.value.trim().toLowerCase(), n = 0;
    var kind = f.indexOf("kind:") === 0 ? f.slice(5) : "";
    var reason = f.indexOf("reason:") === 0 ? f.slice(7) : "";
    rows.forEach(function (r) {
      var on = (!kind || r.dataset.kind === kind) && (!reason || r.dataset.reason === reason) &&
        (!text || r.dataset.name.toLowerCase().indexOf(text) >= 0);
      r.hidden = !on;
      if (on) { n++; }
    });
    shown.textContent = n + " of " + rows.length + " shown";
  }

  // A reason link (#reason-NAME) or kind mark (#kind-NAME) filters the
  // table to its rows.
  function follow() {
    var m = /^#(reason|kind)-(.+)$/.exec(location.hash);
    if (!m) { return; }
    var v = m[1] + ":" + decodeURIComponent(m[2]);
    for (var i = 0; i < show.options.length; i++) {
      if (show.options[i].value === v) {
        show.value = v;
        filter();
        $("replays-title").scrollIntoView();
        return;
      }
    }
  }

  var sortKey = "", sortDir = 1;
  function key(r, k) {
    switch (k) {
      case "name": return r.dataset.name.toLowerCase();
      case "kind": return r.pageIndex;
      case "n": return +r.dataset.n;
    }
    // A figure never computed sorts after every computed one.
    return r.dataset[k] === undefined ? null : +r.dataset[k];
  }
  function sortBy(k, th) {
    sortDir = sortKey === k ? -sortDir : 1;
    sortKey = k;
    rows.sort(function (a, b) {
      var x = key(a, k), y = key(b, k);
      if (x === null || y === null) { return x === y ? 0 : (x === null ? 1 : -1); }
      return (x < y ? -1 : x > y ? 1 : 0) * sortDir || (+a.dataset.n - +b.dataset.n);
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) { c.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", sortDir > 0 ? "ascending" : "descending");
  }
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
    var k = th.dataset.sort;
    if (!k) { return; }
    var b = document.createElement("button");
    b.type = "button";
    b.className = "sort";
    b.textContent = th.textContent;
    b.title = "sort by " + th.textContent;
    th.textContent = "";
    th.appendChild(b);
    b.addEventListener("click", function () { sortBy(k, th); });
  });

  // A link to the address already shown fires no hashchange.
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest('a[href^="#reason-"], a[href^="#kind-"]');
    if (a && a.getAttribute("href") === location.hash) { follow(); }
  });
  show.addEventListener("change", filter);
  q.addEventListener("input", filter);
  window.addEventListener("hashchange", follow);
  filter();
  follow();
})();
