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
