"""JSON API views: read and check the request, call one operation, commit once, answer JSON.

Staff authenticate with `Authorization: Bearer <token>` only (never the browser
session: the API is CSRF-exempt). Players use their access code in the path;
it is their credential and only ever shows that one registration.
Every refusal is a tournament.errors.Refused, turned into
{"error": {"status", "message", "field"?}} by tournament.web (with rollback).
"""
from __future__ import annotations

import json
import math

from flask import Response, g, jsonify, request, url_for

from ..decks.domain import DeckInputError
from ..decks.parser import MAX_BYTES as MAX_DECKLIST_BYTES, first_control_line, read_decklist_text
from ..errors import Refused
from ..events import operations as ops
from ..web import error_response, whole_number
from . import bp
from .openapi import MAX_QUERY, document
from .serializers import deck_check_json, event_json, player_json, registration_json, registration_summary

MAX_BODY_BYTES = 4 * 1024 * 1024      # a 1 MB decklist fits even JSON-escaped; more is refused with 413
MAX_SEARCH_RESULTS = 100
ID = "int"           # an id too large for the database is simply not found (ops.valid_id): a 404
EVENT = f"/events/<{ID}:event_id>"
REGISTRATION = f"{EVENT}/registrations/<{ID}:registration_id>"
TOKEN_HELP = "Get a token with `flask --app wsgi user token NAME`."


@bp.before_request
def limit_body_size():
    request.max_content_length = MAX_BODY_BYTES


@bp.after_request
def api_headers(response: Response) -> Response:
    if response.status_code == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="api"'
    response.headers.setdefault("Cache-Control", "no-store")
    return response


@bp.errorhandler(OverflowError)
def out_of_range(_e: OverflowError):
    """Date arithmetic on extreme input (a deadline at year 1 or 9999 with an offset) is bad input, not a 500."""
    return error_response("A date or number in the request is out of range; use a date between the years "
                          "1 and 9999 in UTC.", 400)


# ----------------------------------------------------------------- request helpers

def staff_user():
    """The staff member behind the bearer token, or 401. Session cookies do not count here."""
    header = request.headers.get("Authorization")
    if not header:
        raise Refused(f"This needs a staff token: send the header 'Authorization: Bearer <token>'. {TOKEN_HELP}",
                      status=401)
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refused("The Authorization header must be 'Bearer <token>'.", status=401)
    if g.get("user") is None or not g.get("via_token"):
        raise Refused(f"This token is unknown or has been revoked. {TOKEN_HELP}", status=401)
    return g.user


def optional_staff_user():
    """Staff when an Authorization header is sent (and then it must be valid), else None (the public)."""
    return staff_user() if request.headers.get("Authorization") else None


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text} is out of range")
    return value


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _check_text(data) -> None:
    """Strings the database cannot store (NUL, unpaired surrogates) are refused, at any depth."""
    stack = [(data, None)]
    while stack:
        value, field = stack.pop()
        if isinstance(value, str):
            if "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value):
                raise Refused("The text contains a NUL or an unpaired surrogate character; send plain UTF-8 text.",
                              field=field)
        elif isinstance(value, dict):
            for key, item in value.items():
                stack.append((key, field))
                stack.append((item, field or key))
        elif isinstance(value, list):
            stack.extend((item, field) for item in value)


def _json_kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return {list: "an array", str: "a string"}.get(type(value), "a number")


def json_body(required: bool = True) -> dict:
    """The request body as a JSON object; 415 for another content type, 400 for anything malformed."""
    raw = request.get_data(cache=True)        # over MAX_BODY_BYTES: 413
    if not required and not raw.strip():
        return {}
    if request.mimetype != "application/json":
        raise Refused("Send the body as JSON with the header 'Content-Type: application/json'.", status=415)
    if not raw.strip():
        if required:
            raise Refused("The request body is empty; send a JSON object.")
        return {}
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant, parse_float=_finite_float)
    except UnicodeDecodeError:
        raise Refused("The body is not UTF-8 text; send JSON encoded as UTF-8.") from None
    except json.JSONDecodeError as e:
        raise Refused(f"The body is not valid JSON ({e.msg} at line {e.lineno}, column {e.colno}).") from None
    except (ValueError, RecursionError) as e:
        reason = "it is nested too deeply" if isinstance(e, RecursionError) else str(e)
        raise Refused(f"The body is not valid JSON: {reason}.") from None
    if not isinstance(data, dict):
        raise Refused(f"The body must be a JSON object ({{...}}), not {_json_kind(data)}.")
    _check_text(data)
    return data


