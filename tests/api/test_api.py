"""The JSON API under /api/v1: real behaviour of every endpoint, tokens and roles, and hostile input.

Every response goes through the `api` fixture (tests/api/apidoc.py), which checks it against the OpenAPI document
(documented status, body matching the documented schema) and that it is JSON
and never a 500. Refused input is checked for its status, its message and
that nothing was stored half-way (row counts before and after).
"""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.api.apidoc import refused

from tournament.auth.models import ApiToken
from tournament.auth.operations import issue_token
from tournament.events import operations as events
from tournament.events.models import AuditEntry, Decklist, Event, Registration

DEMO = Path(__file__).resolve().parents[2] / "tournament" / "data" / "demo_decks"
KENRITH = (DEMO / "kenrith.txt").read_text(encoding="utf-8")
ILLEGAL = (DEMO / "phelddagrif-illegal.txt").read_text(encoding="utf-8")
MB = 1_000_000
CHECK_KEYS = {"legal", "ruleset", "commanders", "color_identity", "main_count", "sideboard_count", "findings",
              "summary", "bracket", "submitted_at", "submitted_by"}
MARKUP = "<script>alert('x')</script> & <b>Bobby</b> \"Tables\""


def all_refused(api, db, method, path, cases, check=None, **common):
    """Send each (kwargs, status, message, field) case; each must be refused and store nothing.
    `check()` (optional) returns what must also stay the same, e.g. the event as the API shows it."""
    before = counts(db), check() if check else None
    for i, (kwargs, status, message, field) in enumerate(cases):
        label = f"case {i}: {str(kwargs)[:120]}"
        try:
            refused(api(method, path, **common, **kwargs), status, message, field)
            assert (counts(db), check() if check else None) == before, "something was stored"
        except AssertionError as e:
            raise AssertionError(f"{label}: {e}") from None


def counts(db) -> dict:
    db.session.rollback()       # a fresh snapshot: see what the requests committed
    return {model.__tablename__: db.session.execute(sa.select(sa.func.count()).select_from(model)).scalar()
            for model in (Event, Registration, Decklist, AuditEntry, ApiToken)}


@pytest.fixture
def judge_token(db, judge):
    value = issue_token(judge)
    db.session.commit()
    return value


@pytest.fixture
def other(db, make_user):
    """Another organizer and their token."""
    user = make_user("Otto Other", "organizer")
    value = issue_token(user)
    db.session.commit()
    return user, value


@pytest.fixture
def event(make_event):
    return make_event()


def reg_url(event_id, reg_id, tail=""):
    return f"/events/{event_id}/registrations/{reg_id}{tail}"


# ----------------------------------------------------------------- meta, addresses, methods

def test_health_and_unknown_addresses_answer_json(api):
    assert api.get("/health").get_json() == {"status": "ok"}
    refused(api.get("/nothing-here"), 404, "nothing at this address")
    refused(api.delete("/events"), 405, "does not accept")
    refused(api.put("/health"), 405)


def test_impossible_ids_and_codes_are_404(api, event, token):
    for path in ["/events/0", "/events/99999999999999999999", "/events/-1", "/events/abc", "/events/1e3",
                 "/events/1/registrations/99999999999999999999", "/events/1/registrations/x/checkin",
                 "/players/" + "A" * 10_000, "/players/%00", "/players/%F0%9F%98%80"]:
        refused(api.get(path, token=token), 404)
    refused(api.post(f"/events/{event.id}/registrations/{2 ** 64}/checkin", token=token), 404)


# ----------------------------------------------------------------- tokens

BAD_AUTHORIZATION = [
    (None, "needs a staff token"),
    ("Token abc", "must be 'Bearer <token>'"),
    ("Bearer", "must be 'Bearer <token>'"),
    ("Bearer    ", "must be 'Bearer <token>'"),
    ("Basic dXNlcjpwYXNz", "must be 'Bearer <token>'"),
    ("Bearer not-a-real-token", "unknown or has been revoked"),
    ("Bearer " + "x" * 100_000, "unknown or has been revoked"),
]


def test_staff_endpoints_refuse_missing_malformed_and_unknown_tokens(api, db, event, make_player):
    reg = make_player(event, "Anna")
    before = counts(db)
    for header, message in BAD_AUTHORIZATION:
        headers = {"Authorization": header} if header else {}
        for method, path, kwargs in [
            ("GET", "/events", {}),
            ("POST", "/events", {"json": {"name": "E", "ruleset": "edh-2010"}}),
            ("PATCH", f"/events/{event.id}", {"json": {"venue": "x"}}),
            ("POST", f"/events/{event.id}/copy", {}),
            ("GET", f"/events/{event.id}/registrations", {}),
            ("GET", reg_url(event.id, reg.id), {}),
            ("POST", reg_url(event.id, reg.id, "/checkin"), {}),
            ("DELETE", reg_url(event.id, reg.id, "/checkin"), {}),
            ("POST", reg_url(event.id, reg.id, "/drop"), {}),
            ("DELETE", reg_url(event.id, reg.id, "/drop"), {}),
            ("PUT", reg_url(event.id, reg.id, "/notes"), {"json": {"notes": "x"}}),
            ("PUT", reg_url(event.id, reg.id, "/decklist"), {"json": {"decklist": "1 Sol Ring"}}),
        ]:
            response = api(method, path, headers=headers, **kwargs)
            refused(response, 401, message)
            assert response.headers["WWW-Authenticate"].startswith("Bearer")
        if header:      # a token, when sent, must be valid also where none is needed
            refused(api.get(f"/events/{event.id}", headers=headers), 401, message)
            refused(api.post(f"/events/{event.id}/registrations", headers=headers, json={"name": "Eve"}), 401)
    assert counts(db) == before


