"""The swap routes' part of the OpenAPI document (tournament.api.openapi adds these paths)."""
from __future__ import annotations

from ..api.openapi import (BOOLEAN, CODE, COUNT, DATE_TIME, EVENT_ID, INTEGER, REGISTRATION_ID, STRING, TEXT, _op,
                           line, nullable, obj)

CARD_COUNTS = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1},
               "description": "Card name -> count."}
SWAP = obj({
    "id": INTEGER, "registration_id": INTEGER, "table_id": INTEGER,
    "game": {"type": "integer", "minimum": 1, "maximum": 3},
    "out": STRING, "in": STRING,
    "entered_by": {"type": "string", "description": "\"player\", or the staff member who entered it."},
    "at": DATE_TIME,
    "override_reason": nullable(STRING),
    "undone_at": nullable(DATE_TIME),
    "undone_by": nullable(STRING),
})
WINDOW = obj({
    "game": {"type": "integer", "minimum": 1, "maximum": 3},
    "open": BOOLEAN,
    "opens_at": DATE_TIME,
    "deadline": {**nullable(DATE_TIME), "description": "Stored on the server; null: until the game starts."},
    "closed_at": nullable(DATE_TIME),
    "seconds_left": {"type": ["number", "null"], "minimum": 0},
    "no_limit": BOOLEAN,
    "server_time": DATE_TIME,
})
STATE_PROPS = {
    "registration_id": INTEGER,
    "name": STRING,
    "sideboard_enabled": BOOLEAN,
    "server_time": DATE_TIME,
    "table": nullable(obj({"id": INTEGER, "round": INTEGER, "number": INTEGER,
                           "kind": {"type": "string", "enum": ["pod", "match"]},
                           "started_at": nullable(DATE_TIME)})),
    "game": {"type": ["integer", "null"], "minimum": 1, "maximum": 3},
    "window": nullable(WINDOW),
    "deck": nullable(obj({"generals": {"type": "array", "items": STRING}, "main": CARD_COUNTS,
                          "sideboard": CARD_COUNTS, "main_count": COUNT, "deck_size": COUNT})),
    "swaps": {"type": "array", "items": SWAP, "description": "This game's swaps, undone ones included."},
    "made": {"type": "array", "items": SWAP},
    "undone": {"type": "array", "items": INTEGER},
}
STATE = obj(STATE_PROPS, description="The player's table, swap window, current deck and swaps.")
STAFF_STATE = obj({**STATE_PROPS, "log": {"type": "array", "items": SWAP,
                                          "description": "Every swap of this player in the event."}})
PAIRS = {"type": ["array", "null"], "items": obj({"out": line(200, required=True), "in": line(200, required=True)}),
         "description": "Card out of the main deck, card in from the sideboard; applied in order."}
BODY_PROPS = {
    "pairs": PAIRS,
    "undo": {"type": ["array", "null"], "items": INTEGER, "description": "Ids of this game's swaps to undo."},
    "game": {"type": ["integer", "null"], "minimum": 1, "maximum": 3,
             "description": "Default: the game the window is open for."},
}
EXAMPLE = {"pairs": [], "undo": []}


def _ok(schema: dict, description: str) -> dict:
    return {"200": {"description": description, "content": {"application/json": {"schema": schema}}}}


def _body(props: dict) -> dict:
    return {"required": True, "content": {"application/json": {"schema": obj(props, required=[]),
                                                               "example": EXAMPLE}}}


def paths() -> dict:
    return {
        "/players/{code}/swaps": {
            "parameters": [CODE],
            "get": _op("players_swaps", "The player's swap window (server deadline), current deck and swaps.",
                       _ok(STATE, "The swap state."), "404 429", public=True),
            "post": _op("players_swapsSubmit", "Swap cards between main deck and sideboard one for one, and/or "
                        "undo swaps; all or nothing.", _ok(STATE, "The state after the change; `made` lists the "
                                                             "new swaps."),
                        "400 404 409 413 415 429", public=True, body=_body(BODY_PROPS),
                        description="Refused (409) after the deadline, for the general, for a card not in the "
                                    "current main deck or sideboard, and when the deck would not be legal. "
                                    "No pairs and no undo: nothing changes."),
        },
        "/events/{event_id}/registrations/{registration_id}/swaps": {
            "parameters": [EVENT_ID, REGISTRATION_ID],
            "get": _op("registrations_swaps", "A player's swap state and full swap log (staff).",
                       _ok(STAFF_STATE, "The swap state and log."), "401 403 404"),
            "post": _op("registrations_swapsSubmit", "Enter swaps for a player (desk or judge; logged as entered "
                        "by you). After the deadline: give `override_reason`.",
                        _ok(STAFF_STATE, "The state after the change."), "400 401 403 404 409 413 415",
                        body=_body({**BODY_PROPS, "override_reason": {
                            "type": ["string", "null"], "maxLength": 500, "pattern": TEXT,
                            "description": "Required after the deadline; logged with who and why."}})),
        },
    }
