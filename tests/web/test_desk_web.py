"""The check-in desk: search (server-rendered and JSON), check-in, drop, notes, late entries."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import sqlalchemy as sa

from tournament.events.models import AuditEntry, Decklist, Event, Registration

ROOT = Path(__file__).resolve().parents[2]
KENRITH = (ROOT / "tournament" / "data" / "demo_decks" / "kenrith.txt").read_text(encoding="utf-8")
ILLEGAL = (ROOT / "tournament" / "data" / "demo_decks" / "phelddagrif-illegal.txt").read_text(encoding="utf-8")
MB = 1_000_000
JSON = {"Accept": "application/json"}
EXPIRED = "This form has expired or did not come from this site"
ROW_KEYS = {"id", "name", "access_code", "player_id", "checked_in", "dropped", "deck_status", "late", "notes", "bracket_flag"}


def counts(db) -> dict:
    return {m.__name__: db.session.execute(sa.select(sa.func.count()).select_from(m)).scalar()
            for m in (Event, Registration, Decklist, AuditEntry)}


def fresh(db, id_) -> Registration:
    db.session.expire_all()
    return db.session.get(Registration, id_)


@pytest.fixture
def players(make_event, make_player, starter_cards):
    event = make_event()
    regs = {
        "yamada": make_player(event, "山田太郎", decklist=KENRITH, player_id="JP-1"),
        "sarka": make_player(event, "Šárka Dvořáková", decklist=ILLEGAL),
        "bobby": make_player(event, "<script>alert('b')</script> Tables"),
    }
    return event, regs


def url(event, reg, action):
    return f"/events/{event.id}/registrations/{reg.id}/{action}"


# ----------------------------------------------------------------- access

def test_logged_out_desk_goes_to_login_and_changes_nothing(client, db, players):
    event, regs = players
    response = client.get(f"/events/{event.id}/desk")
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    response = client.get(f"/events/{event.id}/desk/search?q=a", headers=JSON)
    assert response.status_code == 401
    assert response.json["error"]["message"] == "Log in as an organizer or judge first."
    before = counts(db)
    for action in ("checkin", "checkin/undo", "drop", "drop/undo", "notes"):
        response = client.post(url(event, regs["yamada"], action), data={"notes": "x"})
        assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
        response = client.post(url(event, regs["yamada"], action), data={"notes": "x"}, headers=JSON)
        assert response.status_code == 401
    assert counts(db) == before
    reg = fresh(db, regs["yamada"].id)
    assert reg.checked_in_at is None and reg.dropped_at is None and reg.notes == ""


def test_other_organizer_is_refused_and_judge_may_work_the_desk(client, db, players, make_user, judge, login):
    event, regs = players
    login(make_user("Other Organizer"))
    assert client.get(f"/events/{event.id}/desk").status_code == 403
    response = client.get(f"/events/{event.id}/desk/search?q=", headers=JSON)
    assert response.status_code == 403 and "another organizer" in response.json["error"]["message"]
    response = client.post(url(event, regs["yamada"], "checkin"))
    assert response.status_code == 403
    assert "This event belongs to another organizer." in response.get_data(as_text=True)
    assert fresh(db, regs["yamada"].id).checked_in_at is None
    client.post("/auth/logout")
    login(judge)
    assert client.get(f"/events/{event.id}/desk").status_code == 200
    response = client.post(url(event, regs["yamada"], "checkin"), headers=JSON)
    assert response.status_code == 200
    assert db.session.execute(sa.select(AuditEntry.actor).where(AuditEntry.action == "checkin")).scalar() \
        == "judge:Jan Judge"


def test_unknown_ids_are_404(client, db, players, make_event, make_player, organizer, login):
    event, regs = players
    other_event = make_event(name="Other")
    stranger = make_player(other_event, "Stranger")
    login(organizer)
    assert client.get("/events/999/desk").status_code == 404
    assert client.get("/events/999/desk/search", headers=JSON).status_code == 404
    for path in (f"/events/{event.id}/registrations/9999/checkin", url(event, stranger, "checkin"),
                 f"/events/999/registrations/{regs['yamada'].id}/checkin"):
        response = client.post(path)
        assert response.status_code == 404
        response = client.post(path, headers=JSON)
        assert response.status_code == 404 and response.json["error"]["message"]
    assert client.post(f"/events/{event.id}/registrations/abc/checkin").status_code == 404
    assert fresh(db, stranger.id).checked_in_at is None


# ----------------------------------------------------------------- search

def test_desk_page_renders_results_and_counters_without_js(client, players, organizer, login):
    event, regs = players
    login(organizer)
    response = client.get(f"/events/{event.id}/desk")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert '<meta name="csrf-token"' in page and "desk.js" in page
    assert 'id="desk-q"' in page and f'action="/events/{event.id}/desk"' in page and 'method="get"' in page
    for key, value in {"registered": 3, "checked_in": 0, "legal_decks": 1, "missing_decks": 1, "dropped": 0}.items():
        assert f'data-counter="{key}">{value}<' in page
    assert page.count('class="desk-row') == 3
    assert "&lt;script&gt;alert(&#39;b&#39;)&lt;/script&gt; Tables" in page and "<script>alert" not in page
    for reg in regs.values():
        assert f'action="/events/{event.id}/registrations/{reg.id}/checkin"' in page
        assert f'action="/events/{event.id}/registrations/{reg.id}/drop"' in page
        assert f'action="/events/{event.id}/registrations/{reg.id}/notes"' in page
    page = client.get(f"/events/{event.id}/desk?q=dvorak").get_data(as_text=True)
    assert page.count('class="desk-row') == 1 and "Šárka Dvořáková" in page and "deck illegal" in page
    page = client.get(f"/events/{event.id}/desk?q=<script>nobody").get_data(as_text=True)
    assert "No player matches" in page and "&lt;script&gt;nobody" in page and "<script>nobody" not in page
    assert client.get(f"/events/{event.id}/desk?q=" + "x" * 100_000).status_code == 200


def test_search_endpoint_returns_json(client, players, organizer, login):
    event, regs = players
    login(organizer)
    response = client.get(f"/events/{event.id}/desk/search?q=", headers=JSON)
    assert response.status_code == 200 and response.is_json
    body = response.json
    assert len(body["results"]) == 3 and all(ROW_KEYS <= set(r) for r in body["results"])
    assert body["counters"]["registered"] == 3 and body["counters"]["legal_decks"] == 1
    by_name = lambda q: [r["name"] for r in client.get(f"/events/{event.id}/desk/search", query_string={"q": q}).json["results"]]  # noqa: E731
    assert by_name("山田") == ["山田太郎"]
    assert by_name("dvorak") == ["Šárka Dvořáková"]
    assert by_name("JP-1") == ["山田太郎"]
    assert by_name(regs["sarka"].access_code.lower()) == ["Šárka Dvořáková"]
    assert by_name("<script>") == ["<script>alert('b')</script> Tables"]   # data, shown with textContent
    assert by_name("nobody at all") == []
    assert by_name("%") == [] and by_name("x" * MB) == []
    row = client.get(f"/events/{event.id}/desk/search?q=JP-1").json["results"][0]
    assert row == {"id": regs["yamada"].id, "name": "山田太郎", "access_code": regs["yamada"].access_code,
                   "player_id": "JP-1", "checked_in": False, "dropped": False, "deck_status": "legal",
                   "deck_errors": 0, "late": False, "notes": "", "bracket_flag": "", "paid": False,
                   "waitlisted": False, "waitlist_place": None, "waitlist_text": "", "paid_text": "not paid",
                   "paid_button": "Mark paid",
                   "receipt_url": f"/p/{regs['yamada'].access_code}/receipt",
                   "manage_url": f"/events/{event.id}/registrations/{regs['yamada'].id}"}


def test_desk_script_never_puts_user_data_into_html():
    script = (ROOT / "static" / "desk.js").read_text(encoding="utf-8")
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script and "outerHTML" not in script
    assert "textContent" in script and "X-CSRFToken" in script and "150" in script


# ----------------------------------------------------------------- actions

def test_check_in_undo_drop_undrop_notes_with_form_posts(client, db, players, organizer, login):
    event, regs = players
    reg = regs["sarka"]
    login(organizer)
    response = client.post(url(event, reg, "checkin"), data={"q": "dvo"})
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/events/{event.id}/desk?q=dvo")
    assert fresh(db, reg.id).checked_in_at is not None
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Checked in: Šárka Dvořáková" in page and 'data-counter="checked_in">1<' in page
    assert "Undo check-in" in page

    assert client.post(url(event, reg, "checkin/undo")).status_code == 302
    assert fresh(db, reg.id).checked_in_at is None
    assert client.post(url(event, reg, "drop")).status_code == 302
    assert fresh(db, reg.id).dropped_at is not None
    page = client.get(f"/events/{event.id}/desk?q=dvo").get_data(as_text=True)
    assert "Undrop" in page and 'data-counter="dropped">1<' in page
    assert client.post(url(event, reg, "drop/undo")).status_code == 302
    assert fresh(db, reg.id).dropped_at is None
    response = client.post(url(event, reg, "notes"), data={"notes": "Paid <b>cash</b>", "q": ""})
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/events/{event.id}/desk")
    assert fresh(db, reg.id).notes == "Paid <b>cash</b>"
    page = client.get(f"/events/{event.id}/desk").get_data(as_text=True)
    assert "Paid &lt;b&gt;cash&lt;/b&gt;" in page and "<b>cash</b>" not in page
    actions = db.session.execute(sa.select(AuditEntry.action).where(AuditEntry.action.in_(
        ["checkin", "checkin.undo", "drop", "drop.undo", "notes"])).order_by(AuditEntry.id)).scalars().all()
    assert actions == ["checkin", "checkin.undo", "drop", "drop.undo", "notes"]


def test_fetch_style_check_in_returns_json(client, db, players, organizer, login):
    event, regs = players
    reg = regs["yamada"]
    login(organizer)
    response = client.post(url(event, reg, "checkin"), headers=JSON)
    assert response.status_code == 200 and response.is_json
    body = response.json
    assert body["message"] == "Checked in: 山田太郎"
    assert body["registration"]["checked_in"] is True and ROW_KEYS <= set(body["registration"])
    assert body["counters"]["checked_in"] == 1
    # twice is harmless (a scanner may send the code twice)
    assert client.post(url(event, reg, "checkin"), headers=JSON).json["counters"]["checked_in"] == 1
    body = client.post(url(event, reg, "drop"), headers=JSON).json
    assert body["registration"]["dropped"] is True and body["counters"]["dropped"] == 1
    body = client.post(url(event, reg, "notes"), json={"notes": "Needs a table near the door"}).json
    assert body["registration"]["notes"] == "Needs a table near the door"


def test_checking_in_a_dropped_player_is_refused(client, db, players, organizer, login):
    event, regs = players
    reg = regs["bobby"]
    login(organizer)
    client.post(url(event, reg, "drop"))
    before = counts(db)
    response = client.post(url(event, reg, "checkin"), headers=JSON)
    assert response.status_code == 409
    assert "has dropped; undrop them first." in response.json["error"]["message"]
    response = client.post(url(event, reg, "checkin"))
    page = response.get_data(as_text=True)
    assert response.status_code == 409 and "has dropped; undrop them first." in page
    assert "&lt;script&gt;" in page and "<script>alert" not in page
    assert counts(db) == before and fresh(db, reg.id).checked_in_at is None


@pytest.mark.parametrize("notes,message", [
    ("n" * 5001, "Notes may be at most 5000 characters."),
    ("n" * MB, "Notes may be at most 5000 characters."),
])
def test_notes_refusals_change_nothing(client, db, players, organizer, login, notes, message):
    event, regs = players
    reg = regs["yamada"]
    login(organizer)
    before = counts(db)
    response = client.post(url(event, reg, "notes"), data={"notes": notes})
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    response = client.post(url(event, reg, "notes"), data={"notes": notes}, headers=JSON)
    assert response.status_code == 400 and response.json["error"]["message"] == message
    assert counts(db) == before and fresh(db, reg.id).notes == ""


@pytest.mark.parametrize("kwargs,message", [
    ({"json": {"notes": ["a", "list"]}}, "The field notes must be text."),
    ({"json": {"notes": {"a": 1}}}, "The field notes must be text."),
    ({"json": {"notes": 5}}, "The field notes must be text."),
    ({"json": [1, 2]}, "Send a JSON object of fields"),
    ({"json": "notes"}, "Send a JSON object of fields"),
    ({"data": b"\xff\xfe garbage", "content_type": "application/json"}, "The request body is not valid JSON."),
])
def test_wrong_types_in_a_json_body(client, db, players, organizer, login, kwargs, message):
    event, regs = players
    login(organizer)
    before = counts(db)
    for action in ("notes", "checkin"):
        response = client.post(url(event, regs["yamada"], action), **kwargs)
        assert response.status_code == 400
        assert message in response.json["error"]["message"]
    response = client.post(url(event, regs["yamada"], "notes"), headers={"Accept": "text/html"}, **kwargs)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    assert counts(db) == before
    reg = fresh(db, regs["yamada"].id)
    assert reg.notes == "" and reg.checked_in_at is None


def test_csrf_on_the_desk(app, client, db, players, organizer, login):
    event, regs = players
    reg = regs["yamada"]
    login(organizer)
    app.config["WTF_CSRF_ENABLED"] = True
    before = counts(db)
    for headers in ({}, {"X-CSRFToken": "stale-token"}):
        response = client.post(url(event, reg, "checkin"), headers=headers)
        assert response.status_code == 400 and EXPIRED in response.get_data(as_text=True)
        response = client.post(url(event, reg, "checkin"), headers={**headers, **JSON})
        assert response.status_code == 400 and EXPIRED in response.json["error"]["message"]
    assert counts(db) == before and fresh(db, reg.id).checked_in_at is None
    # what desk.js does: the token from the page's meta tag in the X-CSRFToken header
    page = client.get(f"/events/{event.id}/desk").get_data(as_text=True)
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page).group(1)
    response = client.post(url(event, reg, "checkin"), headers={"X-CSRFToken": token, **JSON})
    assert response.status_code == 200 and response.json["message"] == "Checked in: 山田太郎"
    # and the no-JS form carries the token as a field
    form_token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    response = client.post(url(event, reg, "drop"), data={"csrf_token": form_token})
    assert response.status_code == 302 and fresh(db, reg.id).dropped_at is not None


def test_late_registration_at_the_desk(client, db, players, organizer, login):
    event, regs = players
    event.status = "running"
    db.session.commit()
    login(organizer)
    response = client.post(f"/events/{event.id}/registrations", data={"name": "Latecomer", "back": "desk"})
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/events/{event.id}/desk?q=Latecomer")
    reg = db.session.execute(sa.select(Registration).where(Registration.name == "Latecomer")).scalar_one()
    assert reg.late
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Registered Latecomer (late). Their access code is on their row" in page
    assert reg.access_code in page and 'data-counter="registered">4<' in page
    before = counts(db)
    response = client.post(f"/events/{event.id}/registrations", data={"name": "", "back": "desk"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Your name is required." in page and 'id="desk-q"' in page
    assert counts(db) == before