def test_a_revoked_token_is_refused(api, db, organizer, token):
    assert api.get("/events", token=token).status_code == 200
    db.session.execute(sa.delete(ApiToken).where(ApiToken.user_id == organizer.id))
    db.session.commit()
    refused(api.get("/events", token=token), 401, "unknown or has been revoked")


def test_using_a_token_records_when_it_was_last_used(api, db, organizer, token):
    """The touch is stored by the request's own commit (each request has its own session here)."""
    row = db.session.execute(sa.select(ApiToken).where(ApiToken.user_id == organizer.id)).scalar_one()
    assert row.last_used_at is None
    assert api.get("/events", token=token).status_code == 200
    db.session.expire_all()
    assert db.session.execute(sa.select(ApiToken.last_used_at).where(ApiToken.user_id == organizer.id)
                              ).scalar_one() is not None


def test_a_players_access_code_is_not_a_staff_token(api, event, make_player):
    reg = make_player(event, "Anna")
    refused(api.get(f"/events/{event.id}/registrations", token=reg.access_code), 401, "unknown")
    refused(api.post(reg_url(event.id, reg.id, "/checkin"), token=reg.access_code), 401)


def test_a_browser_session_does_not_authenticate_the_api(api, login, organizer, event):
    """The API is CSRF-exempt, so only the bearer token may authenticate it."""
    login(organizer)
    refused(api.get("/events"), 401, "needs a staff token")
    refused(api.post("/events", json={"name": "E", "ruleset": "edh-2010"}), 401)


# ----------------------------------------------------------------- roles

def test_judge_can_check_in_but_not_edit_or_create_events(api, db, event, make_player, judge_token):
    reg = make_player(event, "Anna")
    checked = api.post(reg_url(event.id, reg.id, "/checkin"), token=judge_token).get_json()
    assert checked["checked_in"] is True and checked["checked_in_at"]
    before = counts(db)
    refused(api.patch(f"/events/{event.id}", token=judge_token, json={"venue": "Elsewhere"}), 403,
            "Only the event's organizer")
    refused(api.post("/events", token=judge_token, json={"name": "E", "ruleset": "edh-2010"}), 403)
    refused(api.post(f"/events/{event.id}/copy", token=judge_token), 403)
    assert counts(db) == before
    assert api.get(f"/events/{event.id}").get_json()["venue"] == ""
    # judges see every event and run its desk
    assert [e["id"] for e in api.get("/events", token=judge_token).get_json()["events"]] == [event.id]
    assert api.get(f"/events/{event.id}/registrations", token=judge_token).get_json()["counters"]["checked_in"] == 1


def test_organizers_cannot_touch_each_others_events(api, db, event, make_player, make_event, other, token):
    user_b, token_b = other
    own = make_event(owner=user_b, name="B's event")
    reg = make_player(event, "Anna")
    assert [e["id"] for e in api.get("/events", token=token_b).get_json()["events"]] == [own.id]
    assert [e["id"] for e in api.get("/events", token=token).get_json()["events"]] == [event.id]
    before = counts(db)
    refused(api.get(f"/events/{event.id}/registrations", token=token_b), 403, "another organizer")
    refused(api.get(reg_url(event.id, reg.id), token=token_b), 403)
    refused(api.post(reg_url(event.id, reg.id, "/checkin"), token=token_b), 403)
    refused(api.post(reg_url(event.id, reg.id, "/drop"), token=token_b), 403)
    refused(api.put(reg_url(event.id, reg.id, "/notes"), token=token_b, json={"notes": "mine now"}), 403)
    refused(api.put(reg_url(event.id, reg.id, "/decklist"), token=token_b, json={"decklist": "1 Sol Ring"}), 403)
    refused(api.patch(f"/events/{event.id}", token=token_b, json={"name": "Taken"}), 403)
    refused(api.post(f"/events/{event.id}/copy", token=token_b), 403)
    refused(api.post(f"/events/{event.id}/registrations", token=token_b, json={"name": "Plant"}), 403)
    assert counts(db) == before
    # the public view of the event is still there, without the desk counters
    public = api.get(f"/events/{event.id}", token=token_b).get_json()
    assert public["name"] == "Friday Night EDH" and "counters" not in public
    assert "counters" in api.get(f"/events/{event.id}", token=token).get_json()


def test_a_registration_of_another_event_is_404(api, db, event, make_event, make_player, token):
    second = make_event(name="Second")
    stranger = make_player(second, "Stranger")
    before = counts(db)
    for method, tail in [("GET", ""), ("POST", "/checkin"), ("DELETE", "/checkin"), ("POST", "/drop"),
                         ("DELETE", "/drop")]:
        refused(api(method, reg_url(event.id, stranger.id, tail), token=token), 404, "No such player")
    refused(api.put(reg_url(event.id, stranger.id, "/notes"), token=token, json={"notes": "x"}), 404)
    refused(api.get(reg_url(99999, stranger.id), token=token), 404, "No such event")
    assert counts(db) == before


