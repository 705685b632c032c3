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
 *
 * When the connection drops (the venue Wi-Fi), the box stays as it was, a note above it says so, and the
 * poll is tried again after a growing wait (capped: MAX_RETRY_SECONDS), and at once when the browser says
 * it is back online. Events for the player's outbox (static/outbox.js): "round-online" after every answer,
 * "round-replaced" after the box was swapped; it sends "round-offline" (its send failed) and "round-answer"
 * (the page its send came back with: the box is swapped for that page's copy).
 */
(function () {
  "use strict";

  var timers = [];
  var MAX_RETRY_SECONDS = 30;

  /* The texts this script writes: in the page's language through page.js (tournament.i18n.JS_TEXTS), in
     English when the page has no page.js or no such text (an older copy of the page). */
  var ENGLISH = {
    time_up: "time!",
    table_changed: "Something changed at your table: tap here to see it.",
    connection_lost: "No connection — showing your last table; retrying.",
    page_of: "page %(page)s of %(count)s"
  };
  var tr = window.pageTexts ? window.pageTexts(ENGLISH) : function (key) { return ENGLISH[key] || key; };

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
      if (isNaN(ends) || node.getAttribute("data-finished") || node.getAttribute("data-paused")) return;
      timers.push({
        node: node,
        clock: node.querySelector("[data-clock]"),
        note: node.querySelector("[data-timer-note]"),
        after: node.getAttribute("data-after-time") || tr("time_up"),
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
      if (t.note) t.note.textContent = left === 0 ? t.after : "";
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
      a.textContent = tr("table_changed");
      a.addEventListener("click", function (e) { e.preventDefault(); window.location.reload(); });
      p.appendChild(a);
      var current = document.getElementById(id);
      current.insertBefore(p, current.firstChild);
    }
    function swap(fresh) {
      var current = document.getElementById(id);
      if (!fresh || !current) return;
      current.parentNode.replaceChild(document.importNode(fresh, true), current);
      setup(document);
      layout();
      document.dispatchEvent(new CustomEvent("round-replaced"));
    }
    function poll() {
      if (waiting) return;
      if (document.hidden) { schedule(); return; }
      waiting = true;
      var headers = {"Accept": "text/html", "X-Script": "poll"};
      if (tag) headers["If-None-Match"] = tag;
      if (told) headers["X-Told-Busy"] = String(told);      // asked again: served before the phones that were not
      busy = 0;
      fetch(url, {credentials: "same-origin", headers: headers,
                   cache: "no-store"})
        .then(function (response) {
          var after = parseInt(response.headers.get("Retry-After"), 10);
          var ours = response.status === 503 && after > 0;     // our server, busy: keep the table, ask later
          if (!ours && response.status >= 502 && response.status <= 504) throw new Error("no server");  // a proxy's
          failures = 0;
          connection(id, false);
          if (ours) busy = after;
          told = ours ? told + 1 : 0;
          if (response.status !== 200) return null;
          tag = response.headers.get("ETag") || tag;
          return response.text();
        })
        .then(function (text) {
          if (busy) return;                       // kept forms wait too: the server asked for a moment
          document.dispatchEvent(new CustomEvent("round-online"));
          if (!text) return;
          var fresh = new DOMParser().parseFromString(text, "text/html").getElementById(id);
          if (!fresh || !document.getElementById(id)) return;
          if (dirty) { notice(); return; }
          swap(fresh);
        })
        .catch(function () { failures += 1; connection(id, true); })     /* the venue Wi-Fi dropped: wait, ask again */
        .then(function () { waiting = false; schedule(); });
    }
    /* The next poll: every `seconds` while answers come; after failures 1, 2, 4, 8... times as long, capped. */
    function schedule() {
      clearTimeout(timer);
      var wait = failures ? Math.min(seconds * Math.pow(2, failures - 1), MAX_RETRY_SECONDS) : seconds;
      if (busy && !failures) wait = busy + Math.random();     // spread the hall's next asks over a second
      timer = setTimeout(poll, wait * 1000);
    }
    var failures = 0, timer = null, busy = 0, told = 0;
    schedule();
    document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
    window.addEventListener("online", poll);
    document.addEventListener("round-offline", function () {
      failures = Math.max(failures, 1);
      connection(id, true);
      if (!waiting) schedule();
    });
    document.addEventListener("round-answer", function (e) {
      var fresh = e.detail && e.detail.getElementById(id);
      if (!fresh) return;
      dirty = false;
      tag = null;
      var note = document.getElementById("page-changed");
      if (note) note.parentNode.removeChild(note);
      swap(fresh);
    });
  }

  /* The note above the player's box (data-outbox) while the connection is lost: the box keeps the last table
     and seat. The projector and the standings keep their last copy without a note. */
  function connection(id, lost) {
    var note = document.getElementById("connection-lost"), box = document.getElementById(id);
    if (!lost) {
      if (note) note.parentNode.removeChild(note);
      return;
    }
    if (note || !box || !box.hasAttribute("data-outbox")) return;
    note = document.createElement("p");
    note.id = "connection-lost";
    note.className = "notice offline";
    note.setAttribute("role", "status");
    note.textContent = tr("connection_lost");
    box.parentNode.insertBefore(note, box);
  }

  /* The projector on a wide screen: each [data-pages] box shows as many columns as fit and turns its
   * pages every data-page-seconds (also with the arrow keys, a presenter's clicker or a click), with
   * "page x of y" in its heading. Items never split across columns (break-inside: avoid), so a page
   * holds whole tables and whole names; the overflow columns lie to the right, one screen width apart. */
  var pager = {page: 0, timer: null, seconds: 0};

  function pageRoot() {
    var root = document.querySelector("[data-page-seconds]");
    if (!root || !window.matchMedia) return null;
    var wide = window.matchMedia("(min-width: 901px)").matches;
    document.body.classList.toggle("paged", wide);
    return wide ? root : null;
  }

  function layout() {
    var root = pageRoot();
    Array.prototype.forEach.call(document.querySelectorAll("[data-pages]"), function (box) {
      var list = box.firstElementChild, label = box.parentNode.querySelector("[data-page-of]");
      if (!list) return;
      list.style.transform = "";
      var count = 1, lefts = [0], perPage = 1;
      if (root) {
        /* the columns as laid out (their left edges): a page starts exactly at its first column */
        var origin = list.getBoundingClientRect().left, width = box.getBoundingClientRect().width, last = -1e9;
        lefts = [];
        Array.prototype.forEach.call(list.children, function (item) {
          var left = item.getBoundingClientRect().left - origin;
          if (left > last + 2) { lefts.push(left); last = left; }
        });
        if (!lefts.length) lefts = [0];
        perPage = lefts.filter(function (left) { return left < width - 2; }).length || 1;
        count = Math.max(1, Math.ceil(lefts.length / perPage));
      }
      var page = pager.page % count;
      box.setAttribute("data-page", String(page));
      box.setAttribute("data-page-count", String(count));
      list.style.transform = page ? "translateX(" + (-lefts[page * perPage]) + "px)" : "";
      if (label) label.textContent = count > 1 ? tr("page_of", {page: page + 1, count: count}) : "";
    });
    return root;
  }

  function turn(step) {
    pager.page = Math.max(0, pager.page + step);
    layout();
  }

  function startPager() {
    var root = layout();
    if (!root) return;
    pager.seconds = parseInt(root.getAttribute("data-page-seconds"), 10) || 10;
    var restart = function () {
      clearInterval(pager.timer);
      pager.timer = setInterval(function () { turn(1); }, pager.seconds * 1000);
    };
    restart();
    document.addEventListener("keydown", function (e) {
      var forward = ["ArrowRight", "ArrowDown", "PageDown", " "].indexOf(e.key) >= 0;
      var back = ["ArrowLeft", "ArrowUp", "PageUp"].indexOf(e.key) >= 0;
      if (!forward && !back) return;
      e.preventDefault();
      turn(forward ? 1 : -1);
      restart();
    });
    document.addEventListener("click", function () { turn(1); restart(); });
    window.addEventListener("resize", layout);
    window.addEventListener("load", layout);
  }

  function start() {
    setup(document);
    startPager();
    setInterval(tick, 500);
    var box = document.querySelector("[data-refresh]");
    if (box && box.id) refresher(box);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
