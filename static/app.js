// shipdesk's own script: small conveniences only; every page works without it.
(function () {
  "use strict";
  // A form that opens its result in another tab (the print queue's PDF) leaves
  // this tab stale: reload it once the other tab has had time to load.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form instanceof HTMLFormElement && form.hasAttribute("data-reload-after-submit")) {
      setTimeout(function () { window.location.reload(); }, 1500);
    }
  });
})();

// Print queue: the header's checkbox ticks all labels or none (it is hidden
// without this script, where it could do nothing), and shows "some" as
// mixed. The list refreshes itself every few seconds; the server keeps the
// ticks it was sent, and a tick changed while the answer was on its way is
// put back here.
(function () {
  "use strict";
  function boxes(root) {
    return Array.prototype.slice.call(root.querySelectorAll('input[type=checkbox][name=ids]'));
  }
  function sync(root) {
    var all = root.querySelector("[data-select-all]");
    if (!all) { return; }
    var box = root.querySelector("[data-select-all-box]");
    if (box) { box.hidden = false; }
    var list = boxes(root);
    var ticked = list.filter(function (b) { return b.checked; }).length;
    all.checked = list.length > 0 && ticked === list.length;
    all.indeterminate = ticked > 0 && ticked < list.length;
  }
  document.addEventListener("change", function (event) {
    var live = document.getElementById("print-live");
    if (!live || !live.contains(event.target)) { return; }
    if (event.target.hasAttribute("data-select-all")) {
      boxes(live).forEach(function (b) { b.checked = event.target.checked; });
    }
    sync(live);
  });
  var before = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "print-live") {
      before = {};
      boxes(event.detail.target).forEach(function (b) { before[b.value] = b.checked; });
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "print-live") { return; }
    if (before) {
      boxes(event.detail.target).forEach(function (b) {
        if (Object.prototype.hasOwnProperty.call(before, b.value)) { b.checked = before[b.value]; }
      });
      before = null;
    }
    sync(event.detail.target);
  });
  function start() {
    var live = document.getElementById("print-live");
    if (live) { sync(live); }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

// A confirm step: Escape takes the way back that changes nothing, as Cancel does.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") {
      return;
    }
    var back = document.querySelector("[data-confirm-cancel]");
    if (back) {
      event.preventDefault();
      window.location.assign(back.getAttribute("href"));
    }
  });
})();