# ----------------------------------------------------------------- events

def test_create_list_get_update_and_copy_an_event(api, db, token):
    response = api.post("/events", token=token, json={
        "name": "  Friday Night EDH  ", "ruleset": "edh-2010", "date": "2026-12-05", "venue": "Café Šárka",
        "banlist_add": ["Sol Ring"], "pod_size": 5, "swap_seconds": 120, "paper_size": "Letter",
        "decklist_deadline": "2026-12-05T10:00:00+01:00"})
    assert response.status_code == 201
    event = response.get_json()
    assert response.headers["Location"].endswith(f"/api/v1/events/{event['id']}")
    assert (event["name"], event["date"], event["venue"], event["pod_size"]) == (
        "Friday Night EDH", "2026-12-05", "Café Šárka", 5)
    assert event["decklist_deadline"] == "2026-12-05T09:00:00+00:00" and event["status"] == "registration"
    assert event["banlist_add"] == ["Sol Ring"] and event["counters"]["registered"] == 0

    assert [e["id"] for e in api.get("/events", token=token).get_json()["events"]] == [event["id"]]
    public = api.get(f"/events/{event['id']}").get_json()
    assert "counters" not in public and public["paper_size"] == "Letter"

    changed = api.patch(f"/events/{event['id']}", token=token, json={"venue": "Game Store", "status": "running",
                                                                      "date": None}).get_json()
    assert (changed["venue"], changed["status"], changed["date"], changed["pod_size"]) == (
        "Game Store", "running", None, 5)
    assert api.patch(f"/events/{event['id']}", token=token, json={}).get_json()["venue"] == "Game Store"

    copy = api.post(f"/events/{event['id']}/copy", token=token)
    assert copy.status_code == 201
    copied = copy.get_json()
    assert copied["name"] == "Friday Night EDH (copy)" and copied["status"] == "registration"
    assert copied["pod_size"] == 5 and copied["banlist_add"] == ["Sol Ring"] and copied["date"] is None
    named = api.post(f"/events/{event['id']}/copy", token=token, json={"name": "Next week 山田"}).get_json()
    assert named["name"] == "Next week 山田"
    assert db.session.execute(sa.select(sa.func.count()).select_from(Event)).scalar() == 3


def test_duel_events_default_to_mtr_scoring(api, token):
    assert api.post("/events", token=token, json={"name": "Duel", "ruleset": "duel-cn", "mode": "duel"}
                    ).get_json()["scoring_profile"] == "mtr"


# Hostile bodies for the JSON endpoints: (kwargs for the request, status, message part, field).
NOT_JSON = [
    (dict(data="{", content_type="application/json"), 400, "not valid JSON", None),
    (dict(data="{'name': 'E'}", content_type="application/json"), 400, "not valid JSON", None),
    (dict(data=b"\xff\xfe{}", content_type="application/json"), 400, "not UTF-8", None),
    (dict(json=["name", "E"]), 400, "must be a JSON object", None),
    (dict(json="E"), 400, "must be a JSON object", None),
    (dict(json=42), 400, "must be a JSON object", None),
    (dict(data="null", content_type="application/json"), 400, "not null", None),
    (dict(data="", content_type="application/json"), 400, "empty", None),
    (dict(data='{"name": NaN}', content_type="application/json"), 400, "NaN is not a JSON number", None),
    (dict(data='{"name": -Infinity}', content_type="application/json"), 400, "not a JSON number", None),
    (dict(data='{"pod_size": 1e400}', content_type="application/json"), 400, "out of range", None),
    (dict(data='{"pod_size": 1' + "0" * 5000 + "}", content_type="application/json"), 400, "not valid JSON", None),
    (dict(data='{"name": ' + "[" * 100_000 + "]" * 100_000 + "}", content_type="application/json"), 400,
     "not valid JSON", None),
    (dict(data='{"name": "\\ud800 lone surrogate"}', content_type="application/json"), 400, "surrogate", "name"),
    (dict(data='{"name": "NUL \\u0000 inside"}', content_type="application/json"), 400, "NUL", "name"),
    (dict(data="name=E&ruleset=edh-2010", content_type="application/x-www-form-urlencoded"), 415,
     "Content-Type: application/json", None),
    (dict(data='{"name": "E"}', content_type="text/plain"), 415, "application/json", None),
    (dict(data={"name": "E"}, content_type="multipart/form-data"), 415, None, None),
    (dict(data='{"name": "E"}'), 415, None, None),
    (dict(data="x" * (5 * 1024 * 1024), content_type="application/json"), 413, "too large", None),
]

