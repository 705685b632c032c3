"""Many phones at once: every acknowledged write is stored exactly once, and nothing is a 500.

Each request runs in its own thread with its own test client, so each pushes
its own app context and database session, as on the real server. The same
tests run on SQLite (the default) and on PostgreSQL (TEST_DATABASE_URL).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from tournament.events import operations as events
from tournament.events.models import AuditEntry, Registration
from tournament.rounds import operations as rounds
from tournament.rounds.models import GameTable, ResultConfirmation, ResultReport, Vote

THREADS = 16
PLAYERS = 300          # 75 pods of 4


@pytest.fixture
def storm_event(db, make_event, judge):
    """A democratic pods event with 300 checked-in players and round 1 published and started."""
    event = make_event(name="Saturday storm", pod_size=4)
    for i in range(PLAYERS):
        events.register_player(event, {"name": f"Player {i:03d}"}, user=judge)
    db.session.flush()
    for reg in event.registrations:
        events.check_in(reg, judge)
    rnd = rounds.pair_next_round(event, judge, seed=7, override_decks=True)
    rounds.publish_round(rnd, judge)
    rounds.start_round(rnd, judge)
    db.session.commit()
    tables = [(t.id, t.number, [(s.registration_id, s.registration.access_code) for s in t.seats])
              for t in rnd.tables if t.kind == "pod"]
    db.session.remove()            # the test's own session holds nothing while the phones write
    return event, tables


def _storm(app, jobs):
    """Run (url, data) posts from THREADS threads at once; returns [(job, status)]."""
    def run(job):
        client = app.test_client()
        url, data = job[0], job[1]
        response = client.post(url, data=data)
        return job, response.status_code, response.get_data(as_text=True)
    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(run, jobs))


def _no_server_errors(results):
    errors = [(job[0], status, body[:300]) for job, status, body in results if status >= 500]
    assert not errors, errors[:3]


def test_result_storm_every_acknowledged_write_is_stored_once(app, db, storm_event):
    event, tables = storm_event
    assert len(tables) == PLAYERS // 4
    # 1. every table's first player reports (each report tapped twice)
    reports = []
    for table_id, number, seats in tables:
        first, code = seats[0]
        data = {"r-round": 1, "r-table": number, "r-revision": 0, "r-survivors": [first]}
        reports += [(f"/p/{code}/result", data, table_id, first)] * 2
    results = _storm(app, reports)
    _no_server_errors(results)
    assert all(status == 302 for _job, status, _b in results), {s for _j, s, _b in results}
    # 2. the other three confirm what they saw (revision 1), and all four vote: every tap twice
    jobs = []
    for table_id, number, seats in tables:
        ids = [rid for rid, _c in seats]
        for rid, code in seats[1:]:
            jobs += [(f"/p/{code}/confirm", {"round": 1, "table": number, "revision": 1}, table_id, rid)] * 2
        for i, (rid, code) in enumerate(seats):
            votee = ids[(i + 1) % len(ids)]
            jobs += [(f"/p/{code}/vote", {"round": 1, "table": number, "votee": votee}, table_id, (rid, votee))] * 2
    results = _storm(app, jobs)
    _no_server_errors(results)
    refused = [(job[0], status, body[:200]) for job, status, body in results if status != 302]
    assert all(status == 409 for _u, status, _b in refused), refused[:3]

    with app.app_context():
        confirmations = db.session.execute(sa.select(ResultConfirmation.table_id, ResultConfirmation.registration_id,
                                                     ResultConfirmation.revision)).all()
        stored_confirmations = {(t, r) for t, r, _rev in confirmations}
        assert len(confirmations) == len(stored_confirmations)           # nothing twice
        votes = db.session.execute(sa.select(Vote.table_id, Vote.voter_id, Vote.votee_id)).all()
        stored_votes = {(t, (voter, votee)) for t, voter, votee in votes}
        assert len(votes) == len({(t, voter) for t, voter, _v in votes})
        for (url, _data, table_id, who), status, _body in results:
            if status != 302:
                continue
            if url.endswith("/confirm"):
                assert (table_id, who) in stored_confirmations, (url, who)
            else:
                assert (table_id, who) in stored_votes, (url, who)
        acknowledged = {(job[2], job[3]) for job, status, _b in results if status == 302 and job[0].endswith("/confirm")}
        # every table whose three confirmations were acknowledged is confirmed; reporters confirmed their own
        states = dict(db.session.execute(sa.select(GameTable.id, GameTable.result_state)).all())
        for table_id, _n, seats in tables:
            if all((table_id, rid) in acknowledged for rid, _c in seats[1:]):
                assert states[table_id] == "confirmed", table_id
            assert (table_id, seats[0][0]) in stored_confirmations
        # one version per table, although every report was tapped twice
        assert db.session.execute(sa.select(sa.func.count()).select_from(ResultReport)).scalar() == len(tables)
        assert db.session.execute(sa.select(sa.func.count()).select_from(AuditEntry)
                                  .where(AuditEntry.action == "result.report")).scalar() == len(tables)


def test_twenty_registrations_with_one_player_id(app, db, make_event):
    event = make_event(name="Open registration")
    event_id = event.id
    db.session.remove()
    jobs = [(f"/events/{event_id}/register", {"name": f"Twin {i}", "player_id": "DCI-4242"}) for i in range(20)]
    results = _storm(app, jobs)
    _no_server_errors(results)
    statuses = sorted(status for _j, status, _b in results)
    with app.app_context():
        stored = db.session.execute(sa.select(Registration.name).where(Registration.event_id == event_id,
                                                                      Registration.player_id == "DCI-4242")).all()
    assert len(stored) == 1 and statuses.count(302) == 1, statuses
    winner = next(job[1]["name"] for job, status, _b in results if status == 302)
    assert stored[0].name == winner
    for _job, status, body in results:
        if status != 302:
            assert status in (400, 409) and ("DCI-4242" in body or "conflicts" in body), (status, body[:300])


def test_bait_and_switch_confirmation_is_refused(app, db, make_round):
    """A reports "B won", B opens the page, A re-reports "A won", B confirms what B saw: refused."""
    event, rnd, regs = make_round(players=2, seed=1, name="Duels", mode="duel", ruleset="duel-cn")
    table = rnd.tables[0]
    a, b = (db.session.get(Registration, s.registration_id) for s in table.seats)
    a_code, b_code, number = a.access_code, b.access_code, table.number
    client = app.test_client()
    base = {"r-round": 1, "r-table": number}
    assert client.post(f"/p/{a_code}/result", data={**base, "r-revision": 0, "r-game1": b.id, "r-game2": b.id}
                       ).status_code == 302
    page = client.get(f"/p/{b_code}").get_data(as_text=True)
    assert 'name="revision" type="hidden" value="1"' in page
    assert client.post(f"/p/{a_code}/result", data={**base, "r-revision": 1, "r-game1": a.id, "r-game2": a.id}
                       ).status_code == 302
    response = client.post(f"/p/{b_code}/confirm", data={"round": 1, "table": number, "revision": 1})
    assert response.status_code == 409 and "The result changed" in response.get_data(as_text=True)
    db.session.expire_all()
    table = db.session.get(GameTable, table.id)
    assert table.result_state == "reported" and table.result_revision == 2
    assert rounds.standings(event)[0].points == 0          # nothing counts until it is confirmed


def test_a_different_second_report_marks_the_table_disputed(app, db, make_round, judge):
    event, rnd, regs = make_round(players=4, seed=3, name="Pods")
    table = rnd.tables[0]
    ids = [s.registration_id for s in table.seats]
    codes = {r.id: r.access_code for r in regs}
    number, table_id = table.number, table.id
    players = app.test_client()
    first = players.post(f"/p/{codes[ids[0]]}/result", data={"r-round": 1, "r-table": number, "r-revision": 0,
                                                             "r-survivors": [ids[0]]})
    second = players.post(f"/p/{codes[ids[1]]}/result", data={"r-round": 1, "r-table": number, "r-revision": 0,
                                                              "r-survivors": [ids[1]]})
    assert first.status_code == 302 and second.status_code == 302
    db.session.expire_all()
    table = db.session.get(GameTable, table_id)
    assert table.result_state == "disputed" and [r.revision for r in table.reports] == [1, 2]
    response = players.post(f"/p/{codes[ids[2]]}/confirm", data={"round": 1, "table": number, "revision": 2})
    assert response.status_code == 409 and "a judge will settle it" in response.get_data(as_text=True)
    staff = app.test_client()
    staff.post("/auth/login", data={"name": judge.name, "password": "correct horse battery"})
    page = staff.get(f"/events/{event.id}/rounds/1").get_data(as_text=True)
    assert "Disputed:" in page and "Player" in page.split(f'id="versions-{number}"', 1)[1]
    assert staff.post(f"/events/{event.id}/rounds/1/finish").status_code == 409
    accepted = staff.post(f"/events/{event.id}/rounds/1/tables/{number}/accept/1")
    assert accepted.status_code == 302
    db.session.expire_all()
    table = db.session.get(GameTable, table_id)
    assert table.result_state == "confirmed" and table.result_revision == 3
    assert [s.registration_id for s in table.seats if s.survived] == [ids[0]]
    assert staff.post(f"/events/{event.id}/rounds/1/finish").status_code == 302


def _staff_clients(app, user, count):
    """`count` test clients sharing one staff login (as judges' devices would each have their own)."""
    first = app.test_client()
    assert first.post("/auth/login", data={"name": user.name, "password": "correct horse battery"}).status_code == 302
    cookie = first.get_cookie("session")
    clients = [first]
    for _ in range(count - 1):
        c = app.test_client()
        c.set_cookie("session", cookie.value)
        clients.append(c)
    return clients


def _disputed_table(db, make_round):
    event, rnd, regs = make_round(players=4, seed=3, name="Two judges", start=True)
    table = rnd.tables[0]
    ids = [s.registration_id for s in table.seats]
    by_id = {r.id: r for r in regs}
    rounds.report_pod_result(table, [ids[0]], reg=by_id[ids[0]])
    rounds.report_pod_result(table, [ids[1]], reg=by_id[ids[1]])
    db.session.commit()
    assert table.result_state == "disputed" and table.result_revision == 2
    return event, table.id, table.number, ids


def test_judges_settling_one_dispute_at_once_store_one_decision(app, db, make_round, judge):
    event, table_id, number, ids = _disputed_table(db, make_round)
    clients = _staff_clients(app, judge, 12)
    base = f"/events/{event.id}/rounds/1/tables/{number}"

    def accept(i):
        response = clients[i].post(f"{base}/accept/{1 + i % 2}", data={"seen": "2"})
        return response.status_code, response.get_data(as_text=True)
    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(accept, range(12)))
    assert not [s for s, _b in results if s >= 500]
    assert sorted(s for s, _b in results) == [302] + [409] * 11
    assert all("the result changed since you opened the page" in b for s, b in results if s == 409)
    db.session.expire_all()
    table = db.session.get(GameTable, table_id)
    assert table.result_state == "confirmed" and table.result_revision == 3
    assert db.session.scalar(sa.select(sa.func.count()).select_from(ResultReport)
                             .where(ResultReport.table_id == table_id)) == 3


