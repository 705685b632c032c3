"""Seating corrections through /api/v1 (each response checked against the generated OpenAPI document), and two
judges correcting the same round at the same moment: one change is stored, the other answered with a 409 that
says why. The same tests run on SQLite and PostgreSQL (TEST_DATABASE_URL)."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from tournament.auth.operations import issue_token
from tournament.events import operations as events
from tournament.events.models import AuditEntry, Event
from tournament.rounds import operations as rounds
from tournament.rounds.models import GameTable, Round, Seat

from tests.api.apidoc import API, refused

THREADS = 16


@pytest.fixture
def night(db, make_event, make_player, judge):
    """16 checked-in players in 4 pods, round 1 published; one more registered (a late arrival)."""
    event = make_event(name="Seating API night")
    regs = [make_player(event, f"Player {i}") for i in range(1, 17)]
    for reg in regs:
        events.check_in(reg, judge)
    late = make_player(event, "Late Lena")
    rnd = rounds.pair_next_round(event, judge, seed=11, override_decks=True)
    rounds.publish_round(rnd, judge)
    db.session.commit()
    return event, late


def tables_of(body) -> dict[int, list[int]]:
    return {t["number"]: [s["player_id"] for s in t["seats"]] for t in body["table_list"]}


def test_the_document_lists_the_corrections(api):
    ids = {op["operationId"] for item in api.doc["paths"].values() for op in item.values()}
    assert {"rounds_swap", "rounds_move", "rounds_late_arrival", "rounds_remove", "rounds_unpublish"} <= ids


def test_corrections_through_the_api(api, db, night, token, other_token):
    event, late = night
    r = f"/events/{event.id}/rounds/1"
    body = api.get(r, token=token).get_json()
    assert body["seating_revision"] == 0
    seated = tables_of(body)
    mover = seated[1][0]
    # who may: a token of this event's staff
    refused(api.post(f"{r}/seating/move", json={"player": mover, "table": 2}), 401)
    refused(api.post(f"{r}/seating/move", token=other_token, json={"player": mover, "table": 2}), 403)
    # the schema's bounds and types
    refused(api.post(f"{r}/seating/move", token=token, json={"player": mover, "seat": 17}), 400, field="seat")
    refused(api.post(f"{r}/seating/move", token=token, json={"player": mover, "seat": 0}), 400, field="seat")
    refused(api.post(f"{r}/seating/move", token=token, json={"player": "1", "table": 2}), 400, field="player")
    refused(api.post(f"{r}/seating/move", token=token, json={"player": mover, "table": 2, "x": 1}), 400,
            "Unknown field x")
    refused(api.post(f"{r}/seating/remove", token=token, json={"player": mover, "drop": "yes"}), 400, field="drop")
    # the operation's rules
    refused(api.post(f"{r}/seating/move", token=token, json={"player": mover, "table": 2, "seat": 6}), 400,
            "Table 2 takes seat 1 to 5", field="seat")
    refused(api.post(f"{r}/seating/move", token=token, json={"player": late.id, "table": 2}), 400,
            "is not seated in round 1", field="player")

    v0 = db.session.get(Event, event.id).state_version
    moved = api.post(f"{r}/seating/move", token=token, json={"player": mover, "table": 2, "seat": 1, "revision": 0})
    assert moved.status_code == 200, moved.get_json()
    body = moved.get_json()
    assert body["seating_revision"] == 1 and tables_of(body)[2][0] == mover and mover not in tables_of(body)[1]
    db.session.expire_all()
    assert db.session.get(Event, event.id).state_version > v0
    # a correction from the page seen before it: refused, says who changed the seating
    stale = refused(api.post(f"{r}/seating/move", token=token, json={"player": mover, "table": 3, "revision": 0}),
                    409, "Olga Organizer changed the seating of round 1 after you loaded it", field="revision")
    assert "Reload the round" in stale["message"]

    body = api.post(f"{r}/seating/late-arrival", token=token, json={"player": late.id, "table": 1, "revision": 1}
                    ).get_json()
    assert tables_of(body)[1][-1] == late.id and body["seating_revision"] == 2
    first, second = tables_of(body)[3][0], tables_of(body)[4][0]
    body = api.post(f"{r}/swap", token=token, json={"first": first, "second": second}).get_json()
    assert tables_of(body)[3][0] == second and tables_of(body)[4][0] == first
    body = api.post(f"{r}/seating/remove", token=token, json={"player": first, "drop": True}).get_json()
    assert first not in [p for ps in tables_of(body).values() for p in ps]
    assert api.get(f"/events/{event.id}/registrations/{first}", token=token).get_json()["dropped"] is True
    # the log says who and when
    db.session.expire_all()
    actions = [a for (a,) in db.session.execute(sa.select(AuditEntry.action).where(
        AuditEntry.action.like("round.seating.%")).order_by(AuditEntry.id)).all()]
    assert actions == ["round.seating.move", "round.seating.add", "round.seating.swap", "round.seating.remove"]

    # unpublish and pair again: a new draft, until a result is entered
    again = api.post(f"{r}/unpublish", token=token)
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["status"] == "draft" and again.get_json()["number"] == 1
    refused(api.post(f"{r}/unpublish", token=token), 409, "is a draft")
    api.post(f"{r}/publish", token=token)
    table = api.get(r, token=token).get_json()["table_list"][0]
    api.put(f"{r}/tables/{table['number']}/result", token=token, json={"survivors": [table["seats"][0]["player_id"]]})
    refused(api.post(f"{r}/unpublish", token=token, json={}), 409,
            f"a result is already entered at table {table['number']}")
    refused(api.post(f"{r}/seating/remove", token=token, json={"player": table["seats"][1]["player_id"]}), 409,
            f"Table {table['number']} already has a result entered")


def test_another_events_player_is_refused(api, db, night, token, make_event, make_player):
    event, _late = night
    stranger = make_player(make_event(name="Elsewhere"), "Stranger")
    db.session.commit()
    r = f"/events/{event.id}/rounds/1"
    for path, body in (("seating/move", {"player": stranger.id, "table": 1}),
                       ("seating/late-arrival", {"player": stranger.id, "table": 1}),
                       ("seating/remove", {"player": stranger.id})):
        refused(api.post(f"{r}/{path}", token=token, json=body), 400, "is not registered in this event",
                field="player")
    assert api.get(r, token=token).get_json()["seating_revision"] == 0


# ----------------------------------------------------------------- two judges at once

def _storm(app, jobs):
    """POST (url, token, json) from THREADS threads at once: [(job, status, body)]."""
    def run(job):
        url, token, data = job
        response = app.test_client().post(API + url, json=data, headers={"Authorization": f"Bearer {token}"})
        return job, response.status_code, response.get_json()
    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(run, jobs))


def _stored(app, event_id, player):
    with app.app_context():
        from tournament.extensions import db
        rnd = db.session.execute(sa.select(Round).where(Round.event_id == event_id)).scalar_one()
        places = db.session.execute(sa.select(GameTable.number, Seat.seat).join(Seat)
                                    .where(Seat.round_id == rnd.id, Seat.registration_id == player)).all()
        seats = db.session.execute(sa.select(GameTable.number, Seat.seat).join(Seat)
                                   .where(Seat.round_id == rnd.id).order_by(GameTable.number, Seat.seat)).all()
        moves = db.session.execute(sa.select(sa.func.count()).select_from(AuditEntry)
                                   .where(AuditEntry.action == "round.seating.move")).scalar()
        return rnd.seating_revision, places, seats, moves


def _no_gaps(seats) -> None:
    by_table: dict[int, list[int]] = {}
    for number, seat in seats:
        by_table.setdefault(number, []).append(seat)
    assert all(s == list(range(1, len(s) + 1)) for s in by_table.values()), by_table


def _before_the_storm(db, night, judge, organizer) -> tuple[list[str], int, int]:
    """Tokens of the judge and the organizer, the event's id and the first player of round 1's table 1; the
    session closed so the threads start clean."""
    event, _late = night
    tokens = [issue_token(judge), issue_token(organizer)]
    player = rounds.get_round(event, 1).tables[0].seats[0].registration_id
    event_id = event.id
    db.session.commit()
    db.session.remove()
    return tokens, event_id, player


def _refusals(results) -> list[str]:
    """The messages of the refused requests, once exactly one request was stored and every other one refused
    with 409."""
    statuses = sorted(status for _j, status, _b in results)
    assert statuses == [200] + [409] * (len(results) - 1), statuses
    return [body["error"]["message"] for _j, status, body in results if status == 409]


def test_two_judges_moving_the_same_player_store_one_move(app, db, night, judge, organizer):
    tokens, event_id, player = _before_the_storm(db, night, judge, organizer)
    url = f"/events/{event_id}/rounds/1/seating/move"
    # both saw revision 0; each asks for another table or seat
    jobs = [(url, tokens[i % 2], {"player": player, "table": 2 + i % 3, "seat": 1 + i % 4, "revision": 0})
            for i in range(THREADS * 2)]
    results = _storm(app, jobs)
    for message in _refusals(results):
        assert "changed the seating of round 1 after you loaded it" in message, message
        assert message.startswith(("Jan Judge", "Olga Organizer")), message
    (winner,) = [job for job, status, _b in results if status == 200]
    revision, places, seats, moves = _stored(app, event_id, player)
    assert revision == 1 and moves == 1
    assert places == [(winner[2]["table"], winner[2]["seat"])]
    _no_gaps(seats)


def test_the_same_move_sent_at_once_without_a_revision_is_stored_once(app, db, night, judge, organizer):
    tokens, event_id, player = _before_the_storm(db, night, judge, organizer)
    jobs = [(f"/events/{event_id}/rounds/1/seating/move", tokens[i % 2], {"player": player, "table": 3})
            for i in range(THREADS * 2)]
    for message in _refusals(_storm(app, jobs)):
        assert ("already sits at table 3" in message or "after you loaded it" in message), message
    revision, places, seats, moves = _stored(app, event_id, player)
    assert revision == 1 and moves == 1 and places == [(3, 5)]
    _no_gaps(seats)
