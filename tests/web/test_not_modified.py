"""A phone's repeated poll that finds nothing changed is answered before Flask (tournament.web.not_modified),
and never once anything it depends on has changed."""
from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import request, request_started



@pytest.fixture
def live_round(make_round):
    return make_round(players=8, seed=5, name="Quick polls")


@pytest.fixture
def flask_requests(app):
    """How many requests reached Flask (a request answered before it starts no request context)."""
    seen = []
    listener = lambda sender, **extra: seen.append(1)     # noqa: E731
    request_started.connect(listener, app)
    yield seen
    request_started.disconnect(listener, app)


@pytest.fixture
def clock(app, monkeypatch):
    app.config["STATE_VERSION_TTL"] = 1.0           # a version cache as the server has (tests use 0)
    now = [1000.0]
    monkeypatch.setattr("tournament.web.lifecycle.time.monotonic", lambda: now[0])
    return now


def _seated(rnd, regs):
    by_id = {r.id: r for r in regs}
    table = rnd.tables[0]
    return table, [by_id[s.registration_id] for s in table.seats]


def _polled_once(app, player):
    """A phone that opened its box and polled once (Flask's 304, now remembered): (phone, code, ETag)."""
    phone, code = app.test_client(), player.access_code
    tag = phone.get(f"/p/{code}/round").headers["ETag"]
    assert _poll(phone, code, tag).status_code == 304
    return phone, code, tag


def _poll(phone, code, tag, **headers):
    return phone.get(f"/p/{code}/round", headers={"If-None-Match": tag, **headers})


def test_the_second_identical_poll_never_reaches_flask(app, live_round, flask_requests, clock):
    event, rnd, regs = live_round
    _table, players = _seated(rnd, regs)
    phone, code = app.test_client(), players[0].access_code
    box = phone.get(f"/p/{code}/round")
    tag = box.headers["ETag"]
    first = _poll(phone, code, tag)
    assert first.status_code == 304
    reached = len(flask_requests)
    again = _poll(phone, code, tag)
    assert again.status_code == 304 and again.get_data() == b""
    assert len(flask_requests) == reached            # answered before Flask
    assert again.headers["ETag"] == tag
    for name in ("Content-Security-Policy", "Cache-Control", "X-Frame-Options"):
        assert again.headers[name] == first.headers[name]


def test_a_change_is_seen_by_the_next_poll_after_the_version_cache(app, db, live_round, flask_requests, clock):
    event, rnd, regs = live_round
    table, players = _seated(rnd, regs)
    phone, code, tag = _polled_once(app, players[1])
    other = app.test_client()
    report = other.post(f"/p/{players[0].access_code}/result",
                        data={"r-round": 1, "r-table": table.number, "r-revision": 0, "r-survivors": [players[0].id]})
    assert report.status_code == 302
    changed = _poll(phone, code, tag)                # this worker made the change: it knows at once
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert "reported by" in changed.get_data(as_text=True)


def test_another_workers_change_is_seen_within_the_cache_second(app, db, live_round, clock):
    event, rnd, regs = live_round
    table, players = _seated(rnd, regs)
    phone, code, tag = _polled_once(app, players[1])
    from tournament.events.models import Event      # as another process would: this worker's cache is not told
    db.session.execute(sa.update(Event).where(Event.id == event.id).values(state_version=Event.state_version + 1))
    db.session.commit()
    app.extensions["state_versions"][event.id] = (app.extensions["state_versions"][event.id][0], clock[0])
    assert _poll(phone, code, tag).status_code == 304          # within the second: the cached version
    clock[0] += 1.5
    assert _poll(phone, code, tag).status_code == 200          # after it: read again, changed


