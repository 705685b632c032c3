/* Round clocks and the projector's live refresh.
 *
 * A clock ([data-timer]) counts down to the deadline the server stored when
 * the round started (data-ends-at). The page also carries the server's time
 * when it was made (data-server-now), so the browser's own clock being wrong
 * does not matter, and reloading the page never resets the clock: it is
 * always computed from the stored deadline.
 *
 * An element with data-refresh="5" (the projector, the standings, the
 * player's round) is asked for again every 5 seconds with the page's ETag
 * (at data-refresh-url when the box has its own, smaller copy);
 * the server answers 304 until something changed, then the element is
 * swapped for the new copy. Without this script a <noscript> meta refresh
 * reloads the projector instead. Text is only ever set with textContent.
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

  function pageTag() {
    var meta = document.querySelector('meta[name="page-etag"]');
    return meta ? meta.getAttribute("content") : null;
  }

  /* Ask for the page again with its ETag: a 304 (nothing changed) costs the server almost nothing.
   * On a change, swap the box for its new copy; a box the player is filling in (data-keep-input) is
   * not replaced under their fingers: a notice offers the new copy instead. */
  function refresher(box) {
    var seconds = parseInt(box.getAttribute("data-refresh"), 10);
    if (!(seconds > 0) || !window.fetch || !window.DOMParser) return;
    var id = box.id, tag = pageTag(), dirty = false, waiting = false;
    var url = box.getAttribute("data-refresh-url") || window.location.pathname + window.location.search;
    if (box.hasAttribute("data-keep-input")) {
      var touched = function (e) { if (e.target.closest && e.target.closest("#" + id)) dirty = true; };
      document.addEventListener("input", touched);
      document.addEventListener("change", touched);
    }
    function notice() {
      if (document.getElementById("page-changed")) return;
      var p = document.createElement("p");
      p.id = "page-changed";
      p.className = "notice";
      p.setAttribute("role", "status");
      var a = document.createElement("a");
      a.href = window.location.pathname + "#" + id;
      a.textContent = "Something changed at your table: tap here to see it.";
      a.addEventListener("click", function (e) { e.preventDefault(); window.location.reload(); });
      p.appendChild(a);
      var current = document.getElementById(id);
      current.insertBefore(p, current.firstChild);
    }
    function poll() {
      if (waiting || document.hidden) return;
      waiting = true;
      var headers = {"Accept": "text/html"};
      if (tag) headers["If-None-Match"] = tag;
      fetch(url, {credentials: "same-origin", headers: headers,
                   cache: "no-store"})
        .then(function (response) {
          if (response.status !== 200) return null;
          tag = response.headers.get("ETag") || tag;
          return response.text();
        })
        .then(function (text) {
          if (!text) return;
          var fresh = new DOMParser().parseFromString(text, "text/html").getElementById(id);
          var current = document.getElementById(id);
          if (!fresh || !current) return;
          if (dirty) { notice(); return; }
          current.parentNode.replaceChild(document.importNode(fresh, true), current);
          setup(document);
        })
        .catch(function () { /* the venue Wi-Fi dropped for a moment: ask again next time */ })
        .then(function () { waiting = false; });
    }
    setInterval(poll, seconds * 1000);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
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
