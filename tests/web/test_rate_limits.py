"""Rate limits: guessing codes and passwords, spam registrations and resubmissions are slowed with a 429 that
says how long to wait, per client address, without locking out everyone else on the venue's network."""
from __future__ import annotations

import json
import os
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from tournament import create_app
from tournament.web import throttle
from tournament.events.models import AuditEntry, Decklist, Registration

PASSWORD = "correct horse battery"    # conftest.PASSWORD
ATTACKER = {"REMOTE_ADDR": "10.9.9.9"}
NEIGHBOUR = {"REMOTE_ADDR": "10.1.1.1"}


def client_at(app, environ):
    client = app.test_client()
    client.environ_base.update(environ)
    return client


def count(db, model, *where) -> int:
    return db.session.execute(sa.select(sa.func.count()).select_from(model).where(*where)).scalar()


def assert_slowed(response, words):
    assert response.status_code == 429, response.get_data(as_text=True)[:300]
    assert 1 <= int(response.headers["Retry-After"]) <= 3600
    body = response.get_json()["error"]["message"] if response.is_json else response.get_data(as_text=True)
    assert words in body and "try again" in body


def test_the_21st_wrong_code_in_a_minute_gets_429_and_other_addresses_still_work(app, db, make_event,
                                                                                 make_player):
    event = make_event()
    reg = make_player(event, "Anna")
    code = reg.access_code
    attacker, neighbour = client_at(app, ATTACKER), client_at(app, NEIGHBOUR)
    wrong = [f"WRONG{i:03d}" for i in range(20)]
    assert [attacker.get(f"/p/{w}").status_code for w in wrong] == [404] * 20
    assert_slowed(attacker.get("/p/WRONG999"), "Too many wrong access codes")
    assert_slowed(attacker.get(f"/p/{code}"), "Too many wrong access codes")      # no oracle once slowed
    assert_slowed(attacker.get(f"/api/v1/players/{code}"), "Too many wrong access codes")
    assert neighbour.get(f"/p/{code}").status_code == 200
    assert neighbour.get("/p/NOTACODE").status_code == 404


def test_a_phone_that_opened_its_page_is_not_slowed_by_a_guesser_on_the_same_wifi(app, db, make_event,
                                                                                 make_player):
    event = make_event()
    code = make_player(event, "Anna").access_code
    venue = {"REMOTE_ADDR": "192.168.1.1"}          # every phone behind the venue's NAT
    phone, guesser = client_at(app, venue), client_at(app, venue)
    assert phone.get(f"/p/{code}").status_code == 200
    for i in range(25):
        guesser.get(f"/p/GUESS{i:03d}")
    assert_slowed(guesser.get("/p/GUESS999"), "Too many wrong access codes")
    assert phone.get(f"/p/{code}").status_code == 200
    assert phone.get(f"/p/{code}/round").status_code == 200
    cookie = phone.get_cookie("session").value
    assert code not in cookie                        # the session keeps a keyed hash, never the code


def test_login_tries_are_limited_per_name_and_address_not_per_name(app, db, organizer):
    attacker, owner = client_at(app, ATTACKER), client_at(app, NEIGHBOUR)
    statuses = [attacker.post("/auth/login", data={"name": organizer.name, "password": f"guess {i}"}).status_code
                for i in range(5)]
    assert statuses == [401] * 5
    right = attacker.post("/auth/login", data={"name": organizer.name, "password": PASSWORD})
    assert_slowed(right, "Too many log-in tries")
    assert owner.post("/auth/login", data={"name": organizer.name, "password": PASSWORD}).status_code == 302
    other_name = attacker.post("/auth/login", data={"name": "Someone Else", "password": "whatever it is"})
    assert other_name.status_code == 401


def test_a_successful_login_clears_the_count(app, db, organizer):
    client = client_at(app, NEIGHBOUR)
    for i in range(4):
        client.post("/auth/login", data={"name": organizer.name, "password": f"typo {i}"})
    assert client.post("/auth/login", data={"name": organizer.name, "password": PASSWORD}).status_code == 302
    client.post("/auth/logout")
    for i in range(4):
        assert client.post("/auth/login", data={"name": organizer.name, "password": f"typo {i}"}).status_code == 401


def test_concurrent_wrong_logins_get_no_more_than_five_tries(app, db, organizer):
    """Each try is counted atomically before the password is checked, so 30 at once cannot get past the
    limit together (the old check-then-record let a sixth through). A refused try still counts towards the
    hour's limit, so under a burst even fewer than five may get through."""
    name = organizer.name
    db.session.remove()

    def attempt(i):
        return client_at(app, ATTACKER).post("/auth/login", data={"name": name, "password": f"guess {i}"}).status_code
    with ThreadPoolExecutor(16) as pool:
        statuses = list(pool.map(attempt, range(30)))
    assert 1 <= statuses.count(401) <= 5 and statuses.count(401) + statuses.count(429) == 30, statuses