EVENT_FIELDS_BAD = [
    ({"pod_size": "abc"}, "pod_size", "whole number from 3 to 5"),
    ({"pod_size": 2}, "pod_size", "whole number"),
    ({"pod_size": 10 ** 30}, "pod_size", "whole number"),
    ({"pod_size": 4.5}, "pod_size", "whole number"),
    ({"pod_size": True}, "pod_size", "whole number"),
    ({"pod_size": [4]}, "pod_size", "whole number"),
    ({"swap_seconds": -1}, "swap_seconds", "whole number"),
    ({"round_minutes": {"min": 50}}, "round_minutes", "whole number"),
    ({"name": 123}, "name", "must be text"),
    ({"name": ""}, "name", "required"),
    ({"name": "x" * MB}, "name", "the limit is 200"),
    ({"name": {"a": [[[{"b": None}]]]}}, "name", "must be text"),
    ({"name": "tab\tin name"}, "name", "control characters"),
    ({"name": "\u200b\u2060 "}, "name", "required"),                      # only invisible characters
    ({"venue": ["x"]}, "venue", "must be text"),
    ({"ruleset": ["edh-2010"]}, "ruleset", "Unknown ruleset"),
    ({"ruleset": "modern"}, "ruleset", "Unknown ruleset"),
    ({"mode": "ffa"}, "mode", "one of: pods, duel"),
    ({"status": "archived"}, "status", "one of"),
    ({"status": None}, "status", "one of"),
    ({"sideboard_enabled": "maybe"}, "sideboard_enabled", "true or false"),
    ({"date": "next friday"}, "date", "2026-12-05"),
    ({"date": ["2026-12-05"]}, "date", "2026-12-05"),
    ({"decklist_deadline": "soon"}, "decklist_deadline", "deadline"),
    ({"decklist_deadline": "0001-01-01T00:00:00+01:00"}, "decklist_deadline", "between the years 2000 and 2999"),
    ({"decklist_deadline": "9999-12-31T23:59:59-23:59"}, "decklist_deadline", "between the years 2000 and 2999"),
    ({"decklist_deadline": "9999-12-31T23:59:59"}, "decklist_deadline", "between the years 2000 and 2999"),
    ({"decklist_deadline": "1999-12-31T23:59:59Z"}, "decklist_deadline", "between the years 2000 and 2999"),
    ({"banlist_add": {"Sol Ring": True}}, "banlist_add", "list of card names"),
    ({"banlist_add": [1, 2]}, "banlist_add", "list of card names"),
    ({"banlist_remove": ["x" * 201]}, "banlist_remove", "limit is 200"),
    ({"paper_size": "A3"}, "paper_size", "A4, Letter"),
    ({"scoring_profile": "<b>x</b>"}, "scoring_profile", "one of"),
]


def test_create_event_refuses_malformed_bodies_and_invalid_fields(api, db, token):
    all_refused(api, db, "POST", "/events", NOT_JSON, token=token)
    all_refused(api, db, "POST", "/events", [
        (dict(json={"name": "E", "ruleset": "edh-2010", **fields}), 400, message, field)
        for fields, field, message in EVENT_FIELDS_BAD], token=token)


def test_create_event_refuses_missing_and_unknown_fields(api, db, token):
    before = counts(db)
    refused(api.post("/events", token=token, json={"ruleset": "edh-2010"}), 400, "name is required", "name")
    refused(api.post("/events", token=token, json={"name": "E"}), 400, "ruleset is required", "ruleset")
    refused(api.post("/events", token=token, json={"name": "E", "ruleset": "edh-2010", "organizer_id": 2}), 400,
            "Unknown event field(s): organizer_id")
    refused(api.post("/events", token=token, json={"name": "E", "ruleset": "edh-2010", "id": 1, "x" * 1000: 1}),
            400, "Unknown event field(s)")
    assert counts(db) == before


def test_update_event_refuses_bad_input_and_changes_nothing(api, db, event, token):
    shown = lambda: api.get(f"/events/{event.id}").get_json()  # noqa: E731
    all_refused(api, db, "PATCH", f"/events/{event.id}", NOT_JSON, check=shown, token=token)
    all_refused(api, db, "PATCH", f"/events/{event.id}", [
        (dict(json={"venue": "Changed?", **fields}), 400, message, field)   # one bad field: none change
        for fields, field, message in EVENT_FIELDS_BAD], check=shown, token=token)
    all_refused(api, db, "PATCH", f"/events/{event.id}", [
        (dict(json={"venue": "x", "organizer_id": 99}), 400, "Unknown event field(s): organizer_id", None),
        (dict(json={"created_at": "2020-01-01"}), 400, "Unknown event field", None),
    ], check=shown, token=token)
    refused(api.patch("/events/4242", token=token, json={"venue": "x"}), 404, "No such event")


def test_copy_event_refuses_bad_bodies(api, db, event, token):
    all_refused(api, db, "POST", f"/events/{event.id}/copy", [
        (dict(json={"name": 5}), 400, "must be text", "name"),
        (dict(json={"name": ""}), 400, "required", "name"),
        (dict(json={"name": "x" * MB}), 400, "limit is 200", "name"),
        (dict(json={"name": ["a"]}), 400, "must be text", "name"),
        (dict(json={"name": "E", "status": "running"}), 400, "Unknown copy field(s): status", "status"),
        *[case for case in NOT_JSON if "empty" not in (case[2] or "")],     # an empty body is allowed here
    ], token=token)


# ----------------------------------------------------------------- registration

