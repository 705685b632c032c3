"""JSON API views: each declared with tournament.web.api.operation (what its URL loads, who may use it, its
body and answer as pydantic models, the words of its OpenAPI entry); the body runs one operation.

Staff authenticate with `Authorization: Bearer <token>` only (never the browser session: the API is
CSRF-exempt). Players use their access code in the path; it is their credential and only ever shows that one
registration. Every refusal is a tournament.errors.Refused, turned into {"error": {"status", "message",
"field"?}} by tournament.web (with rollback). A staff route answers 401 (no valid token) before 404 (no such
event) before 403 (not this event's staff): the token is the first thing it loads.
"""
from __future__ import annotations

from flask import current_app, jsonify, request, url_for

from ..decks.parser import MAX_BYTES as MAX_DECKLIST_BYTES, first_control_line
from ..errors import Refused
from ..events import loading, operations as ops
from ..events.schemas import (DECKLIST_TEXT, MAX_QUERY, MAX_SEARCH_RESULTS, DecklistSubmission, EventCopy,  # noqa: F401
                              EventCreate, EventUpdate, Notes, PublicAddress, RegistrationCreate, RegistrationQuery,
                              RegistrationRename, TOP_CUT_RULE)
from ..web import error_response
from ..web import openapi as generated
from ..web.api import MAX_BODY_BYTES, bp, json_body, operation, optional_staff_user, parse, staff_user, token  # noqa: F401
from . import schemas as out
from .serializers import deck_check_json, event_json, player_json, registration_json, registration_summary

API_VERSION = "1.0.0"
TITLE = "Commander tournament manager API"
DESCRIPTION = ("The whole event: events and their settings, registrations with decklist checks, check-in and "
               "drops, sideboard swaps, rounds (pairing, the draft, publishing, the clock), tables and results "
               "(report, confirm, disputes, staff corrections), votes, standings with every tiebreaker, the top "
               "cut, series, the table tracker, the audit log and a versioned data export. Staff send the header "
               "'Authorization: Bearer <token>' (a token from: flask --app wsgi user token NAME); players use the "
               "access code from their receipt in the path. Every error is "
               "{\"error\": {\"status\", \"message\", \"field\"?}}.")
ID = "int"           # an id too large for the database is simply not found (ops.valid_id): a 404
EVENT = f"/events/<{ID}:event_id>"
REGISTRATION = f"{EVENT}/registrations/<{ID}:registration_id>"
BODY_ERRORS = "400 413 415"
SAME_NAME = ("%(name)s is already registered for this event. To register a different person with the same name, "
             "send \"same_name_ok\": true.")


@bp.errorhandler(OverflowError)
def out_of_range(_e: OverflowError):
    """Date arithmetic on extreme input (a deadline at year 1 or 9999 with an offset) is bad input, not a 500."""
    return error_response("A date or number in the request is out of range; use a date between the years "
                          "1 and 9999 in UTC.", 400)


# ----------------------------------------------------------------- loaders and policies of the API

def maybe_token(rh) -> None:
    """Public routes: staff when an Authorization header is sent (and then it must be valid), else None."""
    rh.staff = optional_staff_user()


STAFF = (token,)
STAFF_EVENT = (token, loading.event)
STAFF_REGISTRATION = (token, loading.event, loading.registration)
PLAYER = (loading.player,)


def organizer(rh) -> bool:
    ops.require_staff(rh.staff, organizer_only=True)
    return True


def any_staff(rh) -> bool:
    ops.require_staff(rh.staff)
    return True


def staff_if_token(rh) -> bool:
    """Public, but a token sent must be of this event's staff."""
    if rh.staff is not None:
        ops.require_staff(rh.staff, rh.event)
    return True


def may_run(user, event) -> bool:
    return ops.staff_for(user, event) is not None


def created(body: dict, location: str):
    return jsonify(body), 201, {"Location": location}


# ----------------------------------------------------------------- meta

@bp.get("/health")
@operation("meta_health", "Liveness check.", tags=["meta"], response=out.Health, public=True)
def health(rh):
    return {"status": "ok"}


@bp.get("/openapi.json")
@operation("meta_openapi", "This document.", tags=["meta"], public=True,
           response={"type": "object", "description": "The OpenAPI 3.1 document."})
def openapi(rh):
    return document()


