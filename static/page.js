/* Every page: the few buttons that need a script (the CSP allows no inline script), and the texts the page's
   scripts write, in the page's language (base.html's JSON block #page-texts; tournament.i18n.JS_TEXTS). */
(function () {
  "use strict";
  var texts = null;
  function fill(text, params) {
    return text.replace(/%\(([a-z_]+)\)[sd]|%%/g, function (whole, name) {
      if (whole === "%%") return "%";
      return params && Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
    });
  }
  function lookup(key) {
    if (texts === null) {
      var block = document.getElementById("page-texts");
      try { texts = block ? JSON.parse(block.textContent) : {}; } catch (e) { texts = {}; }
    }
    return Object.prototype.hasOwnProperty.call(texts, key) ? texts[key] : undefined;
  }
  window.pageText = function (key, params) {
    var text = lookup(key);
    return fill(text === undefined ? key : text, params);
  };
  /* A script's own translator: its English texts (by key) where the page has none (an older copy). */
  window.pageTexts = function (english) {
    return function (key, params) {
      var text = lookup(key);
      if (text === undefined) text = Object.prototype.hasOwnProperty.call(english, key) ? english[key] : key;
      return fill(text, params);
    };
  };
  /* A form with data-confirm ("Finish the event", "Drop", "New access code") asks first; cancelling sends
     nothing. Capturing: it runs before any other script's submit handler (desk.js's fetch). */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form && form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
  /* A table box wider than the screen (.table-scroll): a line above it says it scrolls sideways, and the box is
     named and reachable by keyboard (the arrow keys scroll it); undone when it fits again. Looked at again when
     the window's size or the page (a refresh) changes. */
  function boxName(box) {
    var caption = box.querySelector("caption");
    var section = box.closest("section");
    var heading = section && section.querySelector("h2, h3");
    return ((caption || heading || {}).textContent || "").trim() || window.pageText("scroll_sideways");
  }
  function markScrollers() {
    var boxes = document.querySelectorAll(".table-scroll");
    for (var i = 0; i < boxes.length; i++) {
      var box = boxes[i], scrolls = box.scrollWidth > box.clientWidth + 1;
      var cue = box.previousElementSibling;
      if (!cue || !cue.classList.contains("scroll-cue")) {
        if (!scrolls) continue;
        cue = document.createElement("p");
        cue.className = "scroll-cue";
        cue.textContent = window.pageText("scroll_sideways");
        box.parentNode.insertBefore(cue, box);
      }
      cue.hidden = !scrolls;
      if (scrolls) {
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", boxName(box));
      } else {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    }
  }
  var pending = false;
  function later() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () { pending = false; markScrollers(); });
  }
  document.addEventListener("DOMContentLoaded", function () {
    markScrollers();
    window.addEventListener("resize", later);
    if (window.MutationObserver) new MutationObserver(later).observe(document.querySelector("main") || document.body, {childList: true, subtree: true});
  });
  document.addEventListener("click", function (event) {
    var target = event.target.closest("[data-print], [data-back]");
    if (!target) return;
    if (target.hasAttribute("data-print")) {
      window.print();
    } else if (window.history.length > 1) {
      event.preventDefault();
      window.history.back();
    }
  });
})();