def test_self_registration_returns_code_link_and_deck_check(api, db, event, starter_cards):
    response = api.post(f"/events/{event.id}/registrations", json={
        "name": "山田太郎", "contact": "taro@example.jp", "player_id": "JP-1", "decklist": ILLEGAL})
    assert response.status_code == 201
    reg = response.get_json()
    assert reg["name"] == "山田太郎" and reg["player_id"] == "JP-1" and reg["late"] is False
    assert len(reg["access_code"]) == 8 and reg["links"]["api"].endswith(f"/api/v1/players/{reg['access_code']}")
    assert reg["links"]["page"] is None or reg["links"]["page"].endswith(reg["access_code"])
    assert "notes" not in reg and reg["event"]["id"] == event.id
    deck = reg["deck"]
    assert set(deck) == CHECK_KEYS and deck["legal"] is False and reg["deck_status"] == "illegal"
    assert deck["commanders"] == ["Phelddagrif"] and deck["submitted_by"] == "player"
    errors = [f for f in deck["findings"] if f["severity"] == "error"]
    assert errors and all(f["message"] for f in errors)
    assert any(isinstance(f["line"], int) and f["line"] > 1 for f in deck["findings"])
    assert reg["decklist"] == ILLEGAL
    # without a decklist
    plain = api.post(f"/events/{event.id}/registrations", json={"name": "Šárka Dvořáková"}).get_json()
    assert plain["deck"] is None and plain["decklist"] is None and plain["deck_status"] == "missing"
    assert plain["player_id"] is None and plain["contact"] == ""


def test_names_with_markup_come_back_as_the_same_literal_string(api, db, event, token):
    response = api.post(f"/events/{event.id}/registrations", json={"name": MARKUP, "contact": "<i>@x</i>"})
    reg = response.get_json()
    assert reg["name"] == MARKUP and reg["contact"] == "<i>@x</i>"
    assert b"&lt;" not in response.data and b"<script>" in response.data
    assert api.get(f"/players/{reg['access_code']}").get_json()["name"] == MARKUP
    found = api.get(f"/events/{event.id}/registrations", token=token, query_string={"q": "bobby"}).get_json()
    assert [r["name"] for r in found["registrations"]] == [MARKUP]
    assert api.get(reg_url(event.id, reg["id"]), token=token).get_json()["name"] == MARKUP


def test_registration_closes_for_players_when_the_event_runs(api, db, event, token, judge_token):
    api.patch(f"/events/{event.id}", token=token, json={"status": "running"})
    before = counts(db)
    refused(api.post(f"/events/{event.id}/registrations", json={"name": "Late Larry"}), 409, "Ask at the desk")
    assert counts(db) == before
    late = api.post(f"/events/{event.id}/registrations", token=judge_token, json={"name": "Late Larry"})
    assert late.status_code == 201 and late.get_json()["late"] is True
    api.patch(f"/events/{event.id}", token=token, json={"status": "finished"})
    before = counts(db)
    refused(api.post(f"/events/{event.id}/registrations", token=token, json={"name": "Too late"}), 409, "finished")
    refused(api.post(f"/events/{event.id}/registrations", json={"name": "Too late"}), 409)
    assert counts(db) == before


def test_a_player_id_registers_once_per_event(api, db, event, make_event):
    api.post(f"/events/{event.id}/registrations", json={"name": "A", "player_id": "123"})
    before = counts(db)
    refused(api.post(f"/events/{event.id}/registrations", json={"name": "B", "player_id": "123"}), 409,
            "already registered", "player_id")
    assert counts(db) == before
    other_event = make_event(name="Other")
    assert api.post(f"/events/{other_event.id}/registrations", json={"name": "A", "player_id": "123"}
                    ).status_code == 201


def test_registering_for_an_unknown_event_is_404(api, db):
    before = counts(db)
    refused(api.post("/events/4242/registrations", json={"name": "A"}), 404, "No such event")
    assert counts(db) == before


REGISTRATION_BAD = [
    ({}, 400, "Your name is required", "name"),
    ({"name": None}, 400, "required", "name"),
    ({"name": "   "}, 400, "required", "name"),
    ({"name": 123}, 400, "must be text", "name"),
    ({"name": ["Anna"]}, 400, "must be text", "name"),
    ({"name": "x" * MB}, 400, "the limit is 100", "name"),
    ({"name": "a\x07b"}, 400, "control characters", "name"),
    ({"name": "Anna", "contact": "x" * MB}, 400, "limit is 200", "contact"),
    ({"name": "Anna", "contact": {"email": "a@b"}}, 400, "must be text", "contact"),
    ({"name": "Anna", "player_id": 123}, 400, "must be text", "player_id"),
    ({"name": "Anna", "player_id": "9" * 41}, 400, "limit is 40", "player_id"),
    ({"name": "Anna", "decklist": []}, 400, "must be text", "decklist"),
    ({"name": "Anna", "decklist": {"Commander": ["Kenrith"]}}, 400, "must be text", "decklist"),
    ({"name": "Anna", "decklist": 100}, 400, "must be text", "decklist"),
    ({"name": "Anna", "decklist": True}, 400, "must be text", "decklist"),
    ({"name": "Anna", "decklist": "   \n  "}, 400, None, "decklist"),
    ({"name": "Anna", "decklist": "1 Sol Ring\n" * 100_000}, 413, "limit is 1 MB", "decklist"),
    ({"name": "Anna", "is_staff": True}, 400, "Unknown registration field(s): is_staff", None),
    ({"name": "Anna", "access_code": "AAAAAAAA"}, 400, "Unknown registration field", None),
    ({"name": "Anna", "late": True}, 400, "Unknown registration field", None),
]


