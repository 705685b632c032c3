/* Round clocks and the projector's live refresh.
 *
 * A clock ([data-timer]) counts down to the deadline the server stored when
 * the round started (data-ends-at). The page also carries the server's time
 * when it was made (data-server-now), so the browser's own clock being wrong
 * does not matter, and reloading the page never resets the clock: it is
 * always computed from the stored deadline.
 *
 * An element with data-refresh="30" (the projector) is fetched again every
 * 30 seconds and swapped for the new copy; without this script a
 * <noscript> meta refresh reloads the page instead. Text is only ever set
 * with textContent.
 */
(function () {
  "use strict";

  var timers = [];

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  function clockText(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    return h ? h + ":" + pad(m) + ":" + pad(s) : pad(m) + ":" + pad(s);
  }

  function setup(root) {
    timers = [];
    Array.prototype.forEach.call((root || document).querySelectorAll("[data-timer]"), function (node) {
      var ends = Date.parse(node.getAttribute("data-ends-at") || "");
      var serverNow = Date.parse(node.getAttribute("data-server-now") || "");
      if (isNaN(ends) || node.getAttribute("data-finished")) return;
      timers.push({
        node: node,
        clock: node.querySelector("[data-clock]"),
        note: node.querySelector("[data-timer-note]"),
        ends: ends,
        offset: isNaN(serverNow) ? 0 : serverNow - Date.now()   // server time minus this browser's time
      });
    });
    tick();
  }

  function tick() {
    var now = Date.now();
    timers.forEach(function (t) {
      var left = Math.max(0, Math.ceil((t.ends - (now + t.offset)) / 1000));
      if (t.clock) t.clock.textContent = clockText(left);
      if (t.note) t.note.textContent = left === 0 ? "time!" : "";
      t.node.classList.toggle("over", left === 0);
    });
  }

  function refresher(box) {
    var seconds = parseInt(box.getAttribute("data-refresh"), 10);
    if (!(seconds > 0) || !window.fetch || !window.DOMParser) return;
    var id = box.id;
    setInterval(function () {
      fetch(window.location.href, {credentials: "same-origin", headers: {"Accept": "text/html"}, cache: "no-store"})
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (text) {
          if (!text) return;
          var fresh = new DOMParser().parseFromString(text, "text/html").getElementById(id);
          var current = document.getElementById(id);
          if (!fresh || !current) return;
          current.parentNode.replaceChild(document.importNode(fresh, true), current);
          setup(document);
        })
        .catch(function () { /* offline for a moment: keep showing what we have */ });
    }, seconds * 1000);
  }

  function start() {
    setup(document);
    setInterval(tick, 500);
    var box = document.querySelector("[data-refresh]");
    if (box && box.id) refresher(box);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