def test_a_judge_on_a_stale_page_does_not_overwrite_a_colleagues_decision(app, db, make_round, judge):
    event, table_id, number, ids = _disputed_table(db, make_round)
    jan, petra = _staff_clients(app, judge, 2)
    base = f"/events/{event.id}/rounds/1/tables/{number}"
    page = petra.get(f"/events/{event.id}/rounds/1").get_data(as_text=True)       # Petra opens the page first
    assert 'name="seen" value="2"' in page
    assert f'id="t{number}-revision" name="t{number}-revision" type="hidden" value="2"' in page
    assert jan.post(f"{base}/accept/2", data={"seen": "2"}).status_code == 302
    late = petra.post(f"{base}/accept/1", data={"seen": "2"})
    assert late.status_code == 409 and "the result changed since you opened the page" in late.get_data(as_text=True)
    # the same with the result form: Petra's form was filled from revision 2, the table is at 3 now
    corrected = petra.post(f"{base}/result", data={f"t{number}-survivors": [ids[2]], f"t{number}-revision": "2"})
    assert corrected.status_code == 409
    db.session.expire_all()
    table = db.session.get(GameTable, table_id)
    assert table.result_revision == 3 and [s.registration_id for s in table.seats if s.survived] == [ids[1]]
    # after looking again (the form now carries revision 3) her correction goes through
    fresh = petra.post(f"{base}/result", data={f"t{number}-survivors": [ids[2]], f"t{number}-revision": "3"})
    assert fresh.status_code == 302
    db.session.expire_all()
    assert [s.registration_id for s in db.session.get(GameTable, table_id).seats if s.survived] == [ids[2]]


