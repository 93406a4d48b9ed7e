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
