/* Check-in desk: search as you type, one-tap actions, and scanner check-in.
 *
 * The page works without this script (plain GET search and form posts). With
 * it, searches go to GET .../desk/search (JSON), the row buttons post with
 * fetch() and the CSRF token in the X-CSRFToken header, and Enter in the
 * search box checks in the one matching player (a barcode/QR scanner types
 * the access code followed by Enter). User data is only ever set with
 * textContent, never as HTML.
 */
(function () {
  "use strict";

  var desk = document.getElementById("desk");
  var input = document.getElementById("desk-q");
  var list = document.getElementById("desk-results");
  var statusLine = document.getElementById("desk-status");
  var searchForm = document.getElementById("desk-search");
  if (!desk || !input || !list || !searchForm || !window.fetch) return;

  /* The texts this script writes: in the page's language through page.js (tournament.i18n.JS_TEXTS), in
     English when the page has no page.js or no such text (an older copy of the page). */
  var ENGLISH = {
    player_id: "ID %(id)s",
    deck_legal: "deck legal",
    deck_illegal_one: "deck illegal · %(count)s error",
    deck_illegal_many: "deck illegal · %(count)s errors",
    deck_missing: "deck missing",
    late: "late",
    dropped: "Dropped",
    checked_in: "Checked in",
    not_checked_in: "Not checked in",
    undo_check_in: "Undo check-in",
    check_in: "Check in",
    drop: "Drop",
    confirm_drop: "Drop %(name)s from the event?",
    receipt: "Receipt",
    rename_or_code: "Rename or new code",
    undrop: "Undrop",
    notes: "Notes",
    save_notes: "Save notes",
    notes_for: "Notes for %(name)s",
    no_player_matches: "No player matches “%(query)s”.",
    no_players_yet: "No players yet.",
    search_failed: "Search failed.",
    desk_failed: "The desk could not do that (%(status)s).",
    players_match_many: "%(count)s players match; tap the right one.",
    player_has_dropped: "%(name)s has dropped; undrop them first.",
    already_checked_in_name: "Already checked in: %(name)s",
    checked_in_name: "Checked in: %(name)s"
  };
  var tr = window.pageTexts ? window.pageTexts(ENGLISH) : function (key) { return ENGLISH[key] || key; };

  var searchUrl = desk.getAttribute("data-search-url");
  var registrationsUrl = desk.getAttribute("data-registrations-url");
  var meta = document.querySelector('meta[name="csrf-token"]');
  var csrfToken = meta ? meta.getAttribute("content") : "";
  var DEBOUNCE_MS = 150;
  var POST_TIMEOUT_MS = 15000;
  var timer = null;
  var sequence = 0;        // answers to older searches are ignored
  var lastResults = [];
  /* Desk actions on their way, and how many have finished: a search read while one was on its way may
     predate it, so its rows and counters would undo what the action showed. It is read again instead. */
  var writesBusy = 0;
  var writesDone = 0;
  var idleWaiters = [];

  /* A code as typed, or the code in a scanned receipt QR (the player link, whatever its host). */
  var PLAYER_LINK = /(?:^|\/)p\/([0-9A-Za-z]{4,32})\/?(?:[?#].*)?$/;
  function normaliseCode(text) {
    var link = PLAYER_LINK.exec(String(text || "").trim());
    return String(link ? link[1] : text || "").toUpperCase().replace(/[^0-9A-Z]/g, "");
  }

  function say(message, kind) {
    statusLine.textContent = message;
    statusLine.className = "desk-status" + (kind ? " " + kind : "");
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function updateCounters(counters) {
    if (!counters) return;
    Object.keys(counters).forEach(function (key) {
      var node = document.querySelector('[data-counter="' + key + '"]');
      if (node) node.textContent = String(counters[key]);
    });
  }

  function actionForm(r, action, label, className) {
    var form = el("form", "desk-action");
    form.method = "post";
    form.action = registrationsUrl + "/" + encodeURIComponent(r.id) + "/" + action;
    form.setAttribute("data-action", action);
    var token = el("input");
    token.type = "hidden"; token.name = "csrf_token"; token.value = csrfToken;
    var q = el("input");
    q.type = "hidden"; q.name = "q"; q.value = input.value;
    var button = el("button", className, label);
    button.type = "submit";
    form.appendChild(token); form.appendChild(q); form.appendChild(button);
    return form;
  }

  function row(r) {
    var li = el("li", "desk-row" + (r.checked_in ? " is-in" : "") + (r.dropped ? " is-dropped" : ""));
    li.setAttribute("data-id", String(r.id));
    var who = el("div", "who");
    who.appendChild(el("strong", "name", r.name));
    who.appendChild(el("span", "code", r.access_code));
    if (r.player_id) who.appendChild(el("span", "pid", tr("player_id", {id: r.player_id})));
    var deckText = r.deck_status === "legal" ? tr("deck_legal") : (r.deck_status === "illegal"
      ? tr(r.deck_errors === 1 ? "deck_illegal_one" : "deck_illegal_many", {count: r.deck_errors}) : tr("deck_missing"));
    var badgeKind = r.deck_status === "legal" ? "ok" : (r.deck_status === "illegal" ? "bad" : "none");
    who.appendChild(el("span", "badge " + badgeKind, deckText));
    if (r.bracket_flag) who.appendChild(el("span", "badge warn", r.bracket_flag));
    if (r.late) who.appendChild(el("span", "badge none", tr("late")));
    if (r.waitlist_text) who.appendChild(el("span", "badge warn waitlist", r.waitlist_text));
    if (r.paid_text) who.appendChild(el("span", "badge " + (r.paid ? "ok" : "none") + " paid", r.paid_text));
    who.appendChild(el("span", "state", tr(r.dropped ? "dropped" : (r.checked_in ? "checked_in" : "not_checked_in"))));
    li.appendChild(who);

    var buttons = el("div", "buttons");
    if (!r.dropped) {
      if (!r.waitlisted) {
        buttons.appendChild(r.checked_in
          ? actionForm(r, "checkin/undo", tr("undo_check_in"), "big")
          : actionForm(r, "checkin", tr("check_in"), "big primary"));
      }
      var dropForm = actionForm(r, "drop", tr("drop"), "big danger");
      dropForm.setAttribute("data-confirm", tr("confirm_drop", {name: r.name}));
      buttons.appendChild(dropForm);
    } else {
      buttons.appendChild(actionForm(r, "drop/undo", tr("undrop"), "big"));
    }
    if (r.paid_button) buttons.appendChild(actionForm(r, r.paid ? "paid/undo" : "paid", r.paid_button, "big paid-toggle"));
    [[r.receipt_url, "button receipt-link", "receipt"], [r.manage_url, "button manage-link", "rename_or_code"]]
      .forEach(function (link) {
        if (!link[0]) return;
        var a = el("a", link[1], tr(link[2]));
        a.href = link[0];
        buttons.appendChild(a);
      });
    li.appendChild(buttons);

    var details = el("details", "notes");
    if (r.notes) details.open = true;
    var summary = el("summary", null, tr("notes"));
    if (r.notes) {
      summary.appendChild(document.createTextNode(": "));
      summary.appendChild(el("span", "notes-text", r.notes));
    }
    details.appendChild(summary);
    var notesForm = actionForm(r, "notes", tr("save_notes"), "");
    notesForm.className = "desk-action notes-form";
    var area = el("textarea");
    area.name = "notes"; area.rows = 2; area.maxLength = 5000; area.value = r.notes || "";
    area.setAttribute("aria-label", tr("notes_for", {name: r.name}));
    notesForm.insertBefore(area, notesForm.lastChild);
    details.appendChild(notesForm);
    li.appendChild(details);
    return li;
  }

  /* Where the keyboard was in the list (a row and the action of its form), so that it comes back after the
     rows are drawn again: the same row's button for the same action or its opposite (Check in -> Undo
     check-in, Drop -> Undrop), else the row's first button, else the search box; never <body>. */
  function focusPlace(element) {
    var li = element && element.closest ? element.closest("li.desk-row") : null;
    if (!li || !list.contains(li)) return null;
    var form = element.closest("form");
    return {id: li.getAttribute("data-id"), action: form ? form.getAttribute("data-action") : null};
  }

  function refocus(place) {
    var li = place && list.querySelector('li.desk-row[data-id="' + place.id + '"]');
    if (!li) { input.focus(); return; }
    var target = null;
    if (place.action) {
      var opposite = /\/undo$/.test(place.action) ? place.action.replace(/\/undo$/, "") : place.action + "/undo";
      var form = li.querySelector('form[data-action="' + place.action + '"]')
        || li.querySelector('form[data-action="' + opposite + '"]');
      target = form && form.querySelector("button");
    }
    (target || li.querySelector("button, a.button") || input).focus();
  }

  function render(results) {
    var place = focusPlace(document.activeElement);
    drawRows(results);
    if (place) refocus(place);
  }

  function drawRows(results) {
    lastResults = results;
    list.textContent = "";
    if (!results.length) {
      list.appendChild(el("li", "empty", input.value.trim() ? tr("no_player_matches", {query: input.value.trim()})
                                                            : tr("no_players_yet")));
      return;
    }
    results.forEach(function (r) { list.appendChild(row(r)); });
  }

  function writesIdle() {
    if (!writesBusy) return Promise.resolve();
    return new Promise(function (resolve) { idleWaiters.push(resolve); });
  }

  function search(query) {
    var mine = ++sequence;
    var clean = !writesBusy, doneBefore = writesDone;
    return fetch(searchUrl + "?q=" + encodeURIComponent(query), {
      headers: {"Accept": "application/json"}, credentials: "same-origin"
    }).then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) throw new Error((body.error && body.error.message) || tr("search_failed"));
        return body;
      });
    }).then(function (body) {
      if (mine !== sequence) return null;   // a newer search is on its way
      if (!clean || doneBefore !== writesDone || writesBusy) {
        return writesIdle().then(function () { return mine === sequence ? search(query) : null; });
      }
      render(body.results || []);
      updateCounters(body.counters);
      return body.results || [];
    });
  }

  function post(url, data) {
    var body = new URLSearchParams(data || {});
    writesBusy += 1;
    var settle = function () {
      writesBusy -= 1;
      writesDone += 1;
      if (!writesBusy) idleWaiters.splice(0).forEach(function (resolve) { resolve(); });
    };
    var abort = window.AbortController ? new AbortController() : null;      // a post never hangs the desk:
    var limit = abort ? setTimeout(function () { abort.abort(); }, POST_TIMEOUT_MS) : null;   // settle always runs
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: body, signal: abort ? abort.signal : undefined,
      headers: {"Accept": "application/json", "X-CSRFToken": csrfToken}
    }).then(function (response) {
      clearTimeout(limit);
      return response.json().catch(function () { return {}; }).then(function (payload) {
        if (!response.ok) {
          throw new Error((payload.error && payload.error.message) || tr("desk_failed", {status: response.status}));
        }
        return payload;
      });
    }).then(function (payload) { settle(); return payload; }, function (error) {
      clearTimeout(limit);
      settle();
      throw error.name === "AbortError" ? new Error(tr("desk_failed", {status: "timeout"})) : error;
    });
  }

  function replaceRow(r, place) {
    var old = list.querySelector('li.desk-row[data-id="' + String(r.id) + '"]');
    if (old) old.parentNode.replaceChild(row(r), old);
    lastResults = lastResults.map(function (x) { return x.id === r.id ? r : x; });
    if (place) refocus(place);
  }

  // As-you-type search, debounced.
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      search(input.value.trim()).catch(function (e) { say(e.message, "error"); });
    }, DEBOUNCE_MS);
  });

  // Enter: check in the one player found (or the exact access-code match).
  searchForm.addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(timer);
    var query = input.value.trim();
    if (!query) { search("").catch(function (e) { say(e.message, "error"); }); return; }
    search(query).then(function (results) {
      if (!results) return;
      var code = normaliseCode(query);
      var exact = results.filter(function (r) { return r.access_code === code; });
      var target = exact.length === 1 ? exact[0] : (results.length === 1 ? results[0] : null);
      if (!target) {
        say(results.length ? tr("players_match_many", {count: results.length}) : tr("no_player_matches", {query: query}),
            results.length ? "" : "error");
        return;
      }
      if (target.dropped) { say(tr("player_has_dropped", {name: target.name}), "error"); return; }
      return post(registrationsUrl + "/" + encodeURIComponent(target.id) + "/checkin").then(function (payload) {
        say(tr(target.checked_in ? "already_checked_in_name" : "checked_in_name", {name: payload.registration.name}), "ok");
        updateCounters(payload.counters);
        if (input.value.trim() !== query) return;      // the next code is being typed or scanned: leave it be
        input.value = "";
        input.focus();
        render([payload.registration]);
      });
    }).catch(function (e) { say(e.message, "error"); });
  });

  // Row buttons and notes: post with fetch, update the row and the counters.
  list.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("desk-action")) return;
    event.preventDefault();
    var data = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (field.name && field.name !== "csrf_token") data[field.name] = field.value;
    });
    var button = form.querySelector("button");
    // the button pressed (a disabled button loses the focus, so where it was is kept now)
    var place = {id: form.closest("li.desk-row").getAttribute("data-id"), action: form.getAttribute("data-action")};
    var lost = function () { return document.activeElement === document.body || !document.activeElement; };
    var hadFocus = form.contains(document.activeElement) || lost();
    if (button) button.disabled = true;
    post(form.action, data).then(function (payload) {
      say(payload.message, "ok");
      updateCounters(payload.counters);
      replaceRow(payload.registration, hadFocus || lost() ? place : null);
    }).catch(function (e) {
      say(e.message, "error");
      if (button) button.disabled = false;
      if (button && (hadFocus || lost())) button.focus();
    });
  });
})();
