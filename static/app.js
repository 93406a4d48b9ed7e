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

// Message templates: choosing a template (or the customer's language) fills
// the message box at once. Without script the Insert button asks the server
// for the page with the box filled.
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (!(el instanceof HTMLSelectElement) || !(el.hasAttribute("data-template-pick") || el.hasAttribute("data-template-lang"))) {
      return;
    }
    var pick = document.querySelector("[data-template-pick]");
    var lang = document.querySelector("[data-template-lang]");
    var box = document.querySelector("[data-template-box]");
    if (!pick || !lang || !box || pick.selectedIndex < 0) {
      return;
    }
    var text = pick.options[pick.selectedIndex].getAttribute("data-text-" + lang.value);
    if (text) {
      box.value = text;
    }
  });
})();
