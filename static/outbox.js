/* The player's result report, confirmation and vote when the venue Wi-Fi drops (the "Your round" box on
 * /p/<code>).
 *
 * A form marked data-outbox-kind ("confirm", "result", "vote") is not posted by the browser but kept on this
 * phone first (localStorage, one entry per event/round/access code: the box's data-outbox) with a new send key
 * (the form's field named by data-send-key; a confirmation has none: the server keeps one per player and
 * result), then sent with fetch. While it cannot be sent, the box says
 * "waiting to send"; it is sent again when the connection is back (static/rounds.js polls and tells:
 * "round-online"), also after a reload. The server stores a key once per table, so a form sent twice (its
 * answer lost on the way) is one write. The answer's page replaces the box ("round-answer") and its
 * messages are shown. Tapping again before it went replaces the kept form: only the last one is sent.
 * A server too busy to take it (503 with Retry-After, tournament/web/lanes.py: nothing was stored) gets the
 * same form again after that many seconds; the note "waiting to send" stays until then.
 * Without this script (or without localStorage) the forms post as usual.
 */
(function () {
  "use strict";

  var ENGLISH = {
    outbox_result: "Your result report is waiting to send: it is kept on this phone and sent when the " +
                   "connection is back.",
    outbox_vote: "Your vote is waiting to send: it is kept on this phone and sent when the connection is back.",
    outbox_confirm: "Your confirmation is waiting to send: it is kept on this phone and sent when the connection " +
                    "is back."
  };
  var tr = window.pageTexts ? window.pageTexts(ENGLISH) : function (key) { return ENGLISH[key] || key; };
  var PREFIX = "edh-outbox:";
  var LATER = [429, 502, 503, 504];      // busy, or a proxy without its server: keep it, send it later
  var sending = false;

  function storage() {
    try {
      var probe = PREFIX + "probe";
      window.localStorage.setItem(probe, "1");
      window.localStorage.removeItem(probe);
      return window.localStorage;
    } catch (e) {
      return null;                        // private mode, or storage refused: the forms post as usual
    }
  }

  function read(name) {
    try { return JSON.parse(window.localStorage.getItem(name)) || {}; } catch (e) { return {}; }
  }

  function write(name, items) {
    if (Object.keys(items).length) window.localStorage.setItem(name, JSON.stringify(items));
    else window.localStorage.removeItem(name);
  }

  function holder() { return document.querySelector("[data-outbox]"); }

  function codeOf(place) { return place.split("/").slice(2).join("/"); }

  /* The stored entries of this player (every round: a report kept in round 2 still goes, and is answered). */
  function entries(place) {
    var found = [], code = codeOf(place);
    for (var i = 0; i < window.localStorage.length; i++) {
      var name = window.localStorage.key(i);
      if (name && name.indexOf(PREFIX) === 0 && codeOf(name.slice(PREFIX.length)) === code) found.push(name);
    }
    return found.sort();
  }

  /* 32 hex digits from the browser's random source (crypto.randomUUID needs HTTPS; the venue laptop may not). */
  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  function keep(event) {
    var form = event.target, kind = form.getAttribute && form.getAttribute("data-outbox-kind");
    var box = kind && form.closest("[data-outbox]");
    var keyName = kind && form.getAttribute("data-send-key");    // none: the server stores it once by its fields
    if (!box || event.defaultPrevented || !storage() || !window.fetch || !window.crypto) return;
    event.preventDefault();
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string" && name !== keyName) fields.push([name, value]);
    });
    if (event.submitter && event.submitter.name) fields.push([event.submitter.name, event.submitter.value]);
    var key = newKey();
    if (keyName) fields.push([keyName, key]);
    var name = PREFIX + box.getAttribute("data-outbox"), items = read(name);
    items[kind] = {action: form.action, fields: fields, key: key, at: Date.now()};
    write(name, items);
    flush();
    render();
  }

  function forget(next) {
    var items = read(next.name);
    if (items[next.kind] && items[next.kind].key === next.item.key) delete items[next.kind];
    write(next.name, items);
  }

  /* A refusal for an expired form: the page it came back with has a fresh token for the same form. */
  function freshToken(next, doc) {
    var input = doc.querySelector('form[data-outbox-kind="' + next.kind + '"] input[name$="csrf_token"]');
    var mine = next.item.fields.filter(function (f) { return /csrf_token$/.test(f[0]); })[0];
    if (next.item.retried || !input || !mine || input.value === mine[1]) return false;
    mine[1] = input.value;
    next.item.retried = true;
    var items = read(next.name);
    if (items[next.kind] && items[next.kind].key === next.item.key) items[next.kind] = next.item;
    write(next.name, items);
    return true;
  }

  /* The page the send came back with: its box (through rounds.js) and its messages; an error page (no box:
     the code changed, the event is gone) gives its message. */
  function answer(doc) {
    document.dispatchEvent(new CustomEvent("round-answer", {detail: doc}));
    var main = document.querySelector("main"), flashes = doc.querySelectorAll("main > p.flash");
    if (!main) return;
    Array.prototype.forEach.call(main.querySelectorAll(":scope > p.flash"), function (p) {
      p.parentNode.removeChild(p);
    });
    var news = Array.prototype.map.call(flashes, function (p) { return document.importNode(p, true); });
    var problem = !doc.getElementById("round") && doc.querySelector("main p, main h1");
    if (problem) {
      var p = document.createElement("p");
      p.className = "flash error";
      p.textContent = problem.textContent;
      news.push(p);
    }
    for (var i = news.length - 1; i >= 0; i--) {
      news[i].setAttribute("role", "status");
      news[i].setAttribute("tabindex", "-1");
      main.insertBefore(news[i], main.firstChild);
    }
    var lost = !document.activeElement || document.activeElement === document.body;
    if (news.length && lost) news[0].focus();      // the button pressed went with the old box: focus the answer
  }

  function send(next) {
    var item = next.item;
    return fetch(item.action, {method: "POST", credentials: "same-origin", cache: "no-store",
                               headers: {"Accept": "text/html", "X-Script": "outbox"},
                               body: new URLSearchParams(item.fields)})
      .then(function (response) {
        var after = parseInt(response.headers.get("Retry-After"), 10);
        if (response.status === 503 && after > 0) {     // our server, busy: nothing stored; the same form later,
          setTimeout(flush, after * (1 + Math.random()) * 1000);   // spread over once to twice the queue's length
          return false;
        }
        if (LATER.indexOf(response.status) >= 0) throw new Error("later");
        return response.text().then(function (text) {
          var doc = new DOMParser().parseFromString(text, "text/html");
          if (response.status === 400 && freshToken(next, doc)) return true;     // sent again at once
          forget(next);
          answer(doc);
          return true;
        });
      })
      .catch(function () {
        document.dispatchEvent(new CustomEvent("round-offline"));
        return false;
      });
  }

  /* Send what is kept, one form at a time (a report before a vote), until nothing is left or a send fails. */
  function flush() {
    var box = holder();
    if (sending || !box || !storage()) return;
    var next = null;
    entries(box.getAttribute("data-outbox")).some(function (name) {
      var items = read(name), kinds = Object.keys(items).sort();
      if (kinds.length) next = {name: name, kind: kinds[0], item: items[kinds[0]]};
      return next !== null;
    });
    if (!next) return;
    sending = true;
    send(next).then(function (sent) {
      sending = false;
      render();
      if (sent) flush();
    });
  }

  /* "waiting to send" next to each kept form (or at the top of the box when the form is gone). */
  function render() {
    var box = holder();
    Array.prototype.forEach.call(document.querySelectorAll(".outbox-note"), function (p) {
      p.parentNode.removeChild(p);
    });
    if (!box || !storage()) return;
    entries(box.getAttribute("data-outbox")).forEach(function (name) {
      Object.keys(read(name)).sort().forEach(function (kind) {
        var p = document.createElement("p");
        p.className = "notice outbox-note";
        p.id = "outbox-" + kind;
        p.setAttribute("role", "status");
        p.textContent = tr("outbox_" + kind);
        var form = box.querySelector('form[data-outbox-kind="' + kind + '"]');
        var at = form ? (form.closest("details") || form) : box.querySelector("h2");
        if (document.getElementById(p.id)) return;
        if (at) at.parentNode.insertBefore(p, form ? at : at.nextSibling);
        else box.insertBefore(p, box.firstChild);
      });
    });
  }

  function start() {
    document.addEventListener("submit", keep);
    document.addEventListener("round-online", flush);
    document.addEventListener("round-replaced", render);
    window.addEventListener("online", flush);
    render();
    flush();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
