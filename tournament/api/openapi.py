"""The OpenAPI 3.1 document for /api/v1 (served at /api/v1/openapi.json), and a small validator.

tests/api/test_openapi.py checks that the document matches the implementation:
the same paths and methods as the URL map, and every response the tests see
validates against the schema documented for its status code.

`validate(instance, schema)` implements the subset of JSON Schema this document
uses (type, enum, properties, required, additionalProperties, items, anyOf,
$ref, minimum, maximum, minLength, maxLength, minItems, format date/date-time,
pattern in the syntax Python and ECMA-262 share)
and refuses any other keyword, so the document cannot quietly promise a rule
nobody checks.
"""
from __future__ import annotations

import copy
import re
from datetime import date, datetime
from functools import lru_cache

from ..decks.rulesets import list_rulesets
from ..events.models import MODES, PAPER_SIZES, SCORING_PROFILES, STATUSES
from ..timezones import zone_names

API_VERSION = "1.0.0"
MAX_ID = 2147483647
MAX_QUERY = 200


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict) -> dict:
    if set(schema) == {"type"} and isinstance(schema["type"], str):
        return {"type": [schema["type"], "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


def obj(properties: dict, required=None, extra: bool = False, **kw) -> dict:
    """An object schema; `required` defaults to every property."""
    return {"type": "object", "properties": properties,
            "required": list(properties) if required is None else list(required),
            "additionalProperties": extra, **kw}


STRING = {"type": "string"}
_NO_CONTROL = "\\u0000-\\u001f\\u007f-\\u009f"
LINE = f"^[^{_NO_CONTROL}]*$"                            # one line of text: no control characters
TEXT = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$"   # also tab, newlines
_DECK_CONTROL = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f\\ufffd"
DECKLIST_TEXT = f"^[^{_DECK_CONTROL}]*[^\\s{_DECK_CONTROL}][^{_DECK_CONTROL}]*$"   # lines of text, not empty
FILLED = f"^[^{_NO_CONTROL}]*[^\\s{_NO_CONTROL}][^{_NO_CONTROL}]*$"   # ... and not only spaces


def line(max_length: int, required: bool = False, null: bool = False, **kw) -> dict:
    """A text field as the server reads it (clean_text): trimmed, in any script, no control characters;
    a required one has something besides spaces."""
    schema = {"type": ["string", "null"] if null else "string", "maxLength": max_length,
              "pattern": FILLED if required else LINE, **kw}
    if required:
        schema["minLength"] = 1
    return schema
INTEGER = {"type": "integer"}
BOOLEAN = {"type": "boolean"}
DATE_TIME = {"type": "string", "format": "date-time"}
COUNT = {"type": "integer", "minimum": 0}
COLOR = {"type": "string", "enum": ["W", "U", "B", "R", "G"]}

COUNTERS = obj({
    "registered": COUNT, "checked_in": COUNT, "dropped": COUNT,
    "legal_decks": COUNT, "illegal_decks": COUNT, "missing_decks": COUNT,
}, description="Check-in desk counters for one event.")

EVENT_SETTINGS = {
    "name": line(200, required=True, description="Any script; trimmed."),
    "date": {**nullable({"type": "string"}), "format": "date", "description": "YYYY-MM-DD"},
    "venue": line(200, null=True, description="null: none."),
    "ruleset": {"type": "string", "enum": [r.id for r in list_rulesets()], "description": "A ruleset id."},
    "banlist_add": {"type": ["array", "null"], "items": line(200), "description": "Card names; null: none."},
    "banlist_remove": {"type": ["array", "null"], "items": line(200), "description": "Card names; null: none."},
    "mode": {"type": "string", "enum": list(MODES)},
    "pod_size": {"type": "integer", "minimum": 3, "maximum": 5},
    "sideboard_enabled": BOOLEAN,
    "swap_seconds": {"type": "integer", "minimum": 0, "maximum": 3600},
    "scoring_profile": {"type": "string", "enum": list(SCORING_PROFILES)},
    "round_minutes": {"type": "integer", "minimum": 10, "maximum": 600},
    "decklist_deadline": {**nullable({"type": "string"}), "format": "date-time",
                          "description": "ISO 8601; without an offset it is UTC."},
    "paper_size": {"type": "string", "enum": list(PAPER_SIZES)},
    "status": {"type": "string", "enum": list(STATUSES)},
    "leftover_policy": {"type": "string", "enum": ["threes", "fives", "byes"],
                        "description": "Pods mode: players left over fill tables of 3, make pods of 5, or get byes."},
    "top_cut": {"type": "integer", "enum": [0, 4, 7, 8, 10, 13, 16, 40],
                "description": "Duel: single elimination after Swiss (4 or 8). Pods: 4, 7, 10, 13, 16 or 40, the top "
                               "seeds waiting for later stages, a final pod of 4."},
    "end_of_round": {"type": "string", "enum": ["finish_turn", "extra_turns", "turn_limit", "draw_at_time"],
                     "description": "Pods: what happens when time is called (tournament/data/draws.json)."},
    "end_of_round_turns": {"type": ["integer", "null"], "minimum": 1, "maximum": 30,
                           "description": "Turns for extra_turns (default 5) or turn_limit."},
    "intentional_draws": {**BOOLEAN, "description": "Pods: whether a result may be an intentional draw."},
    "cut_seating": {"type": "string", "enum": ["seed", "choice"],
                    "description": "Seats in a pod top cut: assigned by seed, or chosen in seed order."},
    "bye_points": {"type": ["integer", "null"], "minimum": 0, "maximum": 100,
                   "description": "Points for a bye; null: the scoring profile's."},
    "prize_conditions": {"type": ["array", "null"], "items": obj({
        "id": line(60, null=True), "name": line(100, required=True),
        "kind": {"type": "string", "enum": ["max", "min", "sum", "count"]}}, required=["name"]),
        "description": "Alternate prize conditions (at most 20, with different names and ids); the seed's "
                       "four by default; null: none."},
    "hide_votes": {**BOOLEAN, "description": "Hide votes from the table until every player there voted."},
    "variant": {"type": "string", "enum": ["none", "archenemy", "supervillain_rumble"],
                "description": "The event's game variant; the table tracker starts games in it unless told otherwise."},
    "archenemy_win_points": {"type": "integer", "minimum": 0, "maximum": 100,
                             "description": "Archenemy games: the archenemy's points when alive at the end with "
                                            "every team member out (default 3)."},
    "publish_decklists": {**BOOLEAN, "description": "Once the event has finished, everyone may see the lists."},
    "timezone": {"type": "string", "enum": list(zone_names()),
                 "description": "IANA time zone of the event's pages and printouts (default the server's)."},
    "language": {"type": ["string", "null"], "enum": ["en", "ja", "zh_Hans", "cs", None],
                 "description": "The default language of the event's public pages and printouts; null: English. "
                                "A reader's own choice (switcher, browser) comes first on pages."},
    "planned_rounds": {"type": ["integer", "null"], "minimum": 1, "maximum": 30,
                       "description": "Shown as \"round 2 of 5\"; null: decided as it goes."},
    "max_bracket": {"type": ["integer", "null"], "minimum": 1, "maximum": 5,
                    "description": "Commander Brackets: a deck whose bracket floor is higher is not legal here; "
                                   "null: any bracket."},
    "bracket_pods": {**BOOLEAN, "description": "Seat pods within the Commander brackets players declared (else "
                                               "their deck's floor, else 2)."},
    "team_win_points": {"type": "integer", "minimum": 0, "maximum": 100,
                        "description": "Archenemy games: each team member's points, eliminated ones too, when the "
                                       "archenemy is out (default 1)."},
}

EVENT = obj({
    "id": INTEGER,
    **{k: v for k, v in EVENT_SETTINGS.items() if k not in ("date", "decklist_deadline")},
    "date": {"type": ["string", "null"], "format": "date"},
    "decklist_deadline": {"type": ["string", "null"], "format": "date-time"},
    "decklists_locked": {"type": "boolean", "description": "Past the deadline: only staff may change lists."},
    "created_at": DATE_TIME,
    "counters": {**ref("Counters"), "description": "Only for staff who run the event."},
}, required=["id", *EVENT_SETTINGS, "decklists_locked", "created_at"])
EVENT["properties"]["name"] = EVENT["properties"]["venue"] = STRING
EVENT["properties"]["banlist_add"] = EVENT["properties"]["banlist_remove"] = {"type": "array", "items": STRING}

EVENT_BRIEF = obj({
    "id": INTEGER, "name": STRING, "date": {"type": ["string", "null"], "format": "date"}, "venue": STRING,
    "ruleset": STRING, "mode": EVENT_SETTINGS["mode"], "status": EVENT_SETTINGS["status"],
    "decklist_deadline": {"type": ["string", "null"], "format": "date-time"}, "decklists_locked": BOOLEAN,
})

FINDING = obj({
    "code": {"type": "string", "description": "UNKNOWN_CARD, COLOR_IDENTITY, SINGLETON, ... (see decks/checks.py)"},
    "severity": {"type": "string", "enum": ["error", "warning"]},
    "card": {"type": ["string", "null"]},
    "line": {"type": ["integer", "null"], "description": "The decklist line the finding is about."},
    "message": STRING,
    "suggestions": {"type": "array", "items": STRING, "description": "Did-you-mean card names."},
    "written": {"type": ["string", "null"],
                "description": "The card as the player wrote it, when in another language (ゴブリンの長槍使い)."},
    "template": {"type": ["string", "null"],
                 "description": "The English message with %(name)s placeholders, the catalogs' msgid: a client "
                                "translates it and fills in `params` (`message` is it filled in, in English)."},
    "params": {"type": ["object", "null"], "description": "The template's values: card names, counts, lines, and "
                                                         "nested translatable phrases as {template, params}."},
    "forms": {"type": ["array", "null"], "items": STRING,
              "description": "A plural message's singular and plural English templates."},
}, required=["code", "severity", "card", "line", "message", "suggestions"])

DECK_CHECK = obj({
    "legal": BOOLEAN,
    "ruleset": STRING,
    "commanders": {"type": "array", "items": STRING},
    "color_identity": {"type": "array", "items": COLOR},
    "main_count": COUNT,
    "sideboard_count": COUNT,
    "findings": {"type": "array", "items": ref("Finding")},
    "summary": {"type": "object", "description": "Deck size, types, mana curve, sections, banlist edits."},
    "bracket": {"type": "object", "description": "Commander Brackets: floor (1-4), name, reasons, the Game "
                "Changers, extra-turn cards, mass land denial cards and two-card combos found, as_of (the lists' "
                "date)."},
    "submitted_at": DATE_TIME,
    "submitted_by": {"type": "string", "description": "\"player\" or \"ROLE:NAME\" of the staff member."},
}, required=["legal", "ruleset", "commanders", "color_identity", "main_count", "sideboard_count", "findings",
             "summary", "submitted_at", "submitted_by"],
   description="The deck check of the latest submitted list; illegal when any finding is an error.")

REGISTRATION_SUMMARY_PROPS = {
    "id": INTEGER,
    "event_id": INTEGER,
    "name": {"type": "string", "description": "Exactly as registered (not HTML-escaped)."},
    "contact": STRING,
    "player_id": {"type": ["string", "null"]},
    "declared_bracket": {"type": ["integer", "null"], "description": "Commander bracket the player declared."},
    "access_code": {"type": "string", "description": "The player's credential for /players/{code}."},
    "late": BOOLEAN,
    "checked_in": BOOLEAN,
    "checked_in_at": {"type": ["string", "null"], "format": "date-time"},
    "dropped": BOOLEAN,
    "dropped_at": {"type": ["string", "null"], "format": "date-time"},
    "notes": {"type": "string", "description": "Staff notes."},
    "deck_status": {"type": "string", "enum": ["missing", "legal", "illegal"]},
    "created_at": DATE_TIME,
}
LINKS = obj({
    "page": {"type": ["string", "null"], "description": "The player's web page (receipt QR code)."},
    "api": {"type": "string", "description": "GET this with no token for the player's registration."},
})
REGISTRATION_DETAIL_PROPS = {
    "links": ref("PlayerLinks"),
    "decklist": {"type": ["string", "null"], "description": "The latest submitted list as text."},
    "deck": nullable(ref("DeckCheck")),
}
REGISTRATION_SUMMARY = obj(REGISTRATION_SUMMARY_PROPS)
REGISTRATION = obj({**REGISTRATION_SUMMARY_PROPS, **REGISTRATION_DETAIL_PROPS})
PLAYER_REGISTRATION = obj({**{k: v for k, v in REGISTRATION_SUMMARY_PROPS.items() if k != "notes"},
                           **REGISTRATION_DETAIL_PROPS, "event": ref("EventBrief")},
                          description="A player's own registration (no staff notes).")

ERROR = obj({
    "error": obj({
        "status": {"type": "integer", "minimum": 400, "maximum": 599},
        "message": {"type": "string", "description": "What was wrong and what to do instead."},
        "field": {"type": "string", "description": "The input field at fault, when there is one."},
    }, required=["status", "message"]),
})

SCHEMAS = {
    "Error": ERROR,
    "Health": obj({"status": {"type": "string", "enum": ["ok"]}}),
    "Counters": COUNTERS,
    "Event": EVENT,
    "EventList": obj({"events": {"type": "array", "items": ref("Event")}}),
    "EventCreate": obj(EVENT_SETTINGS, required=["name", "ruleset"],
                       description="Unknown fields are refused. Duel events default to mtr scoring."),
    "EventUpdate": obj(EVENT_SETTINGS, required=[], description="Only the fields sent change."),
    "EventCopy": obj({"name": line(200, required=True, null=True)}, required=[],
                     description="Optional; the copy is named \"NAME (copy)\" by default."),
    "EventBrief": EVENT_BRIEF,
    "Finding": FINDING,
    "DeckCheck": DECK_CHECK,
    "PlayerLinks": LINKS,
    "RegistrationSummary": REGISTRATION_SUMMARY,
    "Registration": REGISTRATION,
    "PlayerRegistration": PLAYER_REGISTRATION,
    "RegistrationSearch": obj({
        "event_id": INTEGER,
        "query": STRING,
        "counters": ref("Counters"),
        "offset": INTEGER,
        "limit": INTEGER,
        "next_offset": {"type": ["integer", "null"],
                        "description": "The offset of the next page; null on the last page."},
        "registrations": {"type": "array", "items": ref("RegistrationSummary")},
    }),
    "RegistrationCreate": obj({
        "name": line(100, required=True, description="Any script."),
        "contact": line(200, null=True),
        "player_id": line(40, null=True, description="Unique within the event."),
        "declared_bracket": {"type": ["integer", "null"], "minimum": 1, "maximum": 5,
                             "description": "The Commander bracket the player declares for the deck."},
        "decklist": {"type": ["string", "null"], "pattern": DECKLIST_TEXT,
                     "description": "Checked at once; the result is in `deck`."},
        "same_name_ok": {"type": "boolean", "description": "A name already registered is refused (409, a double "
                         "registration or a retry) unless this says it is a different person."},
    }, required=["name"]),
    "Notes": obj({"notes": {"type": "string", "maxLength": 5000, "pattern": TEXT}}),
    "DecklistSubmission": obj({
        "decklist": {"type": "string", "pattern": DECKLIST_TEXT,
                     "description": "Text, Arena/MTGO export, .dek XML or CSV; at most 1 MB; no control "
                                    "characters besides tabs and line breaks."},
        "filename": line(255, null=True, description="The uploaded file's name; breaks ties between formats."),
    }, required=["decklist"]),
}

ERRORS = {
    "400": "Malformed or invalid input; `error.field` names the field.",
    "401": "No, malformed, unknown or revoked bearer token.",
    "403": "The token's user may not do this (e.g. another organizer's event, a judge editing an event).",
    "404": "No such event, registration or access code (or a registration of another event).",
    "409": "The action conflicts with the current state (registration closed, deadline passed, dropped, "
           "duplicate player ID).",
    "413": "The body is larger than 4 MB, or the decklist larger than 1 MB.",
    "415": "The body has the wrong Content-Type.",
    "429": "Too many tries from this network (wrong access codes, registrations, decklist submissions); "
           "`Retry-After` says how many seconds to wait.",
}


def _error(code: str) -> dict:
    return {"$ref": f"#/components/responses/E{code}"}


def _ok(schema: str, description: str, status: str = "200") -> dict:
    return {status: {"description": description, "content": {"application/json": {"schema": ref(schema)}}}}


def _json_body(schema: str, example: dict | None = None, required: bool = True) -> dict:
    media = {"schema": ref(schema)}
    if example is not None:
        media["example"] = example
    return {"required": required, "content": {"application/json": media}}


def _op(op_id: str, summary: str, responses: dict, errors: str = "", public: bool = False,
        body: dict | None = None, params: list | None = None, description: str | None = None) -> dict:
    out = {"operationId": op_id, "summary": summary, "tags": [op_id.split("_")[0]]}
    if description:
        out["description"] = description
    if params:
        out["parameters"] = params
    if body:
        out["requestBody"] = body
    if public:
        out["security"] = []
    out["responses"] = {**responses, **{code: _error(code) for code in errors.split()}}
    return out


def _path_param(name: str, description: str) -> dict:
    if name == "code":
        return {"name": name, "in": "path", "required": True, "description": description,
                "schema": {"type": "string", "minLength": 1, "maxLength": 64}}
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": {"type": "integer", "minimum": 0, "maximum": MAX_ID}}


EVENT_ID = _path_param("event_id", "The event's id.")
REGISTRATION_ID = _path_param("registration_id", "The registration's id (within this event).")
CODE = _path_param("code", "The player's access code (case and dashes ignored).")

DECKLIST_BODY = {
    "required": True,
    "content": {
        "application/json": {"schema": ref("DecklistSubmission"),
                             "example": {"decklist": "Commander\n1 Kenrith, the Returned King\n\nDeck\n1 Sol Ring"}},
        "text/plain": {"schema": {"type": "string", "pattern": DECKLIST_TEXT}, "example": "1 Sol Ring\n1 Command Tower"},
    },
}


def _registration_action(op_id: str, summary: str, errors: str) -> dict:
    return _op(op_id, summary, _ok("Registration", "The registration after the change."), errors)


def _build() -> dict:
    paths = {
        "/health": {"get": _op("meta_health", "Liveness check.", _ok("Health", "The API is up."), public=True)},
        "/openapi.json": {"get": _op("meta_openapi", "This document.", {"200": {
            "description": "The OpenAPI 3.1 document.",
            "content": {"application/json": {"schema": {"type": "object"}}}}}, public=True)},
        "/events": {
            "get": _op("events_list", "Events the token's user may see (an organizer's own; every event for "
                       "judges).", _ok("EventList", "The events, newest first."), "401"),
            "post": _op("events_create", "Create an event (organizers).",
                        _ok("Event", "The new event.", "201"), "400 401 403 413 415",
                        body=_json_body("EventCreate", {"name": "Friday Night EDH", "ruleset": "edh-2010",
                                                        "date": "2026-12-05", "pod_size": 4})),
        },
        "/events/{event_id}": {
            "parameters": [EVENT_ID],
            "get": _op("events_get", "An event's settings. Public; staff who run it also get the counters.",
                       _ok("Event", "The event."), "401 404", public=True,
                       description="No token needed. When a token is sent it must be valid, and the counters "
                                   "are included for staff who may run the event."),
            "patch": _op("events_update", "Change an event's settings (its organizer).",
                         _ok("Event", "The event after the change."), "400 401 403 404 413 415",
                         body=_json_body("EventUpdate", {"venue": "Game Store", "pod_size": 5})),
        },
        "/events/{event_id}/copy": {
            "parameters": [EVENT_ID],
            "post": _op("events_copy", "A new event with the same settings, no players, open for registration.",
                        _ok("Event", "The copy.", "201"), "400 401 403 404 413 415",
                        body=_json_body("EventCopy", {"name": "Friday Night EDH, next week"}, required=False)),
        },
        "/events/{event_id}/registrations": {
            "parameters": [EVENT_ID],
            "get": _op("registrations_search", "The check-in desk's search as you type, with the counters.",
                       _ok("RegistrationSearch", "Matching registrations, by name."), "400 401 403 404",
                       params=[
                           {"name": "q", "in": "query", "required": False,
                            "description": "Part of a name (any script; case, accents and spaces ignored), "
                                           "an access code, or a player ID. Empty: everyone.",
                            "schema": {"type": "string", "maxLength": MAX_QUERY}},
                           {"name": "limit", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
                           {"name": "offset", "in": "query", "required": False,
                            "description": "Skip this many matches (the previous page's next_offset).",
                            "schema": {"type": "integer", "minimum": 0, "maximum": 9999999}},
                       ]),
            "post": _op("registrations_create", "Register a player, optionally with a decklist.",
                        _ok("PlayerRegistration", "The registration with its access code, link and deck "
                            "check.", "201"), "400 401 403 404 409 413 415 429", public=True,
                        body=_json_body("RegistrationCreate", {"name": "山田太郎", "player_id": "1234"}),
                        description="No token: self-registration while the event's status is `registration`. "
                                    "With a staff token: also late entries once the event is running."),
        },
        "/events/{event_id}/registrations/{registration_id}": {
            "parameters": [EVENT_ID, REGISTRATION_ID],
            "get": _op("registrations_get", "One registration with its latest deck check.",
                       _ok("Registration", "The registration."), "401 403 404"),
        },
        "/events/{event_id}/registrations/{registration_id}/checkin": {
            "parameters": [EVENT_ID, REGISTRATION_ID],
            "post": _registration_action("registrations_checkin", "Check the player in (409 when dropped).",
                                         "401 403 404 409"),
            "delete": _registration_action("registrations_checkinUndo", "Undo the check-in.", "401 403 404"),
        },
        "/events/{event_id}/registrations/{registration_id}/drop": {
            "parameters": [EVENT_ID, REGISTRATION_ID],
            "post": _registration_action("registrations_drop", "Drop the player.", "401 403 404"),
            "delete": _registration_action("registrations_dropUndo", "Undrop the player.", "401 403 404"),
        },
        "/events/{event_id}/registrations/{registration_id}/notes": {
            "parameters": [EVENT_ID, REGISTRATION_ID],
            "put": _op("registrations_notes", "Replace the staff notes.",
                       _ok("Registration", "The registration with the new notes."), "400 401 403 404 413 415",
                       body=_json_body("Notes", {"notes": "Paid at the door."})),
        },
        "/events/{event_id}/registrations/{registration_id}/decklist": {
            "parameters": [EVENT_ID, REGISTRATION_ID],
            "put": _op("registrations_decklist", "Submit or correct a player's list (staff; also after the "
                       "deadline, logged with who and when).", _ok("DeckCheck", "The deck check."),
                       "400 401 403 404 413 415", body=DECKLIST_BODY),
        },
        "/players/{code}": {
            "parameters": [CODE],
            "get": _op("players_get", "The player's own registration and latest deck check.",
                       _ok("PlayerRegistration", "The registration this code belongs to."), "404 429", public=True),
        },
        "/players/{code}/decklist": {
            "parameters": [CODE],
            "put": _op("players_decklist", "Submit or resubmit the player's decklist until the deadline.",
                       _ok("DeckCheck", "The deck check; fix the findings and resubmit."),
                       "400 404 409 413 415 429", public=True, body=DECKLIST_BODY),
        },
        **_swap_paths(),
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Commander tournament manager API",
            "version": API_VERSION,
            "description": "Events, registrations with decklist checks, check-in and drops. Staff send "
                           "`Authorization: Bearer <token>` (`flask --app wsgi user token NAME`); players use "
                           "the access code from their receipt in the path. Every error is "
                           "`{\"error\": {\"status\", \"message\", \"field\"?}}`.",
        },
        "servers": [{"url": "/api/v1"}],
        "security": [{"bearerAuth": []}],
        "tags": [{"name": "meta"}, {"name": "events"}, {"name": "registrations"}, {"name": "players"}],
        "paths": paths,
        "components": {
            "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer",
                                               "description": "A staff token from `flask user token NAME`."}},
            "schemas": SCHEMAS,
            "responses": {f"E{code}": {"description": text, "content": {"application/json": {
                "schema": ref("Error")}}} for code, text in ERRORS.items()},
        },
    }