def test_self_registration_is_limited_per_address_and_never_per_event(app, db, make_event):
    """No per-event limit a few addresses could fill: the spammer is slowed, everyone else registers."""
    app.config["RATE_LIMITS"] = {"registration_address": "5/minute"}
    event = make_event()
    spammer = client_at(app, ATTACKER)
    ok = [spammer.post(f"/events/{event.id}/register", data={"name": f"Spam {i}"}).status_code for i in range(5)]
    assert ok == [302] * 5
    assert_slowed(spammer.post(f"/events/{event.id}/register", data={"name": "Spam 5"}), "Too many registrations")
    others = [client_at(app, {"REMOTE_ADDR": f"10.2.0.{i}"}).post(f"/events/{event.id}/register",
                                                                  data={"name": f"Real {i}"}) for i in range(30)]
    assert [r.status_code for r in others] == [302] * 30
    assert count(db, Registration) == 35
    refused = spammer.post(f"/api/v1/events/{event.id}/registrations", json={"name": "Late"})
    assert refused.status_code == 429 and refused.headers["Retry-After"]


def test_a_flood_from_four_addresses_does_not_lock_out_walk_ins(app, db, make_event):
    """4 addresses flood as fast as their limit lets them (the audit's 16-second flood); honest walk-ins from
    other phones at the same moment all get a place, with the event's cap as the only bound."""
    app.config["RATE_LIMITS"] = {"registration_address": "15/minute"}
    event_id = make_event(player_cap=200).id
    db.session.remove()

    def flood(i):
        client = client_at(app, {"REMOTE_ADDR": f"10.66.0.{i % 4}"})
        return "flood", client.post(f"/api/v1/events/{event_id}/registrations",
                                    json={"name": f"Bot {i}"}).status_code

    def walk_in(i):
        client = client_at(app, {"REMOTE_ADDR": f"10.5.{i // 200}.{i % 200}"})
        return "walk-in", client.post(f"/api/v1/events/{event_id}/registrations",
                                      json={"name": f"Walk-in {i}"}).status_code
    jobs = [(flood, i) for i in range(120)] + [(walk_in, i) for i in range(30)]
    jobs.sort(key=lambda job: job[1] % 5)            # the walk-ins arrive during the flood
    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(lambda job: job[0](job[1]), jobs))
    floods = [status for kind, status in results if kind == "flood"]
    assert floods.count(201) == 60 and floods.count(429) == 60
    assert [status for kind, status in results if kind == "walk-in"] == [201] * 30
    assert count(db, Registration, Registration.event_id == event_id, Registration.waitlisted.is_(False)) == 90


def test_a_walk_in_rush_of_100_phones_registers_within_a_minute_with_the_default_limits(app, db, make_event):
    """100 phones register at once, from their own addresses or all behind the venue's one NAT address."""
    event_id = make_event().id
    db.session.remove()

    def register(i, nat):
        address = "192.168.1.1" if nat else f"10.7.{i // 200}.{i % 200}"
        return client_at(app, {"REMOTE_ADDR": address}).post(
            f"/api/v1/events/{event_id}/registrations", json={"name": f"{'NAT' if nat else 'Phone'} {i}"}).status_code
    for nat in (False, True):
        started = time.monotonic()
        with ThreadPoolExecutor(16) as pool:
            statuses = list(pool.map(lambda i: register(i, nat), range(100)))
        assert statuses == [201] * 100, (nat, statuses)
        assert time.monotonic() - started < 60
    assert count(db, Registration, Registration.event_id == event_id) == 200


def test_a_refused_form_does_not_use_up_the_limit(app, db, make_event):
    app.config["RATE_LIMITS"] = {"registration_address": "2/minute"}
    event = make_event()
    client = client_at(app, NEIGHBOUR)
    for _ in range(5):
        assert client.post(f"/events/{event.id}/register", data={"name": ""}).status_code == 400
    assert client.post(f"/events/{event.id}/register", data={"name": "Anna"}).status_code == 302


def test_decklist_resubmissions_are_limited_per_player_not_for_staff(app, db, make_event, make_player,
                                                                     starter_cards, judge, login):
    app.config["RATE_LIMITS"] = {"decklist": "3/10minutes"}
    event = make_event()
    reg = make_player(event, "Anna")
    phone = client_at(app, NEIGHBOUR)
    for i in range(3):
        assert phone.post(f"/p/{reg.access_code}/deck", data={"decklist": f"1 Sol Ring\n{i + 1} Forest"}
                          ).status_code in (200, 302)
    assert_slowed(phone.post(f"/p/{reg.access_code}/deck", data={"decklist": "1 Sol Ring"}), "many times")
    assert count(db, Decklist) == 3
    staff = app.test_client()
    staff.post("/auth/login", data={"name": judge.name, "password": PASSWORD})
    assert staff.post(f"/p/{reg.access_code}/deck", data={"decklist": "1 Sol Ring\n9 Forest"}).status_code in (200, 302)
    assert count(db, Decklist) == 4


