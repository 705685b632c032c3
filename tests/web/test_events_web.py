"""Organizer and judge pages: event list, create, edit, copy, dashboard, late registration."""
from __future__ import annotations

import html
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
import sqlalchemy as sa
from markupsafe import escape

from tournament.events.models import AuditEntry, Decklist, Event, Registration

DEMO = Path(__file__).resolve().parents[2] / "tournament" / "data" / "demo_decks"
KENRITH = (DEMO / "kenrith.txt").read_text(encoding="utf-8")
ILLEGAL = (DEMO / "phelddagrif-illegal.txt").read_text(encoding="utf-8")
MB = 1_000_000
EXPIRED = "This form has expired or did not come from this site"


def counts(db) -> dict:
    return {m.__name__: db.session.execute(sa.select(sa.func.count()).select_from(m)).scalar()
            for m in (Event, Registration, Decklist, AuditEntry)}


def settings(**overrides) -> dict:
    data = {"name": "Friday Night EDH", "date": "2026-12-05", "venue": "The Game Shop", "ruleset": "edh-2010",
            "banlist_add": "Sol Ring\r\nMana Crypt\r\n", "banlist_remove": "Braids, Cabal Minion", "mode": "pods",
            "pod_size": "4", "sideboard_enabled": "y", "swap_seconds": "180", "scoring_profile": "democratic",
            "round_minutes": "90", "decklist_deadline": "2026-12-05T10:00", "paper_size": "A4",
            "status": "registration", "variant": "none", "archenemy_win_points": "3", "team_win_points": "1",
            "leftover_policy": "threes", "top_cut": "0", "bye_points": "", "hide_votes": "y",
            "prize_conditions": "Most damage in one hit | highest\r\nMost tokens | total", "timezone": "UTC"}
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def fresh(db, model, id_):
    db.session.expire_all()
    return db.session.get(model, id_)


# ----------------------------------------------------------------- access

@pytest.mark.parametrize("method,path", [
    ("get", "/events"), ("get", "/events/new"), ("post", "/events/new"), ("get", "/events/1"),
    ("get", "/events/1/edit"), ("post", "/events/1/edit"), ("post", "/events/1/copy"),
    ("post", "/events/1/registrations"),
])
def test_staff_pages_send_logged_out_visitors_to_login(client, db, make_event, method, path):
    make_event()
    before = counts(db)
    response = getattr(client, method)(path, data={"name": "x"})
    assert response.status_code == 302
    assert "/auth/login" in response.headers["Location"]
    assert counts(db) == before


def test_unknown_event_is_a_404_page(client, organizer, login):
    login(organizer)
    for path in ("/events/999", "/events/999/edit", "/events/999/desk"):
        response = client.get(path)
        assert response.status_code == 404
        assert "No such event." in response.get_data(as_text=True)
    assert client.post("/events/999/copy").status_code == 404
    assert client.get("/events/abc").status_code == 404


# ----------------------------------------------------------------- list and create

def test_organizer_lists_own_events_and_judge_sees_those_of_their_staff(client, make_event, make_user, organizer,
                                                                        judge, login):
    mine = make_event(name="Mine <i>")
    other_org = make_user("Other Organizer")
    theirs = make_event(owner=other_org, name="Theirs")
    elsewhere = make_event(owner=other_org, name="Elsewhere", staff=[])
    login(organizer)
    page = client.get("/events").get_data(as_text=True)
    assert "Mine &lt;i&gt;" in page and "Mine <i>" not in page
    assert "Theirs" not in page
    assert 'href="/events/new"' in page
    assert f'href="/events/{mine.id}"' in page
    client.post("/auth/logout")
    login(judge)
    page = client.get("/events").get_data(as_text=True)
    assert "Theirs" in page and "Mine &lt;i&gt;" in page
    assert f'href="/events/{theirs.id}"' in page
    assert "Elsewhere" not in page and f'href="/events/{elsewhere.id}"' not in page
    assert 'href="/events/new"' not in page


