/* Every page: the few buttons that need a script (the CSP allows no inline script), and the texts the page's
   scripts write, in the page's language (base.html's JSON block #page-texts; tournament.i18n.JS_TEXTS). */
(function () {
  "use strict";
  var texts = null;
  window.pageText = function (key, params) {
    if (texts === null) {
      var block = document.getElementById("page-texts");
      try { texts = block ? JSON.parse(block.textContent) : {}; } catch (e) { texts = {}; }
    }
    var text = Object.prototype.hasOwnProperty.call(texts, key) ? texts[key] : key;
    return text.replace(/%\(([a-z_]+)\)[sd]|%%/g, function (whole, name) {   // one pass: a value's own % stays
      if (whole === "%%") return "%";
      return params && Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
    });
  };
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