def document(app=None) -> dict:
    """The OpenAPI document generated from the declarations (built once per app; a fresh copy each call)."""
    app = app or current_app._get_current_object()
    cached = app.extensions.get("api_openapi")
    if cached is None:
        cached = app.extensions["api_openapi"] = generated.build(app, TITLE, API_VERSION, DESCRIPTION)
    import copy
    return copy.deepcopy(cached)


TEXT_DECKLIST = {"schema": {"type": "string", "pattern": DECKLIST_TEXT}, "example": "1 Sol Ring\n1 Command Tower"}


# ----------------------------------------------------------------- events

@bp.get("/events")
@operation("events_list", "Events the token's user may see (an organizer's own; every event for judges).",
           tags=["events"], load=STAFF, policy=any_staff, response=out.EventList, errors="401 403")
def events_list(rh):
    return {"events": [event_json(e) for e in ops.events_for(rh.staff)]}


@bp.post("/events")
@operation("events_create", "Create an event (organizers).", tags=["events"], load=STAFF, policy=organizer,
           body=EventCreate, response=out.Event, status=201, errors=f"{BODY_ERRORS} 401 403",
           description=TOP_CUT_RULE,
           example={"name": "Friday Night EDH", "ruleset": "edh-2010", "date": "2026-12-05", "pod_size": 4},
           links={'events_get': {'event_id': '$response.body#/id'}, 'events_update': {'event_id': '$response.body#/id'}, 'registrations_create': {'event_id': '$response.body#/id'}, 'rounds_pair': {'event_id': '$response.body#/id'}, 'rounds_list': {'event_id': '$response.body#/id'}, 'standings_get': {'event_id': '$response.body#/id'}, 'events_export': {'event_id': '$response.body#/id'}, 'events_log': {'event_id': '$response.body#/id'}})
def events_create(rh):
    event = ops.create_event(rh.staff, json_body())
    return created(event_json(event, ops.event_counters(event)), url_for(".event_get", event_id=event.id))


@bp.get(EVENT)
@operation("events_get", "An event's settings. Public; staff who run it also get the counters.", tags=["events"],
           load=(maybe_token, loading.event), response=out.Event, errors="401 404", public=True,
           description="No token needed. When a token is sent it must be valid, and the counters are included for "
                       "staff who may run the event.")
def event_get(rh):
    counters = ops.event_counters(rh.event) if rh.staff is not None and may_run(rh.staff, rh.event) else None
    return event_json(rh.event, counters)


@bp.patch(EVENT)
@operation("events_update", "Change an event's settings (its organizer).", tags=["events"], load=STAFF_EVENT,
           policy=loading.organizers, body=EventUpdate, response=out.Event, errors=f"{BODY_ERRORS} 401 403 404 409",
           description=TOP_CUT_RULE + " Only the fields sent change.", example={"venue": "Game Store", "pod_size": 5})
def event_update(rh):
    ops.update_event(rh.event, rh.staff, json_body())      # as sent: prize conditions named again keep their ids
    return event_json(rh.event, ops.event_counters(rh.event))


@bp.post(f"{EVENT}/copy")
@operation("events_copy", "A new event with the same settings, no players, open for registration.",
           tags=["events"], load=STAFF_EVENT, policy=loading.organizers, body=EventCopy, body_required=False,
           response=out.Event, status=201, errors=f"{BODY_ERRORS} 401 403 404",
           example={"name": "Friday Night EDH, next week"})
def event_copy(rh):
    copy = ops.copy_event(rh.event, rh.staff, rh.body.name)
    return created(event_json(copy, ops.event_counters(copy)), url_for(".event_get", event_id=copy.id))


# ----------------------------------------------------------------- registrations (staff desk)

@bp.get(f"{EVENT}/registrations")
@operation("registrations_search", "The check-in desk's search as you type, with the counters.",
           tags=["registrations"], load=STAFF_EVENT, policy=loading.staff, query=RegistrationQuery,
           response=out.RegistrationSearch, errors="400 401 403 404")
def registrations_search(rh):
    event, q = rh.event, rh.query
    found = ops.search_registrations(event, q.q, limit=q.limit + 1, offset=q.offset)   # one more: a next page?
    return {"event_id": event.id, "query": q.q.strip(), "counters": ops.event_counters(event),
            "offset": q.offset, "limit": q.limit,
            "next_offset": q.offset + q.limit if len(found) > q.limit else None,
            "registrations": [registration_summary(r) for r in found[:q.limit]]}