def test_create_event_with_every_setting(client, db, organizer, login):
    login(organizer)
    form = client.get("/events/new").get_data(as_text=True)
    for name in ("name", "date", "venue", "ruleset", "banlist_add", "banlist_remove", "mode", "pod_size",
                 "sideboard_enabled", "swap_seconds", "scoring_profile", "round_minutes", "decklist_deadline",
                 "paper_size", "status", "variant", "archenemy_win_points", "team_win_points"):
        assert f'name="{name}"' in form, name
    assert 'value="180"' in form and 'selected value="UTC"' in form      # the machine's zone by default
    assert 'value="edh-czech"' in form and 'value="commander"' in form   # every ruleset is offered

    response = client.post("/events/new", data=settings(pod_size="5", swap_seconds="120", paper_size="Letter"))
    assert response.status_code == 302, response.get_data(as_text=True)
    event = db.session.execute(sa.select(Event)).scalar_one()
    assert response.headers["Location"].endswith(f"/events/{event.id}")
    assert event.organizer_id == organizer.id
    assert (event.name, event.venue, event.ruleset, event.mode, event.pod_size, event.swap_seconds,
            event.paper_size, event.status, event.round_minutes) == (
        "Friday Night EDH", "The Game Shop", "edh-2010", "pods", 5, 120, "Letter", "registration", 90)
    assert event.banlist_add == ["Sol Ring", "Mana Crypt"] and event.banlist_remove == ["Braids, Cabal Minion"]
    assert event.sideboard_enabled is True
    assert event.date.isoformat() == "2026-12-05"
    deadline = event.decklist_deadline
    assert deadline.replace(tzinfo=deadline.tzinfo or timezone.utc) == datetime(2026, 12, 5, 10, 0, tzinfo=timezone.utc)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Created Friday Night EDH." in page
    assert "2026-12-05 10:00 UTC" in page and "Sol Ring, Mana Crypt" in page


def test_duel_event_gets_mtr_scoring_by_default(client, db, organizer, login):
    login(organizer)
    response = client.post("/events/new", data=settings(mode="duel", ruleset="duel-cn", scoring_profile="",
                                                        sideboard_enabled=None))
    assert response.status_code == 302
    event = db.session.execute(sa.select(Event)).scalar_one()
    assert event.scoring_profile == "mtr" and event.sideboard_enabled is False


@pytest.mark.parametrize("overrides,message", [
    ({"name": ""}, "The event name is required."),
    ({"name": None}, "The event name is required."),
    ({"name": "x" * MB}, "The event name may be at most 200 characters."),
    ({"pod_size": "abc"}, "The pod size must be a whole number from 3 to 5."),
    ({"pod_size": "7"}, "The pod size must be a whole number from 3 to 5."),
    ({"pod_size": None}, "The pod size must be a whole number from 3 to 5."),
    ({"pod_size": "9" * 5000}, "The pod size must be a whole number from 3 to 5."),
    ({"swap_seconds": "-1"}, "The swap window (seconds) must be a whole number from 0 to 3600."),
    ({"round_minutes": "1.5"}, "The round length (minutes) must be a whole number from 10 to 600."),
    ({"ruleset": "modern"}, "Choose one of: "),
    ({"ruleset": None}, "Choose one of: "),
    ({"mode": "ffa"}, "Choose one of: Pods (multiplayer), Duel"),
    ({"variant": "planechase"}, "Choose one of: None (normal Commander), Archenemy"),
    ({"archenemy_win_points": "101"}, "Archenemy win points must be a whole number from 0 to 100."),
    ({"team_win_points": ""}, "Team win points must be a whole number from 0 to 100."),
    ({"paper_size": "<b>A3</b>"}, "Choose one of: A4, Letter."),
    ({"date": "next friday"}, "The date must look like 2026-12-05."),
    ({"decklist_deadline": "soon"}, "The decklist deadline must look like 2026-12-05T10:00 (the event&#39;s time zone)."),
    ({"banlist_add": "Sol Ring\n\x07Bell"}, "contains control characters"),
    ({"banlist_add": "\n".join(f"Card {i}" for i in range(501))}, "lists 501 cards; the limit is 500"),
    ({"banlist_remove": "x" * MB}, "The banlist removals are too long."),
])
def test_create_event_refuses_bad_input_next_to_the_field(client, db, organizer, login, overrides, message):
    login(organizer)
    before = counts(db)
    response = client.post("/events/new", data=settings(**overrides))
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert message in page
    assert 'class="error"' in page
    assert counts(db) == before