def test_registration_refuses_bad_input_and_stores_nothing(api, db, event, starter_cards):
    url = f"/events/{event.id}/registrations"
    all_refused(api, db, "POST", url, NOT_JSON)
    all_refused(api, db, "POST", url, [(dict(json=body), status, message, field)
                                       for body, status, message, field in REGISTRATION_BAD])


def test_registration_with_an_unreadable_decklist_stores_nothing(api, db, event, starter_cards):
    """The registration is flushed before the list is checked: a refused list must undo it."""
    before = counts(db)
    refused(api.post(f"/events/{event.id}/registrations",
                     json={"name": "Anna", "decklist": "\x01\x02\x03\x04" * 100}), 400, None, "decklist")
    assert counts(db) == before


# ----------------------------------------------------------------- the check-in desk

@pytest.fixture
def desk(event, make_player):
    names = ["山田太郎", "王小明", "Šárka Dvořáková", "John Smith", "Johanna Smythe", "Zoë O'Brien"]
    return {n: make_player(event, n, player_id=f"PID-{i}00{i}") for i, n in enumerate(names)}


def test_desk_search_over_names_codes_and_player_ids(api, event, desk, token):
    def search(q, **params):
        body = api.get(f"/events/{event.id}/registrations", token=token, query_string={"q": q, **params}).get_json()
        return [r["name"] for r in body["registrations"]]

    assert search("dvorak") == ["Šárka Dvořáková"]
    assert search("SARKA DV") == ["Šárka Dvořáková"]
    assert search("山田") == ["山田太郎"]
    assert search("小明") == ["王小明"]
    assert search("smith") == ["John Smith"]
    assert search("obrien") == ["Zoë O'Brien"]
    assert search("jOh") == ["Johanna Smythe", "John Smith"]
    assert len(search("")) == 6 and len(search("", limit="2")) == 2
    assert search("%") == [] and search("_") == [] and search("nobody at all") == []
    code = desk["王小明"].access_code
    assert search(code.lower()) == ["王小明"]
    assert search(f"{code[:4]}-{code[4:]}") == ["王小明"]
    assert "王小明" in search(code[:3])                  # typing a code narrows as you type
    assert search("PID-1001") == ["王小明"]             # exact player ID
    assert search("PID-300") == ["John Smith"]          # player ID prefix
    assert search("\x00\x1b\x07") == search("")           # control characters are ignored, not a 500
    assert search("Jo\x00hn") == ["John Smith"]
    too_long = api.get(f"/events/{event.id}/registrations?q={'x' * 201}", token=token)
    refused(too_long, 400, "at most 200", field="q")


def test_desk_search_returns_counters_and_deck_status(api, event, make_player, token, starter_cards):
    make_player(event, "Legal Lena", decklist=KENRITH)
    make_player(event, "Illegal Ivo", decklist=ILLEGAL)
    make_player(event, "Missing Mia")
    body = api.get(f"/events/{event.id}/registrations", token=token).get_json()
    assert body["counters"] == {"registered": 3, "checked_in": 0, "dropped": 0, "legal_decks": 1,
                                "illegal_decks": 1, "missing_decks": 1, "waitlisted": 0, "paid": 0}
    assert {r["name"]: r["deck_status"] for r in body["registrations"]} == {
        "Legal Lena": "legal", "Illegal Ivo": "illegal", "Missing Mia": "missing"}
    assert body["event_id"] == event.id and body["query"] == ""


def test_desk_search_pages_through_every_registration(api, db, event, judge, token):
    for i in range(140):
        events.register_player(event, {"name": f"Page player {i:03d}"}, user=judge)
    db.session.commit()
    seen, offset, pages = [], 0, 0
    while offset is not None:
        body = api.get(f"/events/{event.id}/registrations", token=token,
                       query_string={"limit": "100", "offset": str(offset)}).get_json()
        seen += [r["id"] for r in body["registrations"]]
        assert body["offset"] == offset and body["limit"] == 100
        offset, pages = body["next_offset"], pages + 1
    assert pages == 2 and len(seen) == len(set(seen)) == body["counters"]["registered"] == 140
    for bad in ["-1", "abc", "1.5", "9" * 8]:
        refused(api.get(f"/events/{event.id}/registrations", token=token, query_string={"offset": bad}), 400,
                "offset must be a whole number", "offset")


def test_desk_search_refuses_a_bad_limit(api, event, token):
    for limit in ["0", "101", "abc", "-1", "1.5", "9" * 50, "１", ""]:
        refused(api.get(f"/events/{event.id}/registrations", token=token, query_string={"limit": limit}), 400,
                "limit must be a whole number", "limit")