def _swap_paths() -> dict:
    from ..swaps.apidoc import paths
    return paths()


@lru_cache(maxsize=1)
def _cached() -> dict:
    return _build()


def document() -> dict:
    """A fresh copy of the document (callers may not change the cached one)."""
    return copy.deepcopy(_cached())


# ----------------------------------------------------------------- a small JSON Schema validator

class SchemaError(ValueError):
    """The schema itself uses something this validator does not implement."""


_ANNOTATIONS = {"description", "title", "example", "examples", "default", "readOnly", "writeOnly", "deprecated"}
_KEYWORDS = {"type", "enum", "properties", "required", "additionalProperties", "items", "anyOf", "$ref",
             "minimum", "maximum", "minLength", "maxLength", "minItems", "format", "pattern"} | _ANNOTATIONS
_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _format_ok(fmt: str, value: str) -> bool:
    try:
        if fmt == "date":
            date.fromisoformat(value)
        elif fmt == "date-time":
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
            return "T" in value and parsed.tzinfo is not None
        else:
            raise SchemaError(f"unsupported format {fmt!r}")
    except ValueError:
        return False
    return True


def resolve(schema: dict, root: dict) -> dict:
    while "$ref" in schema:
        target = schema["$ref"]
        if not target.startswith("#/"):
            raise SchemaError(f"only local $ref are supported: {target}")
        node = root
        for part in target[2:].split("/"):
            if not isinstance(node, dict) or part not in node:
                raise SchemaError(f"unresolvable $ref {target}")
            node = node[part]
        schema = node
    return schema