def test_create_event_with_nothing_posted(client, db, organizer, login):
    login(organizer)
    response = client.post("/events/new", data={})
    assert response.status_code == 400
    assert "The event name is required." in response.get_data(as_text=True)
    assert counts(db)["Event"] == 0


def test_event_name_with_markup_is_shown_as_text(client, db, organizer, login):
    login(organizer)
    response = client.post("/events/new", data=settings(name="<script>alert(1)</script>", venue="<b>Shop</b>"))
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
    assert "&lt;b&gt;Shop&lt;/b&gt;" in page


def test_judge_cannot_create_events(client, db, judge, login):
    login(judge)
    assert client.get("/events/new").status_code == 403
    response = client.post("/events/new", data=settings())
    assert response.status_code == 403
    assert "Only an organizer may do that." in response.get_data(as_text=True)
    assert counts(db)["Event"] == 0


def test_csrf_token_is_required_when_enabled(app, client, db, organizer, login, make_event):
    event = make_event()
    login(organizer)
    app.config["WTF_CSRF_ENABLED"] = True
    before = counts(db)
    for path, data in [("/events/new", settings()), (f"/events/{event.id}/edit", settings(name="Changed")),
                       (f"/events/{event.id}/copy", {}), (f"/events/{event.id}/registrations", {"name": "Late"})]:
        for token in (None, "stale-token-from-yesterday"):
            body = dict(data, **({"csrf_token": token} if token else {}))
            response = client.post(path, data=body)
            assert response.status_code == 400, path
            assert EXPIRED in response.get_data(as_text=True)
    assert counts(db) == before
    assert fresh(db, Event, event.id).name == "Friday Night EDH"
    # a real token from the page works
    page = client.get("/events/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    response = client.post("/events/new", data=settings(csrf_token=token, name="With token"))
    assert response.status_code == 302


# ----------------------------------------------------------------- edit and copy

def test_organizer_edits_every_setting(client, db, make_event, organizer, login):
    event = make_event(banlist_add=["Sol Ring"])
    login(organizer)
    page = client.get(f"/events/{event.id}/edit").get_data(as_text=True)
    assert 'value="Friday Night EDH"' in page and "Sol Ring</textarea>" in page
    response = client.post(f"/events/{event.id}/edit", data=settings(
        name="Saturday", venue="Hall", ruleset="commander", banlist_add="", banlist_remove="Mana Crypt",
        pod_size="3", sideboard_enabled=None, swap_seconds="0", scoring_profile="survival", round_minutes="60",
        decklist_deadline="", paper_size="Letter", status="running", date="", variant="archenemy",
        archenemy_win_points="4", team_win_points="2"))
    assert response.status_code == 302, response.get_data(as_text=True)
    event = fresh(db, Event, event.id)
    assert (event.variant, event.archenemy_win_points, event.team_win_points) == ("archenemy", 4, 2)
    assert (event.name, event.venue, event.ruleset, event.banlist_add, event.banlist_remove, event.pod_size,
            event.sideboard_enabled, event.swap_seconds, event.scoring_profile, event.round_minutes,
            event.decklist_deadline, event.paper_size, event.status, event.date) == (
        "Saturday", "Hall", "commander", [], ["Mana Crypt"], 3, False, 0, "survival", 60, None, "Letter",
        "running", None)
    assert db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "event.update")).scalar()
    page = client.get(f"/events/{event.id}/edit").get_data(as_text=True)
    assert 'value="Saturday"' in page
    assert 'selected value="archenemy"' in page and 'name="team_win_points"' in page and 'value="2"' in page


