/* The swap page: a countdown that follows the server's stored deadline, list search, tap-to-pick,
   and submission through the JSON API. The server decides; this only displays. */
(function () {
  "use strict";
  var box = document.getElementById("swap-window");
  if (!box) return;
  var api = box.dataset.api;
  var offset = Date.parse(box.dataset.serverTime) - Date.now();   // server clock minus this device's clock
  var deadline = box.dataset.deadline ? Date.parse(box.dataset.deadline) : null;
  var remaining = document.getElementById("swap-remaining");
  var countdown = document.getElementById("swap-countdown");

  /* The texts this script writes: in the page's language through page.js (tournament.i18n.JS_TEXTS), in
     English when the page has no page.js or no such text (an older copy of the page). */
  var ENGLISH = {
    swap_closed: "The swap window is closed.",
    swap_refused: "The swap was refused.",
    no_connection: "No connection; try again."
  };
  var tr = window.pageTexts ? window.pageTexts(ENGLISH) : function (key) { return ENGLISH[key] || key; };

  function closeWindow() {
    if (countdown) {
      countdown.dataset.state = "closed";
      var closed = document.createElement("strong");
      closed.textContent = tr("swap_closed");
      countdown.replaceChildren(closed);
    }
    var fields = document.getElementById("swap-fields");
    if (fields) fields.disabled = true;           // the pickers and the button, all at once
    var reason = document.getElementById("swap-closed-reason");
    if (reason) reason.hidden = false;            // and why: the server refuses late swaps anyway
  }

  function tick() {
    if (deadline === null || !remaining) return;
    var left = Math.max(0, Math.floor((deadline - (Date.now() + offset)) / 1000));
    if (left <= 0) { closeWindow(); remaining = null; return; }
    remaining.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    remaining.dataset.seconds = String(left);
  }
  if (deadline !== null && remaining) { tick(); setInterval(tick, 250); }

  // Re-synchronise with the server now and then (a judge override or the next game changes the window).
  function resync() {
    fetch(api, {headers: {"Accept": "application/json"}}).then(function (r) { return r.json(); }).then(function (s) {
      if (!s.window) return;
      offset = Date.parse(s.server_time) - Date.now();
      deadline = s.window.deadline ? Date.parse(s.window.deadline) : null;
      if (!s.window.open) closeWindow();
    }).catch(function () {});
  }
  setInterval(resync, 20000);

  // Search both lists as you type.
  var search = document.getElementById("swap-search");
  if (search) {
    search.addEventListener("input", function () {
      var q = search.value.trim().toLowerCase();
      document.querySelectorAll(".swap-list li[data-name]").forEach(function (li) {
        li.hidden = q !== "" && li.dataset.name.toLowerCase().indexOf(q) < 0;
      });
    });
  }

  // Tapping a card fills the first empty "out" (main deck) or "in" (sideboard) picker, and brings the form
  // (and the clock above it) back into view.
  document.querySelectorAll(".swap-list li[data-name] button").forEach(function (button) {
    button.addEventListener("click", function () {
      var li = button.parentNode;
      var name = li.dataset.name;
      var fields = document.getElementById("swap-fields");
      if (fields && fields.disabled) return;
      var pickers = document.querySelectorAll("#swap-form input[name=" + (li.dataset.zone === "main" ? "out" : "in") + "]");
      for (var i = 0; i < pickers.length; i++) {
        if (!pickers[i].value) {
          pickers[i].value = name;
          pickers[i].focus({preventScroll: true});
          pickers[i].scrollIntoView({block: "center"});
          break;
        }
      }
    });
  });

  // Submit through the API (all or nothing); show the server's message when refused.
  var form = document.getElementById("swap-form");
  var error = document.getElementById("swap-error");
  if (form && window.fetch) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var outs = form.querySelectorAll("input[name=out]"), ins = form.querySelectorAll("input[name=in]");
      var pairs = [];
      for (var i = 0; i < outs.length; i++) {
        var out = outs[i].value.trim(), into = ins[i].value.trim();
        if (out || into) pairs.push({out: out, "in": into});
      }
      send(JSON.stringify({pairs: pairs}), 0);
    });
  }

  // 503 "busy, retrying" (the database is held a moment): show the server's message, send the same body again
  // after its Retry-After, a few times; nothing was stored, so sending it again cannot make a swap twice.
  function send(body, tries) {
    fetch(api, {method: "POST", headers: {"Content-Type": "application/json", "Accept": "application/json"},
                body: body})
      .then(function (r) {
        return r.json().then(function (payload) {
          return {ok: r.ok, status: r.status, wait: parseInt(r.headers.get("Retry-After"), 10), body: payload};
        });
      })
      .then(function (res) {
        if (res.ok) { window.location.reload(); return; }
        error.textContent = res.body.error ? res.body.error.message : tr("swap_refused");
        error.hidden = false;
        if (res.status === 503 && tries < 5) {
          setTimeout(function () { send(body, tries + 1); }, 1000 * Math.min(Math.max(res.wait || 2, 1), 30));
        }
      })
      .catch(function () { error.textContent = tr("no_connection"); error.hidden = false; });
  }
})();