def validate(instance, schema: dict, root: dict | None = None, path: str = "$") -> list[str]:
    """Every way `instance` fails `schema`, as 'path: reason' strings; [] when it is valid."""
    root = root if root is not None else _cached()
    if "$ref" in schema:
        extra = set(schema) - {"$ref"} - _ANNOTATIONS
        if extra:
            raise SchemaError(f"{path}: $ref with sibling keywords {sorted(extra)}")
        return validate(instance, resolve(schema, root), root, path)
    unknown = set(schema) - _KEYWORDS
    if unknown:
        raise SchemaError(f"{path}: unsupported keyword(s) {sorted(unknown)}")
    errors: list[str] = []
    if "anyOf" in schema:
        branches = [validate(instance, s, root, path) for s in schema["anyOf"]]
        if all(branches):
            errors.append(f"{path}: matches none of anyOf: " + " | ".join("; ".join(b) for b in branches))
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[t](instance) for t in types):
            return errors + [f"{path}: expected {' or '.join(types)}, got {type(instance).__name__}"]
    if "enum" in schema and instance not in schema["enum"]:
        errors.append(f"{path}: {instance!r} is not one of {schema['enum']}")
    if isinstance(instance, (int, float)) and not isinstance(instance, bool):
        if "minimum" in schema and instance < schema["minimum"]:
            errors.append(f"{path}: {instance} < minimum {schema['minimum']}")
        if "maximum" in schema and instance > schema["maximum"]:
            errors.append(f"{path}: {instance} > maximum {schema['maximum']}")
    if isinstance(instance, str):
        if "minLength" in schema and len(instance) < schema["minLength"]:
            errors.append(f"{path}: shorter than {schema['minLength']}")
        if "maxLength" in schema and len(instance) > schema["maxLength"]:
            errors.append(f"{path}: longer than {schema['maxLength']}")
        if "pattern" in schema and not re.search(schema["pattern"], instance):
            errors.append(f"{path}: {instance[:40]!r} does not match {schema['pattern']}")
        if "format" in schema and not _format_ok(schema["format"], instance):
            errors.append(f"{path}: {instance!r} is not a {schema['format']}")
    if isinstance(instance, list):
        if "minItems" in schema and len(instance) < schema["minItems"]:
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        if "items" in schema:
            for i, item in enumerate(instance):
                errors += validate(item, schema["items"], root, f"{path}[{i}]")
    if isinstance(instance, dict):
        props = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in instance:
                errors.append(f"{path}: missing required property {name!r}")
        extra = schema.get("additionalProperties", True)
        for name, value in instance.items():
            if name in props:
                errors += validate(value, props[name], root, f"{path}.{name}")
            elif extra is False:
                errors.append(f"{path}: unexpected property {name!r}")
            elif isinstance(extra, dict):
                errors += validate(value, extra, root, f"{path}.{name}")
    return errors


