"""A phone that kept a report or vote while offline sends it again with its send key (static/outbox.js): the
same key is the same write, stored once, also when many copies arrive at once or after the table moved on.

Each request runs in its own thread with its own test client (its own app context and session), as on the
real server; SQLite by default, PostgreSQL with TEST_DATABASE_URL.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from tournament.events.models import AuditEntry, Registration
from tournament.rounds.models import GameTable, ResultReport, SentForm, Vote

THREADS = 16
KEY = "0f3c5a9e7b2d4c6e8a1b3d5f7e9c2a4b"


def _count(db, model, *where):
    return db.session.execute(sa.select(sa.func.count()).select_from(model).where(*where)).scalar()


def _actions(db, action):
    return _count(db, AuditEntry, AuditEntry.action == action)


def _storm(app, url, data, copies=THREADS * 2):
    """The same post `copies` times from THREADS threads at once: the statuses."""
    def run(_i):
        response = app.test_client().post(url, data=data)
        return response.status_code, response.get_data(as_text=True)
    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(run, range(copies)))


@pytest.fixture
def pod(db, make_round):
    """A published pod of four (a democratic event: votes count): its table, and its players' (id, code)."""
    event, rnd, _regs = make_round(players=4, seed=3, name="Wi-Fi night")
    table = next(t for t in rnd.tables if t.kind == "pod")
    seats = [(s.registration_id, s.registration.access_code) for s in sorted(table.seats, key=lambda s: s.seat)]
    number, table_id = table.number, table.id
    db.session.commit()
    db.session.remove()            # the test's own session holds nothing while the phones write
    return table_id, number, seats


def _report(number, survivor, key=KEY, revision=0):
    return {"r-round": 1, "r-table": number, "r-revision": revision, "r-survivors": [survivor], "r-send_key": key}


def test_the_same_kept_report_sent_many_times_at_once_is_stored_once(app, db, pod):
    table_id, number, seats = pod
    (first, code), *_ = seats
    results = _storm(app, f"/p/{code}/result", _report(number, first))
    assert all(status == 302 for status, _b in results), [(s, b[:200]) for s, b in results if s != 302][:3]
    assert _count(db, ResultReport, ResultReport.table_id == table_id) == 1
    assert _count(db, SentForm, SentForm.table_id == table_id) == 1
    assert _actions(db, "result.report") == 1
    assert db.session.get(GameTable, table_id).result_state == "reported"


def test_a_kept_report_sent_again_after_another_players_report_is_not_a_second_version(app, db, pod, client):
    """Ada's report was stored but its answer was lost; Bo reports otherwise (a dispute); Ada's phone sends the
    same report again: it is acknowledged and nothing changes (no third version, no refusal)."""
    table_id, number, seats = pod
    (ada, ada_code), (bo, bo_code), *_ = seats
    assert client.post(f"/p/{ada_code}/result", data=_report(number, ada)).status_code == 302
    assert client.post(f"/p/{bo_code}/result", data=_report(number, bo, key="", revision=1)).status_code == 302
    assert db.session.get(GameTable, table_id).result_state == "disputed"
    again = client.post(f"/p/{ada_code}/result", data=_report(number, ada))
    assert again.status_code == 302
    db.session.expire_all()
    assert _count(db, ResultReport, ResultReport.table_id == table_id) == 2
    table = db.session.get(GameTable, table_id)
    assert table.result_state == "disputed" and table.result_revision == 2


def test_an_old_kept_report_arriving_after_the_correction_does_not_undo_it(app, db, pod, client):
    """Ada reports (the answer is lost), then corrects her report; the first report's copy arrives last: the
    correction stays (without the key it would be taken as a new correction back)."""
    table_id, number, seats = pod
    (ada, ada_code), (bo, _b), *_ = seats
    assert client.post(f"/p/{ada_code}/result", data=_report(number, ada)).status_code == 302
    both = {**_report(number, ada, key="2" * 32, revision=1), "r-survivors": [ada, bo], "r-draw": "time"}
    assert client.post(f"/p/{ada_code}/result", data=both).status_code == 302
    assert client.post(f"/p/{ada_code}/result", data=_report(number, ada)).status_code == 302
    db.session.expire_all()
    table = db.session.get(GameTable, table_id)
    assert table.result_revision == 2 and table.result_state == "reported"
    assert sorted(s.registration_id for s in table.seats if s.survived) == sorted([ada, bo])
    assert _count(db, ResultReport, ResultReport.table_id == table_id) == 2


def test_a_report_without_a_key_posts_as_before(app, db, pod, client):
    """No script on the phone: the form has no key, and posting it twice is still one version."""
    table_id, number, seats = pod
    (first, code), *_ = seats
    data = {k: v for k, v in _report(number, first).items() if k != "r-send_key"}
    for _ in range(2):
        response = client.post(f"/p/{code}/result", data=data)
        assert response.status_code == 302 and response.headers["Location"].endswith(f"/p/{code}#round")
    assert _count(db, ResultReport, ResultReport.table_id == table_id) == 1
    assert _count(db, SentForm) == 0


