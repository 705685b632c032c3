"""The player cap on the pages and the API: joining confirmed with the place, a promotion reaching the open
phone, the desk's paid mark and fee note, the settings page's suggested rounds and cut, and many registrations
at once against a cap (SQLite and PostgreSQL)."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from tests.api.apidoc import Checked, refused
from tournament.auth.operations import issue_token
from tournament.events import operations as ops
from tournament.events.models import AuditEntry, Registration

JSON = {"Accept": "application/json"}


def client_at(app, address):
    client = app.test_client()
    client.environ_base.update({"REMOTE_ADDR": address})
    return client


def regs_of(db, event):
    db.session.expire_all()
    event_id = event if isinstance(event, int) else event.id
    return list(db.session.execute(sa.select(Registration).where(Registration.event_id == event_id)
                                   .order_by(Registration.id)).scalars())


@pytest.fixture
def full(make_event, make_player):
    """Cap 2, both places taken."""
    event = make_event(name="Full house", player_cap=2, entry_fee="<b>€10</b> at the door")
    return event, [make_player(event, "Anna"), make_player(event, "Ben")]


# ----------------------------------------------------------------- players

def test_joining_a_full_event_says_the_place_and_the_promotion_reaches_the_open_phone(app, client, db, full,
                                                                                     judge, login):
    event, (anna, ben) = full
    page = client.get(f"/events/{event.id}/register").get_data(as_text=True)
    assert 'id="places"' in page and "The event is full (2 players)" in page
    assert "&lt;b&gt;€10&lt;/b&gt; at the door" in page and "<b>€10</b>" not in page
    phone = client_at(app, "10.0.0.7")
    response = phone.post(f"/events/{event.id}/register", data={"name": "Cecilie"}, follow_redirects=True)
    text = response.get_data(as_text=True)
    assert response.status_code == 200 and "you are number 1 on the waitlist" in text
    assert 'id="waitlist-place"' in text and "number 1 on the waitlist" in text
    cecilie = regs_of(db, event)[-1]
    part = f"/p/{cecilie.access_code}/round"
    first = phone.get(part)
    assert 'id="waitlist-place"' in first.get_data(as_text=True) and "hidden" not in first.get_data(as_text=True)
    assert phone.get(part, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    login(judge)
    assert client.post(f"/events/{event.id}/registrations/{ben.id}/drop").status_code == 302
    after = phone.get(part, headers={"If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200
    body = after.get_data(as_text=True)
    assert 'id="waitlist-promoted"' in body and "A place freed up" in body and 'id="waitlist-place"' not in body
    assert client.post(f"/events/{event.id}/registrations/{cecilie.id}/checkin").status_code == 302
    assert 'id="waitlist-promoted"' not in phone.get(part).get_data(as_text=True)


def test_api_self_registration_answers_the_place(app, db, full):
    event, _regs = full
    api = Checked(client_at(app, "10.0.0.8"))
    body = api.post(f"/events/{event.id}/registrations", json={"name": "Dora"}).get_json()
    assert body["waitlisted"] is True and body["waitlist_place"] == 1 and body["promoted_at"] is None
    body = api.post(f"/events/{event.id}/registrations", json={"name": "Erik"}).get_json()
    assert body["waitlist_place"] == 2
    refused(api.post(f"/events/{event.id}/registrations", json={"name": "Fero"}), 409,
            "already on its waitlist")
    own = api.get(f"/players/{body['access_code']}").get_json()
    assert own["waitlisted"] is True and own["waitlist_place"] == 2


# ----------------------------------------------------------------- the desk

def test_desk_shows_waitlist_and_fee_and_toggles_paid(client, db, full, make_player, judge, login):
    event, (anna, _ben) = full
    dora = make_player(event, "Dora")
    login(judge)
    page = client.get(f"/events/{event.id}/desk").get_data(as_text=True)
    assert 'id="desk-fee"' in page and "&lt;b&gt;€10&lt;/b&gt;" in page and "Player cap: 2" in page
    assert "waitlist · number 1" in page and 'data-counter="waitlisted">1<' in page
    rows = client.get(f"/events/{event.id}/desk/search?q=", headers=JSON).get_json()["results"]
    row = {r["name"]: r for r in rows}
    assert row["Dora"]["waitlisted"] and row["Dora"]["waitlist_place"] == 1 and not row["Anna"]["waitlisted"]
    assert row["Anna"]["paid"] is False and row["Anna"]["paid_button"] == "Mark paid"
    answer = client.post(f"/events/{event.id}/registrations/{anna.id}/paid", headers=JSON).get_json()
    assert answer["registration"]["paid"] is True and answer["counters"]["paid"] == 1
    assert answer["message"] == "Paid: Anna"
    answer = client.post(f"/events/{event.id}/registrations/{anna.id}/paid/undo", headers=JSON).get_json()
    assert answer["registration"]["paid"] is False
    checkin = client.post(f"/events/{event.id}/registrations/{dora.id}/checkin", headers=JSON)
    assert checkin.status_code == 409 and "number 1 on the waitlist" in checkin.get_json()["error"]["message"]
    late = client.post(f"/events/{event.id}/registrations", data={"name": "Emil", "back": "desk"},
                       follow_redirects=True)
    assert "Emil is number 2 on the waitlist" in late.get_data(as_text=True)
    log = [e.action for e in db.session.execute(sa.select(AuditEntry).order_by(AuditEntry.id)).scalars()]
    assert log.count("paid") == 1 and log.count("paid.undo") == 1 and log.count("waitlist.join") == 2


def test_paid_mark_needs_the_events_staff(app, client, db, full, make_user, login):
    event, (anna, _ben) = full
    assert client.post(f"/events/{event.id}/registrations/{anna.id}/paid", headers=JSON).status_code == 401
    login(make_user("Otto Other", "organizer"))
    assert client.post(f"/events/{event.id}/registrations/{anna.id}/paid", headers=JSON).status_code == 403
    assert regs_of(db, event)[0].paid_at is None


# ----------------------------------------------------------------- settings

def test_settings_page_shows_the_suggestion_and_refuses_bad_caps(client, db, make_event, make_player, organizer,
                                                                 judge, login):
    event = make_event(name="Big Saturday")
    regs = [make_player(event, f"P{i:02d}") for i in range(36)]
    login(organizer)
    page = client.get(f"/events/{event.id}/edit").get_data(as_text=True)
    assert 'id="structure-suggestion"' in page
    assert "Suggested for 36 registered players (nobody is checked in yet): 4 Swiss rounds, top cut 10." in page
    for reg in regs[:20]:
        ops.check_in(reg, judge)
    db.session.commit()
    page = client.get(f"/events/{event.id}/edit").get_data(as_text=True)
    assert "Suggested for 20 checked-in players: 3 Swiss rounds, top cut 4." in page
    assert 'name="planned_rounds" type="number" value="">' in page and '<option value="4">Top 4' in page
    filled = client.get(f"/events/{event.id}/edit?suggested=1").get_data(as_text=True)
    assert 'name="planned_rounds" type="number" value="3">' in filled and '<option selected value="4">Top 4' in filled
    db.session.expire_all()
    assert event.planned_rounds is None and event.top_cut == 0          # filled in, not saved
    form = {"name": "Big Saturday", "ruleset": "edh-2010", "mode": "pods", "pod_size": 4, "swap_seconds": 180,
            "scoring_profile": "democratic", "round_minutes": 90, "timezone": "UTC", "paper_size": "A4",
            "status": "registration", "variant": "none", "archenemy_win_points": 3, "team_win_points": 1,
            "leftover_policy": "threes", "top_cut": 0, "cut_seating": "seed", "end_of_round": "finish_turn"}
    for bad in ("0", "-3", "99999999999999999999", "ten"):
        response = client.post(f"/events/{event.id}/edit", data={**form, "player_cap": bad})
        assert response.status_code == 400, bad
        assert "The player cap must be a whole number from 1 to 50000, or empty for no cap." in \
            response.get_data(as_text=True)
    response = client.post(f"/events/{event.id}/edit", data={**form, "player_cap": "30"})
    assert response.status_code == 409
    assert "36 players hold a place already, so the player cap cannot be 30" in response.get_data(as_text=True)
    response = client.post(f"/events/{event.id}/edit", data={**form, "player_cap": "40", "entry_fee": "€5",
                                                             "planned_rounds": "3", "top_cut": "4"})
    assert response.status_code == 302
    db.session.expire_all()
    assert (event.player_cap, event.entry_fee, event.planned_rounds, event.top_cut) == (40, "€5", 3, 4)
    page = client.get(f"/events/{event.id}/edit").get_data(as_text=True)
    assert "36 of 40 places taken, 0 waiting." in page


def test_api_event_carries_cap_fee_and_suggestion_and_refuses_bad_caps(api, db, make_event, make_player, token):
    event = make_event()
    assert api.get(f"/events/{event.id}").get_json()["suggested_structure"] is None
    for i in range(70):
        make_player(event, f"P{i:02d}")
    body = api.get(f"/events/{event.id}").get_json()
    assert body["suggested_structure"]["rounds"] == 5 and body["suggested_structure"]["top_cut"] == 16
    assert body["suggested_structure"]["basis"] == "registered" and body["suggested_structure"]["players"] == 70
    assert body["player_cap"] is None and body["entry_fee"] is None
    for bad in (0, -1, 10**40, 1.5, "64", True):
        refused(api.patch(f"/events/{event.id}", json={"player_cap": bad}, token=token), 400,
                "The player cap must be a whole number from 1 to 50000", field="player_cap")
    refused(api.patch(f"/events/{event.id}", json={"player_cap": 64}, token=token), 409,
            "70 players hold a place already", field="player_cap")
    body = api.patch(f"/events/{event.id}", json={"player_cap": 80, "entry_fee": "¥3000"}, token=token).get_json()
    assert body["player_cap"] == 80 and body["entry_fee"] == "¥3000"
    assert body["counters"]["waitlisted"] == 0


def test_api_paid_and_export(api, db, full, make_player, token):
    event, (anna, _ben) = full
    make_player(event, "Dora")
    url = f"/events/{event.id}/registrations/{anna.id}/paid"
    assert api.post(url, token=token).get_json()["paid"] is True
    export = api.get(f"/events/{event.id}/export", token=token).get_json()
    players = {p["name"]: p for p in export["players"]}
    assert players["Anna"]["paid"] is True and players["Ben"]["paid"] is False and players["Dora"]["waitlisted"]
    assert export["event"]["player_cap"] == 2 and export["event"]["entry_fee"] == "<b>€10</b> at the door"
    assert api.delete(url, token=token).get_json()["paid"] is False
    refused(api.post(url), 401)


# ----------------------------------------------------------------- at once

def test_many_registrations_at_once_fill_the_cap_exactly_and_wait_in_order(app, db, make_event):
    """25 phones register at once for 10 places: 10 places, 10 on the waitlist numbered 1-10 (the bound of
    self-registrations on it), 5 told the waitlist is full; every acknowledged registration stored once."""
    event = make_event(name="Rush", player_cap=10).id
    db.session.remove()

    def register(i):
        client = client_at(app, f"10.3.{i // 250}.{i % 250}")
        response = client.post(f"/api/v1/events/{event}/registrations", json={"name": f"Walk-in {i:02d}"})
        return i, response.status_code, response.get_json()
    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(register, range(25)))
    assert {status for _i, status, _b in results} <= {201, 409}, results
    created = [body for _i, status, body in results if status == 201]
    assert len(created) == 20
    assert all("already on its waitlist" in body["error"]["message"] for _i, status, body in results
               if status == 409)
    regs = regs_of(db, event)
    assert len(regs) == 20 and len({r.name for r in regs}) == 20
    assert sum(not r.waitlisted for r in regs) == 10
    waiting = [r for r in regs if r.waitlisted]
    assert [ops.waitlist_place(r) for r in waiting] == list(range(1, 11))
    answered = {b["name"]: b["waitlist_place"] for b in created if b["waitlisted"]}
    assert sorted(answered.values()) == list(range(1, 11))          # each told a different place
    assert {r.name: ops.waitlist_place(r) for r in waiting} == answered


def test_drops_at_once_promote_each_waiting_player_once(app, db, make_event, make_player, judge):
    event = make_event(name="Drops", player_cap=6)
    regs = [make_player(event, f"P{i}") for i in range(12)]
    token = issue_token(judge)
    db.session.commit()
    names = [r.name for r in regs]
    ids = [r.id for r in regs]
    event = event.id
    db.session.remove()

    def drop(reg_id):
        client = app.test_client()
        return client.post(f"/api/v1/events/{event}/registrations/{reg_id}/drop",
                           headers={"Authorization": f"Bearer {token}"}).status_code
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(drop, ids[:4])) == [200] * 4
    now = regs_of(db, event)
    holding = [r for r in now if not r.waitlisted and r.dropped_at is None]
    assert len(holding) == 6
    assert [r.name for r in now if r.waitlisted] == names[10:]
    promotions = db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "waitlist.promote")).scalars()
    assert sorted(e.details["registration"] for e in promotions) == ids[6:10]