def test_phones_reporting_a_result_already_confirmed_are_told_why(app, db, make_round, judge):
    event, rnd, regs = make_round(players=4, seed=3, name="Late phones", start=True)
    table = rnd.tables[0]
    ids = [s.registration_id for s in table.seats]
    codes = {r.id: r.access_code for r in regs}
    rounds.report_pod_result(table, [ids[0]], user=judge)
    db.session.commit()
    data = {"r-round": 1, "r-table": table.number, "r-revision": 0, "r-survivors": [ids[0]]}
    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(lambda c: app.test_client().post(f"/p/{codes[c]}/result", data=data), ids * 3))
    assert {r.status_code for r in results} == {409}
    for r in results:
        assert 'id="round-error"' in r.get_data(as_text=True) and "This result is confirmed" in r.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(GameTable, table.id).result_revision == 1


def test_api_registrations_of_one_name_at_once_store_one_unless_told_apart(app, db, make_event):
    """A phone retrying through the API, or fifteen at once, is one registration; two real Jan Nováks say so."""
    event = make_event(name="API registration")
    event_id = event.id
    db.session.remove()
    url = f"/api/v1/events/{event_id}/registrations"

    def post(body):
        response = app.test_client().post(url, json=body)
        return response.status_code, response.get_json()
    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(post, [{"name": "Jan Novák"}] * 15))
    assert sorted(s for s, _b in results) == [201] + [409] * 14, [s for s, _b in results]
    assert all("same_name_ok" in b["error"]["message"] for s, b in results if s == 409), results[-1]
    status, body = post({"name": "Jan Novák", "same_name_ok": True})
    assert status == 201
    with app.app_context():
        stored = db.session.execute(sa.select(Registration.id).where(Registration.event_id == event_id)).all()
    assert len(stored) == 2