def only_fields(data: dict, allowed: set[str], what: str) -> None:
    unknown = set(data) - allowed
    if unknown:
        raise Refused(f"Unknown {what} field(s): {', '.join(sorted(unknown))}. "
                      f"Allowed: {', '.join(sorted(allowed))}.", field=sorted(unknown)[0])


def decklist_bytes(value, field: str = "decklist") -> bytes:
    if not isinstance(value, str):
        raise Refused("The decklist must be text.", field=field)
    data = checked_decklist_size(value.encode("utf-8"))
    plain_decklist(value)
    return data


def plain_decklist(text: str) -> None:
    """The API takes decklists as plain text (the document's pattern): a control character is refused with
    its line, where the web form would only mark that line unreadable."""
    line = first_control_line(text)
    if line is not None:
        raise Refused(f"The decklist has a control character on line {line}; send it as plain text (tabs and "
                      "line breaks are fine).", field="decklist")


def checked_decklist_size(data: bytes) -> bytes:
    if len(data) > MAX_DECKLIST_BYTES:
        raise Refused(f"The decklist is {len(data) / 1_000_000:.1f} MB; the limit is "
                      f"{MAX_DECKLIST_BYTES // 1_000_000} MB. Send only the deck.", status=413, field="decklist")
    return data


def may_run(user, event) -> bool:
    try:
        ops.require_staff(user, event)
    except Refused:
        return False
    return True


def staff_event(event_id: int, organizer_only: bool = False):
    """(user, event) for staff who may act on this event: 401, then 404, then 403."""
    user = staff_user()
    event = ops.get_event(event_id)
    ops.require_staff(user, event, organizer_only=organizer_only)
    return user, event


def staff_registration(event_id: int, registration_id: int):
    user, event = staff_event(event_id)
    return user, ops.get_registration(event, registration_id)


def created(body: dict, location: str) -> tuple[Response, int, dict]:
    return jsonify(body), 201, {"Location": location}


# ----------------------------------------------------------------- meta

@bp.get("/health")
def health():
    return jsonify({"status": "ok"})


@bp.get("/openapi.json")
def openapi():
    return jsonify(document())


# ----------------------------------------------------------------- events

@bp.get("/events")
def events_list():
    user = staff_user()
    ops.require_staff(user)
    return jsonify({"events": [event_json(e) for e in ops.events_for(user)]})


@bp.post("/events")
def events_create():
    user = staff_user()
    ops.require_staff(user, organizer_only=True)
    event = ops.create_event(user, json_body())
    return created(event_json(event, ops.event_counters(event)), url_for(".event_get", event_id=event.id))


@bp.get(EVENT)
def event_get(event_id: int):
    """Public: players look the event up before registering. Staff who run it also get the counters."""
    user = optional_staff_user()
    event = ops.get_event(event_id)
    counters = None
    if user is not None and may_run(user, event):
        counters = ops.event_counters(event)
    return jsonify(event_json(event, counters))


@bp.patch(EVENT)
def event_update(event_id: int):
    user, event = staff_event(event_id, organizer_only=True)
    ops.update_event(event, user, json_body())
    return jsonify(event_json(event, ops.event_counters(event)))


@bp.post(f"{EVENT}/copy")
def event_copy(event_id: int):
    user, event = staff_event(event_id, organizer_only=True)
    data = json_body(required=False)
    only_fields(data, {"name"}, "copy")
    name = None
    if data.get("name") is not None:
        name = ops.clean_text(data["name"], "name", "The event name", 200, required=True)
    copy = ops.copy_event(event, user, name)
    return created(event_json(copy, ops.event_counters(copy)), url_for(".event_get", event_id=copy.id))


# ----------------------------------------------------------------- registrations (staff desk)

@bp.get(f"{EVENT}/registrations")
def registrations_search(event_id: int):
    _user, event = staff_event(event_id)
    query = request.args.get("q", "")
    if len(query) > MAX_QUERY:
        raise Refused(f"The search is {len(query):,} characters; at most {MAX_QUERY}.", field="q")
    limit = whole_number(request.args.get("limit", "30"), digits=3)
    if limit is None or not 1 <= limit <= MAX_SEARCH_RESULTS:
        raise Refused(f"limit must be a whole number from 1 to {MAX_SEARCH_RESULTS}.", field="limit")
    offset = whole_number(request.args.get("offset", "0"), digits=7)
    if offset is None:
        raise Refused("offset must be a whole number from 0 to 9999999.", field="offset")
    found = ops.search_registrations(event, query, limit=limit + 1, offset=offset)     # one more: is there a next page
    return jsonify({"event_id": event.id, "query": query.strip(), "counters": ops.event_counters(event),
                    "offset": offset, "limit": limit, "next_offset": offset + limit if len(found) > limit else None,
                    "registrations": [registration_summary(r) for r in found[:limit]]})


