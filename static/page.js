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