def megabyte_list(seed: str) -> str:
    lines = [f"1 Card {seed} {i} " + "x" * 480 for i in range(1990)]
    return "\n".join(lines)[:1_000_000]


def stored_bytes(db) -> int:
    texts = db.session.execute(sa.select(Decklist.text, Decklist.result)).all()
    audit = db.session.execute(sa.select(AuditEntry.details)).scalars().all()
    return sum(len(t.encode()) + len(json.dumps(r)) for t, r in texts) + sum(len(json.dumps(d)) for d in audit)


def test_five_resubmissions_of_a_megabyte_list_store_it_once(app, db, make_event, make_player, starter_cards):
    app.config["RATE_LIMITS"] = {"decklist": "100/minute"}
    event = make_event()
    reg = make_player(event, "Anna")
    before = stored_bytes(db)
    text = megabyte_list("a")
    phone = client_at(app, NEIGHBOUR)
    for _ in range(5):
        response = phone.post(f"/p/{reg.access_code}/deck", data={"decklist": text})
        assert response.status_code in (200, 302, 400), response.status_code
    assert count(db, Decklist) == 1
    grown = stored_bytes(db) - before
    assert grown < 1_500_000, grown
    result = db.session.execute(sa.select(Decklist.result)).scalar()
    assert len(result["findings"]) <= 60 and "more" in result["findings"][-1]["message"]   # the rest counted


def test_an_event_stores_at_most_its_cap_of_player_submissions(app, db, make_event, make_player, starter_cards,
                                                               judge):
    app.config.update(DECKLIST_CAP_PER_EVENT=3, RATE_LIMITS={"decklist": "100/minute"})
    event = make_event()
    reg = make_player(event, "Anna")
    phone = client_at(app, NEIGHBOUR)
    for i in range(3):
        phone.post(f"/p/{reg.access_code}/deck", data={"decklist": f"{i + 1} Forest"})
    response = phone.post(f"/p/{reg.access_code}/deck", data={"decklist": "7 Forest"})
    assert response.status_code == 409 and "its limit" in response.get_data(as_text=True)
    assert count(db, Decklist) == 3


def test_two_workers_share_the_counters(app, db, make_event, make_player):
    """A second app on the same database and instance folder (another waitress worker) sees the same counts."""
    event = make_event()
    code = make_player(event, "Anna").access_code
    second = create_app({**{k: app.config[k] for k in ("SQLALCHEMY_DATABASE_URI", "SECRET_KEY", "TESTING")},
                         "INSTANCE_PATH": app.instance_path})
    assert second.config["RATELIMIT_STORAGE_URI"] == app.config["RATELIMIT_STORAGE_URI"]
    for i in range(10):
        client_at(app, ATTACKER).get(f"/p/WRONGA{i:02d}")
        client_at(second, ATTACKER).get(f"/p/WRONGB{i:02d}")
    assert_slowed(client_at(second, ATTACKER).get(f"/p/{code}"), "Too many wrong access codes")
    with second.app_context():
        from tournament.extensions import db as second_db
        second_db.engine.dispose()


def _redis_up() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
        return True
    except OSError:
        return False


@pytest.mark.skipif(not _redis_up(), reason="no Redis on 127.0.0.1:6379")
def test_with_redis_url_the_counters_live_in_redis(app, db, make_event, make_player):
    import redis
    event = make_event()
    code = make_player(event, "Anna").access_code
    url = "redis://127.0.0.1:6379/15"
    redis.Redis.from_url(url).flushdb()
    worker = create_app({**{k: app.config[k] for k in ("SQLALCHEMY_DATABASE_URI", "SECRET_KEY", "TESTING")},
                         "INSTANCE_PATH": app.instance_path, "REDIS_URL": url})
    assert worker.config["RATELIMIT_STORAGE_URI"] == url
    for i in range(20):
        assert client_at(worker, ATTACKER).get(f"/p/WRONG{i:03d}").status_code == 404
    assert_slowed(client_at(worker, ATTACKER).get(f"/p/{code}"), "Too many wrong access codes")
    assert any(b"wrong_code" in k for k in redis.Redis.from_url(url).keys())
    redis.Redis.from_url(url).flushdb()
    with worker.app_context():
        from tournament.extensions import db as worker_db
        worker_db.engine.dispose()


def test_storage_uri_choice():
    assert throttle.storage_uri({"REDIS_URL": "redis://h:6379/0"}, "/i") == "redis://h:6379/0"
    assert throttle.storage_uri({"SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://h/db"}, "/i") == "sqldb://"
    assert throttle.storage_uri({"SQLALCHEMY_DATABASE_URI": "sqlite:////i/t.sqlite"}, "/i") == \
        "sqldb+sqlite:///" + os.path.join("/i", "ratelimits.sqlite")
