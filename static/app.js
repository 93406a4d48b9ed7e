// shipdesk's own script: small conveniences only; every page works without it.

// htmx's settings, here once rather than in a <meta> on every page (this
// script runs after htmx's and before the page is ready, when htmx reads
// them): no inline indicator styles (the CSP refuses them), no eval, and
// which answers swap: a 422 (a form with its problems) does, other errors do not.
(function () {
  "use strict";
  if (!window.htmx) {
    return;
  }
  var c = window.htmx.config;
  c.includeIndicatorStyles = false;
  c.allowEval = false;
  c.responseHandling = [{ code: "204", swap: false }, { code: "[23]..", swap: true }, { code: "422", swap: true },
    { code: "[45]..", swap: false, error: true }];
})();
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

// Lists with ticks (the print queue, the shipments list): the header's
// checkbox ticks all rows of its list or none (it is hidden without this
// script, where it could do nothing), and shows "some" as mixed. A list is
// an element marked data-select-scope. Where a list offers its whole filter
// (data-select-whole), choosing it ticks the page too, and a tick taken off
// the page takes it back. The print queue refreshes itself every few
// seconds; the server keeps the ticks it was sent, and a tick changed while
// the answer was on its way is put back here.
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
  function scopeOf(el) {
    return el instanceof Element ? el.closest("[data-select-scope]") : null;
  }
  document.addEventListener("change", function (event) {
    var scope = scopeOf(event.target);
    if (!scope) { return; }
    var el = event.target;
    var whole = scope.querySelector("[data-select-whole]");
    if (el.hasAttribute("data-select-all") || el.hasAttribute("data-select-whole")) {
      boxes(scope).forEach(function (b) { b.checked = el.checked; });
    }
    if (whole && whole !== el && !el.checked) { whole.checked = false; }
    sync(scope);
  });
  var before = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (target && target.hasAttribute("data-select-scope")) {
      before = {};
      boxes(target).forEach(function (b) { before[b.value] = b.checked; });
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (target && target.hasAttribute("data-select-scope") && before) {
      boxes(target).forEach(function (b) {
        if (Object.prototype.hasOwnProperty.call(before, b.value)) { b.checked = before[b.value]; }
      });
    }
    before = null;
    start();
  });
  function start() {
    document.querySelectorAll("[data-select-scope]").forEach(sync);
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
    if (back && !document.querySelector("dialog[open]")) { // Escape closes an open dialog first
      event.preventDefault();
      window.location.assign(back.getAttribute("href"));
    }
  });
})();

// Keyboard: "/" goes to the scan box, "?" lists the shortcuts (a dialog that
// Escape closes). Neither acts while a person types in a field. The list is
// asked for the first time "?" is pressed on a signed-in page (one with the
// sign-out form), in the person's language and for their role.
(function () {
  "use strict";
  function typing(el) {
    if (!el) {
      return false;
    }
    if (el.tagName === "INPUT") {
      return !/^(checkbox|radio|button|submit|reset|file|image|range|color)$/.test(el.type);
    }
    return el.isContentEditable || el.tagName === "TEXTAREA" || el.tagName === "SELECT";
  }
  // The "/" that moved the focus is not typed into the box, even where the
  // key's character comes apart from the key press.
  var swallow = false;
  document.addEventListener("keypress", function (event) {
    if (swallow && event.key === "/") {
      event.preventDefault();
    }
  }, true);
  document.addEventListener("keyup", function () { swallow = false; }, true);
  var asking = false;
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) {
      return;
    }
    var help = document.getElementById("shortcuts");
    if (help && help.open) {
      return;
    }
    if (event.key === "?" && !help && document.getElementById("logout") && !asking) {
      event.preventDefault();
      asking = true;
      fetch("/shortcuts", { credentials: "same-origin", headers: { Accept: "text/html" } }).then(function (resp) {
        return resp.ok && !resp.redirected ? resp.text() : "";
      }).then(function (html) {
        asking = false;
        if (html && !document.getElementById("shortcuts")) {
          document.body.insertAdjacentHTML("beforeend", html);
        }
        var got = document.getElementById("shortcuts");
        if (got && typeof got.showModal === "function") {
          got.showModal();
        }
      }, function () { asking = false; });
      return;
    }
    if (event.key === "/") {
      var scan = document.getElementById("scan");
      if (scan) {
        event.preventDefault();
        swallow = true;
        scan.focus();
        scan.select();
      }
    } else if (event.key === "?" && help && typeof help.showModal === "function") {
      event.preventDefault();
      help.showModal();
    }
  });
})();