@bp.post(f"{EVENT}/registrations")
def registrations_create(event_id: int):
    """Self-registration while the event takes registrations; staff (token) also add late entries."""
    user = optional_staff_user()
    event = ops.get_event(event_id)
    if user is not None:
        ops.require_staff(user, event)
    data = json_body()
    if isinstance(data.get("decklist"), str):
        decklist_bytes(data["decklist"])      # an oversize list is a 413 before anything is stored
    try:
        reg = ops.register_player(event, data, user=user, check_same_name=True)
    except Refused as e:
        if e.field != "same_name_ok":
            raise
        raise Refused(f"{str(data.get('name', '')).strip()[:100]} is already registered for this event. To register "
                      f"a different person with the same name, send \"same_name_ok\": true.",
                      status=409, field="same_name_ok") from None
    return created(player_json(reg), url_for(".registration_get", event_id=event.id, registration_id=reg.id))


@bp.get(REGISTRATION)
def registration_get(event_id: int, registration_id: int):
    _user, reg = staff_registration(event_id, registration_id)
    return jsonify(registration_json(reg))


def _desk_change(event_id: int, registration_id: int, change, undo: bool):
    """Check-in and drop, and their undo: one operation call, one commit, the registration back."""
    user, reg = staff_registration(event_id, registration_id)
    change(reg, user, undo=undo)
    return jsonify(registration_json(reg))


@bp.post(f"{REGISTRATION}/checkin")
def registration_checkin(event_id: int, registration_id: int):
    return _desk_change(event_id, registration_id, ops.check_in, undo=False)


@bp.delete(f"{REGISTRATION}/checkin")
def registration_checkin_undo(event_id: int, registration_id: int):
    return _desk_change(event_id, registration_id, ops.check_in, undo=True)


@bp.post(f"{REGISTRATION}/drop")
def registration_drop(event_id: int, registration_id: int):
    return _desk_change(event_id, registration_id, ops.drop, undo=False)


@bp.delete(f"{REGISTRATION}/drop")
def registration_drop_undo(event_id: int, registration_id: int):
    return _desk_change(event_id, registration_id, ops.drop, undo=True)


@bp.put(f"{REGISTRATION}/notes")
def registration_notes(event_id: int, registration_id: int):
    user, reg = staff_registration(event_id, registration_id)
    data = json_body()
    only_fields(data, {"notes"}, "notes")
    if "notes" not in data:
        raise Refused("Send {\"notes\": \"...\"}; an empty string clears the notes.", field="notes")
    ops.set_notes(reg, user, data["notes"])
    return jsonify(registration_json(reg))


@bp.put(f"{REGISTRATION}/decklist")
def registration_decklist(event_id: int, registration_id: int):
    """Staff may submit or correct a list at any time, also after the deadline (logged with who and when)."""
    user, reg = staff_registration(event_id, registration_id)
    submission = submit_from_request(reg, user)
    return jsonify(deck_check_json(submission.decklist))


# ----------------------------------------------------------------- players (access code)

def submit_from_request(reg, user):
    """Check and store a decklist sent as JSON {"decklist": "...", "filename"?: "..."} or as a text/plain
    body (any of the encodings an upload may have: UTF-8/16/32, with or without BOM)."""
    if request.mimetype == "text/plain":
        data = checked_decklist_size(request.get_data(cache=True))
        try:
            plain_decklist(read_decklist_text(data))
        except DeckInputError as e:
            raise Refused(str(e), field="decklist") from None
        return ops.submit_decklist(reg, data, user=user)
    data, filename = decklist_from_json()
    return ops.submit_decklist(reg, data, user=user, filename=filename)


def decklist_from_json() -> tuple[bytes, str | None]:
    if request.mimetype != "application/json":
        raise Refused("Send the decklist as JSON {\"decklist\": \"...\"} (Content-Type: application/json) "
                      "or as plain text (Content-Type: text/plain).", status=415)
    data = json_body()
    only_fields(data, {"decklist", "filename"}, "decklist")
    if "decklist" not in data:
        raise Refused("Send {\"decklist\": \"...\"} with the list as text.", field="decklist")
    filename = data.get("filename")
    if filename is not None:
        filename = ops.clean_text(filename, "filename", "The file name", 255) or None
    return decklist_bytes(data["decklist"]), filename


@bp.get("/players/<code>")
def player_get(code: str):
    reg = ops.registration_by_code(code)
    return jsonify(player_json(reg))


@bp.put("/players/<code>/decklist")
def player_decklist(code: str):
    reg = ops.registration_by_code(code)
    submission = submit_from_request(reg, None)
    return jsonify(deck_check_json(submission.decklist))
