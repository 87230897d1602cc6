// The conformance page: a link to a case folded under its cause opens
// the folds it is in, then shows it.
(function () {
  function show() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (!el) return;
    for (var d = el.parentElement; d; d = d.parentElement) {
      if (d.tagName === "DETAILS") d.open = true;
    }
    el.scrollIntoView();
  }
  window.addEventListener("hashchange", show);
  show();
})();
