/* Every page: the few buttons that need a script (the CSP allows no inline script). */
(function () {
  "use strict";
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
