"""Swap routes on the JSON API blueprint (/api/v1): players by access code, staff by bearer token.

Undo is part of the same POST ({"undo": [swap ids]}), so a player's changes in
one submission (undo some, make others) are all or nothing.
"""
from __future__ import annotations

from flask import jsonify

from ..api import bp
from ..api.views import REGISTRATION, json_body, only_fields, staff_registration
from ..events import operations as ops
from . import operations as swaps

PLAYER_FIELDS = {"pairs", "undo", "game"}
STAFF_FIELDS = PLAYER_FIELDS | {"override_reason"}


def _body(allowed: set[str]) -> dict:
    data = json_body()
    only_fields(data, allowed, "swap")
    return data


def _answer(reg, result=None):
    body = swaps.state(reg, result.game if result is not None and result.game else None)
    body["made"] = [swaps.swap_json(s) for s in result.made] if result else []
    body["undone"] = [s.id for s in result.undone] if result else []
    return jsonify(body)


def _listed(data: dict, key: str):
    """The field as sent (None: an empty list); change_swaps refuses what is not a list."""
    value = data.get(key)
    return [] if value is None else value


@bp.get("/players/<code>/swaps")
def player_swaps(code: str):
    reg = ops.registration_by_code(code)
    response = _answer(reg)
    return response


@bp.post("/players/<code>/swaps")
def player_swaps_submit(code: str):
    reg = ops.registration_by_code(code)
    data = _body(PLAYER_FIELDS)
    result = swaps.change_swaps(reg, _listed(data, "pairs"), _listed(data, "undo"), game=data.get("game"))
    return _answer(reg, result)


@bp.get(f"{REGISTRATION}/swaps")
def registration_swaps(event_id: int, registration_id: int):
    _user, reg = staff_registration(event_id, registration_id)
    body = _answer(reg).get_json()
    body["log"] = [swaps.swap_json(s) for s in swaps.swaps_of(reg)]
    return jsonify(body)


@bp.post(f"{REGISTRATION}/swaps")
def registration_swaps_submit(event_id: int, registration_id: int):
    user, reg = staff_registration(event_id, registration_id)
    data = _body(STAFF_FIELDS)
    result = swaps.change_swaps(reg, _listed(data, "pairs"), _listed(data, "undo"), user=user,
                                game=data.get("game"), override_reason=data.get("override_reason"))
    body = _answer(reg, result).get_json()
    body["log"] = [swaps.swap_json(s) for s in swaps.swaps_of(reg)]
    return jsonify(body)