def test_fifteen_self_registrations_of_one_name_store_one(app, db, make_event):
    event = make_event(name="Open registration, one name")
    event_id = event.id
    db.session.remove()
    results = _storm(app, [(f"/events/{event_id}/register", {"name": "Jana Dvořáková"})] * 15)
    _no_server_errors(results)
    statuses = sorted(status for _j, status, _b in results)
    assert statuses == [302] + [409] * 14, statuses
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Registration)
                                 .where(Registration.event_id == event_id)) == 1


def test_two_dozen_check_in_taps_at_once_check_in_once_and_log_once(app, db, make_event, make_player, judge):
    event = make_event(name="Busy desk")
    reg = make_player(event, "Tapped Twice")
    clients = _staff_clients(app, judge, 24)
    url = f"/events/{event.id}/registrations/{reg.id}/checkin"
    with ThreadPoolExecutor(THREADS) as pool:
        statuses = list(pool.map(lambda c: c.post(url, headers={"Accept": "application/json"}).status_code, clients))
    assert set(statuses) == {200}, statuses
    db.session.expire_all()
    assert db.session.get(Registration, reg.id).checked_in_at is not None
    assert db.session.scalar(sa.select(sa.func.count()).select_from(AuditEntry).where(
        AuditEntry.event_id == event.id, AuditEntry.action == "checkin")) == 1