@pytest.mark.parametrize("differs", ["cookie", "language", "tag", "code"])
def test_only_the_same_poll_is_answered_again(app, live_round, flask_requests, clock, differs):
    event, rnd, regs = live_round
    _table, players = _seated(rnd, regs)
    phone, code, tag = _polled_once(app, players[0])
    reached = len(flask_requests)
    if differs == "cookie":
        response = _poll(app.test_client(), code, tag)
    elif differs == "language":
        response = _poll(phone, code, tag, **{"Accept-Language": "ja"})
    elif differs == "tag":
        response = _poll(phone, code, 'W/"v1-u0-en-t1"')
    else:
        response = _poll(phone, players[1].access_code, tag)       # another player's code with this one's tag
    assert len(flask_requests) == reached + 1       # Flask decides
    assert response.status_code in (200, 304)
    if differs == "tag":
        assert response.status_code == 200


def test_a_revoked_code_stops_getting_304s(app, db, live_round, flask_requests, clock, organizer):
    event, rnd, regs = live_round
    _table, players = _seated(rnd, regs)
    phone, code, tag = _polled_once(app, players[2])
    from tournament.events import operations as event_ops
    event_ops.replace_access_code(players[2], organizer)
    db.session.commit()
    assert _poll(phone, code, tag).status_code == 404


def test_staff_polls_are_never_answered_before_flask(app, client, live_round, flask_requests, clock, login,
                                                     organizer):
    event, rnd, regs = live_round
    login(organizer)
    staff = client
    url = f"/events/{event.id}/rounds/1/projector"
    tag = staff.get(url).headers["ETag"]
    assert staff.get(url, headers={"If-None-Match": tag}).status_code == 304
    reached = len(flask_requests)
    assert staff.get(url, headers={"If-None-Match": tag}).status_code == 304
    assert len(flask_requests) == reached + 1       # a logged-in session is checked every time


def test_a_poll_that_waited_long_in_the_queue_still_gets_its_304_and_a_changed_one_is_told_to_ask_again(
        app, db, live_round, clock, judge):
    """Under load (tournament.web.lanes) a repeated poll costs as little as a "busy" answer and is worth more:
    it gets its 304; one that Flask would have to render is answered 503 with Retry-After instead."""
    from tests.web.test_lanes import waited
    from tournament.rounds import operations as rounds
    event, rnd, regs = live_round
    _table, players = _seated(rnd, regs)
    phone, code, tag = _polled_once(app, players[0])
    late = waited(app.config["POLL_SHED_SECONDS"] + 1)
    assert phone.get(f"/p/{code}/round", headers={"If-None-Match": tag, "X-Script": "poll"},
                     environ_base=late).status_code == 304
    rounds.start_round(rnd, judge)            # a change: the next poll needs the new box
    db.session.commit()
    clock[0] += 2
    busy = phone.get(f"/p/{code}/round", headers={"If-None-Match": tag, "X-Script": "poll"}, environ_base=late)
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "2"
    fresh = phone.get(f"/p/{code}/round", headers={"If-None-Match": tag, "X-Script": "poll"})
    assert fresh.status_code == 200


def test_the_first_poll_after_a_new_box_is_answered_before_flask_with_the_304_flask_gives(
        app, db, live_round, flask_requests, clock, judge):
    """At a round start every phone fetches its new box, then polls with the new ETag: that poll is answered
    from what the box's answer left, not by Flask (2,000 requests of a hall's burst), and says what Flask's
    304 says."""
    from tournament.rounds import operations as rounds
    event, rnd, regs = live_round
    _table, players = _seated(rnd, regs)
    phone, code, old = _polled_once(app, players[0])
    rounds.start_round(rnd, judge)                       # the round start: every box changes
    db.session.commit()
    box = _poll(phone, code, old)
    assert box.status_code == 200 and box.headers["ETag"] != old
    reached = len(flask_requests)
    quick = _poll(phone, code, box.headers["ETag"])
    assert quick.status_code == 304 and quick.get_data() == b""
    assert len(flask_requests) == reached                # answered before Flask
    slow = _poll(app.test_client(), code, box.headers["ETag"])      # another browser: Flask's own 304
    assert slow.status_code == 304 and len(flask_requests) == reached + 1
    for name in ("ETag", "Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"):
        assert quick.headers.get(name) == slow.headers.get(name), name
    assert not any(quick.headers.get(name) for name in ("Content-Type", "Content-Length", "Content-Encoding"))