@pytest.mark.parametrize("key", ["abc", "a" * 65, "x" * 100_000, "<script>alert(1)</script>", "key with spaces",
                                 "ключ-ключ-ключ-ключ", "'; DROP TABLE vote;--", "aaaaaaaa\x00bbbbbbbb",
                                 "aaaaaaaa\n", " aaaaaaaa", " "])
def test_a_malformed_send_key_is_refused_and_nothing_is_stored(app, db, pod, client, key):
    table_id, number, seats = pod
    (first, code), (second, _c), *_ = seats
    response = client.post(f"/p/{code}/result", data=_report(number, first, key=key))
    assert response.status_code == 400
    assert "out of date" in response.get_data(as_text=True)
    vote = client.post(f"/p/{code}/vote", data={"round": 1, "table": number, "votee": second, "send_key": key})
    assert vote.status_code == 400 and "out of date" in vote.get_data(as_text=True)
    assert _count(db, ResultReport) == 0 and _count(db, Vote) == 0 and _count(db, SentForm) == 0


def test_the_same_kept_vote_sent_many_times_at_once_is_stored_once(app, db, pod):
    table_id, number, seats = pod
    (voter, code), (votee, _c), *_ = seats
    results = _storm(app, f"/p/{code}/vote", {"round": 1, "table": number, "votee": votee, "send_key": KEY})
    assert all(status == 302 for status, _b in results), [(s, b[:200]) for s, b in results if s != 302][:3]
    assert db.session.execute(sa.select(Vote.voter_id, Vote.votee_id)).all() == [(voter, votee)]
    assert _actions(db, "vote") == 1
    assert _count(db, SentForm, SentForm.kind == "vote") == 1


def test_an_old_kept_vote_sent_late_does_not_undo_the_newer_one(app, db, pod, client):
    """Vote for Bo (its answer lost), then for Cy; the first vote's copy arrives last: the vote stays Cy."""
    table_id, number, seats = pod
    (voter, code), (bo, _b), (cy, _c), *_ = seats
    first = {"round": 1, "table": number, "votee": bo, "send_key": KEY}
    assert client.post(f"/p/{code}/vote", data=first).status_code == 302
    assert client.post(f"/p/{code}/vote", data={**first, "votee": cy, "send_key": "2" * 32}).status_code == 302
    assert client.post(f"/p/{code}/vote", data=first).status_code == 302
    assert db.session.execute(sa.select(Vote.votee_id).where(Vote.voter_id == voter)).scalars().all() == [cy]
    assert _actions(db, "vote") == 2


def test_the_same_key_at_another_table_is_another_write(app, db, make_round):
    """Keys are kept per table: two phones that happened to choose the same key both count."""
    event, rnd, _regs = make_round(players=8, seed=3, name="Two pods")
    pods = [t for t in rnd.tables if t.kind == "pod"][:2]
    posts = [(s.registration.access_code, t.number, s.registration_id) for t in pods for s in t.seats[:1]]
    db.session.commit()
    client = app.test_client()
    for code, number, reg_id in posts:
        assert client.post(f"/p/{code}/result", data=_report(number, reg_id)).status_code == 302
    assert _count(db, ResultReport) == 2 and _count(db, SentForm) == 2


def test_a_kept_match_report_sent_many_times_at_once_is_stored_once(app, db, make_round):
    event, rnd, regs = make_round(players=2, seed=1, name="Duels", mode="duel", ruleset="duel-cn")
    table = rnd.tables[0]
    a = db.session.get(Registration, table.seats[0].registration_id)
    table_id, number, code, a_id = table.id, table.number, a.access_code, a.id
    db.session.commit()
    db.session.remove()
    data = {"r-round": 1, "r-table": number, "r-revision": 0, "r-game1": a_id, "r-game2": a_id, "r-send_key": KEY}
    results = _storm(app, f"/p/{code}/result", data)
    assert all(status == 302 for status, _b in results), [(s, b[:200]) for s, b in results if s != 302][:3]
    assert _count(db, ResultReport, ResultReport.table_id == table_id) == 1
    assert _count(db, SentForm, SentForm.table_id == table_id) == 1


def test_the_api_takes_the_same_send_key(app, db, pod, api):
    table_id, number, seats = pod
    (first, code), (second, _c), *_ = seats
    url = f"/players/{code}/rounds/1/tables/{number}"
    body = {"survivors": [first], "send_key": KEY}
    for _ in range(2):
        assert api.post(f"{url}/result", json=body).status_code == 200
    assert api.post(f"{url}/result", json={**body, "send_key": "no spaces please"}).status_code == 400
    vote = {"votee": second, "send_key": "3" * 32}
    assert api.put(f"{url}/vote", json=vote).status_code == 200
    assert api.put(f"{url}/vote", json=vote).status_code == 200
    assert _count(db, ResultReport, ResultReport.table_id == table_id) == 1
    assert _count(db, Vote) == 1 and _actions(db, "vote") == 1