def test_the_pairing_vote_and_prize_settings_are_in_the_form(client, db, make_event, organizer, login):
    event = make_event(mode="duel", scoring_profile="mtr")
    login(organizer)
    page = client.get(f"/events/{event.id}/edit").get_data(as_text=True)
    for name in ("leftover_policy", "top_cut", "bye_points", "hide_votes", "prize_conditions"):
        assert f'name="{name}"' in page, name
    kept_id = event.prize_conditions[0]["id"]
    kept = event.prize_conditions[0]["name"]
    response = client.post(f"/events/{event.id}/edit", data=settings(
        mode="duel", scoring_profile="mtr", leftover_policy="byes", top_cut="8", bye_points="2", hide_votes=None,
        prize_conditions=f"{kept} | lowest\r\n\r\nFastest win|count\r\n<b>Shiny</b>"))
    assert response.status_code == 302, response.get_data(as_text=True)
    event = fresh(db, Event, event.id)
    assert (event.leftover_policy, event.top_cut, event.bye_points, event.hide_votes) == ("byes", 8, 2, False)
    assert [(c["name"], c["kind"]) for c in event.prize_conditions] == [
        (kept, "min"), ("Fastest win", "count"), ("<b>Shiny</b>", "max")]
    assert event.prize_conditions[0]["id"] == kept_id            # claims made under it still count
    page = client.get(f"/events/{event.id}/edit").get_data(as_text=True)
    assert f"{escape(kept)} | lowest\nFastest win | count\n&lt;b&gt;Shiny&lt;/b&gt; | highest</textarea>" in page
    assert 'selected value="8"' in page and 'selected value="byes"' in page and 'value="2"' in page


@pytest.mark.parametrize("field, value, message", [
    ("top_cut", "6", "Choose one of: No top cut, Top 4, Top 7 (pods), Top 8 (1v1), Top 10 (pods), Top 13 (pods), "
                     "Top 16 (pods), Top 40 (pods)."),
    ("bye_points", "-1", "Points for a bye must be a whole number from 0 to 100"),
    ("bye_points", "1.5", "Points for a bye must be a whole number from 0 to 100"),
    ("leftover_policy", "sixes", "Choose one of: Pods of 3"),
    ("prize_conditions", "Fastest | quickest", "Line 1: “quickest” is not how a prize is won"),
    ("prize_conditions", "Same | highest\nSame | total", "Two prize conditions are both called Same."),
])
def test_a_bad_setting_is_refused_next_to_its_field(client, db, make_event, organizer, login, field, value, message):
    event = make_event()
    login(organizer)
    before = fresh(db, Event, event.id).prize_conditions
    response = client.post(f"/events/{event.id}/edit", data=settings(**{field: value}))
    assert response.status_code == 400 and message in html.unescape(response.get_data(as_text=True))
    assert fresh(db, Event, event.id).prize_conditions == before


def test_a_new_event_offers_the_seeds_prizes(client, db, organizer, login):
    login(organizer)
    page = client.get("/events/new").get_data(as_text=True)
    textarea = page.split('name="prize_conditions"', 1)[1].split("</textarea>", 1)[0]
    assert textarea.count(" | ") >= 1


def test_edit_shows_the_stored_deadline_in_utc(client, make_event, organizer, login):
    event = make_event(decklist_deadline="2026-12-05T10:30:00+02:00")
    login(organizer)
    page = client.get(f"/events/{event.id}/edit").get_data(as_text=True)
    assert 'value="2026-12-05T08:30"' in page


def test_edit_refusal_keeps_the_event_unchanged(client, db, make_event, organizer, login):
    event = make_event()
    login(organizer)
    before = counts(db)
    response = client.post(f"/events/{event.id}/edit", data=settings(name="New name", pod_size="abc"))
    assert response.status_code == 400
    assert "The pod size must be a whole number from 3 to 5." in response.get_data(as_text=True)
    assert fresh(db, Event, event.id).name == "Friday Night EDH"
    assert counts(db) == before