def test_a_box_remembered_as_a_304_is_not_given_once_the_state_has_changed(app, db, live_round, clock):
    event, rnd, regs = live_round
    table, players = _seated(rnd, regs)
    phone, code = app.test_client(), players[1].access_code
    tag = phone.get(f"/p/{code}/round").headers["ETag"]
    other = app.test_client()
    assert other.post(f"/p/{players[0].access_code}/result", data={
        "r-round": 1, "r-table": table.number, "r-revision": 0, "r-survivors": [players[0].id]}).status_code == 302
    changed = _poll(phone, code, tag)
    assert changed.status_code == 200 and "reported by" in changed.get_data(as_text=True)


def test_a_staff_page_is_never_remembered_as_a_304(app, client, live_round, flask_requests, clock, login,
                                                     organizer):
    event, rnd, regs = live_round
    login(organizer)
    url = f"/events/{event.id}/rounds/1/projector"
    tag = client.get(url).headers["ETag"]
    reached = len(flask_requests)
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    assert len(flask_requests) == reached + 1           # staff: Flask checks the session every time


def test_a_page_that_sets_a_cookie_is_not_remembered_as_a_304(app, live_round, flask_requests, clock):
    """The page's answer set a cookie (the first visit with this code): the 304 it would earn is for a request
    without that cookie, which Flask must see again."""
    event, rnd, regs = live_round
    _table, players = _seated(rnd, regs)
    phone, code = app.test_client(use_cookies=False), players[2].access_code
    first = phone.get(f"/p/{code}/round")
    assert first.status_code == 200 and "Set-Cookie" in first.headers
    reached = len(flask_requests)
    assert _poll(phone, code, first.headers["ETag"]).status_code == 304
    assert len(flask_requests) == reached + 1


def _parsed(raw: str) -> dict:
    """A request as waitress has parsed it when it queues the connection (before any thread or Flask), as the
    lanes hand it to QuickNotModified.answers."""
    from waitress.adjustments import Adjustments
    from waitress.parser import HTTPRequestParser
    from tournament.web.lanes import environ_of
    parser = HTTPRequestParser(Adjustments())
    parser.received(raw.encode("latin-1"))
    assert parser.completed
    return environ_of(parser)


def test_the_queue_knows_a_poll_its_remembered_304_answers(app, live_round, clock):
    """tournament.web.lanes serves such a poll ahead of the renders: only while the 304 would be given."""
    event, rnd, regs = live_round
    _table, players = _seated(rnd, regs)
    sent = []
    listener = lambda sender, **extra: sent.append(request.environ.get("HTTP_COOKIE", ""))     # noqa: E731
    request_started.connect(listener, app)
    try:
        phone, code, tag = _polled_once(app, players[0])
    finally:
        request_started.disconnect(listener, app)
    quick = app.extensions["quick_not_modified"]
    assert sent[-1]                                         # the phone's session (its form token)
    cookie = f"Cookie: {sent[-1]}\r\n"
    poll = f"GET /p/{code}/round HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: {tag}\r\n{cookie}X-Script: poll\r\n\r\n"
    assert quick.answers(_parsed(poll))
    assert not quick.answers(_parsed(poll.replace(tag, 'W/"other"')))          # another ETag: rendered
    assert not quick.answers(_parsed(poll.replace(code, players[1].access_code)))
    assert not quick.answers(_parsed(poll.replace(cookie, "")))                  # another browser
    assert not quick.answers(_parsed(poll.replace("GET", "POST", 1)))
    clock[0] += 5                                                              # the version not read again since
    assert not quick.answers(_parsed(poll))