def test_check_in_undo_drop_and_undrop(api, db, event, desk, token):
    anna, bob = desk["John Smith"], desk["王小明"]
    checked = api.post(reg_url(event.id, anna.id, "/checkin"), token=token).get_json()
    assert checked["checked_in"] is True and checked["id"] == anna.id
    again = api.post(reg_url(event.id, anna.id, "/checkin"), token=token).get_json()
    assert again["checked_in_at"] == checked["checked_in_at"]            # checking in twice keeps the time
    assert api.delete(reg_url(event.id, anna.id, "/checkin"), token=token).get_json()["checked_in"] is False

    dropped = api.post(reg_url(event.id, bob.id, "/drop"), token=token).get_json()
    assert dropped["dropped"] is True and dropped["dropped_at"]
    before = counts(db)
    refused(api.post(reg_url(event.id, bob.id, "/checkin"), token=token), 409, "undrop them first")
    assert counts(db) == before
    assert api.delete(reg_url(event.id, bob.id, "/drop"), token=token).get_json()["dropped"] is False
    assert api.post(reg_url(event.id, bob.id, "/checkin"), token=token).get_json()["checked_in"] is True
    counters = api.get(f"/events/{event.id}/registrations", token=token).get_json()["counters"]
    assert (counters["checked_in"], counters["dropped"]) == (1, 0)
    actions = db.session.execute(sa.select(AuditEntry.action, AuditEntry.actor).order_by(AuditEntry.id)).all()
    assert [a for a, _ in actions if a.startswith(("checkin", "drop"))] == [     # the second tap logs nothing
        "checkin", "checkin.undo", "drop", "drop.undo", "checkin"]
    assert {actor for a, actor in actions if a.startswith("checkin")} == {"organizer:Olga Organizer"}


def test_action_endpoints_ignore_a_body(api, event, desk, token):
    reg = desk["John Smith"]
    response = api.post(reg_url(event.id, reg.id, "/checkin"), token=token, data="{junk", content_type="text/xml")
    assert response.status_code == 200 and response.get_json()["checked_in"] is True


def test_staff_see_one_registration_with_notes_and_deck(api, event, make_player, token, starter_cards):
    reg = make_player(event, "Legal Lena", decklist=KENRITH)
    body = api.get(reg_url(event.id, reg.id), token=token).get_json()
    assert body["notes"] == "" and body["deck"]["legal"] is True and body["decklist"] == KENRITH
    assert body["access_code"] == reg.access_code and "event" not in body


def test_notes(api, db, event, desk, token):
    reg = desk["John Smith"]
    url = reg_url(event.id, reg.id, "/notes")
    assert api.put(url, token=token, json={"notes": MARKUP + "\nPaid."}).get_json()["notes"] == MARKUP + "\nPaid."
    assert api.put(url, token=token, json={"notes": ""}).get_json()["notes"] == ""
    api.put(url, token=token, json={"notes": "kept"})
    before = counts(db)
    for kwargs, status, message, field in [
        (dict(json={"notes": 123}), 400, "Notes must be text", "notes"),
        (dict(json={"notes": None}), 400, "Notes must be text", "notes"),
        (dict(json={"notes": ["a"]}), 400, "Notes must be text", "notes"),
        (dict(json={"notes": "x" * 5001}), 400, "limit is 5000", "notes"),
        (dict(json={"notes": "x" * MB}), 400, "limit is 5000", "notes"),
        (dict(json={}), 400, "an empty string clears", "notes"),
        (dict(json={"notes": "x", "checked_in": True}), 400, "Unknown notes field(s): checked_in", "checked_in"),
        *[(kw, st, msg, fld) for kw, st, msg, fld in NOT_JSON if fld is None],
    ]:
        refused(api.put(url, token=token, **kwargs), status, message, field)
    assert counts(db) == before
    assert api.get(reg_url(event.id, reg.id), token=token).get_json()["notes"] == "kept"


# ----------------------------------------------------------------- players and decklists

def test_a_player_sees_only_their_own_registration(api, db, event, desk, token):
    api.put(reg_url(event.id, desk["John Smith"].id, "/notes"), token=token, json={"notes": "staff only"})
    john, taro = desk["John Smith"], desk["山田太郎"]
    own = api.get(f"/players/{john.access_code}").get_json()
    assert (own["id"], own["name"], own["access_code"]) == (john.id, "John Smith", john.access_code)
    assert "notes" not in own and "staff only" not in json.dumps(own)
    assert own["event"] == {"id": event.id, "name": "Friday Night EDH", "date": None, "venue": "",
                            "ruleset": "edh-2010", "mode": "pods", "status": "registration",
                            "decklist_deadline": None, "decklists_locked": False}
    code = john.access_code
    assert api.get(f"/players/{code.lower()[:4]}-{code.lower()[4:]}").get_json()["id"] == john.id
    assert api.get(f"/players/{taro.access_code}").get_json()["name"] == "山田太郎"
    for wrong in [code[:-1], code + "X", "AAAAAAAA", "%3Cscript%3E", "' OR 1=1 --", "山田太郎", "PID-0000"]:
        refused(api.get(f"/players/{wrong}"), 404, "No registration has this access code")