def test_judge_and_other_organizer_cannot_edit_or_copy(client, db, make_event, make_user, judge, login):
    event = make_event()
    other = make_user("Other Organizer")
    before = counts(db)
    for user, message in [(judge, "Only the event&#39;s organizers may do that"),
                          (other, "This event belongs to another organizer.")]:
        login(user)
        for response in (client.get(f"/events/{event.id}/edit"),
                         client.post(f"/events/{event.id}/edit", data=settings(name="Hijacked")),
                         client.post(f"/events/{event.id}/copy", data={"name": "Stolen"})):
            assert response.status_code == 403
            assert message in response.get_data(as_text=True)
        client.post("/auth/logout")
    assert fresh(db, Event, event.id).name == "Friday Night EDH"
    assert counts(db) == before


def test_copy_event_settings(client, db, make_event, make_player, organizer, login):
    event = make_event(banlist_add=["Sol Ring"], pod_size=3, venue="Shop")
    make_player(event, "Player One")
    login(organizer)
    response = client.post(f"/events/{event.id}/copy", data={"name": "Next week"})
    assert response.status_code == 302
    copy = db.session.execute(sa.select(Event).where(Event.id != event.id)).scalar_one()
    assert response.headers["Location"].endswith(f"/events/{copy.id}/edit")
    assert (copy.name, copy.banlist_add, copy.pod_size, copy.venue, copy.status) == (
        "Next week", ["Sol Ring"], 3, "Shop", "registration")
    assert copy.registrations == []
    response = client.post(f"/events/{event.id}/copy", data={})
    assert response.status_code == 302
    assert db.session.execute(sa.select(Event.name).where(Event.name == "Friday Night EDH (copy)")).scalar()
    before = counts(db)
    response = client.post(f"/events/{event.id}/copy", data={"name": "x" * MB})
    assert response.status_code == 400
    assert "at most 200 characters" in response.get_data(as_text=True)
    assert counts(db) == before


# ----------------------------------------------------------------- dashboard

def test_dashboard_shows_every_registration_at_a_glance(client, db, make_event, make_player, organizer, judge,
                                                         login, starter_cards):
    event = make_event()
    legal = make_player(event, "山田太郎", decklist=KENRITH, player_id="JP-1")
    illegal = make_player(event, "<script>alert('x')</script>", decklist=ILLEGAL)
    missing = make_player(event, "Šárka Dvořáková")
    errors = sum(1 for f in illegal.deck.result["findings"] if f["severity"] == "error")
    assert errors > 0
    login(organizer)
    page = client.get(f"/events/{event.id}").get_data(as_text=True)
    assert "山田太郎" in page and "Šárka Dvořáková" in page and "JP-1" in page
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page and "<script>alert" not in page
    for reg in (legal, illegal, missing):
        assert reg.access_code in page
        assert f'href="/p/{reg.access_code}"' in page
    row = lambda reg: page.split(f'id="registration-{reg.id}"')[1].split("</tr>")[0]  # noqa: E731
    assert "legal</span>" in row(legal)
    assert f"illegal · {errors} errors" in row(illegal)
    assert "missing" in row(missing)
    assert 'data-counter="registered">3<' in page
    assert 'data-counter="legal_decks">1<' in page and 'data-counter="missing_decks">1<' in page
    assert f'href="/events/{event.id}/desk"' in page
    assert f"/events/{event.id}/register" in page
    assert f'href="/events/{event.id}/edit"' in page
    client.post("/auth/logout")
    login(judge)
    page = client.get(f"/events/{event.id}").get_data(as_text=True)
    assert "山田太郎" in page and f'href="/events/{event.id}/edit"' not in page


def test_other_organizer_cannot_see_the_dashboard(client, make_event, make_player, make_user, login):
    event = make_event()
    reg = make_player(event, "Secret Player")
    login(make_user("Other Organizer"))
    response = client.get(f"/events/{event.id}")
    assert response.status_code == 403
    page = response.get_data(as_text=True)
    assert "This event belongs to another organizer." in page and reg.access_code not in page