# ----------------------------------------------------------------- responses against the document

def find_operation(method: str, path: str, root: dict | None = None) -> tuple[str, dict | None] | None:
    """(path template, operation or None when the method is not documented) for a concrete URL path."""
    root = root if root is not None else _cached()
    server = root["servers"][0]["url"]
    if not path.startswith(server + "/"):
        return None
    relative = path[len(server):]
    for template, item in root["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, relative):
            return template, item.get(method.lower())
    return None


def response_problems(method: str, path: str, status: int, body, root: dict | None = None) -> list[str]:
    """How a real response differs from the document: an undocumented status, or a body not matching
    the schema documented for it. Undocumented addresses and methods must answer with the Error schema."""
    root = root if root is not None else _cached()
    found = find_operation(method, path, root)
    if found is None or found[1] is None:
        if status >= 400:
            return validate(body, ref("Error"), root)
        return [f"{method} {path} answered {status} but is not in the document"]
    template, operation = found
    spec = operation["responses"].get(str(status))
    if spec is None:
        return [f"{method} {template}: status {status} is not documented "
                f"(documented: {', '.join(operation['responses'])})"]
    spec = resolve(spec, root)
    media = spec.get("content", {}).get("application/json")
    if media is None:
        return [f"{method} {template}: {status} has no application/json schema"]
    return validate(body, media["schema"], root)