@bp.post(f"{EVENT}/registrations")
@operation("registrations_create", "Register a player, optionally with a decklist.", tags=["registrations"],
           load=(maybe_token, loading.event), policy=staff_if_token, body=RegistrationCreate,
           response=out.PlayerRegistration, status=201, errors=f"{BODY_ERRORS} 401 403 404 409 429", public=True,
           example={"name": "山田太郎", "player_id": "1234"},
           description="No token: self-registration while the event's status is `registration`. With a staff "
                       "token: also late entries once the event is running. When the event's player cap is "
                       "reached (or others already wait) the player joins the waitlist: `waitlisted` is true and "
                       "`waitlist_place` says where (201 all the same). Self-registration is refused (409) once "
                       "as many wait as the cap allows places; the desk can still add players.",
           links={'registrations_get': {'registration_id': '$response.body#/id'}, 'registrations_checkin': {'registration_id': '$response.body#/id'}, 'registrations_drop': {'registration_id': '$response.body#/id'}, 'players_get': {'code': '$response.body#/access_code'}, 'players_round': {'code': '$response.body#/access_code'}})
def registrations_create(rh):
    data = json_body()
    if isinstance(data.get("decklist"), str):
        decklist_bytes(data["decklist"])      # an oversize list is a 413 before anything is stored
    reg = ops.register_player(rh.event, data, user=rh.staff, check_same_name=True, same_name_message=SAME_NAME)
    return created(player_json(reg), url_for(".registration_get", event_id=rh.event.id, registration_id=reg.id))


@bp.get(REGISTRATION)
@operation("registrations_get", "One registration with its latest deck check.", tags=["registrations"],
           load=STAFF_REGISTRATION, policy=loading.staff, response=out.Registration, errors="401 403 404")
def registration_get(rh):
    return registration_json(rh.reg)


def _desk_change(operation_id: str, summary: str, change, undo: bool, errors: str = "401 403 404"):
    """Check-in and drop, and their undo: one operation call, the registration back."""
    @operation(operation_id, summary, tags=["registrations"], load=STAFF_REGISTRATION, policy=loading.staff,
               response=out.Registration, errors=errors)
    def view(rh):
        change(rh.reg, rh.staff, undo=undo)
        return registration_json(rh.reg)
    view.__name__ = operation_id
    return view


bp.add_url_rule(f"{REGISTRATION}/checkin", "registration_checkin", methods=["POST"], view_func=_desk_change(
    "registrations_checkin", "Check the player in (409 when dropped or on the waitlist).", ops.check_in, False, "401 403 404 409"))
bp.add_url_rule(f"{REGISTRATION}/checkin", "registration_checkin_undo", methods=["DELETE"], view_func=_desk_change(
    "registrations_checkinUndo", "Undo the check-in.", ops.check_in, True))
bp.add_url_rule(f"{REGISTRATION}/drop", "registration_drop", methods=["POST"], view_func=_desk_change(
    "registrations_drop", "Drop the player. Before round 1 the first player on the waitlist takes the place.", ops.drop,
    False))
bp.add_url_rule(f"{REGISTRATION}/drop", "registration_drop_undo", methods=["DELETE"], view_func=_desk_change(
    "registrations_dropUndo", "Undrop the player (409 when the player cap is reached).", ops.drop, True,
    "401 403 404 409"))
bp.add_url_rule(f"{REGISTRATION}/paid", "registration_paid", methods=["POST"], view_func=_desk_change(
    "registrations_paid", "Mark the entry fee paid (logged).", ops.mark_paid, False))
bp.add_url_rule(f"{REGISTRATION}/paid", "registration_paid_undo", methods=["DELETE"], view_func=_desk_change(
    "registrations_paidUndo", "Mark the entry fee not paid (logged).", ops.mark_paid, True))


@bp.put(f"{REGISTRATION}/notes")
@operation("registrations_notes", "Replace the staff notes.", tags=["registrations"], load=STAFF_REGISTRATION,
           policy=loading.staff, body=Notes, response=out.Registration, errors=f"{BODY_ERRORS} 401 403 404",
           example={"notes": "Paid at the door."})
def registration_notes(rh):
    ops.set_notes(rh.reg, rh.staff, rh.body.notes)
    return registration_json(rh.reg)


