"""The desk corrects a registration: a misspelled name, a new access code (the old one refused at once); on the
desk page, the dashboard and the API, each logged with who and when."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa
from markupsafe import escape

from tournament.auth.operations import issue_token
from tournament.events import operations as ops
from tournament.events.models import AuditEntry, Registration
from tournament.errors import Refused
from tests.api.apidoc import Checked, refused

HOSTILE = "<script>alert('x')</script> Šárka"


def _entries(db, event, action):
    return list(db.session.execute(sa.select(AuditEntry).where(AuditEntry.event_id == event.id,
                                                                AuditEntry.action == action)).scalars())


def fresh(db, reg):
    db.session.expire_all()
    return db.session.get(Registration, reg.id)


# ----------------------------------------------------------------- rename

def test_rename_from_the_desk_page_is_logged_with_the_old_and_new_name(client, db, login, make_event, make_player,
                                                                       judge):
    event = make_event(name="Cup")
    reg = make_player(event, "Sarka Dvorakova")
    login(judge)
    page = client.get(f"/events/{event.id}/desk").get_data(as_text=True)
    assert f'href="/events/{event.id}/registrations/{reg.id}"' in page          # "Rename or new code" on the row
    response = client.post(f"/events/{event.id}/registrations/{reg.id}/rename", data={"name": "  Šárka Dvořáková "})
    assert response.status_code == 302
    assert fresh(db, reg).name == "Šárka Dvořáková"
    entry, = _entries(db, event, "registration.rename")
    assert entry.actor == "judge:Jan Judge"
    assert entry.details == {"registration": reg.id, "old_name": "Sarka Dvorakova", "new_name": "Šárka Dvořáková"}
    log = client.get(f"/events/{event.id}/log").get_data(as_text=True)
    assert "renamed Sarka Dvorakova to Šárka Dvořáková" in log
    # the desk finds the player by the new name, and every page shows it
    assert [r.id for r in ops.search_registrations(event, "dvořák")] == [reg.id]
    assert "Šárka Dvořáková" in client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    assert "Šárka Dvořáková" in client.get(f"/events/{event.id}").get_data(as_text=True)
    # the same name again changes and logs nothing
    client.post(f"/events/{event.id}/registrations/{reg.id}/rename", data={"name": "Šárka Dvořáková"})
    assert len(_entries(db, event, "registration.rename")) == 1


def test_a_renamed_player_shows_on_the_round_page_and_standings(client, db, login, make_round, judge):
    event, rnd, regs = make_round(players=8)
    login(judge)
    client.post(f"/events/{event.id}/registrations/{regs[0].id}/rename", data={"name": "Renamed Rita"},
                follow_redirects=True)                 # the message naming the old name is shown once
    for path in (f"/events/{event.id}/rounds/1", f"/events/{event.id}/standings", f"/events/{event.id}/projector"):
        page = client.get(path, follow_redirects=True).get_data(as_text=True)
        assert "Renamed Rita" in page and "Player 01" not in page, path


def test_rename_refuses_bad_names_in_words_and_keeps_html_as_text(client, db, login, make_event, make_player,
                                                                  judge):
    event = make_event()
    reg = make_player(event, "Ada")
    other = make_player(event, "Bob Brown")
    login(judge)
    url = f"/events/{event.id}/registrations/{reg.id}/rename"
    for name, status, words in (("", 400, "Type the player&#39;s name."), ("\u200b\u200b", 400, "is required"),
                                ("x" * 101, 400, "at most 100 characters"),
                                ("Bad\x07name", 400, "control characters"),
                                ("bob  BROWN", 409, "Another player of this event is called")):
        response = client.post(url, data={"name": name})
        page = response.get_data(as_text=True)
        assert response.status_code == status and words in page, (name, page[-2000:])
        assert fresh(db, reg).name == "Ada"
    # a different person with the same name: ticked, saved
    assert client.post(url, data={"name": "Bob Brown", "same_name_ok": "y"}).status_code == 302
    assert fresh(db, reg).name == "Bob Brown" and fresh(db, other).name == "Bob Brown"
    assert client.post(url, data={"name": HOSTILE}).status_code == 302
    page = client.get(f"/events/{event.id}/registrations/{reg.id}").get_data(as_text=True)
    assert str(escape(HOSTILE)) in page and "<script>alert" not in page


def test_only_this_events_staff_rename_or_replace_a_code(client, db, login, make_event, make_player, make_user):
    event = make_event()
    reg = make_player(event, "Ada")
    stranger = make_user("Otto Other", "organizer")
    login(stranger)
    assert client.post(f"/events/{event.id}/registrations/{reg.id}/rename", data={"name": "Hacked"}).status_code == 403
    assert client.post(f"/events/{event.id}/registrations/{reg.id}/access-code").status_code == 403
    assert client.get(f"/events/{event.id}/registrations/{reg.id}").status_code == 403
    after = fresh(db, reg)
    assert after.name == "Ada" and after.access_code == reg.access_code
    with pytest.raises(Refused):
        ops.rename(after, None, "Hacked")
    # a player's own code opens no staff page
    client.post("/auth/logout")
    assert client.post(f"/events/{event.id}/registrations/{reg.id}/rename", data={"name": "x"}).status_code in (302,
                                                                                                              401)


# ----------------------------------------------------------------- new access code

def test_a_new_code_refuses_the_old_one_at_once_and_offers_the_new_receipt(app, client, db, login, make_event,
                                                                         make_player, judge):
    app.config["DETECTED_URL"] = "http://192.168.1.20:5000"
    event = make_event()
    reg = make_player(event, "Ada")
    old = reg.access_code
    assert client.get(f"/p/{old}").status_code == 200
    login(judge)
    response = client.post(f"/events/{event.id}/registrations/{reg.id}/access-code")
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    new = fresh(db, reg).access_code
    assert new != old and len(new) == 8
    assert "has a new access code" in page and f'href="/p/{new}/receipt"' in page
    entry, = _entries(db, event, "registration.new_code")
    assert entry.actor == "judge:Jan Judge" and old not in str(entry.details) and new not in str(entry.details)
    assert "gave Ada a new access code" in client.get(f"/events/{event.id}/log").get_data(as_text=True)
    client.post("/auth/logout")
    for path in (f"/p/{old}", f"/p/{old}/receipt", f"/p/{old}/round"):
        assert client.get(path).status_code == 404, path
    assert client.post(f"/p/{old}/deck", data={"decklist": "1 Sol Ring"}).status_code == 404
    assert client.post(f"/p/{old}/drop", data={"confirm": "yes"}).status_code == 404
    assert client.get(f"/api/v1/players/{old}").status_code == 404
    assert client.get(f"/p/{new}").status_code == 200
    receipt = client.get(f"/p/{new}/receipt").get_data(as_text=True)
    assert f"http://192.168.1.20:5000/p/{new}" in receipt and old not in receipt
    assert fresh(db, reg).dropped_at is None


# ----------------------------------------------------------------- the API

def test_api_renames_and_replaces_the_code(client, db, make_event, make_player, organizer, make_user):
    api = Checked(client)
    token = issue_token(organizer)
    db.session.commit()
    event = make_event()
    reg = make_player(event, "Ada")
    make_player(event, "Bob")
    base = f"/events/{event.id}/registrations/{reg.id}"
    body = api.put(f"{base}/name", token=token, json={"name": "Ada Lovelace"}).get_json()
    assert body["name"] == "Ada Lovelace"
    refused(api.put(f"{base}/name", token=token, json={"name": "BOB"}), 409, "same_name_ok", "same_name_ok")
    assert api.put(f"{base}/name", token=token, json={"name": "BOB", "same_name_ok": True}).status_code == 200
    refused(api.put(f"{base}/name", token=token, json={"name": ""}), 400, field="name")
    refused(api.put(f"{base}/name", token=token, json={"name": 5}), 400, field="name")
    refused(api.put(f"{base}/name", token=token, json={}), 400, field="name")
    refused(api.put(f"{base}/name", token=token, json={"name": "x", "code": "y"}), 400)
    refused(api.put(f"{base}/name", json={"name": "x"}), 401)
    old = reg.access_code
    body = api.post(f"{base}/access-code", token=token).get_json()
    assert body["access_code"] != old and body["links"]["page"].endswith(f"/p/{body['access_code']}")
    refused(api.get(f"/players/{old}"), 404)
    assert api.get(f"/players/{body['access_code']}").status_code == 200
    other = issue_token(make_user("Otto Other", "organizer"))
    db.session.commit()
    refused(api.post(f"{base}/access-code", token=other), 403)
    refused(api.put(f"{base}/name", token=other, json={"name": "Hacked"}), 403)
    assert fresh(db, reg).name == "BOB"


# ----------------------------------------------------------------- at once

def test_two_desks_correcting_the_same_player_at_once(app, db, make_event, make_player, organizer, judge):
    """Eight renames and eight new codes of one player from two desks at once: no 500, each stored once and
    logged once, the last code stands and every other is refused."""
    token = issue_token(organizer)
    event = make_event()
    reg = make_player(event, "Ada")
    db.session.commit()
    event_id, reg_id, first = event.id, reg.id, reg.access_code
    db.session.remove()
    base = f"/api/v1/events/{event_id}/registrations/{reg_id}"
    headers = {"Authorization": f"Bearer {token}"}

    def run(job):
        client = app.test_client()
        kind, value = job
        if kind == "name":
            response = client.put(f"{base}/name", json={"name": value}, headers=headers)
        else:
            response = client.post(f"{base}/access-code", headers=headers)
        return kind, value, response.status_code, response.get_json()

    jobs = [("name", f"Ada {i}") for i in range(8)] + [("code", None)] * 8
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(run, jobs))
    assert not [r for r in results if r[2] >= 500], results
    ok_names = [value for kind, value, status, _b in results if kind == "name" and status == 200]
    ok_codes = [body["access_code"] for kind, _v, status, body in results if kind == "code" and status == 200]
    assert all(status in (200, 409) for _k, _v, status, _b in results)
    stored = db.session.get(Registration, reg_id)
    assert stored.name in ok_names
    assert stored.access_code in ok_codes and len(set(ok_codes)) == len(ok_codes)
    renames = db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "registration.rename")).scalars()
    assert sorted(e.details["new_name"] for e in renames) == sorted(ok_names)
    codes = db.session.execute(sa.select(sa.func.count()).select_from(AuditEntry).where(
        AuditEntry.action == "registration.new_code")).scalar()
    assert codes == len(ok_codes)
    client = app.test_client()
    for code in [first, *ok_codes]:
        assert client.get(f"/p/{code}").status_code == (200 if code == stored.access_code else 404)
