"""The table-side tracker page and its JSON actions (staff, or a player at the table via /p/<code>/tracker)."""
from __future__ import annotations

from flask import Blueprint, g, jsonify, render_template, request, url_for
from flask_babel import gettext as _

from ..errors import Refused
from ..events import operations as event_ops
from ..web import refused_json, staff_event, staff_required
from ..rounds import operations as round_ops
from . import operations as ops

bp = Blueprint("games", __name__)

TABLE = "/events/<int:event_id>/rounds/<int:number>/tables/<int:table_number>/tracker"


def _state_json(table):
    state = ops.load_state(table)
    return {"table": table.number, "round": table.round.number, "kind": table.kind,
            "result_state": table.result_state,
            "players": [{"id": s.registration_id, "name": s.registration.name, "seat": s.seat} for s in table.seats],
            "state": state.to_json() if state is not None else None}


def _staff_table(event_id, number, table_number):
    return round_ops.get_table(round_ops.get_round(staff_event(event_id), number), table_number)


def _player_table(code):
    reg = event_ops.registration_by_code(code)
    _rnd, seat = round_ops.current_seat(reg)
    if seat is None:
        raise Refused(_("You are not seated at a table in the current round."), status=404)
    if seat.table.kind == "bye":
        raise Refused(_("You have a bye this round: there is no game to track."), status=409)
    return reg, seat.table


def _action(table, *, reg=None, user=None):
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise Refused(_('Send a JSON object like {"action": "life", "player": 1, "delta": -1}.'))
    action = body.get("action")
    payload = {k: v for k, v in body.items() if k != "action"}
    if action == "start":
        for key in payload:
            if key not in ("variant", "archenemy", "seed", "scheme_decks"):
                raise Refused(_("Unknown start setting %(key)s.", key=repr(str(key)[:40])), field=str(key)[:40])
        ops.start_game(table, reg=reg, user=user, **payload)
    elif action == "undo":
        ops.undo(table, reg=reg, user=user)
    elif action == "end":
        ops.end_game(table, reg=reg, user=user)
    else:
        ops.apply_action(table, action, payload, reg=reg, user=user)
    return jsonify(_state_json(table))


def _page(table, post_url, back_url, who):
    return render_template("games/tracker.html", table=table, event=table.round.event,
                           data=_state_json(table), post_url=post_url, back_url=back_url, who=who)


@bp.route(TABLE, methods=["GET", "POST"])
@staff_required
def table_tracker(event_id, number, table_number):
    try:
        table = _staff_table(event_id, number, table_number)
        if request.method == "POST":
            return _action(table, user=g.user)
        if request.accept_mimetypes.best == "application/json" or request.args.get("format") == "json":
            return jsonify(_state_json(table))
    except Refused as e:
        if request.method == "POST" or request.accept_mimetypes.best == "application/json":
            return refused_json(e)
        raise
    return _page(table, request.path, url_for("rounds.round_page", event_id=event_id, number=number),
                 g.user.name)


@bp.route("/p/<code>/tracker", methods=["GET", "POST"])
def player_tracker(code):
    try:
        reg, table = _player_table(code)
        if request.method == "POST":
            return _action(table, reg=reg, user=g.get("user"))
        ops._actor(table, reg, None)
        if request.accept_mimetypes.best == "application/json" or request.args.get("format") == "json":
            return jsonify(_state_json(table))
    except Refused as e:
        if request.method == "POST" or request.accept_mimetypes.best == "application/json":
            return refused_json(e)
        raise
    return _page(table, request.path, url_for("events.player_page", code=reg.access_code), reg.name)