RENAME_SAME_NAME = ("Another player of this event is called %(name)s. If this is a different person with the same "
                    "name, send \"same_name_ok\": true.")


@bp.put(f"{REGISTRATION}/name")
@operation("registrations_rename", "Correct a player's name: pages and printouts show the new one at once; the log "
           "keeps the old and the new.", tags=["registrations"], load=STAFF_REGISTRATION, policy=loading.staff,
           body=RegistrationRename, response=out.Registration, errors=f"{BODY_ERRORS} 401 403 404 409",
           example={"name": "Šárka Dvořáková"})
def registration_rename(rh):
    ops.rename(rh.reg, rh.staff, rh.body.name, rh.body.same_name_ok, same_name_message=RENAME_SAME_NAME)
    return registration_json(rh.reg)


@bp.post(f"{REGISTRATION}/access-code")
@operation("registrations_newCode", "Give the player a new access code: the old one opens nothing from now on "
           "(logged); hand them a new receipt (links.page).", tags=["registrations"], load=STAFF_REGISTRATION,
           policy=loading.staff, response=out.Registration, errors="401 403 404")
def registration_new_code(rh):
    ops.replace_access_code(rh.reg, rh.staff)
    return registration_json(rh.reg)


@bp.put(f"{EVENT}/public-address")
@operation("events_publicAddress", "Set the address phones open, for the event's links and QR codes (receipts, "
           "the poster); null: the address the server found at start.", tags=["events"], load=STAFF_EVENT,
           policy=loading.staff, body=PublicAddress, response=out.EventAddress,
           errors=f"{BODY_ERRORS} 401 403 404 409", example={"public_url": "http://192.168.1.20:5000"})
def event_public_address(rh):
    ops.set_public_address(rh.event, rh.staff, rh.body.public_url)
    return {"public_url": rh.event.public_url, "address": ops.public_base(rh.event)}


# ----------------------------------------------------------------- decklists (staff and players)

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


def submit_from_request(reg, user):
    """Check and store a decklist sent as JSON {"decklist": "...", "filename"?: "..."} (DecklistSubmission) or as
    a text/plain body (any of the encodings an upload may have: UTF-8/16/32, with or without BOM)."""
    if request.mimetype == "text/plain":
        data = checked_decklist_size(request.get_data(cache=True))
        plain_decklist(ops.decode_decklist(data))
        return ops.submit_decklist(reg, data, user=user)
    if request.mimetype != "application/json":
        raise Refused("Send the decklist as JSON {\"decklist\": \"...\"} (Content-Type: application/json) "
                      "or as plain text (Content-Type: text/plain).", status=415)
    body = parse(DecklistSubmission, json_body(), "field")
    return ops.submit_decklist(reg, decklist_bytes(body.decklist), user=user, filename=body.filename or None)


def decklist_operation(operation_id: str, summary: str, errors: str, **declared):
    """A decklist PUT: a JSON body (DecklistSubmission) or the list itself as text/plain; the view reads either."""
    return operation(operation_id, summary, response=out.DeckCheck, errors=f"{BODY_ERRORS} {errors}",
                     body=DecklistSubmission, media={"text/plain": TEXT_DECKLIST},
                     example={"decklist": "Commander\n1 Kenrith, the Returned King\n\nDeck\n1 Sol Ring"}, **declared)


@bp.put(f"{REGISTRATION}/decklist")
@decklist_operation("registrations_decklist", "Submit or correct a player's list (staff; also after the deadline, "
                    "logged with who and when).", "401 403 404", tags=["registrations"], load=STAFF_REGISTRATION,
                    policy=loading.staff)
def registration_decklist(rh):
    return deck_check_json(submit_from_request(rh.reg, rh.staff).decklist)


# ----------------------------------------------------------------- players (access code)

@bp.get("/players/<code>")
@operation("players_get", "The player's own registration and latest deck check.", tags=["players"], load=PLAYER,
           response=out.PlayerRegistration, errors="404 429", public=True)
def player_get(rh):
    return player_json(rh.reg)


@bp.put("/players/<code>/decklist")
@decklist_operation("players_decklist", "Submit or resubmit the player's decklist until the deadline.",
                    "404 409 429", tags=["players"], load=PLAYER, public=True)
def player_decklist(rh):
    return deck_check_json(submit_from_request(rh.reg, None).decklist)