def test_late_registration_from_the_dashboard(client, db, make_event, organizer, login, starter_cards):
    event = make_event(status="running")
    login(organizer)
    response = client.post(f"/events/{event.id}/registrations",
                           data={"name": "<b>Late</b> Larry", "player_id": "L-1", "decklist": KENRITH})
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/events/{event.id}")
    reg = db.session.execute(sa.select(Registration)).scalar_one()
    assert reg.late is True and reg.deck is not None and reg.deck.legal
    assert reg.deck.submitted_by == "organizer:Olga Organizer"
    page = client.get(f"/events/{event.id}").get_data(as_text=True)
    assert "Their access code is on their row" in page and f"<code>{reg.access_code}</code>" in page
    assert "&lt;b&gt;Late&lt;/b&gt; Larry" in page and "<b>Late</b>" not in page


@pytest.mark.parametrize("data,status,message", [
    ({}, 400, "Your name is required."),
    ({"name": "   "}, 400, "Your name is required."),
    ({"name": "x" * MB}, 400, "Your name may be at most 100 characters."),
    ({"name": "A", "player_id": "x" * 41}, 400, "Player ID (optional) may be at most 40 characters."),
    ({"name": "A", "decklist": "x" * (MB + 1)}, 400, "The decklist is too long; the limit is 1 MB."),
    ({"name": "A", "decklist": "// only a comment\n"}, 400, "no card lines"),
    ({"name": "Tab\tName"}, 400, "control characters"),
])
def test_late_registration_refusals_store_nothing(client, db, make_event, organizer, login, starter_cards,
                                                  data, status, message):
    event = make_event()
    login(organizer)
    before = counts(db)
    response = client.post(f"/events/{event.id}/registrations", data=data)
    assert response.status_code == status
    assert message in response.get_data(as_text=True)
    assert counts(db) == before


def test_registration_after_the_event_finished_is_refused(client, db, make_event, organizer, login):
    event = make_event(status="finished")
    login(organizer)
    before = counts(db)
    response = client.post(f"/events/{event.id}/registrations", data={"name": "Too Late"})
    assert response.status_code == 409
    assert "This event has finished; registration is closed." in response.get_data(as_text=True)
    assert counts(db) == before


def test_duplicate_player_id_is_shown_next_to_the_field(client, db, make_event, make_player, organizer, login):
    event = make_event()
    make_player(event, "First", player_id="123")
    login(organizer)
    before = counts(db)
    response = client.post(f"/events/{event.id}/registrations", data={"name": "Second", "player_id": "123"})
    page = response.get_data(as_text=True)
    assert response.status_code == 409
    field = page.split('id="field-player_id"')[1].split("</div>")[0]
    assert "Player ID 123 is already registered for this event." in field
    assert counts(db) == before


@pytest.mark.parametrize("body", [[1, 2], "text", {"name": ["a", "b"]}, {"name": 5}, {"decklist": {"x": 1}},
                                  b"{not json"])
def test_json_bodies_that_are_not_objects_of_text(client, db, make_event, make_player, organizer, login, body):
    """The forms also accept JSON (Flask-WTF); anything but an object of text fields is a 400, not a 500."""
    event = make_event()
    reg = make_player(event, "Player")
    login(organizer)
    before = counts(db)
    for path in ("/events/new", f"/events/{event.id}/edit", f"/events/{event.id}/copy",
                 f"/events/{event.id}/register", f"/p/{reg.access_code}/deck", f"/events/{event.id}/registrations",
                 f"/events/{event.id}/registrations/{reg.id}/notes"):
        if isinstance(body, bytes):
            response = client.post(path, data=body, content_type="application/json")
        else:
            response = client.post(path, json=body)
        assert response.status_code == 400, path
        assert response.json["error"]["message"]
    assert counts(db) == before