// The scan box keeps the focus from one scan to the next: the page a scan
// opens (the shipment, or the list of matches) puts it back in the box.
(function () {
  "use strict";
  var key = "shipdesk.scan";
  document.addEventListener("submit", function (event) {
    if (event.target instanceof HTMLFormElement && event.target.matches("form.scan")) {
      try { sessionStorage.setItem(key, "1"); } catch (e) { /* storage off: no focus kept */ }
    }
  });
  var scanned = false;
  try {
    scanned = sessionStorage.getItem(key) === "1";
    sessionStorage.removeItem(key);
  } catch (e) { /* storage off */ }
  var box = document.getElementById("scan");
  if (scanned && box) {
    box.focus();
  }
})();

// A plain form (no htmx) disables its buttons once sent, so a second click
// sends nothing twice; one that posts (and so asks the service, but for the
// quiet ones: language, sign-out) shows the busy notice too. Disabling waits
// a moment: a button disabled at once would not be sent. Until the answer
// comes the live parts of the page hold still.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    // A form that leaves its page as it is may be sent again: a download
    // (data-many-submits), or one whose answer opens in another tab unless
    // this tab reloads after it.
    if (!(form instanceof HTMLFormElement) || form.method === "dialog" || form.hasAttribute("hx-post") || form.hasAttribute("hx-get") ||
        form.hasAttribute("data-many-submits")) {
      return;
    }
    var target = (event.submitter && event.submitter.getAttribute("formtarget")) || form.target;
    if (target && target !== "_self" && !form.hasAttribute("data-reload-after-submit")) {
      return;
    }
    if (form.hasAttribute("data-sent")) {
      event.preventDefault();
      return;
    }
    form.setAttribute("data-sent", "");
    var busy = document.getElementById("busy");
    setTimeout(function () {
      if (event.defaultPrevented) {
        form.removeAttribute("data-sent");
        return;
      }
      form.querySelectorAll("button, input[type=submit]").forEach(function (b) {
        b.disabled = true;
        b.setAttribute("data-sent-disabled", "");
      });
      if (busy && form.method === "post" && !form.hasAttribute("data-quiet")) {
        busy.classList.add("htmx-request");
      }
    }, 0);
  });
  // While a sent form's answer is on its way, the page's live parts stay as
  // they are: a refresh would bring the form back with its buttons enabled
  // (a second click) and the answer's page replaces them anyway.
  function leaving() {
    return document.querySelector("form[data-sent]") !== null;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (leaving()) {
      event.preventDefault();
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (leaving()) {
      event.detail.shouldSwap = false;
    }
  });
  // Back to a page kept in the browser's cache: its forms work again.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) {
      return;
    }
    document.querySelectorAll("form[data-sent]").forEach(function (form) {
      form.removeAttribute("data-sent");
      form.querySelectorAll("[data-sent-disabled]").forEach(function (b) {
        b.disabled = false;
        b.removeAttribute("data-sent-disabled");
      });
    });
    var busy = document.getElementById("busy");
    if (busy) {
      busy.classList.remove("htmx-request");
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

// A button marked data-copy copies the value of the field it names (the
// tracking page's link) and says so; without the script the field is there
// to select by hand.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
    if (!button) {
      return;
    }
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) {
      return;
    }
    var done = function () {
      if (button.hasAttribute("data-copied")) {
        button.textContent = button.getAttribute("data-copied");
      }
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, function () {});
      return;
    }
    field.select();
    if (document.execCommand("copy")) {
      done();
    }
  });
})();
