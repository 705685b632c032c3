/* Table-side game tracker: renders the state with textContent only and posts JSON actions. */
(function () {
  "use strict";
  var root = document.getElementById("tracker");
  if (!root) { return; }
  var url = root.getAttribute("data-url");
  var tokenMeta = document.querySelector('meta[name="csrf-token"]');
  var data = JSON.parse(document.getElementById("tracker-data").textContent);
  var msg = document.getElementById("tracker-msg");

  /* The texts this script writes: in the page's language through page.js (tournament.i18n.JS_TEXTS), in
     English when the page has no page.js or no such text (an older copy of the page). */
  var ENGLISH = {
    tracker_refused: "Refused.",
    tracker_not_saved: "No connection: the change was not saved. Try again.",
    out_life: "out: life at 0",
    out_poison: "out: %(limit)s poison counters",
    out_general_damage: "out: %(limit)s general damage",
    out_conceded: "out: conceded",
    out_other: "out: lost another way",
    out_reason: "out: %(reason)s",
    turn_order_ended: "Turn order: %(order)s · Game ended; result sent.",
    turn_order_over: "Turn order: %(order)s · Game over: end it to send the result.",
    turn_order: "Turn order: %(order)s",
    player_archenemy: "%(name)s (archenemy)",
    poison_count: "Poison %(poison)s/%(limit)s",
    general_tax_counters: "%(general)s: tax {%(tax)s} (%(count)s death counters)",
    general_tax_casts: "%(general)s: tax {%(tax)s} (%(count)s casts)",
    cast_general: "Cast",
    to_command_zone: "→ Command zone",
    venture_into_room: "Venture → %(room)s",
    take_initiative: "Initiative: %(dungeon)s",
    venture_into_dungeon: "Venture: %(dungeon)s",
    dungeons_completed: "Completed: %(count)s",
    schemes_left_last: "Schemes left %(count)s; last: %(last)s",
    schemes_left: "Schemes left %(count)s",
    set_scheme_in_motion: "Set scheme in motion",
    abandon_scheme: "Abandon %(scheme)s",
    schemes_on_paper: "Scheme deck on paper (not checked): set schemes in motion at the table.",
    general_damage_taken: "General damage taken (%(limit)s from one general is lethal):",
    end_game_confirm: "End the game and send the survivors as the table's result?"
  };
  var tr = window.pageTexts ? window.pageTexts(ENGLISH) : function (key) { return ENGLISH[key] || key; };

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    if (cls) { e.className = cls; }
    return e;
  }
  function button(text, name, body) {
    var b = el("button", text);
    b.type = "button";
    if (name) { b.setAttribute("data-test", name); }
    b.addEventListener("click", function () { send(body); });
    return b;
  }
  function send(body) {
    var headers = {"Content-Type": "application/json", "Accept": "application/json"};
    if (tokenMeta) { headers["X-CSRFToken"] = tokenMeta.getAttribute("content"); }
    return fetch(url, {method: "POST", headers: headers, body: JSON.stringify(body), credentials: "same-origin"})
      .then(function (r) { return r.json().then(function (j) { return {ok: r.ok, body: j}; }); })
      .then(function (res) {
        if (!res.ok) { msg.textContent = (res.body.error && res.body.error.message) || tr("tracker_refused"); return; }
        msg.textContent = "";
        data = res.body;
        render();
      })
      .catch(function () { msg.textContent = tr("tracker_not_saved"); });
  }

  /* "out: 21 general damage": the reasons the tracker knows in the page's language, with the event's lethal
     amounts; another one as it came. */
  var OUT_REASONS = {life: "out_life", poison: "out_poison", general_damage: "out_general_damage",
                     conceded: "out_conceded", other: "out_other"};
  function outText(reason, st) {
    var limits = {limit: reason === "poison" ? st.poison_threshold : st.general_damage_limit};
    return Object.prototype.hasOwnProperty.call(OUT_REASONS, reason) ? tr(OUT_REASONS[reason], limits)
      : tr("out_reason", {reason: reason});
  }

  function render() {
    var st = data.state;
    document.getElementById("tracker-setup").hidden = !!st;
    document.getElementById("tracker-game").hidden = !st;
    if (!st) { return; }
    var names = {};
    st.players.forEach(function (p) { names[p.id] = p.name; });
    var s = st.summary;
    var order = st.turn_order.map(function (id) { return names[id]; }).join(" → ");
    document.getElementById("tracker-status").textContent =
      tr(s.ended ? "turn_order_ended" : (s.over ? "turn_order_over" : "turn_order"), {order: order});

    var box = document.getElementById("tracker-players");
    box.replaceChildren();
    st.players.forEach(function (p) {
      var d = el("div", null, "pl" + (p.alive ? "" : " out"));
      d.id = "player-" + p.id;
      var head = el("div", null, "row");
      head.appendChild(el("strong", p.archenemy ? tr("player_archenemy", {name: p.name}) : p.name));
      if (!p.alive) { head.appendChild(el("span", outText(p.out_reason, st))); }
      d.appendChild(head);
      var life = el("div", null, "row");
      life.appendChild(button("−5", "life-minus5-" + p.id, {action: "life", player: p.id, delta: -5}));
      life.appendChild(button("−1", "life-minus-" + p.id, {action: "life", player: p.id, delta: -1}));
      var total = el("span", p.life, "life");
      total.setAttribute("data-test", "life-" + p.id);
      life.appendChild(total);
      life.appendChild(button("+1", "life-plus-" + p.id, {action: "life", player: p.id, delta: 1}));
      life.appendChild(button("+5", "life-plus5-" + p.id, {action: "life", player: p.id, delta: 5}));
      d.appendChild(life);
      var more = el("div", null, "row");
      more.appendChild(el("span", tr("poison_count", {poison: p.poison, limit: st.poison_threshold})));
      more.appendChild(button("☠+1", "poison-" + p.id, {action: "poison", player: p.id, delta: 1}));
      p.generals.forEach(function (gen) {
        more.appendChild(el("span", st.tax_kind === "death-counter"
          ? tr("general_tax_counters", {general: gen.name, tax: gen.tax, count: gen.counters})
          : tr("general_tax_casts", {general: gen.name, tax: gen.tax, count: gen.casts})));
        more.appendChild(button(tr("cast_general"), "cast-" + p.id + "-" + gen.index,
          {action: "cast", owner: p.id, general: gen.index}));
        more.appendChild(button(tr("to_command_zone"), "cz-" + p.id + "-" + gen.index,
          {action: "command_zone", owner: p.id, general: gen.index}));
      });
      d.appendChild(more);
      var dg = el("div", null, "row");
      if (p.dungeon.id) {
        dg.appendChild(el("span", p.dungeon.name + ": " + p.dungeon.room_name));
        p.dungeon.next.forEach(function (room) {
          dg.appendChild(button(tr("venture_into_room", {room: room.name}), "venture-" + p.id + "-" + room.id,
            {action: "venture", player: p.id, room: room.id}));
        });
      } else {
        st.dungeons.forEach(function (dn) {
          if (dn.initiative_only) {
            dg.appendChild(button(tr("take_initiative", {dungeon: dn.name}), "initiative-" + p.id,
              {action: "venture", player: p.id, initiative: true}));
          } else {
            dg.appendChild(button(tr("venture_into_dungeon", {dungeon: dn.name}), "venture-" + p.id + "-" + dn.id,
              {action: "venture", player: p.id, dungeon: dn.id}));
          }
        });
      }
      dg.appendChild(el("span", tr("dungeons_completed", {count: p.dungeon.completed.length})));
      d.appendChild(dg);
      if (p.schemes && p.schemes.paper) {
        d.appendChild(el("p", tr("schemes_on_paper"), "hint"));
      } else if (p.schemes) {
        var sc = el("div", null, "row");
        sc.appendChild(el("span", p.schemes.last
          ? tr("schemes_left_last", {count: p.schemes.cards_left, last: p.schemes.last})
          : tr("schemes_left", {count: p.schemes.cards_left})));
        sc.appendChild(button(tr("set_scheme_in_motion"), "scheme-" + p.id, {action: "scheme", player: p.id}));
        p.schemes.ongoing.forEach(function (name) {
          sc.appendChild(button(tr("abandon_scheme", {scheme: name}), null, {action: "abandon", player: p.id, scheme: name}));
        });
        d.appendChild(sc);
      }
      box.appendChild(d);
    });

    /* General damage taken, in each player's own box: one line per opposing general with +1 and +5
     * (Undo takes a tap back), so it fits a 390 px phone at any table size. */
    var damage = {};
    st.general_damage.forEach(function (g) { damage[g.victim + ":" + g.owner + ":" + g.general] = g.damage; });
    st.players.forEach(function (v) {
      var list = el("div", null, "gd-list");
      list.appendChild(el("span", tr("general_damage_taken", {limit: st.general_damage_limit}), "hint"));
      st.players.forEach(function (o) {
        if (o.id === v.id) { return; }
        o.generals.forEach(function (gen) {
          var key = v.id + "-" + o.id + "-" + gen.index;
          var line = el("div", null, "row gd-line");
          line.appendChild(el("span", o.name + " · " + gen.name, "gd-from"));
          var count = el("strong", String(damage[v.id + ":" + o.id + ":" + gen.index] || 0), "gd-count");
          count.setAttribute("data-test", "gdn-" + key);
          line.appendChild(count);
          line.appendChild(button("+1", "gd-" + key,
            {action: "general_damage", victim: v.id, owner: o.id, general: gen.index, amount: 1}));
          line.appendChild(button("+5", "gd5-" + key,
            {action: "general_damage", victim: v.id, owner: o.id, general: gen.index, amount: 5}));
          list.appendChild(line);
        });
      });
      document.getElementById("player-" + v.id).appendChild(list);
    });

    var log = document.getElementById("tracker-log");
    log.replaceChildren();
    st.log.forEach(function (e) {
      log.appendChild(el("li", e.at.replace("T", " ") + " " + e.kind + " " + JSON.stringify(e.payload) + " — " + e.actor));
    });
  }

  /* Before the start: the archenemy's scheme deck (every player's in a Supervillain Rumble), each from the
     registered list, a pasted list or paper; only staff choose the variant and the archenemy. */
  var staff = root.getAttribute("data-staff") === "yes";
  var variantSelect = document.getElementById("tracker-variant");
  var archenemySelect = document.getElementById("tracker-archenemy");
  function holders() {
    var v = variantSelect.value;
    if (v === "rumble") { return data.players.map(function (p) { return String(p.id); }); }
    return v === "archenemy" ? [archenemySelect.value] : [];
  }
  function showSetup() {
    var held = holders();
    document.getElementById("tracker-archenemy-row").hidden = variantSelect.value !== "archenemy";
    document.getElementById("tracker-scheme-help").hidden = held.length === 0;
    Array.prototype.forEach.call(document.querySelectorAll("fieldset.scheme-deck"), function (f) {
      f.hidden = held.indexOf(f.getAttribute("data-player")) < 0;
    });
  }
  variantSelect.addEventListener("change", showSetup);
  archenemySelect.addEventListener("change", showSetup);
  showSetup();
  document.getElementById("tracker-start").addEventListener("click", function () {
    var body = {action: "start"};
    if (staff) {
      body.variant = variantSelect.value;
      if (body.variant === "archenemy") { body.archenemy = parseInt(archenemySelect.value, 10); }
    }
    var decks = {};
    holders().forEach(function (id) {
      var picked = document.querySelector('input[name="scheme-source-' + id + '"]:checked');
      if (!picked) { return; }
      decks[id] = {source: picked.value};
      if (picked.value === "list") { decks[id].text = document.getElementById("scheme-text-" + id).value; }
    });
    if (Object.keys(decks).length) { body.scheme_decks = decks; }
    send(body);
  });
  document.getElementById("tracker-undo").addEventListener("click", function () { send({action: "undo"}); });
  document.getElementById("tracker-end").addEventListener("click", function () {
    if (window.confirm(tr("end_game_confirm"))) { send({action: "end"}); }
  });
  render();
}());
