"""The table-side tracker page and its JSON actions (staff, or a player at the table via /p/<code>/tracker).

Each view declares through tournament.web.handler what its URL loads and who may use it; a POST's JSON body
names the one action it runs. A refusal of an action, or of a GET asking for JSON, is JSON
{"error": ...} for the page's fetch() calls, else the app's page message.
"""
from __future__ import annotations

from flask import Blueprint, jsonify, render_template, request, url_for
from flask_babel import gettext as _

from ..errors import Refused
from ..events import loading as event_loading
from ..rounds.views import TABLE as TABLE_LOADERS
from ..web import error_response, json_error
from ..auth.access import staff_required
from ..web.api import parse, whole_numbers
from ..web.handler import handler
from . import loading, operations as ops
from .archenemy import SCHEME_LIST_CHARS
from .schemas import StartIn, start_settings

bp = Blueprint("games", __name__)

TABLE = "/events/<int:event_id>/rounds/<int:number>/tables/<int:table_number>/tracker"


def _state_json(table):
    state = ops.load_state(table)
    return {"table": table.number, "round": table.round.number, "kind": table.kind,
            "result_state": table.result_state,
            "players": [{"id": s.registration_id, "name": s.registration.name, "seat": s.seat} for s in table.seats],
            "state": state.to_json() if state is not None else None,
            "setup": ops.start_choices(table) if state is None and table.kind != "bye" else None}


def _wants_state() -> bool:
    return request.accept_mimetypes.best == "application/json" or request.args.get("format") == "json"


def _tap() -> dict:
    """A POST's input: a JSON object naming its action ({"action": "life", "player": 1, "delta": -1})."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise Refused(_('Send a JSON object like {"action": "life", "player": 1, "delta": -1}.'))
    return body


def _on_tracker_refused(rh, e):
    """An action, or a GET that asked for JSON: {"error": ...} for fetch(); a page: the app's page message."""
    if request.method == "POST" or request.accept_mimetypes.best == "application/json":
        return json_error(e.message, e.status, e.field)
    return error_response(e.message, e.status, e.field)


def tracker(load, policy):
    """A tracker's URL: the page (GET), its state as JSON (GET asking for it), or one action (POST)."""
    return handler(load=load, policy=policy, refused=_on_tracker_refused)


def _run(rh, *, reg=None, user=None):
    """The one operation the posted action names, then the table's state."""
    table, body = rh.table, _tap()
    action = body.get("action")
    payload = {k: v for k, v in body.items() if k != "action"}
    if action == "start":
        start = parse(StartIn, whole_numbers(payload), "start setting")      # the API's start reads it too
        ops.start_game(table, reg=reg, user=user, **start_settings(start))
    elif action == "undo":
        ops.undo(table, reg=reg, user=user)
    elif action == "end":
        ops.end_game(table, reg=reg, user=user)
    else:
        ops.apply_action(table, action, payload, reg=reg, user=user)
    return jsonify(_state_json(table))


def _page(table, post_url, back_url, who, staff=False):
    return render_template("games/tracker.html", table=table, event=table.round.event,
                           data=_state_json(table), post_url=post_url, back_url=back_url, who=who, staff=staff,
                           scheme_list_chars=SCHEME_LIST_CHARS)


@bp.route(TABLE, methods=["GET", "POST"])
@staff_required
@tracker(TABLE_LOADERS, event_loading.staff)
def table_tracker(rh):
    if request.method == "POST":
        return _run(rh, user=rh.user)
    if _wants_state():
        return jsonify(_state_json(rh.table))
    return _page(rh.table, request.path, url_for("rounds.round_page", event_id=rh.event.id, number=rh.round.number),
                 rh.user.name, staff=True)


@bp.route("/p/<code>/tracker", methods=["GET", "POST"])
@tracker((event_loading.player, loading.seated_table), loading.at_table)
def player_tracker(rh):
    if request.method == "POST":
        return _run(rh, reg=rh.reg, user=rh.user)
    if _wants_state():
        return jsonify(_state_json(rh.table))
    return _page(rh.table, request.path, url_for("events.player_page", code=rh.reg.access_code), rh.reg.name)