def test_a_player_submits_and_resubmits_a_decklist(api, db, event, make_player, starter_cards):
    reg = make_player(event, "Anna")
    url = f"/players/{reg.access_code}/decklist"
    first = api.put(url, json={"decklist": ILLEGAL}).get_json()
    assert set(first) == CHECK_KEYS and first["legal"] is False and first["ruleset"] == "edh-2010"
    assert any(f["line"] and f["severity"] == "error" for f in first["findings"])
    fixed = api.put(url, data=KENRITH.encode("utf-8"), content_type="text/plain; charset=utf-8").get_json()
    assert fixed["legal"] is True and fixed["commanders"] == ["Kenrith, the Returned King"]
    assert fixed["main_count"] == 99 and fixed["findings"] == [] or all(
        f["severity"] == "warning" for f in fixed["findings"])
    utf16 = api.put(url, data=KENRITH.encode("utf-16"), content_type="text/plain").get_json()
    assert utf16["legal"] is True
    mine = api.get(f"/players/{reg.access_code}").get_json()
    assert mine["deck_status"] == "legal" and mine["decklist"] == KENRITH and mine["deck"]["legal"] is True
    # every different list is kept; the same text again (here in UTF-16) stores nothing new
    assert db.session.execute(sa.select(sa.func.count()).select_from(Decklist)).scalar() == 2


DECKLIST_BAD = [
    (dict(json={"decklist": []}), 400, "must be text", "decklist"),
    (dict(json={"decklist": None}), 400, "must be text", "decklist"),
    (dict(json={"decklist": 40}), 400, "must be text", "decklist"),
    (dict(json={"decklist": {"main": ["Sol Ring"]}}), 400, "must be text", "decklist"),
    (dict(json={}), 400, "Send {\"decklist\"", "decklist"),
    (dict(json={"decklist": "1 Sol Ring", "legal": True}), 400, "Unknown decklist field(s): legal", "legal"),
    (dict(json={"decklist": "1 Sol Ring", "filename": ["a"]}), 400, "must be text", "filename"),
    (dict(json={"decklist": ""}), 400, None, "decklist"),
    (dict(json={"decklist": "\n\n   "}), 400, None, "decklist"),
    (dict(json={"decklist": "x" * (MB + 1)}), 413, "limit is 1 MB", "decklist"),
    (dict(data=b"x" * (MB + 1), content_type="text/plain"), 413, "limit is 1 MB", "decklist"),
    (dict(data=b"\x00\x01\x02\xff" * 300, content_type="text/plain"), 400, None, "decklist"),
    (dict(data=b"", content_type="text/plain"), 400, None, "decklist"),
    (dict(data="1 Sol Ring", content_type="application/xml"), 415, "text/plain", None),
    (dict(data={"decklist": "1 Sol Ring"}, content_type="multipart/form-data"), 415, None, None),
    (dict(data="1 Sol Ring"), 415, None, None),
    *[(kw, st, msg, fld) for kw, st, msg, fld in NOT_JSON if kw.get("content_type") == "application/json"
      or "json" in kw],
]


def test_player_decklist_refuses_bad_input_and_stores_nothing(api, db, event, make_player, starter_cards):
    reg = make_player(event, "Anna", decklist=KENRITH)
    player = lambda: api.get(f"/players/{reg.access_code}").get_json()  # noqa: E731
    all_refused(api, db, "PUT", f"/players/{reg.access_code}/decklist", DECKLIST_BAD, check=player)
    assert player()["decklist"] == KENRITH


def test_staff_decklist_refuses_the_same_input(api, db, event, make_player, token, starter_cards):
    reg = make_player(event, "Anna", decklist=KENRITH)
    shown = lambda: api.get(reg_url(event.id, reg.id), token=token).get_json()  # noqa: E731
    all_refused(api, db, "PUT", reg_url(event.id, reg.id, "/decklist"), DECKLIST_BAD, check=shown, token=token)
    fixed = api.put(reg_url(event.id, reg.id, "/decklist"), token=token, data=ILLEGAL, content_type="text/plain")
    assert fixed.get_json()["submitted_by"] == "organizer:Olga Organizer" and shown()["decklist"] == ILLEGAL


def test_the_deadline_locks_the_list_for_players_but_not_for_staff(api, db, event, make_player, token,
                                                                   judge_token, starter_cards):
    reg = make_player(event, "Late Larry", decklist=ILLEGAL)
    past = datetime.now(timezone.utc) - timedelta(minutes=1)
    api.patch(f"/events/{event.id}", token=token, json={"decklist_deadline": past.isoformat()})
    assert api.get(f"/players/{reg.access_code}").get_json()["event"]["decklists_locked"] is True
    before = counts(db)
    refused(api.put(f"/players/{reg.access_code}/decklist", json={"decklist": KENRITH}), 409, "deadline has passed")
    assert counts(db) == before
    fixed = api.put(reg_url(event.id, reg.id, "/decklist"), token=judge_token, json={"decklist": KENRITH})
    assert fixed.status_code == 200 and fixed.get_json()["legal"] is True
    assert fixed.get_json()["submitted_by"] == "judge:Jan Judge"
    entry = db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "decklist.submit")
                               .order_by(AuditEntry.id.desc())).scalars().first()
    assert entry.actor == "judge:Jan Judge" and entry.details["after_deadline"] is True
    assert api.get(f"/players/{reg.access_code}").get_json()["deck"]["submitted_by"] == "judge:Jan Judge"


def test_a_dropped_player_cannot_submit(api, db, event, make_player, token, starter_cards):
    reg = make_player(event, "Anna")
    api.post(reg_url(event.id, reg.id, "/drop"), token=token)
    before = counts(db)
    refused(api.put(f"/players/{reg.access_code}/decklist", json={"decklist": KENRITH}), 409, "dropped")
    assert counts(db) == before
