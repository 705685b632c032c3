"""A round start is one change for the phones: "Publish and start" publishes the tables and starts the clock in one
commit, so the event's state version moves once and every phone fetches its round box once (publishing and
starting with two buttons moves it twice)."""
from __future__ import annotations

import sqlalchemy as sa

from tournament.events import operations as events
from tournament.events.models import Event
from tournament.rounds import operations as rounds
from tournament.rounds.models import Round


def _draft(db, make_event, make_player, judge):
    event = make_event(name="One change")
    regs = [make_player(event, f"Player {i:02d}") for i in range(8)]
    for reg in regs:
        events.check_in(reg, judge)
    rounds.pair_next_round(event, judge, seed=5, override_decks=True)
    db.session.commit()
    return event.id, regs[0].access_code


def _version(db, event_id):
    db.session.expire_all()
    return db.session.execute(sa.select(Event.state_version).where(Event.id == event_id)).scalar()


def test_publish_and_start_is_one_change_the_phones_fetch_once(app, db, client, login, make_event, make_player,
                                                              judge):
    event_id, code = _draft(db, make_event, make_player, judge)
    login(judge)
    page = client.get(f"/events/{event_id}/rounds/1")
    assert b'id="publish-and-start"' in page.data
    phone = app.test_client()
    tag = phone.get(f"/p/{code}/round").headers.get("ETag")
    before = _version(db, event_id)
    r = client.post(f"/events/{event_id}/rounds/1/publish", data={"and_start": "1"})
    assert r.status_code == 302
    assert _version(db, event_id) == before + 1
    rnd = db.session.execute(sa.select(Round).where(Round.event_id == event_id)).scalar_one()
    assert rnd.status == "published" and rnd.started_at is not None and rnd.ends_at is not None
    assert all(t.started_at is not None for t in rnd.tables if t.kind != "bye")
    box = phone.get(f"/p/{code}/round", headers={"If-None-Match": tag} if tag else {})
    assert box.status_code == 200                         # the one fetch: tables and clock together
    again = phone.get(f"/p/{code}/round", headers={"If-None-Match": box.headers["ETag"]})
    assert again.status_code == 304


def test_publish_alone_then_start_are_two_changes(app, db, client, login, make_event, make_player, judge):
    event_id, _code = _draft(db, make_event, make_player, judge)
    login(judge)
    before = _version(db, event_id)
    assert client.post(f"/events/{event_id}/rounds/1/publish").status_code == 302
    rnd = db.session.execute(sa.select(Round).where(Round.event_id == event_id)).scalar_one()
    assert rnd.started_at is None
    assert client.post(f"/events/{event_id}/rounds/1/start").status_code == 302
    assert _version(db, event_id) == before + 2


def test_publish_and_start_of_a_published_round_is_refused_and_changes_nothing(app, db, client, login, make_event,
                                                                             make_player, judge):
    event_id, _code = _draft(db, make_event, make_player, judge)
    login(judge)
    assert client.post(f"/events/{event_id}/rounds/1/publish").status_code == 302
    before = _version(db, event_id)
    r = client.post(f"/events/{event_id}/rounds/1/publish", data={"and_start": "1"})
    assert r.status_code == 409 and "already published" in r.get_data(as_text=True)
    assert _version(db, event_id) == before
    rnd = db.session.execute(sa.select(Round).where(Round.event_id == event_id)).scalar_one()
    assert rnd.started_at is None
